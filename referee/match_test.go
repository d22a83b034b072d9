package referee

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/tournament"
)

const (
	perMove = 100 * time.Millisecond
	limit   = perMove + DefaultMargin
)

func countMatch(t testing.TB, id string, players ...string) Match {
	return Match{GameID: id, Game: lookup(t, testgame.CountName), Players: players, TC: clock.TimeControl{PerMove: perMove}}
}

func TestPlayNormalGame(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	var asked []protocol.TurnRequest
	// alice thinks for 7ms by the referee's clock; bob is instant and reports his search.
	e.player("alice", func(req protocol.TurnRequest) []byte {
		mu.Lock()
		asked = append(asked, req)
		mu.Unlock()
		e.clock.Advance(7 * time.Millisecond)
		return lastLegal(req)
	})
	e.player("bob", func(req protocol.TurnRequest) []byte {
		mu.Lock()
		asked = append(asked, req)
		mu.Unlock()
		return protocol.Encode(protocol.TurnReply{V: 1, Type: protocol.TypeMove, GameID: req.GameID, Ply: req.Ply,
			Move: req.Legal[len(req.Legal)-1], Info: &protocol.SearchInfo{Depth: 3, Nodes: 42, Score: -0.5, PV: []string{"2", "2"}}})
	})
	evSub := e.subscribe(protocol.EventSubject("g1"))
	aliceSub := e.subscribe(protocol.GameSubject("alice"))
	bobSub := e.subscribe(protocol.GameSubject("bob"))

	res, err := e.ref.Play(context.Background(), countMatch(t, "g1", "alice", "bob"))
	if err != nil {
		t.Fatal(err)
	}

	// Both add 2 each turn: 2, 4, 6, 8, 10, and alice (seat 0) makes the last move.
	info := &protocol.SearchInfo{Depth: 3, Nodes: 42, Score: -0.5, PV: []string{"2", "2"}}
	want := Result{
		GameID: "g1", Game: testgame.CountName, Players: []string{"alice", "bob"},
		Returns: []float64{1, -1}, Scores: []float64{1, 0}, Result: "1-0",
		Reason: protocol.ReasonNormal, Forfeit: -1,
		StartPosition: "0 0", FinalPosition: "10 1",
		Moves: []MoveRecord{
			{Ply: 0, Seat: 0, Move: "2", Elapsed: 7 * time.Millisecond},
			{Ply: 1, Seat: 1, Move: "2", Info: info},
			{Ply: 2, Seat: 0, Move: "2", Elapsed: 7 * time.Millisecond},
			{Ply: 3, Seat: 1, Move: "2", Info: info},
			{Ply: 4, Seat: 0, Move: "2", Elapsed: 7 * time.Millisecond},
		},
		Started: testStart, Ended: testStart.Add(21 * time.Millisecond),
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("result\n got %+v\nwant %+v", res, want)
	}

	mu.Lock()
	if len(asked) != 5 {
		t.Fatalf("%d turn requests, want 5", len(asked))
	}
	wantReq := protocol.TurnRequest{
		V: 1, Type: protocol.TypeTurn, GameID: "g1", Game: testgame.CountName, Seat: 0, SeatName: "first",
		Ply: 2, Position: "4 0", Legal: []string{"1", "2"}, Moves: []string{"2", "2"},
		Clock: protocol.Clock{MoveMS: 100, RemainingMS: 100, PerMove: true, MarginMS: e.ref.Margin().Milliseconds()},
	}
	if !reflect.DeepEqual(asked[2], wantReq) {
		t.Errorf("third turn request\n got %+v\nwant %+v", asked[2], wantReq)
	}
	if asked[0].Moves == nil || len(asked[0].Moves) != 0 {
		t.Errorf("first request's moves %#v, want an empty list", asked[0].Moves)
	}
	if asked[1].Seat != 1 || asked[1].SeatName != "second" {
		t.Errorf("second request for seat %d %q, want 1 second", asked[1].Seat, asked[1].SeatName)
	}
	mu.Unlock()

	evs := events(t, evSub)
	if len(evs) != 7 {
		t.Fatalf("%d events, want start, 5 moves, end: %+v", len(evs), evs)
	}
	if s := evs[0]; s.Type != protocol.TypeEventStart || s.Position != "0 0" || !reflect.DeepEqual(s.Players, want.Players) || s.Game != testgame.CountName {
		t.Errorf("start event %+v", s)
	}
	for i, ev := range evs[1:6] {
		if ev.Type != protocol.TypeEventMove || ev.Ply != i || ev.Seat != i%2 || ev.Move != "2" || ev.GameID != "g1" {
			t.Errorf("move event %d: %+v", i, ev)
		}
	}
	if p := evs[3].Position; p != "6 1" {
		t.Errorf("position after ply 2 is %q, want \"6 1\"", p)
	}
	end := evs[6]
	if end.Result != "1-0" || end.Reason != protocol.ReasonNormal || end.Position != "10 1" || end.Seat != 0 ||
		!reflect.DeepEqual(end.Returns, []float64{1, -1}) || end.Detail != "" {
		t.Errorf("end event %+v", end)
	}

	for seat, sub := range []*nats.Subscription{aliceSub, bobSub} {
		ns := notices(t, sub, 2)
		start, end := ns[0], ns[1]
		if start.Type != protocol.TypeGameStart || start.Seat != seat || start.Position != "0 0" ||
			!reflect.DeepEqual(start.Players, want.Players) || start.GameID != "g1" {
			t.Errorf("seat %d start notice %+v", seat, start)
		}
		if end.Type != protocol.TypeGameEnd || end.Seat != seat || end.Result != "1-0" || end.Reason != protocol.ReasonNormal ||
			end.Position != "10 1" || !reflect.DeepEqual(end.Moves, []string{"2", "2", "2", "2", "2"}) ||
			!reflect.DeepEqual(end.Returns, []float64{1, -1}) {
			t.Errorf("seat %d end notice %+v", seat, end)
		}
	}
}

