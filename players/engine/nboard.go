package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
)

// NBoardDefaultDepth is the search depth sent with "set depth" unless NBoardDepth says
// otherwise.
const NBoardDefaultDepth = 10

// nboardProtocol registers NBoard: Othello on the 8x8 board only (the only board the
// protocol knows), searched to Settings.Depth.
var nboardProtocol = Protocol{
	Name:      "nboard",
	Games:     []string{"othello"},
	GamesText: "Othello only, on the 8x8 board only",
	Check:     func(s Settings) error { return checkNBoardDepth(s.Depth) },
	New:       func(s Settings) Dialect { return NewNBoard(NBoardDepth(s.Depth)) },
}

// checkNBoardDepth returns an error when n is not a depth "set depth" may send.
func checkNBoardDepth(n int) error {
	if n < 1 || n > 60 {
		return fmt.Errorf("depth %d: want 1 to 60", n)
	}
	return nil
}

// NBoardOption configures the NBoard dialect.
type NBoardOption func(*nboard)

// NBoardDepth sets the depth sent to the engine with "set depth", 1 to 60. NBoard engines
// search to that depth whatever the clock says, so it should be low enough for the engine
// to answer within the tournament's time for a move.
func NBoardDepth(n int) NBoardOption {
	return func(d *nboard) { d.depth = n }
}

// NewNBoard returns the Dialect of the NBoard protocol, version 1, for Othello engines on
// the 8x8 board (the only board NBoard knows; other sizes are refused by NewGame).
//
// Start sends "nboard 1" and "set depth N", then "ping N" and waits for "pong N": an engine
// that does not answer within the start-up timeout is too slow to start. Each turn sends
// the whole game with "set game" in GGF (the initial position and every move so far, a pass
// being PA), synchronises with ping and pong, so that nothing the engine said about an
// earlier turn is taken for this one, then sends "go" and reads the answer, in either of the
// forms engines write: "=== MOVE[/EVAL[/TIME]]", as NBoard's reference has it, or "=== MOVE
// EVAL TIME", as Edax writes it ("=== h7 64.00 0.0"). The evaluation, in discs for the side
// to move, is recorded as the move's score, and the node count of the last "nodestats N
// TIME" before the answer as its nodes. Quit sends "quit".
//
// The engine's other lines are NBoard's own messages, not answers: "set myname NAME" (the
// engine's name), "status TEXT", "nodestats", "search", "book" and "learned". They are
// skipped wherever they come, and any other line before the answer too (an engine that
// prints only such lines runs out of time, and the error quotes what it sent). Engines go
// on talking after their answer (Edax says "status Edax is waiting"): so that this is not
// taken for output left over from the turn, the dialect sends a ping after the answer and
// reads up to its pong, waiting at most nboardTrail and never more than a quarter of the
// time left in the turn. Settle counts as stale only the lines that are not NBoard's
// messages.
//
// Passes are moves like any other: the opponent's is PA in the GGF game, and the engine's
// own forced pass is asked for with "go" and answered "=== PA" (or PASS, in any case).
//
// NBoard version 1 has no clock: the protocol has no command for the time, and its
// reference says the GUI does not use the clock of the GGF game, so none is sent (the GGF
// game has no TI). The engine goes by the depth of "set depth", which must be low enough for
// it to answer within the tournament's time, and the referee's clock still decides.
func NewNBoard(opts ...NBoardOption) Dialect {
	d := &nboard{depth: NBoardDefaultDepth}
	for _, o := range opts {
		o(d)
	}
	return d
}

type nboard struct {
	depth int
	ping  int    // the number of the last ping sent
	name  string // what the engine called itself with "set myname"
	nodes int64  // the node count of the last "nodestats" of the turn
}

// nboardTrail is the longest Move waits after the engine's answer for the pong that shows
// the engine has said all it had to say about the turn. An engine that is not searching
// answers a ping at once; the bound is for a loaded machine, and for an engine that no
// longer listens, which then costs each turn this much (or a quarter of the time left).
const nboardTrail = 250 * time.Millisecond

// nboardMessages are the first words of the lines NBoard engines send besides "===" and
// "pong": "set myname", "status", "nodestats" and, for hints and learning, "search",
// "book" and "learned".
var nboardMessages = []string{"set", "status", "nodestats", "search", "book", "learned"}

func (d *nboard) Name() string { return "nboard" }

