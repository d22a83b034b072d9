package referee

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/protocol"
)

// thinker is a fake player that takes think of the referee's time for every move, notes
// the clocks it is sent, and plays "2" (testcount's last legal move until the end).
func thinker(e *env, think time.Duration, mu *sync.Mutex, clocks *[]clk) answer {
	return func(req protocol.TurnRequest) []byte {
		mu.Lock()
		*clocks = append(*clocks, clk{req.Clock.MoveMS, req.Clock.RemainingMS, req.Clock.IncrementMS})
		mu.Unlock()
		e.clock.Advance(think)
		return lastLegal(req)
	}
}

// clk is a protocol.Clock written short: move_ms, remaining_ms, increment_ms.
type clk [3]int64

func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

func TestPlayGameClock(t *testing.T) {
	cases := []struct {
		name         string
		tc           clock.TimeControl
		think        [2]time.Duration
		sent         [2][]clk           // what each seat is told before each of its moves
		after        [2][]time.Duration // MoveRecord.Clock of each seat's moves
		reason       string
		detailSuffix string
		detailAlt    string // the same lateness, judged on the reply's arrival rather than at the deadline
	}{
		{
			name: "increment", tc: clock.TimeControl{Base: time.Second, Increment: 100 * time.Millisecond},
			think: [2]time.Duration{ms(300), ms(50)},
			sent: [2][]clk{
				{{1000, 1000, 100}, {800, 800, 100}, {600, 600, 100}},
				{{1000, 1000, 100}, {1050, 1050, 100}},
			},
			after:  [2][]time.Duration{{ms(800), ms(600), ms(400)}, {ms(1050), ms(1100)}},
			reason: protocol.ReasonNormal,
		},
		{
			name: "periods", tc: clock.TimeControl{Base: time.Second, MovesPerPeriod: 2},
			think: [2]time.Duration{ms(400), ms(100)},
			sent: [2][]clk{
				{{1000, 1000, 0}, {600, 600, 0}, {1200, 1200, 0}},
				{{1000, 1000, 0}, {900, 900, 0}},
			},
			after:  [2][]time.Duration{{ms(600), ms(1200), ms(800)}, {ms(900), ms(1800)}},
			reason: protocol.ReasonNormal,
		},
		{
			// 520ms of a 500ms clock is inside the 50ms margin: the clock stops at zero,
			// and the increment is all the next move has.
			name: "margin used", tc: clock.TimeControl{Base: ms(500), Increment: ms(20)},
			think: [2]time.Duration{ms(520), ms(1)},
			sent: [2][]clk{
				{{500, 500, 20}, {20, 20, 20}},
				{{500, 500, 20}},
			},
			after:        [2][]time.Duration{{ms(20)}, {ms(519)}},
			reason:       protocol.ReasonTimeForfeit,
			detailSuffix: "the 20ms left on its clock+50ms; it came 450ms after that",
			detailAlt:    "450ms later than the 20ms left on its clock+50ms",
		},
		{
			name: "flag falls", tc: clock.TimeControl{Base: ms(500)},
			think: [2]time.Duration{ms(300), ms(10)},
			sent: [2][]clk{
				{{500, 500, 0}, {200, 200, 0}},
				{{500, 500, 0}},
			},
			after:        [2][]time.Duration{{ms(200)}, {ms(490)}},
			reason:       protocol.ReasonTimeForfeit,
			detailSuffix: "the 200ms left on its clock+50ms; it came 50ms after that",
			detailAlt:    "50ms later than the 200ms left on its clock+50ms",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			var mu sync.Mutex
			var clocks [2][]clk
			e.player("alice", thinker(e, tc.think[0], &mu, &clocks[0]))
			e.player("bob", thinker(e, tc.think[1], &mu, &clocks[1]))
			m := countMatch(t, "g1", "alice", "bob")
			m.TC = tc.tc
			res, err := e.ref.Play(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			// A reply that arrives as the deadline passes is judged late either way: after
			// the deadline fired ("it came ... after that") or just before its timer was
			// handled ("reply after ..., ... later than"), as under the race detector.
			late := strings.HasSuffix(res.Detail, tc.detailSuffix) || (tc.detailAlt != "" && strings.HasSuffix(res.Detail, tc.detailAlt))
			if res.Reason != tc.reason || !late {
				t.Errorf("reason %q detail %q, want %q ending in %q", res.Reason, res.Detail, tc.reason, tc.detailSuffix)
			}
			mu.Lock()
			defer mu.Unlock()
			var after [2][]time.Duration
			for _, mr := range res.Moves {
				after[mr.Seat] = append(after[mr.Seat], mr.Clock)
				if mr.Elapsed != tc.think[mr.Seat] {
					t.Errorf("ply %d charged %v, want %v", mr.Ply, mr.Elapsed, tc.think[mr.Seat])
				}
			}
			for seat := range 2 {
				if !reflect.DeepEqual(clocks[seat], tc.sent[seat]) {
					t.Errorf("seat %d was sent %v, want %v", seat, clocks[seat], tc.sent[seat])
				}
				if !reflect.DeepEqual(after[seat], tc.after[seat]) {
					t.Errorf("seat %d clock after its moves %v, want %v", seat, after[seat], tc.after[seat])
				}
			}
			if tc.reason == protocol.ReasonNormal {
				want := []time.Duration{tc.after[0][len(tc.after[0])-1], tc.after[1][len(tc.after[1])-1]}
				if !reflect.DeepEqual(res.Clocks, want) {
					t.Errorf("final clocks %v, want %v", res.Clocks, want)
				}
			}
		})
	}
}

