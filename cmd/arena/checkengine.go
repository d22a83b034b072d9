package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/protocol"
)

// checkQuitTimeout is how long check-engine waits for the engine to exit after quit, and
// after a failed check, before its process group is ended.
const checkQuitTimeout = time.Second

// checkSeed fixes the random games the check positions are taken from, and the moves of
// the engine's opponent in the game on a clock, so that every run checks the same.
const checkSeed = 20240601

// defaultCheckClock is the game clock of the check that plays a whole game.
const defaultCheckClock = "10+0.1"

// runCheckEngine implements "arena check-engine": it runs an engine through a fixed set of
// positions and says, one line per check, what a tournament would forfeit it for.
func runCheckEngine(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("check-engine", "[--protocol line|gtp|nboard] [--game othello] [--start-timeout 10s] [--move-time 1s] [--clock 10+0.1] -- CMD ARGS...", stderr)
	proto := fs.String("protocol", "line", "the engine's protocol: line, gtp or nboard")
	gameSpec := fs.String("game", "othello", "game, with options")
	startTimeout := fs.Duration("start-timeout", engine.DefaultStartTimeout, "time the engine has to start and answer the handshake")
	moveTime := fs.Duration("move-time", time.Second, "time the engine has for each move")
	clockSpec := fs.String("clock", defaultCheckClock, "the game clock of the check that plays a whole game (60+0.5, 40/60, ...)")
	depth := fs.Int("depth", engine.NBoardDefaultDepth, "nboard: the search depth sent with set depth")
	if err := fs.parseWithArgs(args, -1); err != nil {
		return err
	}
	argv := fs.Args()
	if len(argv) == 0 {
		return usagef("no engine command: give it after --, as in: arena check-engine -- ./mybot")
	}
	g, err := game.Lookup(*gameSpec)
	if err != nil {
		return usagef("--game: %v", err)
	}
	if *startTimeout <= 0 || *moveTime <= 0 {
		return usagef("--start-timeout and --move-time must be positive")
	}
	tc, err := clock.Parse(*clockSpec)
	if err != nil {
		return usagef("--clock: %v", err)
	}
	if !tc.IsClock() {
		return usagef("--clock %s: want a game clock such as 10+0.1 or 40/60 (--move-time is the time per move of the other checks)", *clockSpec)
	}
	var newDialect func() engine.Dialect
	switch *proto {
	case "line":
		newDialect = engine.NewLine
	case "gtp":
		newDialect = engine.NewGTP
	case "nboard":
		if *depth < 1 || *depth > 60 {
			return usagef("--depth must be between 1 and 60, got %d", *depth)
		}
		newDialect = func() engine.Dialect { return engine.NewNBoard(engine.NBoardDepth(*depth)) }
		// NBoard's NewGame only looks at the game: refuse what it cannot play before starting.
		if err := newDialect().NewGame(ctx, nil, g, 0); err != nil {
			return usagef("--game %s: %v", g.Name(), err)
		}
	default:
		return usagef("--protocol %q: want line, gtp or nboard", *proto)
	}

	c := &checker{
		argv: argv, g: g, newDialect: newDialect,
		startTimeout: *startTimeout, moveTime: *moveTime, clock: tc,
		out: stdout, errOut: &engineStderr{w: stderr},
	}
	defer c.errOut.stop()
	return c.run(ctx)
}

// checkPosition is one position an engine is asked to move in.
type checkPosition struct {
	name  string
	moves []string // from the initial position
}

// checker runs the checks, starting the engine again after a check that leaves it unfit
// to go on (silent, or gone).
type checker struct {
	argv         []string
	g            game.Game
	newDialect   func() engine.Dialect
	startTimeout time.Duration
	moveTime     time.Duration
	clock        clock.TimeControl // of the game on a clock
	out          io.Writer
	errOut       *engineStderr

	proc    *engine.Process
	dialect engine.Dialect
}

