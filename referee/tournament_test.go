package referee

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/tournament"
)

// collector records a tournament's results and checks that onResult is never called
// concurrently.
type collector struct {
	t       testing.TB
	mu      sync.Mutex
	inside  atomic.Int32
	results map[int]Result
	order   []int
}

func newCollector(t testing.TB) *collector { return &collector{t: t, results: map[int]Result{}} }

func (c *collector) onResult(_ context.Context, p tournament.Pairing, res Result) error {
	if n := c.inside.Add(1); n != 1 {
		c.t.Errorf("onResult called %d times at once", n)
	}
	defer c.inside.Add(-1)
	time.Sleep(time.Millisecond) // give an overlap a chance to show
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.results[p.Index]; dup {
		c.t.Errorf("game %d reported twice", p.Index)
	}
	if want := fmt.Sprintf("t1-%d", p.Index); res.GameID != want {
		c.t.Errorf("pairing %d got the result of %s", p.Index, res.GameID)
	}
	c.results[p.Index] = res
	c.order = append(c.order, p.Index)
	return nil
}

func (c *collector) indices() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Clone(c.order)
	slices.Sort(out)
	return out
}

func TestRunTournamentConcurrent(t *testing.T) {
	e := newEnv(t)
	const conc = 8
	// Nobody answers until conc games have asked for a move: the tournament finishes
	// only if it plays that many at once.
	var mu sync.Mutex
	seen := map[string]bool{}
	gate := make(chan struct{})
	instant := func(req protocol.TurnRequest) []byte {
		mu.Lock()
		if !seen[req.GameID] {
			seen[req.GameID] = true
			if len(seen) == conc {
				close(gate)
			}
		}
		mu.Unlock()
		<-gate
		return firstLegal(req)
	}
	names := []string{"alice", "bob", "carol", "dan"}
	for _, n := range names {
		e.asyncPlayer(n, instant)
	}
	sched, err := tournament.RoundRobin(names, 2)
	if err != nil {
		t.Fatal(err)
	}
	c := newCollector(t)
	err = e.ref.RunTournament(context.Background(), Tournament{ID: "t1", Game: lookup(t, testgame.CountName),
		Schedule: sched, TC: clock.TimeControl{PerMove: perMove}, Concurrency: conc}, c.onResult)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.indices(); len(got) != len(sched) {
		t.Fatalf("%d results, want %d", len(got), len(sched))
	}
	for i, res := range c.results {
		// Ten moves of 1: the second seat makes the last.
		if res.Reason != protocol.ReasonNormal || res.Result != "0-1" || len(res.Moves) != 10 ||
			!slices.Equal(res.Players, sched[i-1].Players) {
			t.Errorf("game %d: %+v", i, res)
		}
	}
}

func TestRunTournamentSkip(t *testing.T) {
	e := newEnv(t)
	e.player("alice", firstLegal)
	e.player("bob", firstLegal)
	e.player("carol", firstLegal)
	sched, _ := tournament.RoundRobin([]string{"alice", "bob", "carol"}, 1)
	c := newCollector(t)
	err := e.ref.RunTournament(context.Background(), Tournament{ID: "t1", Game: lookup(t, testgame.CountName),
		Schedule: sched, TC: clock.TimeControl{PerMove: perMove}, Concurrency: 2,
		Skip: func(i int) bool { return i%2 == 0 }}, c.onResult)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.indices(); !slices.Equal(got, []int{1, 3, 5}) {
		t.Errorf("played %v, want 1 3 5", got)
	}
}

func TestRunTournamentDrain(t *testing.T) {
	e := newEnv(t)
	drain := make(chan struct{})
	release := make(chan struct{})
	e.asyncPlayer("alice", firstLegal)
	e.asyncPlayer("carol", firstLegal)
	// bob holds game 2 back until the tournament is draining.
	e.asyncPlayer("bob", func(req protocol.TurnRequest) []byte {
		if req.GameID == "t1-2" {
			<-release
		}
		return firstLegal(req)
	})
	sched, _ := tournament.RoundRobin([]string{"alice", "bob", "carol"}, 1) // 1: alice-bob, 2: bob-carol, ...
	c := newCollector(t)
	onResult := func(ctx context.Context, p tournament.Pairing, res Result) error {
		if p.Index == 1 {
			close(drain)
			close(release)
		}
		return c.onResult(ctx, p, res)
	}
	err := e.ref.RunTournament(context.Background(), Tournament{ID: "t1", Game: lookup(t, testgame.CountName),
		Schedule: sched, TC: clock.TimeControl{PerMove: perMove}, Concurrency: 2, Drain: drain}, onResult)
	if !errors.Is(err, ErrDrained) {
		t.Errorf("error %v, want ErrDrained", err)
	}
	if got := c.indices(); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("recorded %v, want the two games that had started: 1 2", got)
	}
	if res := c.results[2]; res.Reason != protocol.ReasonNormal {
		t.Errorf("game 2 ended %q: a draining tournament plays its games to their end", res.Reason)
	}
}