// slowGame is testcount with a Play that takes the referee's fake time, as a heavy game's
// rules would: the referee's own work.
type slowGame struct {
	game.Game
	clock *FakeClock
	cost  time.Duration
}

func (g slowGame) NewState() game.State { return &slowState{g.Game.NewState(), g} }

type slowState struct {
	game.State
	g slowGame
}

func (s *slowState) Play(m game.Move) error {
	s.g.clock.Advance(s.g.cost)
	return s.State.Play(m)
}

func TestPlayOverheadIsNotCharged(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	var clocks [2][]clk
	e.player("alice", thinker(e, ms(10), &mu, &clocks[0]))
	e.player("bob", thinker(e, ms(10), &mu, &clocks[1]))
	m := countMatch(t, "g1", "alice", "bob")
	m.Game = slowGame{m.Game, e.clock, ms(5)}
	m.TC = clock.TimeControl{Base: time.Second}
	res, err := e.ref.Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != protocol.ReasonNormal || len(res.Moves) != 5 {
		t.Fatalf("result %+v", res)
	}
	for i, mr := range res.Moves {
		wantOverhead := ms(5)
		if i == len(res.Moves)-1 {
			wantOverhead = 0 // no request followed
		}
		if mr.Elapsed != ms(10) || mr.Overhead != wantOverhead {
			t.Errorf("move %d: elapsed %v, overhead %v; want 10ms, %v", i, mr.Elapsed, mr.Overhead, wantOverhead)
		}
	}
	if want := []time.Duration{ms(970), ms(980)}; !reflect.DeepEqual(res.Clocks, want) {
		t.Errorf("clocks %v, want %v: the referee's 5ms a move must not be charged", res.Clocks, want)
	}
	// The game took 5 moves of 10ms and 5 plays of 5ms.
	if got := res.Ended.Sub(res.Started); got != ms(75) {
		t.Errorf("game took %v, want 75ms", got)
	}
}