func TestPlayForfeits(t *testing.T) {
	type testCase struct {
		name string
		// seat faults with bad at its first turn; the other seat plays lastLegal.
		seat   int
		bad    answer // nil: nobody listens
		drive  func(e *env, asked chan protocol.TurnRequest)
		reason string
		detail string
	}
	withField := func(req protocol.TurnRequest) []byte {
		b := reply(req, "1")
		return append(b[:len(b)-1], []byte(`,"extra":1}`)...)
	}
	cases := []testCase{
		{name: "never answers", seat: 1, reason: protocol.ReasonTimeForfeit, detail: "bob: no reply within 100ms+50ms",
			bad: func(req protocol.TurnRequest) []byte { return nil },
			drive: func(e *env, asked chan protocol.TurnRequest) {
				recv(e.t, asked)
				// Only bob's turn is being timed: alice's timer was released with her reply.
				if n := e.clock.Pending(); n != 1 {
					e.t.Errorf("%d timers pending, want 1", n)
				}
				e.clock.Advance(limit) // at the deadline exactly the reply would still be in time
				e.clock.Advance(time.Millisecond)
			}},
		{name: "answers late", seat: 1, reason: protocol.ReasonTimeForfeit, detail: "bob: ",
			bad: nil, // set below: it needs the env's clock
		},
		{name: "nobody listens", seat: 1, reason: protocol.ReasonNoResponders, detail: "bob: nobody listens on arena.v1.player.bob.turn"},
		{name: "garbage", seat: 1, reason: protocol.ReasonProtocol, detail: "bob: bad reply: protocol: malformed message",
			bad: func(protocol.TurnRequest) []byte { return []byte("\x00\xffnot json{") }},
		{name: "oversize", seat: 1, reason: protocol.ReasonProtocol, detail: "limit 65536",
			bad: func(req protocol.TurnRequest) []byte {
				return append(reply(req, "1"), bytes.Repeat([]byte(" "), protocol.MaxMessageSize)...)
			}},
		{name: "unknown field", seat: 1, reason: protocol.ReasonProtocol, detail: `unknown field "extra"`, bad: withField},
		{name: "wrong version", seat: 1, reason: protocol.ReasonProtocol, detail: "version 2",
			bad: func(req protocol.TurnRequest) []byte {
				return protocol.Encode(protocol.TurnReply{V: 2, Type: protocol.TypeMove, GameID: req.GameID, Ply: req.Ply, Move: "1"})
			}},
		{name: "not a move", seat: 1, reason: protocol.ReasonIllegalMove, detail: `bob: reply "z9" is not a move of testcount`,
			bad: func(req protocol.TurnRequest) []byte { return reply(req, "z9") }},
		{name: "illegal move", seat: 1, reason: protocol.ReasonIllegalMove, detail: `bob: reply "7" is not a legal move`,
			bad: func(req protocol.TurnRequest) []byte { return reply(req, "7") }},
		{name: "resigns", seat: 1, reason: protocol.ReasonResigned, detail: "bob resigned",
			bad: func(req protocol.TurnRequest) []byte { return reply(req, protocol.Resign) }},
		{name: "crashed", seat: 1, reason: protocol.ReasonCrashed, detail: "bob's engine crashed choosing its move: signal: killed",
			bad: func(req protocol.TurnRequest) []byte {
				return protocol.Encode(protocol.TurnReply{V: protocol.Version, Type: protocol.TypeMove, GameID: req.GameID, Ply: req.Ply,
					Move: protocol.Resign, Crashed: "signal: killed"})
			}},
		{name: "first seat resigns", seat: 0, reason: protocol.ReasonResigned, detail: "alice resigned",
			bad: func(req protocol.TurnRequest) []byte { return reply(req, protocol.Resign) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			names := []string{"alice", "bob"}
			bad := tc.bad
			if tc.name == "answers late" {
				bad = func(req protocol.TurnRequest) []byte {
					e.clock.Advance(limit + time.Millisecond)
					return lastLegal(req)
				}
			}
			asked := make(chan protocol.TurnRequest, 4)
			if bad != nil {
				e.player(names[tc.seat], func(req protocol.TurnRequest) []byte {
					asked <- req
					return bad(req)
				})
			}
			e.player(names[1-tc.seat], lastLegal)
			evSub := e.subscribe(protocol.EventSubject("g1"))
			noticeSub := e.subscribe(protocol.GameSubject(names[1-tc.seat]))

			result := e.play(context.Background(), countMatch(t, "g1", names...))
			if tc.drive != nil {
				tc.drive(e, asked)
			}
			res, err := result()
			if err != nil {
				t.Fatal(err)
			}
			if res.Reason != tc.reason || res.Forfeit != tc.seat || !strings.Contains(res.Detail, tc.detail) {
				t.Errorf("reason %q, forfeit %d, detail %q; want %q, %d, containing %q",
					res.Reason, res.Forfeit, res.Detail, tc.reason, tc.seat, tc.detail)
			}
			wantReturns, wantScores, wantResult := []float64{1, -1}, []float64{1, 0}, "1-0"
			if tc.seat == 0 {
				wantReturns, wantScores, wantResult = []float64{-1, 1}, []float64{0, 1}, "0-1"
			}
			if !reflect.DeepEqual(res.Returns, wantReturns) || !reflect.DeepEqual(res.Scores, wantScores) || res.Result != wantResult {
				t.Errorf("returns %v, scores %v, result %q; want %v, %v, %q", res.Returns, res.Scores, res.Result, wantReturns, wantScores, wantResult)
			}
			if len(res.Moves) != tc.seat {
				t.Errorf("%d moves recorded, want %d", len(res.Moves), tc.seat)
			}
			end := events(t, evSub)
			if last := end[len(end)-1]; last.Reason != tc.reason || last.Seat != tc.seat || last.Detail != res.Detail || last.Result != wantResult {
				t.Errorf("end event %+v", last)
			}
			ns := notices(t, noticeSub, 2)
			if ns[1].Reason != tc.reason || ns[1].Result != wantResult {
				t.Errorf("end notice %+v", ns[1])
			}
		})
	}
}