// Start sends the protocol version and the depth, and waits for the engine to answer a ping.
func (d *nboard) Start(ctx context.Context, c LineConn) (Identity, error) {
	var tr transcript
	if err := checkNBoardDepth(d.depth); err != nil {
		return Identity{}, fmt.Errorf("nboard: %w", err)
	}
	for _, cmd := range []string{"nboard 1", "set depth " + strconv.Itoa(d.depth)} {
		if err := c.Send(cmd); err != nil {
			return Identity{}, tr.fail("", err, "could not send %q: %v", cmd, err)
		}
	}
	if err := d.sync(ctx, c, &tr); err != nil {
		return Identity{}, err
	}
	return Identity{Name: d.name}, nil
}

// NewGame checks that the game is one NBoard can play; the position is sent with each turn.
func (d *nboard) NewGame(ctx context.Context, c LineConn, g game.Game, seat game.Seat) error {
	return nboardGame(g)
}

func nboardGame(g game.Game) error {
	n, err := othelloBoardSize(g)
	if err != nil {
		return fmt.Errorf("nboard: %w", err)
	}
	if n != 8 {
		return fmt.Errorf("nboard: the NBoard protocol plays Othello on the 8x8 board only, not %s (%dx%d)", g.Name(), n, n)
	}
	return nil
}

// Move sends the game so far and asks for a move.
func (d *nboard) Move(ctx context.Context, c LineConn, t agent.Turn) (agent.Decision, error) {
	var (
		no agent.Decision
		tr transcript
	)
	if t.State == nil || len(t.Legal) == 0 {
		return no, errors.New("nboard: a turn without a position or legal moves")
	}
	if err := nboardGame(t.Game); err != nil {
		return no, err
	}
	ggf, err := nboardGGF(t)
	if err != nil {
		return no, fmt.Errorf("nboard: %w", err)
	}
	if err := d.send(c, "set game "+ggf, &tr); err != nil {
		return no, err
	}
	if err := d.sync(ctx, c, &tr); err != nil {
		return no, err
	}
	if err := d.send(c, "go", &tr); err != nil {
		return no, err
	}
	d.nodes = 0
	for {
		line, err := c.Recv(ctx)
		if err != nil {
			return no, tr.recvFail(line, err, `answer "=== MOVE" to "go"`)
		}
		tr.add(line)
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "===")
		if !ok {
			d.note(line)
			continue
		}
		dec, err := nboardDecision(t, line, rest, tr)
		if err == nil {
			dec.Info.Nodes = d.nodes
			d.trail(ctx, c)
		}
		return dec, err
	}
}

// trail reads what the engine says after its answer, up to the pong of a ping sent after
// it, within nboardTrail and a quarter of the time left before ctx's deadline. An engine
// that does not answer in that time is left to the next turn's ping, which skips the
// late pong.
func (d *nboard) trail(ctx context.Context, c LineConn) {
	wait := nboardTrail
	if deadline, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(deadline)/4)
	}
	if wait <= 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	var tr transcript
	_ = d.sync(ctx, c, &tr) // the move is the engine's answer whatever happens here
}

// nboardDecision reads the answer "=== MOVE[/EVAL[/TIME]]" or "=== MOVE EVAL TIME"; rest is
// what follows "===".
func nboardDecision(t agent.Turn, line, rest string, tr transcript) (agent.Decision, error) {
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return agent.Decision{}, tr.fail(line, game.ErrBadMove, "the answer holds no move")
	}
	parts := strings.Split(fields[0], "/")
	move := parts[0]
	eval := ""
	switch {
	case len(parts) > 1:
		eval = parts[1]
	case len(fields) > 1:
		eval = fields[1]
	}
	if strings.EqualFold(move, "pa") {
		move = "pass"
	}
	if strings.EqualFold(move, "resign") {
		return agent.Decision{Resign: true}, nil
	}
	m, err := judgeEngineMove(t, line, move, tr)
	if err != nil {
		return agent.Decision{}, err
	}
	dec := agent.Decision{Move: m}
	if v, err := strconv.ParseFloat(eval, 64); err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
		dec.Info.Score = v
	}
	return dec, nil
}

// GameOver tells the engine nothing: the next turn sends the whole game anyway.
func (d *nboard) GameOver(ctx context.Context, c LineConn, n protocol.GameNotice) error {
	return nil
}

