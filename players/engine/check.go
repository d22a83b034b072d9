package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/protocol"
)

// DefaultCheckMoveTime is the time per move of Check's position checks unless
// CheckConfig.MoveTime says otherwise.
const DefaultCheckMoveTime = time.Second

// DefaultCheckClock is the game clock of the check that plays a whole game, in the form
// clock.Parse reads, unless CheckConfig.Clock says otherwise.
const DefaultCheckClock = "10+0.1"

// checkQuitTimeout is how long Check waits for the engine to exit after quit, and after a
// failed check, before its process group is ended.
const checkQuitTimeout = time.Second

// checkSeed fixes the random games the check positions are taken from, and the moves of
// the engine's opponent in the game on a clock, so that every run checks the same.
const checkSeed = 20240601

// CheckConfig is what Check runs: an engine program, the protocol it speaks, the game and
// the times of the checks.
type CheckConfig struct {
	// Argv is the engine's command line.
	Argv []string
	// Game is the game of the checks. The protocol must play it (Protocol.CheckGame).
	Game game.Game
	// Dialect returns the protocol's Dialect for one engine process, as Protocol.Dialects
	// does; the engine is started again after a check that leaves it unfit to go on.
	Dialect func() Dialect
	// StartTimeout is the time the engine has to start and answer the handshake; zero
	// means DefaultStartTimeout.
	StartTimeout time.Duration
	// MoveTime is the time per move of the position checks; zero means
	// DefaultCheckMoveTime.
	MoveTime time.Duration
	// Clock is the time control of the check that plays a whole game, a game clock or a
	// time per move: the one the tournament will use; the zero value means
	// DefaultCheckClock.
	Clock clock.TimeControl
	// Out receives the report: a heading, one line per check ("ok   NAME: ..." or
	// "FAIL NAME: ..."), and a summary.
	Out io.Writer
	// Stderr, if set, receives each line the engine writes to its standard error.
	Stderr func(line string)
}

