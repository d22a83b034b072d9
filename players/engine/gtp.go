package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
	"github.com/arenaref/arena/protocol"
)

// gtpProtocol registers GTP, with no settings, for the games the dialect sets up and
// follows: Othello, as Othello engines speak GTP, and Go's atari-go and capture problems,
// on boards of any size and with any options. Which of them an engine plays is found when
// a game starts (the engine's list_games and boardsize refuse what it does not play).
var gtpProtocol = Protocol{
	Name:       "gtp",
	Games:      []string{"othello", atarigo.AtariGoName, atarigo.CaptureName},
	AnyOptions: true,
	GamesText:  "othello, atari-go and capture (on boards of any size)",
	New:        func(Settings) Dialect { return NewGTP() },
}

// NewGTP returns the Dialect of the Go Text Protocol (version 2), as Go engines and Othello
// engines speak it: "boardsize 9", "clear_board", "play black D4", "genmove white",
// "quit", answered by "= result" or "? error" and an empty line.
//
// The bridge sends commands without ids, one at a time, and accepts answers with or
// without an id ("=12 d3"), moves in either case, "pass" and "resign". Answers of more than
// one line are read to their empty line. Before a command it reads away the answers still
// owed to earlier ones (a genmove that ran out of time, say), so that a late answer is
// never taken for the answer to the next command.
//
// Start asks for list_commands (or, when that is refused, known_command) to learn which of
// the optional commands time_settings, time_left and showboard the engine knows, and for
// list_games. An engine that refuses list_games (GNU Go does), or answers it with
// nothing, is taken to play every game it is given; one that lists games must list the
// game's, under one of its names: othello or reversi; atari-go, atarigo or go; capture,
// atari-go, atarigo or go.
//
// Go games (atari-go, capture) are played as Go: moves are GTP vertices, which are the
// games' own notation (the column letter A to T without I, then the row counted from the
// bottom: "J9" is the top right point of the 9x9 board), and "pass". The engine removes
// the stones a move captures from its own board, as Go's rules do. The end of the game is
// the referee's: the first capture in atari-go, the target's capture or escape in a
// capture problem, or two passes; GTP has no command to say a game is over, and none is
// needed, since the engine only moves when asked to. A capture problem starts from its
// position: after clear_board, its stones are put on the board with "play", which takes a
// stone of either colour at any time and captures nothing there (every string of the
// position has a liberty); the colour to move is named by genmove. A ko at the start of
// a problem cannot be told to the engine; no embedded problem starts with one.
//
// The engine's board follows the game: at each turn the moves it has not seen yet are sent
// with "play"; when its board cannot be brought up to date that way (a new game, or a
// history that is not a continuation of what it was told), it is cleared and the whole game
// is replayed. The engine's own moves from genmove count as seen, as GTP has the engine
// play them on its board. A play the engine refuses on a board brought up to date move by
// move is tried once more on a board cleared and replayed; refused again, or refused
// during a replay, it fails the turn with an error wrapping ErrRefused, never with an
// *AnswerError: the refusal is no move of the engine's.
//
// Passes: the opponent's pass is sent as "play COLOUR pass". Some engines refuse it
// (GRhino answers "? syntax error") because their board passes by itself, skipping a side
// that has no move. When the engine refuses a pass its board is checked with showboard, if
// it knows that command: a board that names the passing side as the one to move cannot
// follow the game (ErrRefused); otherwise the engine is taken to pass by itself, and no pass
// is sent to it again. The engine's own forced pass is asked for with genmove like any
// move; "pass" in any case is accepted, and its board is taken to have passed.
//
// Clock: GTP times are whole seconds. When the engine knows time_settings, the clock is
// sent at the first turn of each game whose settings differ from what the engine was last
// told: a time per move of S seconds as Canadian byo-yomi of S seconds for one stone
// ("time_settings 0 S 1"); a game clock of T seconds as main time only ("time_settings T 0
// 0": GTP has no increment, so the engine is not told of one, but the time it is told it
// has left includes the increments received so far); N moves in T seconds as byo-yomi of T
// seconds for N stones ("time_settings 0 T N"). When the engine knows time_left, every
// genmove is preceded by "time_left COLOUR SECONDS STONES": the time the engine really has
// until the bridge must answer (the turn's deadline, as the line protocol's time line
// counts it), rounded down, so that an engine that uses all it is told still answers in
// time; STONES is 1 for a time per move, the moves to go for N moves in T, and 0 for main
// time. Under a second, the engine is told 0. A time command the engine refuses is not sent
// to it again. The referee's clock is still what counts: an engine that does not answer in
// time loses the game.
func NewGTP() Dialect { return &gtp{} }

