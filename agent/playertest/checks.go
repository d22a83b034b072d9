package playertest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
)

// unknownSetting is the setting no agent knows.
const unknownSetting = "no-such-setting"

// checkSettings checks that an unknown setting is refused with an error naming the agent
// and the setting, that a GameChecker accepts the game, and that every registered game
// the agent did not register for is refused, by CheckGame and by Choose, with an error
// wrapping agent.ErrWrongGame.
func checkSettings(t *testing.T, e *env) error {
	params := e.config(t, map[string]string{unknownSetting: "1"})
	a, err := safeFactory(e, agent.Config{Seed: 1, Params: params})
	switch {
	case err == nil:
		cerr := closeAgent(a)
		return errors.Join(fmt.Errorf("%s: made with the unknown setting %s=1 (settings %v): want an error naming it", e.who(), unknownSetting, params), cerr)
	case !strings.Contains(err.Error(), e.name) || !strings.Contains(err.Error(), unknownSetting):
		return fmt.Errorf("%s: the unknown setting %s=1 gives the error %q, which does not name both the agent and the setting", e.who(), unknownSetting, err)
	}

	a = e.newAgent(t, 1, nil)
	checker, _ := a.(agent.GameChecker)
	if checker != nil {
		if err := safeCheckGame(checker, e.game); err != nil {
			return fmt.Errorf("%s: CheckGame refuses a game the agent is checked on: %v", e.who(), err)
		}
	}
	if e.claimed == nil {
		t.Logf("%s plays every game: no game to refuse", e.name)
		return nil
	}
	var errs []error
	for _, name := range game.Names() {
		if slices.Contains(e.claimed, name) {
			continue
		}
		other, err := game.Lookup(name)
		if err != nil {
			return fmt.Errorf("registered game %s: %v", name, err)
		}
		if checker != nil {
			if err := safeCheckGame(checker, other); !errors.Is(err, agent.ErrWrongGame) {
				errs = append(errs, fmt.Errorf("%s: CheckGame(%s), a game it did not register for, returns %v: want an error wrapping agent.ErrWrongGame", e.who(), name, err))
			}
		}
		st := other.NewState()
		seat := st.ToMove()
		if seat == game.Simultaneous {
			seat = 0
		}
		turn, err := turnOf(other, "wrong-game", st, seat, nil, perMoveClock(PlayMove))
		arrive(&turn, time.Now())
		if err != nil {
			return err
		}
		d, err := choose(t.Context(), a, turn)
		if !errors.Is(err, agent.ErrWrongGame) {
			what := fmt.Sprintf("returns the error %v", err)
			if err == nil {
				what = fmt.Sprintf("returns no error but %+v", d)
			}
			errs = append(errs, fmt.Errorf("%s: asked to play %s, a game it did not register for, from position %q, Choose %s: want an error wrapping agent.ErrWrongGame", e.who(), name, st.String(), what))
		}
	}
	return errors.Join(errs...)
}

// safeFactory makes an agent, turning a panic into an error.
func safeFactory(e *env, cfg agent.Config) (a agent.Agent, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic making the agent: %v\n%s", r, debug.Stack())
		}
	}()
	return e.factory(cfg)
}

// safeCheckGame calls CheckGame, turning a panic into an error.
func safeCheckGame(c agent.GameChecker, g game.Game) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return c.CheckGame(g)
}

// closeAgent closes an agent, turning a panic into an error.
func closeAgent(a agent.Agent) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the agent's Close panicked: %v\n%s", r, debug.Stack())
		}
	}()
	if err := agent.Close(a); err != nil {
		return fmt.Errorf("closing the agent: %w", err)
	}
	return nil
}

// closeWait is how long the close check waits for goroutines to end and files to close.
const closeWait = 2 * time.Second