func (c *checker) run(ctx context.Context) error {
	positions := checkPositions(c.g)
	total := 1 + len(positions) + 1 // the start, the positions, the game on a clock
	fmt.Fprintf(c.out, "checking %s (%s protocol, %s, %v to start, %v a move, a game on a %s clock): %d checks\n",
		strings.Join(c.argv, " "), c.newDialect().Name(), c.g.Name(), c.startTimeout, c.moveTime, c.clock, total)

	msg, ok := c.start(ctx)
	if !ok {
		fmt.Fprintf(c.out, "FAIL start: %s\n", msg)
		fmt.Fprintf(c.out, "%d checks not run: the engine did not start\n", total-1)
		return fmt.Errorf("the engine did not start; %d of %d checks not run", total-1, total)
	}
	fmt.Fprintf(c.out, "ok   start: %s\n", msg)

	failed := 0
	checks := len(positions) + 1
	for i := range checks {
		if c.proc == nil {
			if msg, ok := c.start(ctx); !ok {
				fmt.Fprintf(c.out, "FAIL restart after the failure: %s\n", msg)
				fmt.Fprintf(c.out, "%d checks not run\n", checks-i)
				failed += checks - i
				break
			}
		}
		name, msg, ok := c.clockName(), "", false
		if i < len(positions) {
			name = positions[i].name
			msg, ok = c.check(ctx, positions[i])
		} else {
			msg, ok = c.checkClock(ctx)
		}
		if ok {
			fmt.Fprintf(c.out, "ok   %s: %s\n", name, msg)
			continue
		}
		failed++
		fmt.Fprintf(c.out, "FAIL %s: %s\n", name, msg)
		if ctx.Err() != nil {
			break
		}
	}
	c.stop(ctx)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if failed > 0 {
		fmt.Fprintf(c.out, "%d of %d checks failed: a tournament would forfeit this engine's games\n", failed, total)
		return fmt.Errorf("%d of %d checks failed", failed, total)
	}
	fmt.Fprintf(c.out, "all %d checks passed\n", total)
	return nil
}

// start starts the engine and performs the handshake.
func (c *checker) start(ctx context.Context) (string, bool) {
	begin := time.Now()
	p, err := engine.Start(ctx, c.argv, engine.Options{
		StartTimeout: c.startTimeout,
		QuitTimeout:  checkQuitTimeout,
		Stderr:       c.errOut.line,
	})
	if err != nil {
		return fmt.Sprintf("cannot run the engine: %v", err), false
	}
	d := c.newDialect()
	sctx, cancel := context.WithTimeout(ctx, c.startTimeout)
	id, err := d.Start(sctx, p)
	cancel()
	if err != nil {
		p.Close()
		return "too slow to start or a broken handshake: " + describeFailure(err, fmt.Sprintf("the start-up time (%v)", c.startTimeout), true), false
	}
	c.proc, c.dialect = p, d
	who := strings.TrimSpace(id.Name + " " + id.Version)
	if who == "" {
		who = "an engine that gave no name"
	}
	return fmt.Sprintf("%s, ready in %v", who, humantime.Round(time.Since(begin))), true
}

// check asks for a move in one position and judges the answer.
func (c *checker) check(ctx context.Context, pos checkPosition) (string, bool) {
	t, err := checkTurn(c.g, pos.moves, c.moveTime)
	if err != nil {
		return fmt.Sprintf("cannot set up the position: %v", err), false // a bug of ours
	}
	cctx, cancel := context.WithTimeout(ctx, engine.DefaultCommandTimeout)
	err = c.dialect.NewGame(cctx, c.proc, c.g, t.Seat)
	cancel()
	if err != nil {
		c.dropEngine()
		return "the engine failed at the start of a game: " + describeFailure(err, fmt.Sprintf("the command time (%v)", engine.DefaultCommandTimeout), false), false
	}
	begin := time.Now()
	mctx, cancel := context.WithDeadline(ctx, t.Deadline)
	dec, err := c.dialect.Move(mctx, c.proc, t)
	cancel()
	took := humantime.Round(time.Since(begin))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || errors.Is(err, engine.ErrExited) || !c.alive() {
			c.dropEngine()
		}
		return describeFailure(err, fmt.Sprintf("the move time (%v)", c.moveTime), false), false
	}
	if dec.Resign {
		return fmt.Sprintf("the engine resigned instead of moving (after %v): the game would be lost", took), false
	}
	return fmt.Sprintf("%s in %v", t.State.MoveString(dec.Move), took), true
}

