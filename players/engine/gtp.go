package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players"
	"github.com/arenaref/arena/protocol"
)

// NewGTP returns the Dialect of the Go Text Protocol (version 2) as Othello engines speak
// it: "boardsize 8", "clear_board", "play black d3", "genmove white", "quit", answered by
// "= result" or "? error" and an empty line.
//
// The bridge sends commands without ids, one at a time, and accepts answers with or
// without an id ("=12 d3"), moves in either case, "pass" and "resign". Answers of more than
// one line are read to their empty line. Before a command it reads away the answers still
// owed to earlier ones (a genmove that ran out of time, say), so that a late answer is
// never taken for the answer to the next command.
//
// The engine's board follows the game: at each turn the moves it has not seen yet are sent
// with "play"; when its board cannot be brought up to date that way (a new game, or a
// history that is not a continuation of what it was told), it is cleared and the whole game
// is replayed. The engine's own moves from genmove count as seen, as GTP has the engine
// play them on its board. GTP carries no clock the bridge relies on: the time limit is the
// referee's, and an engine that does not answer in time loses the game.
func NewGTP() Dialect { return &gtp{} }

type gtp struct {
	pending int      // commands sent whose answers have not been read yet
	games   []string // what list_games answered, lower case; nil when it is not supported
	size    int      // the board size last set with boardsize; 0 when none was
	played  []string // the moves on the engine's board since clear_board, in the game's notation
	synced  bool     // played is known to be the engine's board
}

// gtpGameNames are the names under which an engine's list_games may offer a game Arena
// knows under the key's name.
var gtpGameNames = map[string][]string{"othello": {"othello", "reversi"}}

func (d *gtp) Name() string { return "gtp" }

// Start asks for the protocol version, the engine's name and version and the games it
// plays. Each may be refused with "?"; only silence (ctx ends) or a broken answer fails.
func (d *gtp) Start(ctx context.Context, c LineConn) (Identity, error) {
	var (
		id Identity
		tr transcript
	)
	if _, _, _, err := d.command(ctx, c, "protocol_version", &tr); err != nil {
		return id, err
	}
	if ok, text, _, err := d.command(ctx, c, "name", &tr); err != nil {
		return id, err
	} else if ok {
		id.Name = gtpFirstLine(text)
	}
	if ok, text, _, err := d.command(ctx, c, "version", &tr); err != nil {
		return id, err
	} else if ok {
		id.Version = gtpFirstLine(text)
	}
	ok, text, _, err := d.command(ctx, c, "list_games", &tr)
	if err != nil {
		return id, err
	}
	d.games = nil
	if ok {
		d.games = []string{}
		for _, w := range strings.Fields(text) {
			d.games = append(d.games, strings.ToLower(w))
		}
	}
	return id, nil
}

// NewGame sets the board size and clears the board.
func (d *gtp) NewGame(ctx context.Context, c LineConn, g game.Game, seat game.Seat) error {
	var tr transcript
	if err := d.setBoard(ctx, c, g, &tr); err != nil {
		return err
	}
	return d.clear(ctx, c, &tr)
}

// Move brings the engine's board to the turn's position and asks it for a move.
func (d *gtp) Move(ctx context.Context, c LineConn, t players.Turn) (players.Decision, error) {
	var (
		no players.Decision
		tr transcript
	)
	if t.State == nil || len(t.Legal) == 0 {
		return no, errors.New("gtp: a turn without a position or legal moves")
	}
	seats := t.Game.Seats()
	if int(t.Seat) < 0 || int(t.Seat) >= len(seats) {
		return no, fmt.Errorf("gtp: seat %d is not a seat of %s", t.Seat, t.Game.Name())
	}
	steps, err := replayMoves(t)
	if err != nil {
		return no, fmt.Errorf("gtp: %w", err)
	}
	if err := d.setBoard(ctx, c, t.Game, &tr); err != nil {
		return no, err
	}
	if !d.synced || len(d.played) > len(steps) || !playedPrefix(d.played, steps) {
		if err := d.clear(ctx, c, &tr); err != nil {
			return no, err
		}
	}
	for _, st := range steps[len(d.played):] {
		cmd := "play " + seats[st.seat] + " " + st.move
		ok, _, line, err := d.command(ctx, c, cmd, &tr)
		if err != nil {
			d.synced = false
			return no, err
		}
		if !ok {
			d.synced = false
			return no, tr.fail(line, ErrProtocol, "the engine refused %q, a legal move of the game", cmd)
		}
		d.played = append(d.played, st.move)
	}

	cmd := "genmove " + seats[t.Seat]
	ok, text, line, err := d.command(ctx, c, cmd, &tr)
	if err != nil {
		d.synced = false
		return no, err
	}
	if !ok {
		d.synced = false
		return no, tr.fail(line, ErrProtocol, "the engine answered %q with an error instead of a move", cmd)
	}
	answer := strings.TrimSpace(gtpFirstLine(text))
	if strings.EqualFold(answer, "resign") {
		d.synced = false
		return players.Decision{Resign: true}, nil
	}
	m, err := judgeEngineMove(t, line, answer, tr)
	if err != nil {
		d.synced = false
		return no, err
	}
	// GTP engines play their own generated move on their board.
	d.played = append(d.played, t.State.MoveString(m))
	return players.Decision{Move: m}, nil
}