// checkClose makes the agent, plays a game with it and closes it, and checks that the
// goroutines and open files are then as many as before it was made.
func checkClose(t *testing.T, e *env) error {
	params := e.config(t, nil) // files the settings need are made before counting
	runtime.GC()
	goBefore := runtime.NumGoroutine()
	fdBefore, fdErr := openFiles()
	a, err := safeFactory(e, agent.Config{Seed: 1, Params: params})
	if err != nil {
		return fmt.Errorf("%s: making the agent with settings %v: %v", e.who(), params, err)
	}
	m := &match{e: e, a: a, id: "close", seat: 0, rng: rand.New(rand.NewPCG(1, 1)), tc: clock.TimeControl{PerMove: PlayMove}}
	_, playErr := m.play(t.Context())
	if err := closeAgent(a); err != nil {
		return errors.Join(playErr, fmt.Errorf("%s: %v", e.who(), err))
	}
	if playErr != nil {
		return playErr
	}

	var goAfter int
	var fdAfter map[string]string
	for wait := time.Now().Add(closeWait); ; time.Sleep(10 * time.Millisecond) {
		goAfter = runtime.NumGoroutine()
		if fdErr == nil {
			fdAfter, _ = openFiles()
		}
		if (goAfter <= goBefore && len(fdAfter) <= len(fdBefore)) || time.Now().After(wait) {
			break
		}
	}
	var errs []error
	if goAfter > goBefore {
		buf := make([]byte, 1<<16)
		buf = buf[:runtime.Stack(buf, true)]
		errs = append(errs, fmt.Errorf("%s: %d goroutines before the agent was made, %d still %v after Close; all goroutines:\n%s", e.who(), goBefore, goAfter, closeWait, buf))
	}
	if fdErr == nil && len(fdAfter) > len(fdBefore) {
		var extra []string
		for fd, target := range fdAfter {
			if fdBefore[fd] != target {
				extra = append(extra, fd+" -> "+target)
			}
		}
		slices.Sort(extra)
		errs = append(errs, fmt.Errorf("%s: %d files open before the agent was made, %d still %v after Close; new: %s", e.who(), len(fdBefore), len(fdAfter), closeWait, strings.Join(extra, ", ")))
	}
	if fdErr != nil {
		t.Logf("open files not counted: %v", fdErr)
	}
	return errors.Join(errs...)
}

// openFiles returns the process's open file descriptors and what each is open on.
func openFiles() (map[string]string, error) {
	const dir = "/proc/self/fd"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(entries))
	for _, de := range entries {
		target, err := os.Readlink(dir + "/" + de.Name())
		if err != nil {
			continue // the directory's own descriptor, closed by now
		}
		out[de.Name()] = target
	}
	return out, nil
}

// checkDeadline asks the agent about positions of a random game, from its start to its
// last moves, each with DeadlineMove per move, and checks that every reply comes by the
// turn's deadline (plus Tolerance) with a legal move. The positions are of games the
// agent never heard start, as a player restarted mid-game is asked.
func checkDeadline(t *testing.T, e *env) error {
	a := e.newAgent(t, 1, nil)
	states, hists := playout(e.game, rand.New(rand.NewPCG(2, 2)))
	n := len(states)
	var probes []int
	for _, i := range []int{0, n / 2, n - 12, n - 8, n - 4, n - 2, n - 1} {
		if i >= 0 && !slices.Contains(probes, i) {
			probes = append(probes, i)
		}
	}
	var errs []error
	for k, i := range probes {
		st := states[i]
		seat := st.ToMove()
		if seat == game.Simultaneous {
			seat = game.Seat(k % len(e.game.Seats()))
		}
		turn, err := turnOf(e.game, "deadline-"+strconv.Itoa(k), st, seat, hists[i], perMoveClock(DeadlineMove))
		if err != nil {
			return err
		}
		arrive(&turn, time.Now())
		d, err := choose(t.Context(), a, turn)
		late := time.Since(turn.Deadline)
		if err := judge(turn, d, err); err != nil {
			errs = append(errs, turnFailure(e, turn, err))
			continue
		}
		if late > Tolerance {
			errs = append(errs, turnFailure(e, turn, fmt.Errorf("replied %dms after its deadline (%v per move, the deadline %v before its end; tolerance %v)",
				late.Milliseconds(), DeadlineMove, reserve(DeadlineMove), Tolerance)))
		}
	}
	return errors.Join(errs...)
}

// playout plays a random game from the initial position and returns its positions before
// the end, each with the moves that led to it.
func playout(g game.Game, rng *rand.Rand) ([]game.State, [][]string) {
	st := g.NewState()
	var states []game.State
	var hists [][]string
	var hist []string
	for !st.IsTerminal() && st.Ply() < MaxPlies {
		states = append(states, st.Clone())
		hists = append(hists, slices.Clone(hist))
		text, err := playRandom(st, len(g.Seats()), rng)
		if err != nil {
			break // gametest's business; the positions so far are still worth asking
		}
		hist = append(hist, text)
	}
	return states, hists
}