// clockName names the check of the game on a clock.
func (c *checker) clockName() string {
	return fmt.Sprintf("game on a %s clock (%s)", c.clock, seatName(c.g, 0))
}

// checkClock plays a whole game on the game clock c.clock, the engine with the first seat
// and the check the other, with random legal moves of a fixed seed. Each of the engine's
// turns has the time left on its clock, as the referee would give it, and must be
// answered with a legal move before that runs out. An engine that knows GTP's time_left
// must have been told the time before each genmove.
func (c *checker) checkClock(ctx context.Context) (string, bool) {
	rec := &sentLines{LineConn: c.proc}
	cctx, cancel := context.WithTimeout(ctx, engine.DefaultCommandTimeout)
	err := c.dialect.NewGame(cctx, rec, c.g, 0)
	cancel()
	if err != nil {
		c.dropEngine()
		return "the engine failed at the start of a game: " + describeFailure(err, fmt.Sprintf("the command time (%v)", engine.DefaultCommandTimeout), false), false
	}
	rng := rand.New(rand.NewPCG(checkSeed, 1))
	st := c.g.NewState()
	var moves []string
	clk, own := clock.New(c.clock), 0
	for !st.IsTerminal() && st.ToMove() >= 0 {
		seat := st.ToMove()
		legal := st.LegalMoves(seat, nil)
		m := legal[rng.IntN(len(legal))]
		if seat == 0 {
			left := clk.Budget()
			begin := time.Now()
			t := agent.Turn{GameID: "check-clock", Game: c.g, State: st.Clone(), Seat: seat, Legal: legal,
				Moves: slices.Clone(moves), Clock: clk.Wire(), Deadline: begin.Add(left)}
			mctx, cancel := context.WithDeadline(ctx, t.Deadline)
			dec, err := c.dialect.Move(mctx, rec, t)
			cancel()
			used := time.Since(begin)
			at := fmt.Sprintf("at its move %d, with %v left", own+1, humantime.Round(left))
			if err != nil {
				if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || errors.Is(err, engine.ErrExited) || !c.alive() {
					c.dropEngine()
				}
				return at + ": " + describeFailure(err, fmt.Sprintf("the time left on its clock (%v)", humantime.Round(left)), false), false
			}
			if dec.Resign {
				return at + ": the engine resigned: the game would be lost", false
			}
			if used >= left { // the check allows no margin: the answer must come within the time left
				return fmt.Sprintf("%s: the answer came %v after the clock ran out (forfeit: %s)", at, humantime.Round(used-left), protocol.ReasonTimeForfeit), false
			}
			clk.Charge(used)
			own++
			m = dec.Move
		}
		moves = append(moves, st.MoveString(m))
		if err := st.Play(m); err != nil {
			return fmt.Sprintf("cannot play %s: %v", st.MoveString(m), err), false // a bug of ours
		}
	}
	msg := fmt.Sprintf("%d moves, %v left at the end of the game", own, humantime.Round(clk.Left()))
	if k, ok := c.dialect.(interface{ Knows(string) bool }); ok && k.Knows("time_left") {
		first, missing := rec.timeLeft()
		if missing > 0 {
			return fmt.Sprintf("%s, but %d genmove commands were not preceded by time_left, which the engine knows (a bug of the bridge's)", msg, missing), false
		}
		msg += fmt.Sprintf("; time_left sent before every genmove (the first: %q)", first)
	}
	return msg, true
}

// sentLines is a LineConn that keeps the lines sent through it, for checkClock.
type sentLines struct {
	engine.LineConn
	sent []string
}

func (s *sentLines) Send(line string) error {
	s.sent = append(s.sent, line)
	return s.LineConn.Send(line)
}

