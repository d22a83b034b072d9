package playertest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/protocol"
)

// The suite is tested on agents that are not registered (TestBuiltin fails for a
// registered agent without a Case): a correct one, which passes every check, and broken
// ones, each of which one check must catch, with a message naming the agent, the game,
// the position and the move.

// randomAgent plays random legal moves; it reads its settings as registered agents do.
type randomAgent struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func newRandom(cfg agent.Config) (agent.Agent, error) {
	if err := cfg.Settings().Err(); err != nil {
		return nil, err
	}
	return &randomAgent{rng: rand.New(rand.NewPCG(uint64(cfg.Seed), 1))}, nil
}

func (a *randomAgent) Choose(_ context.Context, t agent.Turn) (agent.Decision, error) {
	if name, _, _ := game.ParseSpec(t.Game.Name()); name != testgame.CountName && name != testgame.PenniesName && name != othello.Name {
		return agent.Decision{}, agent.WrongGame("test", t.GameName(), "")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return agent.Decision{Move: t.Legal[a.rng.IntN(len(t.Legal))]}, nil
}

// testEnv is the env Run would make for an agent registered as name for the test games
// and Othello, made by f.
func testEnv(name string, g game.Game, f agent.Factory) *env {
	return &env{
		name:    name,
		claimed: []string{testgame.CountName, testgame.PenniesName, othello.Name},
		game:    g,
		factory: func(cfg agent.Config) (agent.Agent, error) {
			a, err := f(cfg)
			if err != nil {
				return nil, fmt.Errorf("agent %s: %w", name, err)
			}
			return a, nil
		},
		fixed: map[string]string{},
	}
}

var (
	count   = testgame.NewCount(testgame.DefaultTarget)
	pennies = testgame.NewPennies(5)
)

// TestCorrect runs every check on a correct agent, in a sequential and a simultaneous
// game.
func TestCorrect(t *testing.T) {
	for _, g := range []game.Game{count, pennies} {
		t.Run(g.Name(), func(t *testing.T) { runChecks(t, testEnv("good", g, newRandom)) })
	}
}

// withChoose makes agents that choose with f and read their settings as they should.
func withChoose(f agent.Func) agent.Factory {
	return func(cfg agent.Config) (agent.Agent, error) {
		if err := cfg.Settings().Err(); err != nil {
			return nil, err
		}
		return f, nil
	}
}

// TestFindsBadMoves: a move that is not legal, an error, a resignation, a raw reply, no
// reply, a crash or a panic fail the legal check, which names the position and the move.
func TestFindsBadMoves(t *testing.T) {
	for _, tc := range []struct {
		name   string
		choose agent.Func
		want   []string
	}{
		{"illegal", func(_ context.Context, t agent.Turn) (agent.Decision, error) {
			if len(t.Moves) == 2 {
				return agent.Decision{Move: 9}, nil // a digit that parses but is never legal
			}
			return agent.Decision{Move: t.Legal[0]}, nil
		}, []string{"game legal-0-0, seat 0, ply 2, position \"", `chose "9"`, "legal: 1 2"}},
		{"error", func(context.Context, agent.Turn) (agent.Decision, error) {
			return agent.Decision{}, errors.New("out of ideas")
		}, []string{"Choose failed: out of ideas", `position "`}},
		{"resign", func(context.Context, agent.Turn) (agent.Decision, error) {
			return agent.Decision{Resign: true}, nil
		}, []string{"resigned"}},
		{"raw", func(context.Context, agent.Turn) (agent.Decision, error) {
			return agent.Decision{Raw: "1"}, nil
		}, []string{`raw text "1"`}},
		{"no reply", func(context.Context, agent.Turn) (agent.Decision, error) {
			return agent.Decision{NoReply: true}, nil
		}, []string{"unanswered"}},
		{"crashed", func(context.Context, agent.Turn) (agent.Decision, error) {
			return agent.Decision{Crashed: "exit status 3"}, nil
		}, []string{"crashed: exit status 3"}},
		{"panic", func(_ context.Context, t agent.Turn) (agent.Decision, error) {
			var s []game.Move
			return agent.Decision{Move: s[len(t.Legal)]}, nil
		}, []string{"panic: runtime error: index out of range"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkLegal(t, testEnv("bad", count, withChoose(tc.choose)))
			wantError(t, err, append(tc.want, "bad on testcount")...)
		})
	}
}

// wantError fails unless err contains every one of want.
func wantError(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one containing %q", want)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
}

// TestFindsLateReplies: an agent that overruns its deadline fails the deadline check, and
// one that takes more than its clock holds fails the clock check.
func TestFindsLateReplies(t *testing.T) {
	slow := withChoose(func(_ context.Context, t agent.Turn) (agent.Decision, error) {
		if t.State.String() == "0 0" {
			time.Sleep(time.Until(t.Deadline) + 2*Tolerance)
		}
		return agent.Decision{Move: t.Legal[0]}, nil
	})
	err := checkDeadline(t, testEnv("slow", count, slow))
	wantError(t, err, "slow on testcount", `position "0 0"`, "ms after its deadline")

	hog := withChoose(func(_ context.Context, t agent.Turn) (agent.Decision, error) {
		time.Sleep(time.Duration(t.Clock.RemainingMS)*time.Millisecond + 2*Tolerance)
		return agent.Decision{Move: t.Legal[0]}, nil
	})
	err = checkClock(t, testEnv("hog", count, hog))
	wantError(t, err, "hog on testcount", "ran out of time", fmt.Sprintf("with %dms left", ClockBase.Milliseconds()))
}

// TestFindsSharedState: an agent that keeps its turn in one place for all games, under a
// lock (so the race detector has nothing to say), answers one game with another's move.
func TestFindsSharedState(t *testing.T) {
	var mu sync.Mutex
	var current agent.Turn
	shared := withChoose(func(_ context.Context, t agent.Turn) (agent.Decision, error) {
		mu.Lock()
		current = t
		mu.Unlock()
		time.Sleep(time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		return agent.Decision{Move: current.Legal[len(current.Legal)-1]}, nil
	})
	err := checkConcurrent(t, testEnv("shared", othello.New(), shared))
	wantError(t, err, "shared on othello", "not a legal move")
}

// instances counts the agents unseeded makes.
var instances atomic.Int64

// unseeded plays by how many agents were made before it, not by its seed.
func unseeded(cfg agent.Config) (agent.Agent, error) {
	n := int(instances.Add(1))
	return agent.Func(func(_ context.Context, t agent.Turn) (agent.Decision, error) {
		return agent.Decision{Move: t.Legal[n%len(t.Legal)]}, nil
	}), nil
}

// TestFindsIrreproducible: two agents with one seed that play differently fail the
// reproducible check, which is skipped when Case.Fixed is nil.
func TestFindsIrreproducible(t *testing.T) {
	err := checkReproducible(t, testEnv("unseeded", count, unseeded))
	wantError(t, err, "unseeded on testcount", "depend on more than their seed", "played the same moves up to ply")

	t.Run("not fixed", func(t *testing.T) {
		e := testEnv("unseeded", count, unseeded)
		e.fixed = nil
		checkReproducible(t, e)
		if !t.Skipped() {
			t.Error("the check ran with Case.Fixed nil")
		}
	})
}

// lax ignores its settings.
func lax(agent.Config) (agent.Agent, error) {
	return &randomAgent{rng: rand.New(rand.NewPCG(1, 1))}, nil
}

// choosy refuses unknown settings with an error that does not say which.
func choosy(cfg agent.Config) (agent.Agent, error) {
	if len(cfg.Params) > 0 {
		return nil, errors.New("bad settings")
	}
	return lax(cfg)
}

// checked is a GameChecker whose methods are wrong in the ways given.
type checked struct {
	agent.Agent
	refuse     bool // refuse every game, even its own
	plainError bool // refuse other games with an error not wrapping ErrWrongGame
}

func (c *checked) CheckGame(g game.Game) error {
	switch {
	case c.refuse:
		return agent.WrongGame("checked", g.Name(), "it refuses everything")
	case g.Name() == testgame.CountName:
		return nil
	case c.plainError:
		return errors.New("not my game")
	}
	return agent.WrongGame("checked", g.Name(), "")
}

// TestFindsBadSettings: an agent that accepts an unknown setting, or refuses it without
// naming it, or takes a game it did not register for, or panics on one, fails the
// settings check.
func TestFindsBadSettings(t *testing.T) {
	onlyCount := func(f agent.Func) agent.Factory {
		return withChoose(func(ctx context.Context, t agent.Turn) (agent.Decision, error) {
			if t.Game.Name() != testgame.CountName {
				return f(ctx, t)
			}
			return agent.Decision{Move: t.Legal[0]}, nil
		})
	}
	checker := func(c checked) agent.Factory {
		return func(cfg agent.Config) (agent.Agent, error) {
			a, err := newRandom(cfg)
			if err != nil {
				return nil, err
			}
			cc := c
			cc.Agent = a
			return &cc, nil
		}
	}
	for _, tc := range []struct {
		name string
		f    agent.Factory
		want []string
	}{
		{"lax", lax, []string{"made with the unknown setting no-such-setting=1"}},
		{"choosy", choosy, []string{`gives the error "agent choosy: bad settings"`}},
		{"takes any game", onlyCount(func(_ context.Context, t agent.Turn) (agent.Decision, error) {
			return agent.Decision{Move: t.Legal[0]}, nil
		}), []string{"asked to play othello", "Choose returns no error"}},
		{"panics", onlyCount(func(_ context.Context, t agent.Turn) (agent.Decision, error) {
			_ = t.State.(*testgame.CountState)
			return agent.Decision{}, nil
		}), []string{"asked to play othello", "panic: interface conversion"}},
		{"plain error", onlyCount(func(_ context.Context, t agent.Turn) (agent.Decision, error) {
			return agent.Decision{}, errors.New("not my game")
		}), []string{"asked to play testpennies", "returns the error not my game: want an error wrapping agent.ErrWrongGame"}},
		{"refuses its game", checker(checked{refuse: true}), []string{"CheckGame refuses a game the agent is checked on"}},
		{"checks with a plain error", checker(checked{plainError: true}), []string{"CheckGame(othello), a game it did not register for, returns not my game"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := testEnv(tc.name, count, tc.f)
			e.claimed = []string{testgame.CountName}
			wantError(t, checkSettings(t, e), tc.want...)
		})
	}
}

// leaky starts a goroutine and opens a file that its Close leaves behind, until the test
// releases them.
type leaky struct {
	agent.Agent
	f    *os.File
	stop chan struct{}
}

func (l *leaky) release() {
	close(l.stop)
	l.f.Close()
}

// TestFindsLeaks: an agent whose Close leaves a goroutine running and a file open, or
// panics, fails the close check.
func TestFindsLeaks(t *testing.T) {
	dir := t.TempDir()
	var made []*leaky
	defer func() {
		for _, l := range made {
			l.release()
		}
	}()
	leak := func(cfg agent.Config) (agent.Agent, error) {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("leak%d", len(made))))
		if err != nil {
			return nil, err
		}
		a, _ := newRandom(cfg)
		l := &leaky{Agent: a, f: f, stop: make(chan struct{})}
		go func() { <-l.stop }()
		made = append(made, l)
		return l, nil
	}
	err := checkClose(t, testEnv("leaky", count, leak))
	wantError(t, err, "leaky on testcount", "goroutines before the agent was made", "files open before the agent was made", filepath.Join(dir, "leak0"))

	err = checkClose(t, testEnv("panicky", count, func(cfg agent.Config) (agent.Agent, error) {
		a, _ := newRandom(cfg)
		return &panicky{a}, nil
	}))
	wantError(t, err, "Close panicked: closed twice")
}