// Settle sends a ping and reads up to its pong: what came before it is stale, but for
// NBoard's own messages (nboardMessages).
func (d *nboard) Settle(ctx context.Context, c LineConn) (Stale, error) {
	var tr transcript
	err := d.sync(ctx, c, &tr)
	var st Stale
	for _, l := range tr[:max(len(tr)-1, 0)] {
		if !nboardMessage(l) {
			st.add(l)
		}
	}
	return st, err
}

// Quit sends "quit", which has no answer.
func (d *nboard) Quit(ctx context.Context, c LineConn) error {
	if err := c.Send("quit"); err != nil {
		return fmt.Errorf("nboard: send %q: %w", "quit", err)
	}
	return nil
}

func (d *nboard) send(c LineConn, cmd string, tr *transcript) error {
	if err := c.Send(cmd); err != nil {
		return tr.fail("", err, "could not send %q: %v", cmd, err)
	}
	return nil
}

// sync sends "ping N" and reads up to "pong N", skipping every other line (an answer to an
// earlier go that came too late among them).
func (d *nboard) sync(ctx context.Context, c LineConn, tr *transcript) error {
	d.ping++
	cmd := "ping " + strconv.Itoa(d.ping)
	if err := d.send(c, cmd, tr); err != nil {
		return err
	}
	want := "pong " + strconv.Itoa(d.ping)
	for {
		line, err := c.Recv(ctx)
		if err != nil {
			return tr.recvFail(line, err, fmt.Sprintf("answer %q to %q", want, cmd))
		}
		tr.add(line)
		if strings.Join(strings.Fields(line), " ") == want {
			return nil
		}
		d.note(line)
	}
}

// note looks at a line that is not the awaited answer, for the engine's name in
// "set myname NAME" and the node count in "nodestats N TIME".
func (d *nboard) note(line string) {
	fields := strings.Fields(line)
	switch {
	case len(fields) >= 3 && fields[0] == "set" && fields[1] == "myname":
		d.name = strings.Join(fields[2:], " ")
	case len(fields) >= 2 && fields[0] == "nodestats":
		if n, err := strconv.ParseInt(fields[1], 10, 64); err == nil && n >= 0 {
			d.nodes = n
		}
	}
}

// nboardMessage reports whether line is one of NBoard's messages other than the answer and
// pong (nboardMessages), or empty.
// chatter reports whether line is one of the messages an NBoard engine may send unasked
// (nboardMessage): the bridge's fence reads them away without calling them stale.
func (d *nboard) chatter(line string) bool { return nboardMessage(line) }

func nboardMessage(line string) bool {
	fields := strings.Fields(line)
	return len(fields) == 0 || slices.Contains(nboardMessages, fields[0]) && (fields[0] != "set" || len(fields) > 1 && fields[1] == "myname")
}

// nboardGGF writes the turn's game in GGF, as NBoard's "set game" takes it: the initial
// position in BO (64 squares a1, b1, ..., h8 with * for black, O for white, - for empty,
// then the side to move) and the moves, upper case, PA for a pass. A history that does not
// lead to the turn's position cannot happen with Arena's referee; should it, the position
// itself is sent, without moves.
func nboardGGF(t agent.Turn) (string, error) {
	start, steps := t.Game.NewState(), []boardStep(nil)
	if s, err := replayMoves(t); err == nil {
		steps = s
	} else {
		start = t.State
	}
	pos := start.String()
	if len(pos) != 66 {
		return "", fmt.Errorf("position %q is not an 8x8 Othello position", pos)
	}
	var b strings.Builder
	b.WriteString("(;GM[Othello]PC[Arena]PB[black]PW[white]TY[8]BO[8 ")
	for i := range 64 {
		b.WriteByte(nboardSquare(pos[i]))
	}
	b.WriteByte(' ')
	b.WriteByte(nboardSquare(pos[65]))
	b.WriteByte(']')
	for _, st := range steps {
		if st.seat == 0 {
			b.WriteString("B[")
		} else {
			b.WriteString("W[")
		}
		if st.move == "pass" {
			b.WriteString("PA")
		} else {
			b.WriteString(strings.ToUpper(st.move))
		}
		b.WriteByte(']')
	}
	b.WriteString(";)")
	return b.String(), nil
}

// nboardSquare translates a character of the Othello position text to GGF.
func nboardSquare(c byte) byte {
	switch c {
	case 'X':
		return '*'
	case 'O':
		return 'O'
	}
	return '-'
}