// timeLeft returns the first time_left command sent, and how many genmove commands had
// none sent since the previous one.
func (s *sentLines) timeLeft() (first string, missing int) {
	told := false
	for _, l := range s.sent {
		switch {
		case strings.HasPrefix(l, "time_left "):
			told = true
			if first == "" {
				first = l
			}
		case strings.HasPrefix(l, "genmove "):
			if !told {
				missing++
			}
			told = false
		}
	}
	return first, missing
}

func (c *checker) alive() bool {
	select {
	case <-c.proc.Exited():
		return false
	default:
		return true
	}
}

// dropEngine ends the engine; the next check starts it again.
func (c *checker) dropEngine() {
	if c.proc != nil {
		c.proc.Close()
	}
	c.proc, c.dialect = nil, nil
}

// stop asks the engine to quit and ends it.
func (c *checker) stop(ctx context.Context) {
	if c.proc == nil {
		return
	}
	qctx, cancel := context.WithTimeout(ctx, engine.DefaultCommandTimeout)
	_ = c.dialect.Quit(qctx, c.proc)
	cancel()
	select {
	case <-c.proc.Exited():
	case <-time.After(checkQuitTimeout):
		fmt.Fprintf(c.out, "note: the engine was still running %v after quit; the bridge ends it, but it should exit by itself\n", checkQuitTimeout)
	}
	c.dropEngine()
}

// maxMoveBytes is the longest move text a turn reply may carry (protocol.DecodeTurnReply).
const maxMoveBytes = 64

// describeFailure says in plain words what went wrong and what a tournament would make of
// it, quoting the line the engine sent. limit names the time that ran out, if one did;
// starting tells a failed start-up, after which the engine never joins its games.
func describeFailure(err error, limit string, starting bool) string {
	var ae *engine.AnswerError
	detail := err.Error()
	if errors.As(err, &ae) {
		detail = ae.Reason
		if ae.Line != "" {
			detail = fmt.Sprintf("the engine sent %q: %s", ae.Line, ae.Reason)
		}
	}
	// The codes are what a tournament records for the same thing through arena engine: the
	// bridge passes the engine's answer on and the referee judges it; an engine that dies
	// choosing its move loses the game as crashed.
	var what, code string
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		what, code = "no answer within "+limit, protocol.ReasonTimeForfeit
	case errors.Is(err, engine.ErrExited):
		what, code = "the engine exited", protocol.ReasonCrashed
	case errors.Is(err, engine.ErrRefused):
		// No answer of the engine's to judge: the bridge gives the game up for it.
		what, code = "the position could not be set up", protocol.ReasonResigned
	case errors.Is(err, game.ErrIllegalMove):
		what, code = "illegal move", protocol.ReasonIllegalMove
	case ae != nil && len(ae.Line) > maxMoveBytes:
		// The referee's decoder refuses a move longer than that as a protocol error.
		what, code = "an answer too long to be a move", protocol.ReasonProtocol
	case errors.Is(err, game.ErrBadMove):
		what, code = "wrong move format", protocol.ReasonIllegalMove
	case errors.Is(err, engine.ErrLineTooLong):
		what, code = "a line too long", protocol.ReasonProtocol
	default:
		what, code = "an answer that is no move", protocol.ReasonIllegalMove
	}
	if starting {
		code = protocol.ReasonAbsent
	}
	return fmt.Sprintf("%s (forfeit: %s); %s", what, code, detail)
}

// checkTurn builds the turn after moves, with the check's move time.
func checkTurn(g game.Game, moves []string, moveTime time.Duration) (agent.Turn, error) {
	s := g.NewState()
	for _, text := range moves {
		m, err := s.ParseMove(text)
		if err != nil {
			return agent.Turn{}, err
		}
		if err := s.Play(m); err != nil {
			return agent.Turn{}, err
		}
	}
	seat := s.ToMove()
	if seat < 0 {
		return agent.Turn{}, fmt.Errorf("no single seat to move after %s", strings.Join(moves, " "))
	}
	ms := moveTime.Milliseconds()
	return agent.Turn{
		GameID:   "check",
		Game:     g,
		State:    s,
		Seat:     seat,
		Legal:    s.LegalMoves(seat, nil),
		Moves:    append([]string{}, moves...),
		Clock:    protocol.Clock{MoveMS: ms, RemainingMS: ms, PerMove: true},
		Deadline: time.Now().Add(moveTime),
	}, nil
}