func TestPlayReplyAtDeadlineIsInTime(t *testing.T) {
	e := newEnv(t)
	e.player("alice", func(req protocol.TurnRequest) []byte {
		e.clock.Advance(limit)
		return lastLegal(req)
	})
	e.player("bob", lastLegal)
	res, err := e.ref.Play(context.Background(), countMatch(t, "g1", "alice", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != protocol.ReasonNormal || res.Moves[0].Elapsed != limit {
		t.Errorf("reason %q, first move took %v; want normal, %v", res.Reason, res.Moves[0].Elapsed, limit)
	}
}

// judgeRun is a game of testcount between alice and bob at count, for judge's tests.
func judgeRun(t testing.TB, count int) *run {
	m := countMatch(t, "g1", "alice", "bob")
	return &run{
		r: &Referee{margin: DefaultMargin, load: QuietLoad}, margin: DefaultMargin, m: m, clocks: clock.Seats(m.TC, 2),
		seats: []string{"first", "second"}, st: &testgame.CountState{Count: count}, moved: make([]bool, 2),
	}
}

// decoded is the exchange of a reply that arrived after elapsed.
func decoded(data []byte, elapsed time.Duration) exchange {
	rep, bad, _ := classify(data, "g1", 0)
	return exchange{rep: rep, bad: bad, elapsed: elapsed}
}

// TestJudge covers what an end-to-end test cannot pin down, such as a reply that arrives
// after the deadline but before the referee's timer has fired.
func TestJudge(t *testing.T) {
	g := judgeRun(t, 0)
	legal := g.st.LegalMoves(0, nil)
	req := protocol.TurnRequest{GameID: "g1"}
	cases := []struct {
		name   string
		ex     exchange
		reason string
		detail string
	}{
		{"late reply", decoded(reply(req, "1"), limit+time.Microsecond), protocol.ReasonTimeForfeit,
			"alice: reply after 150.001ms, 1µs later than 100ms+50ms"},
		{"late reply, measured to the nanosecond", decoded(reply(req, "1"), limit+52339679*time.Nanosecond), protocol.ReasonTimeForfeit,
			"alice: reply after 202ms, 52.3ms later than 100ms+50ms"},
		{"late garbage is late", decoded([]byte("garbage"), limit+time.Microsecond), protocol.ReasonTimeForfeit, "later than"},
		{"reply at the limit", decoded(reply(req, "2"), limit), "", ""},
		{"timed out", exchange{timedOut: true, elapsed: limit}, protocol.ReasonTimeForfeit, "alice: no reply within 100ms+50ms"},
		{"timed out, watched in vain", exchange{timedOut: true, elapsed: limit, watched: 300 * time.Millisecond}, protocol.ReasonTimeForfeit,
			"alice: no reply within 100ms+50ms, nor in the 300ms after"},
		{"timed out, late reply seen", exchange{timedOut: true, elapsed: limit, late: 37*time.Millisecond + 123*time.Microsecond}, protocol.ReasonTimeForfeit,
			"alice: no reply within 100ms+50ms; it came 37.1ms after that"},
		{"timed out after stale replies", exchange{timedOut: true, elapsed: limit, stale: 3}, protocol.ReasonTimeForfeit,
			"no reply within 100ms+50ms (3 stale replies ignored)"},
		{"gone while thinking", exchange{timedOut: true, gone: true, elapsed: limit}, protocol.ReasonDisconnected,
			"alice: no reply within 100ms+50ms, and nobody listens on arena.v1.player.alice.turn any more"},
		{"nobody listens", exchange{noResponders: true}, protocol.ReasonNoResponders, "alice: nobody listens on arena.v1.player.alice.turn"},
		{"long unknown field", decoded([]byte(`{"`+strings.Repeat("x", 1000)+`":1}`), 0), protocol.ReasonProtocol, "..."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := g.judge(0, 0, legal, tc.ex)
			if out.reason != tc.reason || !strings.Contains(out.detail, tc.detail) {
				t.Errorf("reason %q detail %q; want %q containing %q", out.reason, out.detail, tc.reason, tc.detail)
			}
			if len(out.detail) > 300 {
				t.Errorf("detail is %d bytes long", len(out.detail))
			}
		})
	}
	t.Run("nobody listens after a move", func(t *testing.T) {
		g := judgeRun(t, 0)
		g.moved[0] = true
		if out := g.judge(0, 0, legal, exchange{noResponders: true}); out.reason != protocol.ReasonDisconnected {
			t.Errorf("reason %q, want disconnected", out.reason)
		}
	})
}

func TestClassify(t *testing.T) {
	req := protocol.TurnRequest{GameID: "g1", Ply: 4}
	cases := []struct {
		name       string
		data       []byte
		bad, stale bool
	}{
		{"right", reply(req, "1"), false, false},
		{"other ply", reply(protocol.TurnRequest{GameID: "g1", Ply: 3}, "1"), false, true},
		{"other game", reply(protocol.TurnRequest{GameID: strings.Repeat("y", 64), Ply: 4}, "1"), false, true},
		{"garbage", []byte("{"), true, false},
		{"empty", nil, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, bad, stale := classify(tc.data, "g1", 4)
			if (bad != nil) != tc.bad || stale != tc.stale {
				t.Errorf("bad %v, stale %v; want bad %v, stale %v", bad, stale, tc.bad, tc.stale)
			}
		})
	}
}