type panicky struct{ agent.Agent }

func (panicky) Close() error { panic("closed twice") }

// learner checks the game notices it receives against one another: the end replays from
// the start by the moves, and the result and returns agree.
type learner struct {
	randomAgent
	g       game.Game
	mu      sync.Mutex
	started map[string]protocol.GameNotice
	ended   int
	errs    []error
}

func (l *learner) fail(format string, args ...any) {
	l.errs = append(l.errs, fmt.Errorf(format, args...))
}

func (l *learner) GameStarted(n protocol.GameNotice) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n.Type != protocol.TypeGameStart || n.V != protocol.Version || n.Game != l.g.Name() || n.Position != l.g.NewState().String() ||
		len(n.Players) != len(l.g.Seats()) || n.Players[n.Seat] != "learner" {
		l.fail("game_start %+v", n)
	}
	if _, dup := l.started[n.GameID]; dup {
		l.fail("game %s started twice", n.GameID)
	}
	l.started[n.GameID] = n
}

func (l *learner) GameEnded(n protocol.GameNotice) {
	l.mu.Lock()
	defer l.mu.Unlock()
	start, ok := l.started[n.GameID]
	delete(l.started, n.GameID)
	if !ok {
		l.fail("game %s ended without starting", n.GameID)
		return
	}
	l.ended++
	if n.Type != protocol.TypeGameEnd || n.Seat != start.Seat || !slices.Equal(n.Players, start.Players) || n.Reason != protocol.ReasonNormal {
		l.fail("game_end %+v after %+v", n, start)
	}
	if got := replay(l.g, n.Moves); got != n.Position {
		l.fail("game %s: the moves %q replay to %q, not the final position %q", n.GameID, n.Moves, got, n.Position)
	}
	st, _ := l.g.ParseState(n.Position)
	if !st.IsTerminal() || !slices.Equal(st.Returns(nil), n.Returns) || n.Result != game.ResultString(game.Scores(n.Returns)) || n.Result == "" {
		l.fail("game %s: result %q returns %v at %q", n.GameID, n.Result, n.Returns, n.Position)
	}
}