// checkClock plays a game in each seat on a game clock of ClockBase plus ClockIncrement
// a move, charged with the time each Choose takes, and checks that the agent never runs
// out of time (by more than Tolerance).
func checkClock(t *testing.T, e *env) error {
	a := e.newAgent(t, 1, nil)
	for seat := range e.game.Seats() {
		m := &match{e: e, a: a, id: "clock-" + strconv.Itoa(seat), seat: game.Seat(seat),
			rng: rand.New(rand.NewPCG(3, uint64(seat))),
			tc:  clock.TimeControl{Base: ClockBase, Increment: ClockIncrement}, strict: true}
		start := time.Now()
		hist, err := m.play(t.Context())
		if err != nil {
			return err
		}
		t.Logf("seat %d: %d plies, %d turns of the agent, %v", seat, len(hist), m.turns, time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// checkLegal plays games from the initial position and from two random openings, in
// every seat, against random movers, and checks that every move is legal.
func checkLegal(t *testing.T, e *env) error {
	a := e.newAgent(t, 1, nil)
	var games, plies, turns int
	for seat := range e.game.Seats() {
		for k := range 3 {
			rng := rand.New(rand.NewPCG(4, uint64(10*seat+k)))
			opening := 0
			if k > 0 {
				opening = 1 + rng.IntN(10)
			}
			m := &match{e: e, a: a, id: fmt.Sprintf("legal-%d-%d", seat, k), seat: game.Seat(seat), opening: opening,
				rng: rng, tc: clock.TimeControl{PerMove: PlayMove}}
			hist, err := m.play(t.Context())
			if err != nil {
				return err
			}
			games, plies, turns = games+1, plies+len(hist), turns+m.turns
		}
	}
	t.Logf("%d games, %d plies, %d turns of the agent", games, plies, turns)
	return nil
}

// checkConcurrent plays ConcurrentGames games at once with one agent, and checks that
// every move is legal; under the race detector it checks that the agent is safe for
// concurrent use, as agent.Agent requires.
func checkConcurrent(t *testing.T, e *env) error {
	a := e.newAgent(t, 1, nil)
	errs := make([]error, ConcurrentGames)
	var wg sync.WaitGroup
	for i := range ConcurrentGames {
		m := &match{e: e, a: a, id: "concurrent-" + strconv.Itoa(i), seat: game.Seat(i % len(e.game.Seats())),
			opening: i, rng: rand.New(rand.NewPCG(5, uint64(i))), tc: clock.TimeControl{PerMove: PlayMove}}
		wg.Go(func() { _, errs[i] = m.play(t.Context()) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// checkReproducible makes two agents with the same seed and the Case's Fixed settings,
// plays each against the same seeded random movers from the same openings, in every
// seat, and checks that they play the same moves.
func checkReproducible(t *testing.T, e *env) error {
	if e.fixed == nil {
		t.Skipf("%s: Case.Fixed is nil: the agent has no settings under which its moves depend on its seed alone", e.name)
	}
	const seed = 7
	a := e.newAgent(t, seed, e.fixed)
	b := e.newAgent(t, seed, e.fixed)
	for seat := range e.game.Seats() {
		var hist [2][]string
		for i, x := range []agent.Agent{a, b} {
			m := &match{e: e, a: x, id: "reproducible-" + strconv.Itoa(seat), seat: game.Seat(seat), opening: 2 + seat,
				rng: rand.New(rand.NewPCG(6, uint64(seat))), tc: clock.TimeControl{PerMove: ReproduceMove}}
			h, err := m.play(t.Context())
			if err != nil {
				return err
			}
			hist[i] = h
		}
		if slices.Equal(hist[0], hist[1]) {
			continue
		}
		i := 0
		for i < len(hist[0]) && i < len(hist[1]) && hist[0][i] == hist[1][i] {
			i++
		}
		at := func(h []string) string {
			if i < len(h) {
				return strconv.Quote(h[i])
			}
			return "the end of the game"
		}
		return fmt.Errorf("%s: two agents with seed %d and the fixed settings %v, in seat %d, played the same moves up to ply %d, position %q, then %s and %s: their moves depend on more than their seed",
			e.who(), seed, e.fixed, seat, i, replay(e.game, hist[0][:i]), at(hist[0]), at(hist[1]))
	}
	return nil
}

// replay returns the position after the moves as the referee records them, or a note
// when they do not replay.
func replay(g game.Game, hist []string) string {
	st := g.NewState()
	for _, text := range hist {
		parts := []string{text}
		if st.ToMove() == game.Simultaneous {
			parts = strings.Split(text, ",")
		}
		moves := make([]game.Move, len(parts))
		for i, p := range parts {
			m, err := st.ParseMove(p)
			if err != nil {
				return fmt.Sprintf("(move %q does not replay: %v)", text, err)
			}
			moves[i] = m
		}
		var err error
		if st.ToMove() == game.Simultaneous {
			err = st.PlayJoint(moves)
		} else {
			err = st.Play(moves[0])
		}
		if err != nil {
			return fmt.Sprintf("(move %q does not replay: %v)", text, err)
		}
	}
	return st.String()
}
