package referee

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/tournament"
)

// TestLoadOf: the load of a span is the worst of the samples inside it and of the first
// one after it, however late that one came, or the threads' waits added up over them when
// that is more; samples before it do not count.
func TestLoadOf(t *testing.T) {
	at := func(ms int) time.Time { return testStart.Add(time.Duration(ms) * time.Millisecond) }
	ring := make([]loadSample, 4)
	n := 0
	for _, s := range []loadSample{
		{at: at(10), late: 90 * time.Millisecond}, // overwritten: the ring keeps 4
		{at: at(20), late: 7 * time.Millisecond, steal: 0.5},
		{at: at(30), late: time.Millisecond, wait: 2 * time.Millisecond},
		{at: at(40), late: 2 * time.Millisecond, wait: 3 * time.Millisecond},
		{at: at(95), late: 45 * time.Millisecond}, // a stall after 40
	} {
		ring[n%len(ring)] = s
		n++
	}
	cases := []struct {
		name     string
		from, to int
		want     Load
	}{
		{"inside, waits added up", 25, 35, Load{Late: 5 * time.Millisecond}},
		{"the stall after the span counts", 31, 41, Load{Late: 45 * time.Millisecond}},
		{"from the start", 15, 25, Load{Late: 7 * time.Millisecond, Steal: 0.5}},
		{"before every sample kept", 0, 5, Load{Late: 7 * time.Millisecond, Steal: 0.5}},
		{"after every sample", 100, 200, Load{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := loadOf(ring, n, at(tc.from), at(tc.to)); got != tc.want {
				t.Errorf("load %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestParseSchedstat(t *testing.T) {
	cases := []struct {
		data string
		wait uint64
		ok   bool
	}{
		{"2098029348 6962383728 1858\n", 6962383728, true},
		{"2098029348\n", 0, false},
		{"1 x 3\n", 0, false},
	}
	for _, tc := range cases {
		if wait, ok := parseSchedstat([]byte(tc.data)); wait != tc.wait || ok != tc.ok {
			t.Errorf("%q: got %d, %v; want %d, %v", tc.data, wait, ok, tc.wait, tc.ok)
		}
	}
}

func TestParseCPULine(t *testing.T) {
	cases := []struct {
		line         string
		steal, total uint64
		ok           bool
	}{
		{"cpu  10 1 5 100 2 0 1 3 0 0", 3, 122, true},
		{"cpu  10 1 5 100 2 0 1", 0, 0, false}, // no steal column
		{"cpu0 10 1 5 100 2 0 1 3 0 0", 0, 0, false},
		{"cpu  10 x 5 100 2 0 1 3", 0, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			steal, total, ok := parseCPULine([]byte(tc.line))
			if steal != tc.steal || total != tc.total || ok != tc.ok {
				t.Errorf("got %d, %d, %v; want %d, %d, %v", steal, total, ok, tc.steal, tc.total, tc.ok)
			}
		})
	}
}

// fixedLoad is a LoadMeter that reports the same load for every span.
func fixedLoad(late time.Duration) LoadMeter {
	return LoadMeterFunc(func(time.Time, time.Time) Load { return Load{Late: late} })
}

// TestJudgeOverload: a time forfeit is the machine's when the referee itself was at least
// as late as the reply, and the player's otherwise.
func TestJudgeOverload(t *testing.T) {
	req := protocol.TurnRequest{GameID: "g1"}
	cases := []struct {
		name     string
		referee  time.Duration // the referee's own lateness during the turn
		ex       exchange
		excused  bool
		lateness time.Duration
	}{
		{"11ms late, referee 40ms late", 40 * time.Millisecond, decoded(reply(req, "1"), limit+11*time.Millisecond), true, 40 * time.Millisecond},
		{"11ms late, quiet machine", 0, decoded(reply(req, "1"), limit+11*time.Millisecond), false, 0},
		{"60ms late, referee 40ms late", 40 * time.Millisecond, decoded(reply(req, "1"), limit+60*time.Millisecond), false, 0},
		{"timed out, reply 30ms late, referee 40ms late", 40 * time.Millisecond, exchange{timedOut: true, elapsed: limit, late: 30 * time.Millisecond}, true, 40 * time.Millisecond},
		{"timed out, deadline's timer fired 50ms late", 0, exchange{timedOut: true, elapsed: limit, late: 30 * time.Millisecond, timerLate: 50 * time.Millisecond}, true, 50 * time.Millisecond},
		{"no reply in the watch", 40 * time.Millisecond, exchange{timedOut: true, elapsed: limit, watched: time.Second}, false, 0},
		{"no reply, not watched", time.Second, exchange{timedOut: true, elapsed: limit}, false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := judgeRun(t, 0)
			g.r.load = fixedLoad(tc.referee)
			out := g.judge(0, 0, g.st.LegalMoves(0, nil), tc.ex)
			if out.reason != protocol.ReasonTimeForfeit {
				t.Fatalf("reason %q (%s), want a time forfeit", out.reason, out.detail)
			}
			if (out.overload != nil) != tc.excused {
				t.Fatalf("overload %+v, want excused %v", out.overload, tc.excused)
			}
			if tc.excused && out.overload.Late != tc.lateness {
				t.Errorf("referee lateness %v, want %v", out.overload.Late, tc.lateness)
			}
		})
	}
}

// lateAlice returns a referee of e measuring its lateness with load, and makes alice a
// player that replies 11ms after its deadline, bob an instant one.
func lateAlice(e *env, load LoadMeter) *Referee {
	e.t.Helper()
	ref, err := New(Config{Conn: e.refNC, Clock: e.clock, ID: "ref-load", Load: load})
	if err != nil {
		e.t.Fatal(err)
	}
	e.player("alice", func(req protocol.TurnRequest) []byte {
		e.clock.Advance(limit + 11*time.Millisecond)
		return lastLegal(req)
	})
	e.player("bob", lastLegal)
	return ref
}

// TestOverloadVoidsGame plays a game whose reply comes 11ms after the deadline: with the
// referee measured 40ms late then, the game is void (ErrOverloaded, also ErrVoided) and says
// why; on a quiet machine the same reply loses on time.
func TestOverloadVoidsGame(t *testing.T) {
	for _, referee := range []time.Duration{0, 40 * time.Millisecond} {
		t.Run(referee.String(), func(t *testing.T) {
			e := newEnv(t)
			ref := lateAlice(e, fixedLoad(referee))
			res, err := ref.Play(context.Background(), countMatch(t, "g1", "alice", "bob"))
			if referee == 0 {
				if err != nil || res.Reason != protocol.ReasonTimeForfeit || res.Forfeit != 0 {
					t.Fatalf("err %v, reason %q (%s); want alice's time forfeit", err, res.Reason, res.Detail)
				}
				return
			}
			if !errors.Is(err, ErrOverloaded) || !errors.Is(err, ErrVoided) {
				t.Fatalf("err %v, want ErrOverloaded and ErrVoided", err)
			}
			if res.Reason != protocol.ReasonAborted || res.Forfeit != -1 || res.Returns != nil ||
				res.Late != 11*time.Millisecond || res.Lateness != referee {
				t.Fatalf("result %+v", res)
			}
			for _, want := range []string{"void: the machine was overloaded", "it came 11ms after that", "the referee itself ran up to 40ms late"} {
				if !strings.Contains(res.Detail, want) {
					t.Errorf("detail %q lacks %q", res.Detail, want)
				}
			}
		})
	}
}

// TestTournamentReplaysOverloadedGames: a tournament reports a game voided by an overload
// to Tournament.Voided and plays it again; the second time the machine is quiet and the
// late player loses on time.
func TestTournamentReplaysOverloadedGames(t *testing.T) {
	e := newEnv(t)
	var calls int
	load := LoadMeterFunc(func(time.Time, time.Time) Load {
		calls++ // judge runs on the game's goroutine, one game at a time
		if calls == 1 {
			return Load{Late: 40 * time.Millisecond}
		}
		return Load{}
	})
	ref := lateAlice(e, load)
	m := countMatch(t, "t", "alice", "bob")
	var voided []Result
	var results []Result
	err := ref.RunTournament(context.Background(), Tournament{
		ID: "t", Game: m.Game, TC: m.TC,
		Schedule: []tournament.Pairing{{Index: 1, Round: 1, Players: []string{"alice", "bob"}}},
		Voided:   func(_ tournament.Pairing, res Result) { voided = append(voided, res) },
	}, func(_ context.Context, _ tournament.Pairing, res Result) error {
		results = append(results, res)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(voided) != 1 || voided[0].Lateness != 40*time.Millisecond {
		t.Fatalf("voided %+v, want one game with the referee 40ms late", voided)
	}
	if len(results) != 1 || results[0].Reason != protocol.ReasonTimeForfeit {
		t.Fatalf("results %+v, want one time forfeit", results)
	}
}

// TestSystemLoadMeasures: the process's meter takes samples while it is held, and stops
// when the last holder lets go. It asserts no duration: any lateness is possible here.
func TestSystemLoadMeasures(t *testing.T) {
	m := SystemLoad().(*sysMeter)
	release := m.acquire()
	defer release()
	from := time.Now()
	m.mu.Lock()
	n := m.n
	m.mu.Unlock()
	deadline := time.Now().Add(wait)
	for {
		m.mu.Lock()
		grown := m.n >= n+2
		m.mu.Unlock()
		if grown {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the meter took no sample")
		}
		time.Sleep(loadTick)
	}
	if l := m.Load(from, time.Now()); l.Late < 0 || l.Steal < 0 || l.Steal > 1 {
		t.Errorf("load %+v", l)
	}
	release()
	m.mu.Lock()
	users := m.users
	m.mu.Unlock()
	if users != 0 {
		t.Errorf("%d users after release", users)
	}
}