// TestNotices: a Learner hears of every game's start and end, with notices as a referee
// sends them, in every check that plays games.
func TestNotices(t *testing.T) {
	for _, g := range []game.Game{count, pennies} {
		t.Run(g.Name(), func(t *testing.T) {
			var made []*learner
			e := testEnv("learner", g, func(cfg agent.Config) (agent.Agent, error) {
				l := &learner{randomAgent: randomAgent{rng: rand.New(rand.NewPCG(uint64(cfg.Seed), 1))}, g: g, started: map[string]protocol.GameNotice{}}
				made = append(made, l)
				return l, nil
			})
			for _, check := range []func(*testing.T, *env) error{checkLegal, checkClock, checkConcurrent, checkReproducible, checkClose} {
				if err := check(t, e); err != nil {
					t.Fatal(err)
				}
			}
			ended := 0
			for _, l := range made {
				for _, err := range l.errs {
					t.Error(err)
				}
				for id := range l.started {
					t.Errorf("game %s never ended", id)
				}
				ended += l.ended
			}
			if want := 6 + 2 + ConcurrentGames + 4 + 1; ended != want {
				t.Errorf("%d games ended, want %d", ended, want)
			}
		})
	}
}

// TestTurns: the turns are those the player runtime gives: the position read back from
// its text, the legal moves, the moves so far as the referee records them, an
// observation in games that have one, and the deadline less the runtime's reserve.
func TestTurns(t *testing.T) {
	for _, tc := range []struct {
		g     game.Game
		clock clock.TimeControl
	}{
		{count, clock.TimeControl{PerMove: 50 * time.Millisecond}},
		{pennies, clock.TimeControl{Base: time.Second, Increment: 20 * time.Millisecond}},
	} {
		t.Run(tc.g.Name(), func(t *testing.T) {
			var errs []error
			check := func(_ context.Context, turn agent.Turn) (agent.Decision, error) {
				arrival := time.Now()
				fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
				if got := replay(tc.g, turn.Moves); got != turn.State.String() {
					fail("moves %q replay to %q, not %q", turn.Moves, got, turn.State)
				}
				if want := turn.State.LegalMoves(turn.Seat, nil); !slices.Equal(want, turn.Legal) || turn.Game != tc.g {
					fail("turn %+v", turn)
				}
				if _, ok := turn.State.(game.Observer); ok != (turn.Observation != nil) {
					fail("observation %s", turn.Observation)
				}
				move := time.Duration(turn.Clock.MoveMS) * time.Millisecond
				if d := turn.Deadline.Sub(arrival) - (move - reserve(move)); d > 0 {
					fail("deadline %v after the turn for a move time of %v", turn.Deadline.Sub(arrival), move)
				}
				if turn.Clock.PerMove != !tc.clock.IsClock() || turn.Clock.RemainingMS != turn.Clock.MoveMS ||
					turn.Clock.IncrementMS != tc.clock.Increment.Milliseconds() || turn.Clock.MovesToGo != 0 {
					fail("clock %+v", turn.Clock)
				}
				return agent.Decision{Move: turn.Legal[0]}, nil
			}
			e := testEnv("turns", tc.g, withChoose(check))
			m := &match{e: e, a: agent.Func(check), id: "g", seat: 1, opening: 3, rng: rand.New(rand.NewPCG(1, 1)), tc: tc.clock}
			if _, err := m.play(t.Context()); err != nil {
				t.Fatal(err)
			}
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestDeadline: a turn's deadline is its arrival plus the clock's move time, less the
// runtime's default reserve: a tenth, at most 20ms.
func TestDeadline(t *testing.T) {
	arrival := time.Unix(1000, 0)
	for _, tc := range []struct {
		clock protocol.Clock
		want  time.Duration
	}{
		{perMoveClock(50 * time.Millisecond), 45 * time.Millisecond},
		{perMoveClock(time.Second), 980 * time.Millisecond},
		{gameClock(1500*time.Millisecond+700*time.Microsecond, 20*time.Millisecond), 1480 * time.Millisecond},
		{gameClock(0, 20*time.Millisecond), 0},
	} {
		turn, err := turnOf(count, "g", count.NewState(), 0, nil, tc.clock)
		if err != nil {
			t.Fatal(err)
		}
		arrive(&turn, arrival)
		if got := turn.Deadline.Sub(arrival); got != tc.want {
			t.Errorf("clock %+v: deadline %v after the arrival, want %v", tc.clock, got, tc.want)
		}
	}
}

// gameClock is the clock of a turn on a game clock with left on it, as the referee
// writes it.
func gameClock(left, inc time.Duration) protocol.Clock {
	ms := left.Milliseconds()
	return protocol.Clock{MoveMS: ms, RemainingMS: ms, IncrementMS: inc.Milliseconds()}
}