// FuzzJudge feeds arbitrary replies to the referee's judgement: it must never panic, and
// must either accept a legal move, ignore a stale reply, or name a fault.
func FuzzJudge(f *testing.F) {
	req := protocol.TurnRequest{GameID: "g1"}
	for _, seed := range [][]byte{reply(req, "1"), reply(req, "2"), reply(req, "7"), reply(req, "resign"), []byte("{}"), []byte("null"), nil} {
		f.Add(seed)
	}
	g := judgeRun(f, 9)
	legal := g.st.LegalMoves(0, nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, bad, stale := classify(data, "g1", 0)
		if stale {
			if bad != nil || rep.GameID == "g1" && rep.Ply == 0 {
				t.Fatalf("stale reply %+v, %v", rep, bad)
			}
			return
		}
		out := g.judge(0, 0, legal, exchange{rep: rep, bad: bad})
		switch out.reason {
		case "":
			if out.text != "1" {
				t.Fatalf("accepted %q at count 9", out.text)
			}
		case protocol.ReasonProtocol, protocol.ReasonIllegalMove, protocol.ReasonResigned:
		default:
			t.Fatalf("reason %q", out.reason)
		}
	})
}

func TestPlayMaxPlies(t *testing.T) {
	e := newEnv(t)
	e.player("alice", firstLegal)
	e.player("bob", firstLegal)
	m := countMatch(t, "g1", "alice", "bob")
	m.MaxPlies = 3
	res, err := e.ref.Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != protocol.ReasonMaxPlies || res.Result != "1/2-1/2" || len(res.Moves) != 3 ||
		!reflect.DeepEqual(res.Scores, []float64{0.5, 0.5}) || !reflect.DeepEqual(res.Returns, []float64{0, 0}) ||
		res.Forfeit != -1 || res.FinalPosition != "3 1" || res.Detail != "drawn after 3 plies" {
		t.Errorf("result %+v", res)
	}
}