type gtp struct {
	pending int             // commands sent whose answers have not been read yet
	games   []string        // what list_games answered, lower case; nil when it is not supported
	known   map[string]bool // the optional commands (gtpOptional) the engine knows
	size    int             // the board size last set with boardsize; 0 when none was
	setUp   []string        // the plays that set up the game's starting position after clear_board
	played  []string        // the moves on the engine's board since clear_board, in the game's notation
	synced  bool            // played is known to be the engine's board
	// selfPass is set once the engine refused "play COLOUR pass" and its board was found
	// to pass by itself: passes are no longer sent to it (they stay in played).
	selfPass bool
	// clockKind is the kind of clock (gtpClockKind) time_settings was last worked out
	// for in this game; "" until the game's first turn.
	clockKind string
	settings  string // the last time_settings command the engine accepted
}

// gtpOptional are the commands beyond the core of GTP that the dialect uses when the
// engine knows them.
var gtpOptional = []string{"time_settings", "time_left", "showboard"}

// gtpGameNames are the names under which an engine's list_games may offer a game Arena
// knows under the key's name.
var gtpGameNames = map[string][]string{
	"othello":           {"othello", "reversi"},
	atarigo.AtariGoName: {atarigo.AtariGoName, "atarigo", "go"},
	atarigo.CaptureName: {atarigo.CaptureName, atarigo.AtariGoName, "atarigo", "go"},
}

func (d *gtp) Name() string { return "gtp" }

// Start asks for the protocol version, the engine's name and version, the commands it knows
// and the games it plays. Each may be refused with "?"; only silence (ctx ends) or a broken
// answer fails.
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
	if err := d.listCommands(ctx, c, &tr); err != nil {
		return id, err
	}
	ok, text, _, err := d.command(ctx, c, "list_games", &tr)
	if err != nil {
		return id, err
	}
	d.games = nil
	if games := strings.Fields(strings.ToLower(text)); ok && len(games) > 0 {
		d.games = games
	}
	return id, nil
}

// NewGame sets the board size and clears the board.
func (d *gtp) NewGame(ctx context.Context, c LineConn, g game.Game, seat game.Seat) error {
	var tr transcript
	d.clockKind = ""
	if err := d.setBoard(ctx, c, g, &tr); err != nil {
		return err
	}
	return d.clear(ctx, c, &tr)
}