// GameOver tells the engine nothing: GTP has no command for it. The next game starts with
// clear_board.
func (d *gtp) GameOver(ctx context.Context, c LineConn, n protocol.GameNotice) error {
	d.synced = false
	return nil
}

// Settle reads the answers still owed to earlier commands (a genmove that ran out of
// time), then asks for the engine's name, which any engine answers, to know that it
// listens again. The board is replayed at the next turn, as the genmove read away was
// played on it.
func (d *gtp) Settle(ctx context.Context, c LineConn) (Stale, error) {
	var (
		st Stale
		tr transcript
	)
	for d.pending > 0 {
		if _, _, _, err := d.response(ctx, c, "genmove", &tr); err != nil {
			return st, err
		}
		for _, l := range tr {
			st.add(l)
		}
		tr = tr[:0]
	}
	d.synced = false
	if _, _, _, err := d.command(ctx, c, "name", &tr); err != nil {
		return st, err
	}
	return st, nil
}

// Quit sends "quit". An engine that exits without answering has done what it was asked.
func (d *gtp) Quit(ctx context.Context, c LineConn) error {
	var tr transcript
	_, _, _, err := d.command(ctx, c, "quit", &tr)
	if err != nil && ctx.Err() != nil {
		return err
	}
	return nil
}

// setBoard sends boardsize when the engine's board is not the game's size already.
func (d *gtp) setBoard(ctx context.Context, c LineConn, g game.Game, tr *transcript) error {
	base, _, _ := strings.Cut(g.Name(), ":")
	if d.games != nil && !gtpPlays(d.games, base) {
		return fmt.Errorf("gtp: the engine plays %s (list_games), not %s", strings.Join(d.games, ", "), base)
	}
	n, err := othelloBoardSize(g)
	if err != nil {
		return fmt.Errorf("gtp: %w", err)
	}
	if d.size == n {
		return nil
	}
	cmd := "boardsize " + strconv.Itoa(n)
	ok, _, line, err := d.command(ctx, c, cmd, tr)
	if err != nil {
		return err
	}
	if !ok {
		return tr.fail(line, ErrProtocol, "the engine does not play on a %dx%d board: it refused %q", n, n, cmd)
	}
	d.size, d.synced = n, false
	return nil
}

// clear empties the engine's board.
func (d *gtp) clear(ctx context.Context, c LineConn, tr *transcript) error {
	d.synced, d.played = false, d.played[:0]
	ok, _, line, err := d.command(ctx, c, "clear_board", tr)
	if err != nil {
		return err
	}
	if !ok {
		return tr.fail(line, ErrProtocol, "the engine refused %q", "clear_board")
	}
	d.synced = true
	return nil
}

// command sends one command and reads its answer: ok is true for "=", false for "?"; text
// is the answer without the "=" or "?", the id and the white space after them, its lines
// joined by "\n"; line is the answer's first line as the engine wrote it. Answers owed to
// earlier commands are read and dropped first. tr is emptied, then gets the lines read for
// cmd.
func (d *gtp) command(ctx context.Context, c LineConn, cmd string, tr *transcript) (ok bool, text, line string, err error) {
	for d.pending > 0 {
		if _, _, _, err := d.response(ctx, c, cmd, tr); err != nil {
			return false, "", "", err
		}
	}
	*tr = (*tr)[:0] // the transcript of an error is that of its command
	if err := c.Send(cmd); err != nil {
		return false, "", "", tr.fail("", err, "could not send %q: %v", cmd, err)
	}
	d.pending++
	return d.response(ctx, c, cmd, tr)
}