// checkPositions picks the positions of the checks: the initial position, the second
// seat's first move, and from random games played with a fixed seed the first position
// where the side to move must pass, the first with a single legal move, one a few moves
// before the end, and the first where the side to move has a move after the other side
// passed (the engine must follow the pass). A kind of position the game does not have (no
// passes) is left out.
func checkPositions(g game.Game) []checkPosition {
	start := g.NewState()
	out := []checkPosition{{name: "start position (" + seatName(g, start.ToMove()) + " to move)"}}
	if first := start.LegalMoves(start.ToMove(), nil); start.ToMove() >= 0 && len(first) > 0 {
		s := start.Clone()
		text := s.MoveString(first[0])
		if s.Play(first[0]) == nil && s.ToMove() >= 0 && !s.IsTerminal() {
			out = append(out, checkPosition{name: fmt.Sprintf("reply to %s (%s to move)", text, seatName(g, s.ToMove())), moves: []string{text}})
		}
	}

	var pass, single, end, afterPass *checkPosition
	rng := rand.New(rand.NewPCG(checkSeed, 0))
	for range 500 {
		if pass != nil && single != nil && end != nil && afterPass != nil {
			break
		}
		s := g.NewState()
		var moves []string
		var plies []game.State // the position before each move
		for !s.IsTerminal() && s.ToMove() >= 0 && len(moves) < 1000 {
			legal := s.LegalMoves(s.ToMove(), nil)
			if len(legal) == 0 {
				break
			}
			who := seatName(g, s.ToMove())
			if len(legal) == 1 && s.MoveString(legal[0]) == "pass" && pass == nil {
				pass = &checkPosition{name: "forced pass (" + who + " to move, pass is the only legal move)", moves: append([]string{}, moves...)}
			}
			if n := len(moves); n > 0 && moves[n-1] == "pass" && s.MoveString(legal[0]) != "pass" && afterPass == nil {
				afterPass = &checkPosition{name: fmt.Sprintf("after a pass (%s passed, %s to move)", seatName(g, plies[n-1].ToMove()), who),
					moves: append([]string{}, moves...)}
			}
			if len(legal) == 1 && s.MoveString(legal[0]) != "pass" && single == nil && len(moves) > 1 {
				single = &checkPosition{name: fmt.Sprintf("single legal move (%s to move, only %s)", who, s.MoveString(legal[0])), moves: append([]string{}, moves...)}
			}
			plies = append(plies, s.Clone())
			m := legal[rng.IntN(len(legal))]
			moves = append(moves, s.MoveString(m))
			if s.Play(m) != nil {
				break
			}
		}
		if end == nil && s.IsTerminal() && len(moves) > 8 {
			for back := 6; back < len(moves)-2; back++ {
				at := len(moves) - back
				p := plies[at]
				if n := len(p.LegalMoves(p.ToMove(), nil)); n >= 2 {
					end = &checkPosition{name: fmt.Sprintf("endgame (%s to move, %d plies from the end of a game)", seatName(g, p.ToMove()), back),
						moves: append([]string{}, moves[:at]...)}
					break
				}
			}
		}
	}
	for _, p := range []*checkPosition{pass, single, end, afterPass} {
		if p != nil {
			out = append(out, *p)
		}
	}
	return out
}

func seatName(g game.Game, s game.Seat) string {
	if seats := g.Seats(); s >= 0 && int(s) < len(seats) {
		return seats[s]
	}
	return s.String()
}

// engineStderr passes the engine's standard error on, marked as the engine's, until stop.
type engineStderr struct {
	mu      sync.Mutex
	w       io.Writer
	stopped bool
}

func (e *engineStderr) line(l string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.stopped {
		fmt.Fprintf(e.w, "engine stderr: %s\n", l)
	}
}

func (e *engineStderr) stop() {
	e.mu.Lock()
	e.stopped = true
	e.mu.Unlock()
}