// Move brings the engine's board to the turn's position and asks it for a move.
func (d *gtp) Move(ctx context.Context, c LineConn, t agent.Turn) (agent.Decision, error) {
	var (
		no agent.Decision
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
	if err := d.sync(ctx, c, seats, steps, &tr); err != nil {
		return no, err
	}
	if err := d.clock(ctx, c, t, &tr); err != nil {
		return no, err
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
		return agent.Decision{Resign: true}, nil
	}
	m, err := judgeEngineMove(t, line, answer, tr)
	if err != nil {
		d.synced = false
		return no, err
	}
	// GTP engines play their own generated move on their board.
	d.played = append(d.played, t.State.MoveString(m))
	return agent.Decision{Move: m}, nil
}

// GameOver tells the engine nothing: GTP has no command for it. The next game starts with
// clear_board.
func (d *gtp) GameOver(ctx context.Context, c LineConn, n protocol.GameNotice) error {
	d.synced, d.clockKind = false, ""
	return nil
}

// Knows reports whether the engine said in the handshake that it knows command, one of
// time_settings, time_left and showboard (list_commands or known_command), and has not
// refused it since. check-engine uses it to check that the clock was sent.
func (d *gtp) Knows(command string) bool { return d.known[command] }

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

// listCommands learns which of gtpOptional the engine knows: from list_commands, or, when
// the engine refuses that, from known_command, asked for each until it is refused too.
func (d *gtp) listCommands(ctx context.Context, c LineConn, tr *transcript) error {
	d.known = map[string]bool{}
	ok, text, _, err := d.command(ctx, c, "list_commands", tr)
	if err != nil {
		return err
	}
	if ok {
		for _, w := range strings.Fields(text) {
			if slices.Contains(gtpOptional, w) {
				d.known[w] = true
			}
		}
		return nil
	}
	for _, name := range gtpOptional {
		ok, text, _, err := d.command(ctx, c, "known_command "+name, tr)
		if err != nil {
			return err
		}
		if !ok {
			return nil // known_command is no command of this engine's either
		}
		d.known[name] = strings.EqualFold(strings.TrimSpace(text), "true")
	}
	return nil
}

// sync brings the engine's board to the position after steps: with the moves it has not
// seen yet when its board is the game's so far, else by clearing it and replaying the game.
// A move refused on a board brought up to date move by move gets one more try on a board
// replayed from the start, in case the engine's board had gone astray.
func (d *gtp) sync(ctx context.Context, c LineConn, seats []string, steps []boardStep, tr *transcript) error {
	if !d.synced || len(d.played) > len(steps) || !playedPrefix(d.played, steps) {
		if err := d.clear(ctx, c, tr); err != nil {
			return err
		}
	}
	fresh := len(d.played) == 0 // nothing to go astray
	err := d.play(ctx, c, seats, steps, tr)
	if err == nil || fresh || !errors.Is(err, ErrRefused) {
		return err
	}
	if err := d.clear(ctx, c, tr); err != nil {
		return err
	}
	return d.play(ctx, c, seats, steps, tr)
}

// play sends the steps the engine has not seen yet.
func (d *gtp) play(ctx context.Context, c LineConn, seats []string, steps []boardStep, tr *transcript) error {
	for _, st := range steps[len(d.played):] {
		var err error
		if st.move == "pass" {
			err = d.pass(ctx, c, seats, st.seat, tr)
		} else {
			cmd := "play " + seats[st.seat] + " " + st.move
			var (
				ok   bool
				line string
			)
			if ok, _, line, err = d.command(ctx, c, cmd, tr); err == nil && !ok {
				err = refused(cmd, line, ", a legal move of the game")
			}
		}
		if err != nil {
			d.synced = false
			return err
		}
		d.played = append(d.played, st.move)
	}
	return nil
}

// pass tells the engine that seat passed, unless it is known to pass by itself. An engine
// that refuses the pass is taken to pass by itself from then on, unless its showboard
// still has seat to move.
func (d *gtp) pass(ctx context.Context, c LineConn, seats []string, seat game.Seat, tr *transcript) error {
	if d.selfPass {
		return nil
	}
	cmd := "play " + seats[seat] + " pass"
	ok, _, line, err := d.command(ctx, c, cmd, tr)
	if err != nil || ok {
		return err
	}
	if d.known["showboard"] {
		ok, text, _, err := d.command(ctx, c, "showboard", tr)
		if err != nil {
			return err
		}
		if next, found := gtpSideToMove(text, seats); ok && found && next == seat {
			return refused(cmd, line, fmt.Sprintf(", and its board (showboard) still has %s to move: it cannot follow a pass", seats[seat]))
		}
	}
	d.selfPass = true
	return nil
}

// gtpSideToMove looks in a showboard answer for the line that says whose move it is
// ("Next move: Black", "White to play") and returns that seat, if one line names one seat.
func gtpSideToMove(board string, seats []string) (game.Seat, bool) {
	for _, line := range strings.Split(strings.ToLower(board), "\n") {
		if !strings.Contains(line, "move") && !strings.Contains(line, "turn") && !strings.Contains(line, "to play") {
			continue
		}
		found := game.Seat(-1)
		for _, w := range strings.FieldsFunc(line, func(r rune) bool { return r < 'a' || r > 'z' }) {
			if i := slices.Index(seats, w); i >= 0 {
				if found >= 0 && found != game.Seat(i) {
					found = -2 // both named: not this line
					break
				}
				found = game.Seat(i)
			}
		}
		if found >= 0 {
			return found, true
		}
	}
	return 0, false
}

// clock sends time_settings, when the game's clock is seen first or has changed, and
// time_left, to an engine that knows them. A refusal only stops the command being sent.
func (d *gtp) clock(ctx context.Context, c LineConn, t agent.Turn, tr *transcript) error {
	if t.Clock.MoveMS <= 0 && t.Clock.RemainingMS <= 0 {
		return nil // no clock to tell of
	}
	colour := t.Game.Seats()[t.Seat]
	if kind := gtpClockKind(t.Clock); d.known["time_settings"] && kind != d.clockKind {
		d.clockKind = kind
		if cmd := gtpTimeSettings(t.Clock); cmd != d.settings {
			ok, _, _, err := d.command(ctx, c, cmd, tr)
			if err != nil {
				return err
			}
			if d.known["time_settings"] = ok; ok {
				d.settings = cmd
			}
		}
	}
	if d.known["time_left"] {
		ok, _, _, err := d.command(ctx, c, gtpTimeLeft(ctx, t, colour), tr)
		if err != nil {
			return err
		}
		d.known["time_left"] = ok
	}
	return nil
}

// gtpClockKind tells apart the clocks that need different time_settings: each time per
// move, a game clock and N moves in T. A game clock's base time is taken when its kind
// is first seen in a game, so it is not part of the kind.
func gtpClockKind(cl protocol.Clock) string {
	switch {
	case cl.PerMove:
		return "move " + strconv.FormatInt(cl.MoveMS/1000, 10)
	case cl.MovesToGo > 0:
		return "periods"
	}
	return "game"
}

// gtpTimeSettings is the time_settings command for the clock (see NewGTP).
func gtpTimeSettings(cl protocol.Clock) string {
	switch {
	case cl.PerMove:
		return fmt.Sprintf("time_settings 0 %d 1", cl.MoveMS/1000)
	case cl.MovesToGo > 0:
		return fmt.Sprintf("time_settings 0 %d %d", cl.RemainingMS/1000, cl.MovesToGo)
	}
	return fmt.Sprintf("time_settings %d 0 0", cl.RemainingMS/1000)
}

// gtpTimeLeft is the time_left command for the turn: the whole seconds the engine has until
// the turn's deadline (lineClock), and the stones of the byo-yomi period it is in.
func gtpTimeLeft(ctx context.Context, t agent.Turn, colour string) string {
	move, remaining, _ := lineClock(ctx, t)
	secs, stones := remaining/1000, t.Clock.MovesToGo
	if t.Clock.PerMove {
		secs, stones = move/1000, 1
	}
	return fmt.Sprintf("time_left %s %d %d", colour, secs, stones)
}

// refused is the error for cmd, a command setting up the position, answered with line, a
// failure; why completes the message.
func refused(cmd, line, why string) error {
	return fmt.Errorf("gtp: %w: it answered %q to %q%s", ErrRefused, strings.TrimSpace(line), cmd, why)
}

// setBoard sends boardsize when the engine's board is not the game's size already, and
// keeps the plays that set up the game's starting position.
func (d *gtp) setBoard(ctx context.Context, c LineConn, g game.Game, tr *transcript) error {
	base, _, _ := strings.Cut(g.Name(), ":")
	if err := gtpProtocol.CheckGame(g.Name()); err != nil {
		return fmt.Errorf("gtp: %w", err)
	}
	if d.games != nil && !gtpPlays(d.games, base) {
		return fmt.Errorf("gtp: the engine plays %s (list_games), not %s", strings.Join(d.games, ", "), base)
	}
	sized, ok := g.(interface{ Size() int })
	if !ok {
		return fmt.Errorf("gtp: %s has no board size", g.Name())
	}
	if setUp := gtpSetUp(g); !slices.Equal(setUp, d.setUp) {
		d.setUp, d.synced = setUp, false
	}
	n := sized.Size()
	if d.size == n {
		return nil
	}
	cmd := "boardsize " + strconv.Itoa(n)
	ok, _, line, err := d.command(ctx, c, cmd, tr)
	if err != nil {
		return err
	}
	if !ok {
		return refused(cmd, line, fmt.Sprintf(": it does not play on a %dx%d board", n, n))
	}
	d.size, d.synced = n, false
	return nil
}

// clear empties the engine's board and sets up the game's starting position.
func (d *gtp) clear(ctx context.Context, c LineConn, tr *transcript) error {
	d.synced, d.played = false, d.played[:0]
	ok, _, line, err := d.command(ctx, c, "clear_board", tr)
	if err != nil {
		return err
	}
	if !ok {
		return refused("clear_board", line, "")
	}
	for _, cmd := range d.setUp {
		ok, _, line, err := d.command(ctx, c, cmd, tr)
		if err != nil {
			return err
		}
		if !ok {
			return refused(cmd, line, ", a stone of the game's starting position")
		}
	}
	d.synced = true
	return nil
}

// gtpSetUp returns the plays that put the stones of g's starting position on the empty
// board of clear_board: those of a capture problem's position. Othello engines set up
// Othello's four discs themselves, and atari-go starts empty.
func gtpSetUp(g game.Game) []string {
	s, ok := g.NewState().(*atarigo.State)
	if !ok {
		return nil
	}
	var plays []string
	for p := range atarigo.Point(s.Size() * s.Size()) {
		if c := s.At(p); c != atarigo.Empty {
			plays = append(plays, "play "+c.String()+" "+s.MoveString(game.Move(p)))
		}
	}
	return plays
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
func replayMoves(t agent.Turn) ([]boardStep, error) {
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
func judgeEngineMove(t agent.Turn, line, move string, tr transcript) (game.Move, error) {
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