func TestPlayOpening(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	var asked []protocol.TurnRequest
	note := func(req protocol.TurnRequest) []byte {
		mu.Lock()
		asked = append(asked, req)
		mu.Unlock()
		return lastLegal(req)
	}
	e.player("alice", note)
	e.player("bob", note)
	evSub := e.subscribe(protocol.EventSubject("g1"))
	noticeSub := e.subscribe(protocol.GameSubject("bob"))
	m := countMatch(t, "g1", "alice", "bob")
	m.Opening = []string{"1", " 2 "}
	res, err := e.ref.Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	// From 3, both add 2: 5, 7, 9 and then 1 to reach 10, by bob.
	if !reflect.DeepEqual(res.Opening, []string{"1", "2"}) || res.StartPosition != "0 0" || res.FinalPosition != "10 0" ||
		res.Result != "0-1" || len(res.Moves) != 4 || res.Moves[0].Ply != 2 || res.Moves[0].Seat != 0 {
		t.Errorf("result %+v", res)
	}
	mu.Lock()
	first := asked[0]
	mu.Unlock()
	if first.Ply != 2 || first.Position != "3 0" || !reflect.DeepEqual(first.Moves, []string{"1", "2"}) {
		t.Errorf("first request %+v", first)
	}
	evs := events(t, evSub)
	if len(evs) != 1+2+4+1 || evs[1].Move != "1" || evs[1].Ply != 0 || evs[1].Seat != 0 || evs[1].Position != "1 1" ||
		evs[2].Move != "2" || evs[2].Ply != 1 || evs[2].Seat != 1 || evs[2].Position != "3 0" {
		t.Errorf("events %+v", evs)
	}
	if end := notices(t, noticeSub, 2)[1]; !reflect.DeepEqual(end.Moves, []string{"1", "2", "2", "2", "2", "1"}) {
		t.Errorf("end notice moves %v", end.Moves)
	}

	t.Run("simultaneous", func(t *testing.T) {
		e.player("even", func(req protocol.TurnRequest) []byte { return reply(req, "H") })
		e.player("odd", func(req protocol.TurnRequest) []byte { return reply(req, "H") })
		res, err := e.ref.Play(context.Background(), Match{GameID: "s1", Game: lookup(t, testgame.PenniesName),
			Players: []string{"even", "odd"}, TC: clock.TimeControl{PerMove: perMove}, Opening: []string{"T,H", "T, T"}})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res.Opening, []string{"T,H", "T,T"}) || res.FinalPosition != "TH,TT,HH" || len(res.Moves) != 2 {
			t.Errorf("result %+v", res)
		}
	})
}

func TestPlayInvalidOpening(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name    string
		opening []string
		want    string
	}{
		{"illegal", []string{"1", "7"}, `opening move 2 "7": not a legal move of seat 1`},
		{"not a move", []string{"x"}, `opening move 1 "x"`},
		{"past the end", []string{"2", "2", "2", "2", "2", "1"}, "opening move 6 \"1\": the game is already over"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := countMatch(t, "g1", "alice", "bob")
			m.Opening = tc.opening
			_, err := e.ref.Play(context.Background(), m)
			if !errors.Is(err, ErrInvalidMatch) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalidMatch containing %q", err, tc.want)
			}
		})
	}
	_, err := e.ref.Play(context.Background(), Match{GameID: "s1", Game: lookup(t, testgame.PenniesName),
		Players: []string{"even", "odd"}, TC: clock.TimeControl{PerMove: perMove}, Opening: []string{"H"}})
	if !errors.Is(err, ErrInvalidMatch) || !strings.Contains(err.Error(), "needs 2 moves") {
		t.Errorf("one move for a joint turn: error %v", err)
	}
}

func TestPlayInvalidTimeControl(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name string
		tc   clock.TimeControl
		want string
	}{
		{"tiny base", clock.TimeControl{Base: time.Microsecond}, "at least 1ms"},
		{"both", clock.TimeControl{Base: time.Second, PerMove: time.Second}, "choose one"},
		{"negative increment", clock.TimeControl{Base: time.Second, Increment: -1}, "negative"},
		{"increment per move", clock.TimeControl{PerMove: time.Second, Increment: 1}, "need a clock"},
		{"period per move", clock.TimeControl{PerMove: time.Second, MovesPerPeriod: 40}, "need a clock"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := countMatch(t, "g1", "alice", "bob")
			m.TC = tc.tc
			_, err := e.ref.Play(context.Background(), m)
			if !errors.Is(err, ErrInvalidMatch) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalidMatch containing %q", err, tc.want)
			}
		})
	}
}

