package gnugo

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Code is the outcome of GNU Go's tactical reading, as its GTP prints it.
type Code int

// The reading codes. KoA and KoB succeed only through a ko: with KoA the side that
// reads takes the ko first (its opponent needs the first ko threat), with KoB it must
// find the first threat itself.
const (
	Fails    Code = 0
	Succeeds Code = 1
	KoA      Code = 2
	KoB      Code = 3
)

// String names the code.
func (c Code) String() string {
	switch c {
	case Fails:
		return "fails"
	case Succeeds:
		return "succeeds"
	case KoA:
		return "ko (A)"
	case KoB:
		return "ko (B)"
	}
	return fmt.Sprintf("Code(%d)", int(c))
}

// IsKo reports whether the result holds only through a ko.
func (c Code) IsKo() bool { return c == KoA || c == KoB }

// Result is an answer of Attack or Defend: the code, and the move that achieves it
// when the code is not Fails. NoMove is set when GNU Go succeeds without naming a move
// (it prints PASS): a string its defence finds in no danger.
type Result struct {
	Code   Code
	Move   Point
	NoMove bool
}

// String is the result as GTP prints it: "0", "1 E7", "1 PASS".
func (r Result) String() string {
	switch {
	case r.Code == Fails:
		return "0"
	case r.NoMove:
		return fmt.Sprintf("%d PASS", int(r.Code))
	}
	return fmt.Sprintf("%d %s", int(r.Code), r.Move)
}

// parseResult reads the reply of attack or defend: a code 0 to 3, then a vertex when
// the code is not 0.
func parseResult(text string) (Result, error) {
	f := strings.Fields(text)
	if len(f) == 0 {
		return Result{}, fmt.Errorf("%w: empty reading result", ErrProtocol)
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n < 0 || n > 3 {
		return Result{}, fmt.Errorf("%w: reading result %q: want a code 0 to 3", ErrProtocol, clip(text))
	}
	r := Result{Code: Code(n)}
	switch {
	case r.Code == Fails && len(f) == 1:
		return r, nil
	case r.Code != Fails && len(f) == 2 && strings.EqualFold(f[1], "pass"):
		r.NoMove = true
		return r, nil
	case r.Code != Fails && len(f) == 2:
		if r.Move, err = ParsePoint(f[1]); err != nil {
			return Result{}, fmt.Errorf("%w: reading result %q: %v", ErrProtocol, clip(text), err)
		}
		return r, nil
	}
	return Result{}, fmt.Errorf("%w: reading result %q", ErrProtocol, clip(text))
}

// parsePoints reads a list of vertices separated by white space (newlines included).
func parsePoints(text string) ([]Point, error) {
	var ps []Point
	for _, w := range strings.Fields(text) {
		p, err := ParsePoint(w)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrProtocol, err)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// parseCount reads a non-negative integer reply.
func parseCount(text string) (int, error) {
	n, err := strconv.Atoi(text)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%w: %q is not a count", ErrProtocol, clip(text))
	}
	return n, nil
}

// do sends a command whose reply has no content.
func (e *Engine) do(ctx context.Context, words ...string) error {
	_, err := e.Command(ctx, words...)
	return err
}

// BoardSize sets the board to size x size and clears it.
func (e *Engine) BoardSize(ctx context.Context, size int) error {
	return e.do(ctx, "boardsize", strconv.Itoa(size))
}

// ClearBoard empties the board and forgets the game's moves.
func (e *Engine) ClearBoard(ctx context.Context) error {
	return e.do(ctx, "clear_board")
}

// SetRandomSeed seeds GNU Go's random choices, so that GenMove replays the same game.
// clear_board on a board with stones draws a new seed, so set it after ClearBoard.
func (e *Engine) SetRandomSeed(ctx context.Context, seed uint32) error {
	return e.do(ctx, "set_random_seed", strconv.FormatUint(uint64(seed), 10))
}

// Play plays a move for c (a stone, or a pass). GNU Go refuses an illegal move with a
// *CommandError ("illegal move").
func (e *Engine) Play(ctx context.Context, c Color, m Move) error {
	if m.Resign {
		return fmt.Errorf("gnugo: play %s: resigning is not a move", c)
	}
	return e.do(ctx, "play", c.String(), m.String())
}

// Undo takes back the last move.
func (e *Engine) Undo(ctx context.Context) error {
	return e.do(ctx, "undo")
}

// GenMove lets GNU Go choose and play a move for c; it may pass or resign.
func (e *Engine) GenMove(ctx context.Context, c Color) (Move, error) {
	text, err := e.Command(ctx, "genmove", c.String())
	if err != nil {
		return Move{}, err
	}
	m, err := ParseMove(text)
	if err != nil {
		return Move{}, fmt.Errorf("gnugo: genmove %s: %w: %v", c, ErrProtocol, err)
	}
	return m, nil
}

// IsLegal reports whether c may play at p now (occupied points, suicide and the ko
// point are illegal).
func (e *Engine) IsLegal(ctx context.Context, c Color, p Point) (bool, error) {
	text, err := e.Command(ctx, "is_legal", c.String(), p.String())
	if err != nil {
		return false, err
	}
	switch text {
	case "0":
		return false, nil
	case "1":
		return true, nil
	}
	return false, fmt.Errorf("gnugo: is_legal: %w: %q", ErrProtocol, clip(text))
}

// ListStones returns the points of c's stones.
func (e *Engine) ListStones(ctx context.Context, c Color) ([]Point, error) {
	text, err := e.Command(ctx, "list_stones", c.String())
	if err != nil {
		return nil, err
	}
	return parsePoints(text)
}

// WormStones returns the stones of the string (GNU Go's worm) at p.
func (e *Engine) WormStones(ctx context.Context, p Point) ([]Point, error) {
	text, err := e.Command(ctx, "worm_stones", p.String())
	if err != nil {
		return nil, err
	}
	return parsePoints(text)
}

// CountLib returns the number of liberties of the string at p.
func (e *Engine) CountLib(ctx context.Context, p Point) (int, error) {
	text, err := e.Command(ctx, "countlib", p.String())
	if err != nil {
		return 0, err
	}
	return parseCount(text)
}

// FindLib returns the liberties of the string at p.
func (e *Engine) FindLib(ctx context.Context, p Point) ([]Point, error) {
	text, err := e.Command(ctx, "findlib", p.String())
	if err != nil {
		return nil, err
	}
	return parsePoints(text)
}

// Attack asks GNU Go's tactical reading whether the string at p can be captured when
// its opponent moves first, and with which move.
func (e *Engine) Attack(ctx context.Context, p Point) (Result, error) {
	return e.read(ctx, "attack", p)
}

// Defend asks GNU Go's tactical reading whether the string at p can be saved when its
// owner moves first, and with which move. The answer means something only for a string
// that Attack can capture: GNU Go also answers 1 for one that needs no defence.
func (e *Engine) Defend(ctx context.Context, p Point) (Result, error) {
	return e.read(ctx, "defend", p)
}

func (e *Engine) read(ctx context.Context, command string, p Point) (Result, error) {
	text, err := e.Command(ctx, command, p.String())
	if err != nil {
		return Result{}, err
	}
	r, err := parseResult(text)
	if err != nil {
		return Result{}, fmt.Errorf("gnugo: %s %s: %w", command, p, err)
	}
	return r, nil
}