func TestPlaySimultaneous(t *testing.T) {
	t.Run("normal", func(t *testing.T) {
		e := newEnv(t)
		var mu sync.Mutex
		var asked []protocol.TurnRequest
		oddAsked := make(chan struct{}, 8)
		// even answers only once odd has been asked too, which proves the referee asks
		// both seats at once: asked in turn, even would never answer.
		e.player("even", func(req protocol.TurnRequest) []byte {
			recv(t, oddAsked)
			mu.Lock()
			asked = append(asked, req)
			mu.Unlock()
			return reply(req, "H")
		})
		e.player("odd", func(req protocol.TurnRequest) []byte {
			oddAsked <- struct{}{}
			return reply(req, "T")
		})
		evSub := e.subscribe(protocol.EventSubject("s1"))
		noticeSub := e.subscribe(protocol.GameSubject("even"))
		res, err := e.ref.Play(context.Background(), Match{GameID: "s1", Game: lookup(t, testgame.PenniesName),
			Players: []string{"even", "odd"}, TC: clock.TimeControl{PerMove: perMove}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Reason != protocol.ReasonNormal || res.Result != "0-1" || !reflect.DeepEqual(res.Returns, []float64{-1, 1}) ||
			res.FinalPosition != "HT,HT,HT" || len(res.Moves) != 6 {
			t.Errorf("result %+v", res)
		}
		for i, mr := range res.Moves {
			want := MoveRecord{Ply: i / 2, Seat: i % 2, Move: []string{"H", "T"}[i%2]}
			if mr != want {
				t.Errorf("move %d: %+v, want %+v", i, mr, want)
			}
		}
		mu.Lock()
		last := asked[2]
		mu.Unlock()
		var obs testgame.PenniesObservation
		if err := json.Unmarshal(last.Observation, &obs); err != nil || !reflect.DeepEqual(obs.Opponent, []string{"T", "T"}) {
			t.Errorf("observation %s (%v), want the opponent's T T", last.Observation, err)
		}
		if !reflect.DeepEqual(last.Moves, []string{"H,T", "H,T"}) || last.Ply != 2 || !reflect.DeepEqual(last.Legal, []string{"H", "T"}) {
			t.Errorf("third request %+v", last)
		}
		evs := events(t, evSub)
		if len(evs) != 5 || evs[1].Seat != 0 || evs[1].Move != "H,T" || evs[1].Position != "HT" {
			t.Errorf("events %+v", evs)
		}
		if end := notices(t, noticeSub, 2)[1]; !reflect.DeepEqual(end.Moves, []string{"H,T", "H,T", "H,T"}) {
			t.Errorf("end notice moves %v", end.Moves)
		}
	})
	cases := []struct {
		name      string
		even, odd string
		forfeit   int
		reason    string
		returns   []float64
		result    string
	}{
		{"odd faults", "H", "X", 1, protocol.ReasonIllegalMove, []float64{1, -1}, "1-0"},
		{"even resigns", "resign", "T", 0, protocol.ReasonResigned, []float64{-1, 1}, "0-1"},
		{"both fault", "X", "resign", 0, protocol.ReasonIllegalMove, []float64{-1, -1}, "1/2-1/2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.player("even", func(req protocol.TurnRequest) []byte { return reply(req, tc.even) })
			e.player("odd", func(req protocol.TurnRequest) []byte { return reply(req, tc.odd) })
			res, err := e.ref.Play(context.Background(), Match{GameID: "s1", Game: lookup(t, testgame.PenniesName),
				Players: []string{"even", "odd"}, TC: clock.TimeControl{PerMove: perMove}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Forfeit != tc.forfeit || res.Reason != tc.reason || !reflect.DeepEqual(res.Returns, tc.returns) || res.Result != tc.result {
				t.Errorf("forfeit %d, reason %q, returns %v, result %q; want %d, %q, %v, %q",
					res.Forfeit, res.Reason, res.Returns, res.Result, tc.forfeit, tc.reason, tc.returns, tc.result)
			}
			if tc.name == "both fault" && (!strings.Contains(res.Detail, "even: ") || !strings.Contains(res.Detail, "odd resigned")) {
				t.Errorf("detail %q should name every faulting player", res.Detail)
			}
		})
	}
}

func TestPlayCancelled(t *testing.T) {
	e := newEnv(t)
	asked, never := silent()
	e.player("alice", firstLegal)
	e.player("bob", never)
	evSub := e.subscribe(protocol.EventSubject("g1"))
	ctx, cancel := context.WithCancel(context.Background())
	result := e.play(ctx, countMatch(t, "g1", "alice", "bob"))
	recv(t, asked)
	cancel()
	res, err := result()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if res.Reason != protocol.ReasonAborted || len(res.Moves) != 1 || res.Result != "" {
		t.Errorf("result %+v", res)
	}
	evs := events(t, evSub)
	if last := evs[len(evs)-1]; last.Reason != protocol.ReasonAborted {
		t.Errorf("end event %+v", last)
	}
}

func TestPlayInvalidMatch(t *testing.T) {
	e := newEnv(t)
	valid := countMatch(t, "g1", "alice", "bob")
	cases := []struct {
		name   string
		change func(m *Match)
		want   string
	}{
		{"no game", func(m *Match) { m.Game = nil }, "no game"},
		{"bad game id", func(m *Match) { m.GameID = "g.1" }, `game id "g.1"`},
		{"empty game id", func(m *Match) { m.GameID = "" }, "game id"},
		{"too few players", func(m *Match) { m.Players = m.Players[:1] }, "has 2 seats (first, second), got 1 players"},
		{"bad player name", func(m *Match) { m.Players = []string{"alice", "b*b"} }, `player name "b*b"`},
		{"no time", func(m *Match) { m.TC.PerMove = 0 }, "at least 1ms"},
		{"negative plies", func(m *Match) { m.MaxPlies = -1 }, "negative ply limit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := valid
			m.Players = append([]string(nil), valid.Players...)
			tc.change(&m)
			_, err := e.ref.Play(context.Background(), m)
			if !errors.Is(err, ErrInvalidMatch) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalidMatch mentioning %q", err, tc.want)
			}
		})
	}
}

func TestNewConfig(t *testing.T) {
	if _, err := New(Config{}); err == nil {
		t.Error("New without a connection succeeded")
	}
	e := newEnv(t)
	if _, err := New(Config{Conn: e.refNC, Margin: -time.Millisecond}); err == nil {
		t.Error("New with a negative margin succeeded")
	}
	r, err := New(Config{Conn: e.refNC})
	if err != nil {
		t.Fatal(err)
	}
	if r.Margin() != DefaultMargin || r.ID() != DefaultID {
		t.Errorf("defaults: margin %v, id %q", r.Margin(), r.ID())
	}
}

// BenchmarkPlay plays whole games of testcount (10 plies) against instant players over an
// embedded NATS server, with the real clock.
func BenchmarkPlay(b *testing.B) {
	e := newEnv(b)
	r, err := New(Config{Conn: e.refNC})
	if err != nil {
		b.Fatal(err)
	}
	e.player("alice", firstLegal)
	e.player("bob", firstLegal)
	m := countMatch(b, "bench", "alice", "bob")
	m.TC.PerMove = 10 * time.Second
	moves := 0
	b.ReportAllocs()
	for b.Loop() {
		res, err := r.Play(context.Background(), m)
		if err != nil || res.Reason != protocol.ReasonNormal {
			b.Fatalf("%v %+v", err, res)
		}
		moves += len(res.Moves)
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}

// panicky is a game state whose move parser panics, as a buggy game's might.
type panicky struct{ testgame.CountState }

func (*panicky) ParseMove(string) (game.Move, error) { panic("boom") }

func TestJudgeSurvivesPanickingParser(t *testing.T) {
	g := judgeRun(t, 0)
	g.st = &panicky{}
	out := g.judge(0, 0, []game.Move{1, 2}, decoded(reply(protocol.TurnRequest{GameID: "g1"}, "1"), 0))
	if out.reason != protocol.ReasonIllegalMove {
		t.Errorf("reason %q, want illegal_move", out.reason)
	}
}

// TestMatchMargin: a game's own margin replaces the referee's.
func TestMatchMargin(t *testing.T) {
	cases := []struct {
		name   string
		margin time.Duration
		reason string
	}{
		{"referee's 50ms margin", 0, protocol.ReasonTimeForfeit},
		{"the game's 100ms margin", 100 * time.Millisecond, protocol.ReasonNormal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			// Every reply takes 160ms of a 100ms move: late by the default margin only.
			slow := func(req protocol.TurnRequest) []byte {
				e.clock.Advance(160 * time.Millisecond)
				return lastLegal(req)
			}
			e.player("alice", slow)
			e.player("bob", slow)
			m := countMatch(t, "g1", "alice", "bob")
			m.Margin = tc.margin
			res, err := e.play(context.Background(), m)()
			if err != nil {
				t.Fatal(err)
			}
			if res.Reason != tc.reason {
				t.Fatalf("reason %q (%s), want %q", res.Reason, res.Detail, tc.reason)
			}
		})
	}
}

// TestLateFirstTurnIsWaitedFor: a player found gone at its first turn of a game (it may be
// reconnecting between games) is waited for, with Match.Wait, and then asked again; without
// a wait, the game is forfeited at once.
func TestLateFirstTurnIsWaitedFor(t *testing.T) {
	for _, wait := range []time.Duration{0, 5 * time.Second} {
		t.Run(wait.String(), func(t *testing.T) {
			e := newEnv(t)
			e.player("alice", lastLegal)
			m := countMatch(t, "g1", "alice", "bob")
			m.Wait = wait
			result := e.play(context.Background(), m)
			// bob comes only after alice's first move has been asked for and answered.
			time.Sleep(50 * time.Millisecond)
			e.player("bob", lastLegal)
			res, err := result()
			if err != nil {
				t.Fatal(err)
			}
			want := protocol.ReasonNormal
			if wait == 0 {
				want = protocol.ReasonNoResponders
			}
			if res.Reason != want {
				t.Fatalf("reason %q (%s), want %q", res.Reason, res.Detail, want)
			}
		})
	}
}

// TestPonderReachesTurns checks that a match's Ponder is in every turn request's clock.
func TestPonderReachesTurns(t *testing.T) {
	for _, ponder := range []bool{false, true} {
		e := newEnv(t)
		var mu sync.Mutex
		var got []bool
		answer := func(req protocol.TurnRequest) []byte {
			mu.Lock()
			got = append(got, req.Clock.Ponder)
			mu.Unlock()
			return lastLegal(req)
		}
		e.player("alice", answer)
		e.player("bob", answer)
		m := countMatch(t, "g1", "alice", "bob")
		m.Ponder = ponder
		if _, err := e.ref.Play(context.Background(), m); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		if len(got) == 0 {
			t.Errorf("ponder %v: no turn request", ponder)
		}
		for i, p := range got {
			if p != ponder {
				t.Errorf("ponder %v: turn request %d says ponder %v", ponder, i, p)
			}
		}
		mu.Unlock()
	}
}

// TestTournamentMatch checks that a tournament's game settings reach each of its matches.
func TestTournamentMatch(t *testing.T) {
	tour := Tournament{ID: "t7", Game: lookup(t, testgame.CountName), TC: clock.TimeControl{PerMove: perMove},
		MaxPlies: 9, Margin: 20 * time.Millisecond, Wait: time.Second, Ponder: true}
	got := tour.Match(tournament.Pairing{Index: 3, Round: 2, Players: []string{"a", "b"}, Opening: []string{"1"}})
	want := Match{GameID: "t7-3", Game: tour.Game, Players: []string{"a", "b"}, TC: tour.TC, MaxPlies: 9, Round: 2,
		Opening: []string{"1"}, Margin: 20 * time.Millisecond, Wait: time.Second, Ponder: true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Match\n got %+v\nwant %+v", got, want)
	}
}