// TestRequestClockKind checks what a turn request says about the kind of clock: per_move
// only under a per-move limit (a game clock's time is kept for later moves, and a player
// that took it for one move's would spend its whole clock at once), and moves_to_go only
// on a clock that gives its base again every so many moves.
func TestRequestClockKind(t *testing.T) {
	cases := []struct {
		name      string
		tc        clock.TimeControl
		perMove   bool
		movesToGo [2][]int // per seat, before each of its moves
	}{
		{"per move", clock.TimeControl{PerMove: time.Second}, true, [2][]int{{0, 0, 0}, {0, 0}}},
		{"increment", clock.TimeControl{Base: time.Second, Increment: ms(100)}, false, [2][]int{{0, 0, 0}, {0, 0}}},
		{"no increment", clock.TimeControl{Base: time.Second}, false, [2][]int{{0, 0, 0}, {0, 0}}},
		{"periods of 2", clock.TimeControl{Base: time.Second, MovesPerPeriod: 2}, false, [2][]int{{2, 1, 2}, {2, 1}}},
		{"periods of 40", clock.TimeControl{Base: time.Second, MovesPerPeriod: 40, Increment: ms(10)}, false, [2][]int{{40, 39, 38}, {40, 39}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			var mu sync.Mutex
			var sent [2][]protocol.Clock
			note := func(seat int) answer {
				return func(req protocol.TurnRequest) []byte {
					mu.Lock()
					sent[seat] = append(sent[seat], req.Clock)
					mu.Unlock()
					e.clock.Advance(ms(10))
					return lastLegal(req)
				}
			}
			e.player("alice", note(0))
			e.player("bob", note(1))
			m := countMatch(t, "g1", "alice", "bob")
			m.TC = tc.tc
			res, err := e.ref.Play(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			if res.Reason != protocol.ReasonNormal {
				t.Fatalf("result %+v", res)
			}
			mu.Lock()
			defer mu.Unlock()
			for seat := range 2 {
				var togo []int
				for _, c := range sent[seat] {
					if c.PerMove != tc.perMove {
						t.Errorf("seat %d was sent per_move %v, want %v (%+v)", seat, c.PerMove, tc.perMove, c)
					}
					togo = append(togo, c.MovesToGo)
				}
				if !reflect.DeepEqual(togo, tc.movesToGo[seat]) {
					t.Errorf("seat %d was sent moves_to_go %v, want %v", seat, togo, tc.movesToGo[seat])
				}
			}
		})
	}
}

// playTimed plays m on the wall clock, again when the machine was so overloaded that the
// referee was as late as the late reply (ErrOverloaded), and skips the test when it stays
// that busy: a timing check measures the referee's lateness and tolerates load.
func playTimed(t *testing.T, ref *Referee, m Match) Result {
	t.Helper()
	for range 5 {
		res, err := ref.Play(context.Background(), m)
		if errors.Is(err, ErrOverloaded) {
			t.Logf("played again: %s", res.Detail)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	t.Skip("the machine stayed too overloaded to time a game: every try was void")
	return Result{}
}

// TestTimeForfeitRecordsLateness plays on the wall clock against players that reply
// after their deadline, and checks that the time forfeit says how late the reply was, or
// that none came while the referee listened. It is also the check that a slow player on a
// quiet machine still loses on time, the referee measuring its own lateness.
func TestTimeForfeitRecordsLateness(t *testing.T) {
	cases := []struct {
		name     string
		sleep    time.Duration // the late player's time for its first move
		watch    time.Duration // Config.LateWatch
		min, max time.Duration // the range Result.Late must fall in
		detail   string
	}{
		{"late reply", 250 * time.Millisecond, time.Second, 150 * time.Millisecond, 900 * time.Millisecond, "after that"},
		{"later than the watch", 600 * time.Millisecond, 100 * time.Millisecond, 0, 0, "nor in the 100ms after"},
		{"not watched", 250 * time.Millisecond, -1, 0, 0, "no reply within 50ms+10ms"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			ref, err := New(Config{Conn: e.refNC, ID: "ref-wall", Margin: 10 * time.Millisecond, LateWatch: tc.watch})
			if err != nil {
				t.Fatal(err)
			}
			e.player("alice", func(req protocol.TurnRequest) []byte {
				time.Sleep(tc.sleep)
				return lastLegal(req)
			})
			e.player("bob", lastLegal)
			m := countMatch(t, "g1", "alice", "bob")
			m.TC = clock.TimeControl{PerMove: 50 * time.Millisecond}
			res := playTimed(t, ref, m)
			if res.Reason != protocol.ReasonTimeForfeit || res.Forfeit != 0 || !strings.Contains(res.Detail, tc.detail) {
				t.Fatalf("reason %q forfeit %d detail %q; want a time forfeit of seat 0 saying %q", res.Reason, res.Forfeit, res.Detail, tc.detail)
			}
			if res.Late < tc.min || res.Late > tc.max {
				t.Errorf("late %v, want %v to %v (detail %q)", res.Late, tc.min, tc.max, res.Detail)
			}
		})
	}
}