func TestRunTournamentCancelledMidGame(t *testing.T) {
	e := newEnv(t)
	asked, never := silent()
	e.asyncPlayer("alice", never)
	e.asyncPlayer("bob", never)
	sched, _ := tournament.RoundRobin([]string{"alice", "bob"}, 2)
	ctx, cancel := context.WithCancel(context.Background())
	c := newCollector(t)
	done := make(chan error, 1)
	go func() {
		done <- e.ref.RunTournament(ctx, Tournament{ID: "t1", Game: lookup(t, testgame.CountName),
			Schedule: sched, TC: clock.TimeControl{PerMove: perMove}, Concurrency: 2}, c.onResult)
	}()
	recv(t, asked)
	recv(t, asked)
	cancel()
	if err := recv(t, done); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if got := c.indices(); len(got) != 0 {
		t.Errorf("aborted games %v were reported", got)
	}
}

func TestRunTournamentAbsent(t *testing.T) {
	e := newEnv(t)
	// Waiting takes real time: a fake clock would have to be advanced past the other
	// games' turn timers too.
	ref, err := New(Config{Conn: e.refNC, ID: "ref-2"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := ref.StartLobby(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"alice", "bob"} {
		e.player(n, firstLegal)
		e.hello(n)
	}
	// carol and dan never say hello.
	sched, _ := tournament.RoundRobin([]string{"alice", "bob", "carol"}, 1)
	sched = append(sched, tournament.Pairing{Index: 7, Round: 1, Players: []string{"carol", "dan"}})
	c := newCollector(t)
	err = ref.RunTournament(ctx, Tournament{ID: "t1", Game: lookup(t, testgame.CountName),
		Schedule: sched, TC: clock.TimeControl{PerMove: perMove}, Concurrency: 2, Wait: 30 * time.Millisecond}, c.onResult)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.indices(); len(got) != 7 {
		t.Fatalf("recorded %v, want all 7 games", got)
	}
	for i, res := range c.results {
		carol := slices.Index(res.Players, "carol")
		switch {
		case i == 7:
			if res.Reason != protocol.ReasonAbsent || res.Result != "1/2-1/2" || res.Forfeit != 0 || len(res.Moves) != 0 {
				t.Errorf("both absent: %+v", res)
			}
		case carol >= 0:
			if res.Reason != protocol.ReasonAbsent || res.Forfeit != carol || len(res.Moves) != 0 ||
				res.Scores[carol] != 0 || res.Detail != "carol: not present after waiting 30ms" {
				t.Errorf("game %d with absent carol: %+v", i, res)
			}
		default:
			if res.Reason != protocol.ReasonNormal {
				t.Errorf("game %d: %+v", i, res)
			}
		}
	}

	t.Run("wait needs a lobby", func(t *testing.T) {
		err := e.ref.RunTournament(ctx, Tournament{ID: "t1", Game: lookup(t, testgame.CountName),
			Schedule: sched, TC: clock.TimeControl{PerMove: perMove}, Wait: time.Second}, nil)
		if !errors.Is(err, ErrInvalidTournament) {
			t.Errorf("error %v, want ErrInvalidTournament", err)
		}
	})
}

// TestRunTournamentVoidsOutage restarts the NATS server while a game waits for a move: the
// game is void, and the tournament plays it again once the referee has reconnected.
func TestRunTournamentVoidsOutage(t *testing.T) {
	srv, err := embedded.Start(embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	port, _ := strconv.Atoi(u.Port())
	var restarted *embedded.Server
	t.Cleanup(func() {
		if restarted != nil {
			restarted.Shutdown()
		}
	})
	connect := func() *nats.Conn {
		nc, err := nats.Connect(srv.URL(), nats.MaxReconnects(-1), nats.ReconnectWait(10*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		return nc
	}
	fake := NewFakeClock(testStart)
	e := &env{t: t, clock: fake, refNC: connect(), testNC: connect()}
	e.ref, err = New(Config{Conn: e.refNC, Clock: fake})
	if err != nil {
		t.Fatal(err)
	}
	cut := make(chan struct{})
	var once sync.Once
	e.player("alice", firstLegal)
	e.player("bob", func(req protocol.TurnRequest) []byte {
		first := false
		once.Do(func() { first = true })
		if first {
			close(cut) // the outage comes while bob thinks
			return nil
		}
		return firstLegal(req)
	})
	sched, _ := tournament.RoundRobin([]string{"alice", "bob"}, 1)
	c := newCollector(t)
	done := make(chan error, 1)
	go func() {
		done <- e.ref.RunTournament(context.Background(), Tournament{ID: "t1", Game: lookup(t, testgame.CountName),
			Schedule: sched, TC: clock.TimeControl{PerMove: perMove}}, c.onResult)
	}()
	recv(t, cut)
	srv.Shutdown()
	restarted, err = embedded.Start(embedded.Options{Port: port})
	if err != nil {
		t.Fatal(err)
	}
	// No clock is advanced: the waiting turn notices the outage by itself.
	if err := recv(t, done); err != nil {
		t.Fatal(err)
	}
	if got := c.indices(); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("recorded %v, want 1 2", got)
	}
	for i, res := range c.results {
		if res.Reason != protocol.ReasonNormal || len(res.Moves) != 10 {
			t.Errorf("game %d: %+v", i, res)
		}
	}
}

// TestRunTournamentWaitsForSubscription has a player that said hello but is between two
// connections when its game is due: the game waits for its turn subscription.
func TestRunTournamentWaitsForSubscription(t *testing.T) {
	e := newEnv(t)
	ref, err := New(Config{Conn: e.refNC, ID: "ref-2"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := ref.StartLobby(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	e.player("alice", firstLegal)
	e.hello("alice")
	e.hello("bob")   // bob subscribes only later
	e.hello("carol") // carol never does
	go func() {
		time.Sleep(50 * time.Millisecond)
		e.player("bob", firstLegal)
	}()
	sched := []tournament.Pairing{
		{Index: 1, Round: 1, Players: []string{"alice", "bob"}},
		{Index: 2, Round: 1, Players: []string{"carol", "alice"}},
	}
	c := newCollector(t)
	err = ref.RunTournament(ctx, Tournament{ID: "t1", Game: lookup(t, testgame.CountName),
		Schedule: sched, TC: clock.TimeControl{PerMove: perMove}, Wait: 300 * time.Millisecond}, c.onResult)
	if err != nil {
		t.Fatal(err)
	}
	if res := c.results[1]; res.Reason != protocol.ReasonNormal {
		t.Errorf("game 1: %+v", res)
	}
	if res := c.results[2]; res.Reason != protocol.ReasonAbsent || res.Forfeit != 0 {
		t.Errorf("game 2: %+v", res)
	}
}

func TestRunTournament(t *testing.T) {
	e := newEnv(t)
	e.player("alice", lastLegal)
	e.player("bob", firstLegal)
	// carol never shows up: each of her games is a forfeit, and the tournament goes on.
	sched, err := tournament.RoundRobin([]string{"alice", "bob", "carol"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	tour := Tournament{ID: "t1", Game: lookup(t, testgame.CountName), Schedule: sched, TC: clock.TimeControl{PerMove: perMove}}

	t.Run("forfeits do not stop it", func(t *testing.T) {
		var got []Result
		err := e.ref.RunTournament(context.Background(), tour, func(ctx context.Context, p tournament.Pairing, res Result) error {
			if !reflect.DeepEqual(res.Players, p.Players) {
				t.Errorf("game %d: result for %v, pairing %v", p.Index, res.Players, p.Players)
			}
			got = append(got, res)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 6 {
			t.Fatalf("%d results, want 6", len(got))
		}
		for i, res := range got {
			if want := fmt.Sprintf("t1-%d", i+1); res.GameID != want {
				t.Errorf("game id %q, want %q", res.GameID, want)
			}
			carol := -1
			for seat, p := range res.Players {
				if p == "carol" {
					carol = seat
				}
			}
			switch {
			case carol >= 0 && (res.Reason != protocol.ReasonNoResponders || res.Forfeit != carol):
				t.Errorf("%s: carol's game ended %q, forfeit %d", res.GameID, res.Reason, res.Forfeit)
			case carol < 0 && res.Reason != protocol.ReasonNormal:
				t.Errorf("%s: ended %q", res.GameID, res.Reason)
			}
		}
	})

	t.Run("onResult error stops it", func(t *testing.T) {
		stop := errors.New("disk full")
		calls := 0
		err := e.ref.RunTournament(context.Background(), tour, func(context.Context, tournament.Pairing, Result) error {
			calls++
			return stop
		})
		if !errors.Is(err, stop) || calls != 1 || !strings.Contains(err.Error(), "t1-1") {
			t.Errorf("error %v after %d calls, want disk full after 1 naming t1-1", err, calls)
		}
	})

	t.Run("invalid", func(t *testing.T) {
		cases := []struct {
			name   string
			change func(t *Tournament)
		}{
			{"bad id", func(t *Tournament) { t.ID = "t 1" }},
			{"id too long", func(t *Tournament) { t.ID = strings.Repeat("t", 63) }},
			{"no game", func(t *Tournament) { t.Game = nil }},
			{"duplicate index", func(t *Tournament) { t.Schedule = []tournament.Pairing{sched[0], sched[0]} }},
			{"three players", func(t *Tournament) {
				t.Schedule = []tournament.Pairing{{Index: 1, Round: 1, Players: []string{"alice", "bob", "carol"}}}
			}},
			{"no time", func(t *Tournament) { t.TC.PerMove = 0 }},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				bad := tour
				tc.change(&bad)
				called := false
				err := e.ref.RunTournament(context.Background(), bad, func(context.Context, tournament.Pairing, Result) error {
					called = true
					return nil
				})
				if !errors.Is(err, ErrInvalidTournament) || called {
					t.Errorf("error %v (game played: %v), want ErrInvalidTournament before any game", err, called)
				}
			})
		}
	})

	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := e.ref.RunTournament(ctx, tour, nil)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	})
}