// Check runs an engine through a fixed set of checks and says on cfg.Out, one line per
// check, what a tournament would forfeit it for: the start (the handshake within the
// start-up time), a move in each of the positions that trip engines up (the start, the
// reply to a first move, a forced pass, a single legal move, an endgame, the move after
// the opponent passed; those the game has), each within the move time, and a whole game on
// the time control cfg.Clock, with the time left as the referee counts it (game/clock) and
// no margin. The failures are named with the codes a tournament records (time_forfeit,
// illegal_move, ...) and quote what the engine sent. Between the checks the engine is
// brought back in step as the bridge does after a turn that went wrong (Dialect.Settle):
// what it wrote outside its answers is read away and reported as a warning, quoting its
// first line, and an engine that does not settle is started again for the next check.
// Check returns an error when a check failed or the engine did not start, and ctx's
// error when ctx ends first.
func Check(ctx context.Context, cfg CheckConfig) error {
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	if cfg.MoveTime <= 0 {
		cfg.MoveTime = DefaultCheckMoveTime
	}
	if cfg.Clock == (clock.TimeControl{}) {
		cfg.Clock, _ = clock.Parse(DefaultCheckClock)
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	c := &checker{
		argv: cfg.Argv, g: cfg.Game, newDialect: cfg.Dialect,
		startTimeout: cfg.StartTimeout, moveTime: cfg.MoveTime, clock: cfg.Clock,
		out: cfg.Out, stderr: cfg.Stderr,
	}
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
	newDialect   func() Dialect
	startTimeout time.Duration
	moveTime     time.Duration
	clock        clock.TimeControl // of the game on a clock
	out          io.Writer
	stderr       func(line string)

	proc    *Process
	dialect Dialect
}

func (c *checker) run(ctx context.Context) error {
	positions := checkPositions(c.g)
	total := 1 + len(positions) + 1 // the start, the positions, the game on a clock
	tcText := "a game on a " + c.clock.String() + " clock"
	if !c.clock.IsClock() {
		tcText = "a game at " + c.clock.String() + " a move"
	}
	fmt.Fprintf(c.out, "checking %s (%s protocol, %s, %v to start, %v a move, %s): %d checks\n",
		strings.Join(c.argv, " "), c.newDialect().Name(), c.g.Name(), c.startTimeout, c.moveTime, tcText, total)

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
		warning := c.settle(ctx)
		if ok {
			fmt.Fprintf(c.out, "ok   %s: %s\n", name, msg)
		} else {
			failed++
			fmt.Fprintf(c.out, "FAIL %s: %s\n", name, msg)
		}
		if warning != "" {
			fmt.Fprintf(c.out, "warn %s: %s\n", name, warning)
		}
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
	p, err := Start(ctx, c.argv, Options{
		StartTimeout: c.startTimeout,
		QuitTimeout:  checkQuitTimeout,
		Stderr:       c.stderr,
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
	cctx, cancel := context.WithTimeout(ctx, DefaultCommandTimeout)
	err = c.dialect.NewGame(cctx, c.proc, c.g, t.Seat)
	cancel()
	if err != nil {
		c.dropEngine()
		return "the engine failed at the start of a game: " + describeFailure(err, fmt.Sprintf("the command time (%v)", DefaultCommandTimeout), false), false
	}
	begin := time.Now()
	mctx, cancel := context.WithDeadline(ctx, t.Deadline)
	dec, err := c.dialect.Move(mctx, c.proc, t)
	cancel()
	took := humantime.Round(time.Since(begin))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || errors.Is(err, ErrExited) || !c.alive() {
			c.dropEngine()
		}
		return describeFailure(err, fmt.Sprintf("the move time (%v)", c.moveTime), false), false
	}
	if dec.Resign {
		return fmt.Sprintf("the engine resigned instead of moving (after %v): the game would be lost", took), false
	}
	return fmt.Sprintf("%s in %v", t.State.MoveString(dec.Move), took), true
}

// settle reads away what the engine wrote outside its answers in the check just run, as
// the bridge does after a turn that went wrong (Dialect.Settle), and returns a warning
// quoting it, or "" when there was nothing. An engine that does not settle is dropped, to
// be started again for the next check.
func (c *checker) settle(ctx context.Context) string {
	if c.proc == nil {
		return ""
	}
	var st Stale
	f, fenced := c.dialect.(fencing)
	if fenced {
		st = f.takeStale()
		fenced = !f.unfenced()
	}
	sctx, cancel := context.WithTimeout(ctx, DefaultPingTimeout)
	more, err := c.dialect.Settle(sctx, c.proc)
	cancel()
	st.Merge(more)
	var warning string
	switch {
	case st.Lines == 0:
	case fenced:
		warning = fmt.Sprintf("the engine wrote %d lines outside its answers (the first: %q); the fence read them away, as a tournament's bridge does", st.Lines, st.First)
	default:
		warning = fmt.Sprintf("the engine wrote %d lines outside its answers (the first: %q): a tournament takes such a line for the engine's answer, or restarts the engine; debug output belongs on standard error, or ask for the fence (feature fence, docs/engines.md)", st.Lines, st.First)
	}
	if err != nil && c.alive() {
		c.dropEngine()
		warning = strings.TrimPrefix(warning+"; ", "; ") + fmt.Sprintf("the engine did not settle within %v (%v) and is started again", DefaultPingTimeout, err)
	}
	return warning
}

// clockName names the check of the game on the check's time control.
func (c *checker) clockName() string {
	if !c.clock.IsClock() {
		return fmt.Sprintf("game at %s a move (%s)", c.clock, seatName(c.g, 0))
	}
	return fmt.Sprintf("game on a %s clock (%s)", c.clock, seatName(c.g, 0))
}

// checkClock plays a whole game on the game clock c.clock, the engine with the first seat
// and the check the other, with random legal moves of a fixed seed. Each of the engine's
// turns has the time left on its clock, as the referee would give it, and must be
// answered with a legal move before that runs out. An engine that knows GTP's time_left
// must have been told the time before each genmove.
func (c *checker) checkClock(ctx context.Context) (string, bool) {
	rec := &sentLines{LineConn: c.proc}
	cctx, cancel := context.WithTimeout(ctx, DefaultCommandTimeout)
	err := c.dialect.NewGame(cctx, rec, c.g, 0)
	cancel()
	if err != nil {
		c.dropEngine()
		return "the engine failed at the start of a game: " + describeFailure(err, fmt.Sprintf("the command time (%v)", DefaultCommandTimeout), false), false
	}
	rng := rand.New(rand.NewPCG(checkSeed, 1))
	st := c.g.NewState()
	var moves []string
	clk, own := clock.New(c.clock), 0
	var slowest time.Duration
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
				if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || errors.Is(err, ErrExited) || !c.alive() {
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
			slowest = max(slowest, used)
			own++
			m = dec.Move
		}
		moves = append(moves, st.MoveString(m))
		if err := st.Play(m); err != nil {
			return fmt.Sprintf("cannot play %s: %v", st.MoveString(m), err), false // a bug of ours
		}
	}
	msg := fmt.Sprintf("%d moves, %v left at the end of the game", own, humantime.Round(clk.Left()))
	if !c.clock.IsClock() {
		msg = fmt.Sprintf("%d moves, the slowest in %v", own, humantime.Round(slowest))
	}
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
	LineConn
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
	qctx, cancel := context.WithTimeout(ctx, DefaultCommandTimeout)
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
	var ae *AnswerError
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
	case errors.Is(err, ErrExited):
		what, code = "the engine exited", protocol.ReasonCrashed
	case errors.Is(err, ErrRefused):
		// No answer of the engine's to judge: the bridge gives the game up for it.
		what, code = "the position could not be set up", protocol.ReasonResigned
	case errors.Is(err, game.ErrIllegalMove):
		what, code = "illegal move", protocol.ReasonIllegalMove
	case ae != nil && len(ae.Line) > maxMoveBytes:
		// The referee's decoder refuses a move longer than that as a protocol error.
		what, code = "an answer too long to be a move", protocol.ReasonProtocol
	case errors.Is(err, game.ErrBadMove):
		what, code = "wrong move format", protocol.ReasonIllegalMove
	case errors.Is(err, ErrLineTooLong):
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
	perMove := clock.New(clock.TimeControl{PerMove: moveTime})
	return agent.Turn{
		GameID:   "check",
		Game:     g,
		State:    s,
		Seat:     seat,
		Legal:    s.LegalMoves(seat, nil),
		Moves:    append([]string{}, moves...),
		Clock:    perMove.Wire(),
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