// response reads the next answer of the engine, for the error messages of cmd.
func (d *gtp) response(ctx context.Context, c LineConn, cmd string, tr *transcript) (ok bool, text, first string, err error) {
	var lines []string
	started := false
	for {
		line, err := c.Recv(ctx)
		if err != nil {
			want := fmt.Sprintf("answer to %q", cmd)
			if started {
				want = fmt.Sprintf("end of the answer to %q (an empty line)", cmd)
			}
			return false, "", "", tr.recvFail(line, err, want)
		}
		tr.add(line)
		trimmed := strings.TrimSpace(line)
		if !started {
			switch {
			case trimmed == "":
				continue // stray empty lines between answers
			case trimmed[0] == '=' || trimmed[0] == '?':
				ok, first, started = trimmed[0] == '=', line, true
				lines = append(lines, gtpAnswerText(trimmed[1:]))
			default:
				return false, "", "", tr.fail(line, ErrProtocol,
					`not a GTP answer to %q: an answer starts with "=" (success) or "?" (failure)`, cmd)
			}
			continue
		}
		if trimmed == "" {
			d.pending--
			return ok, strings.Join(lines, "\n"), first, nil
		}
		lines = append(lines, trimmed)
	}
}

// gtpAnswerText drops the optional numeric id and the white space that follow "=" or "?".
func gtpAnswerText(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return strings.TrimSpace(s[i:])
}

func gtpPlays(games []string, base string) bool {
	names := gtpGameNames[base]
	if names == nil {
		names = []string{base}
	}
	for _, g := range games {
		for _, n := range names {
			if g == n {
				return true
			}
		}
	}
	return false
}

func gtpFirstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// boardStep is one move of a game's history and the seat that played it.
type boardStep struct {
	seat game.Seat
	move string // in the game's own notation, as MoveString writes it
}

// replayMoves plays the turn's moves from the game's initial position, for the seat that made
// each one, and checks that they lead to the turn's position.
func replayMoves(t players.Turn) ([]boardStep, error) {
	s := t.Game.NewState()
	steps := make([]boardStep, 0, len(t.Moves))
	for i, text := range t.Moves {
		seat := s.ToMove()
		if seat < 0 {
			return nil, fmt.Errorf("move %d %q: no single seat is to move (%s)", i+1, text, seat)
		}
		m, err := s.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		norm := s.MoveString(m)
		if err := s.Play(m); err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, text, err)
		}
		steps = append(steps, boardStep{seat: seat, move: norm})
	}
	if t.State != nil && s.String() != t.State.String() {
		return nil, fmt.Errorf("the moves %s do not lead from the initial position to the turn's position %q",
			strings.Join(t.Moves, " "), t.State.String())
	}
	return steps, nil
}

func playedPrefix(played []string, steps []boardStep) bool {
	for i, m := range played {
		if steps[i].move != m {
			return false
		}
	}
	return true
}

// othelloBoardSize returns the side of an Othello board, the only game these dialects play.
func othelloBoardSize(g game.Game) (int, error) {
	base, _, _ := strings.Cut(g.Name(), ":")
	sized, ok := g.(interface{ Size() int })
	if base != "othello" || !ok {
		return 0, fmt.Errorf("%s is not a game this protocol plays (only othello)", g.Name())
	}
	return sized.Size(), nil
}

// judgeEngineMove reads move, the move in the engine's answer line, in the turn's
// position and checks that it is legal. Its errors are *AnswerError wrapping
// game.ErrBadMove (no move at all) or game.ErrIllegalMove.
func judgeEngineMove(t players.Turn, line, move string, tr transcript) (game.Move, error) {
	if move == "" {
		return 0, tr.fail(line, game.ErrBadMove, "the answer holds no move")
	}
	m, err := t.State.ParseMove(move)
	if err != nil {
		if !errors.Is(err, game.ErrBadMove) {
			err = fmt.Errorf("%w: %v", game.ErrBadMove, err)
		}
		return 0, tr.fail(line, err, "%q is not a move in %s notation (%v)", move, t.Game.Name(), err)
	}
	if slices.Contains(t.Legal, m) {
		return m, nil
	}
	legal := make([]string, len(t.Legal))
	for i, l := range t.Legal {
		legal[i] = t.State.MoveString(l)
	}
	return 0, tr.fail(line, game.ErrIllegalMove, "%s is not a legal move here; the legal moves are %s",
		t.State.MoveString(m), strings.Join(legal, " "))
}
