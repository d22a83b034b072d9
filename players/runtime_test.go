package players_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/natsembed"
	"github.com/arenaref/arena/internal/testgame"
	"github.com/arenaref/arena/players"
	"github.com/arenaref/arena/protocol"
)

// wait bounds every wait for something that should happen; it is far above what a test
// needs, so it only matters when the test is failing.
const wait = 5 * time.Second

func startNATS(t *testing.T) string {
	t.Helper()
	s, err := natsembed.Start(natsembed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s.URL()
}

func connect(t *testing.T, url string) *nats.Conn {
	t.Helper()
	nc, err := players.Connect(url, "test", zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// fakeReferee answers every hello with a welcome and passes the hellos on.
func fakeReferee(t *testing.T, nc *nats.Conn, heartbeatMS int64) <-chan protocol.Hello {
	t.Helper()
	hellos := make(chan protocol.Hello, 100)
	welcome := protocol.Encode(protocol.Welcome{V: protocol.Version, Type: protocol.TypeWelcome, Referee: "ref1", HeartbeatMS: heartbeatMS})
	sub, err := nc.Subscribe(protocol.SubjectHello, func(m *nats.Msg) {
		h, err := protocol.DecodeHello(m.Data)
		if err != nil {
			t.Errorf("player sent a malformed hello: %v: %s", err, m.Data)
			return
		}
		select {
		case hellos <- h:
		default:
		}
		_ = m.Respond(welcome)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return hellos
}

func nextHello(t *testing.T, hellos <-chan protocol.Hello, within time.Duration) protocol.Hello {
	t.Helper()
	select {
	case h := <-hellos:
		return h
	case <-time.After(within):
		t.Fatalf("no hello within %v", within)
		return protocol.Hello{}
	}
}

// serve runs players.Serve in the background; the returned function cancels it and
// returns its result.
func serve(t *testing.T, nc *nats.Conn, cfg players.Config, a players.Agent) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- players.Serve(ctx, nc, cfg, a) }()
	var once sync.Once
	var result error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case result = <-errc:
			case <-time.After(wait):
				result = errors.New("Serve did not return after its context was cancelled")
			}
		})
		return result
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	})
	return stop
}

// setup starts a server, a fake referee that welcomes everyone, and a player named
// "alice" serving a, and waits until the player has said hello (and so is subscribed).
func setup(t *testing.T, a players.Agent) (referee *nats.Conn, stop func() error) {
	t.Helper()
	url := startNATS(t)
	referee = connect(t, url)
	hellos := fakeReferee(t, referee, 60_000)
	stop = serve(t, connect(t, url), players.Config{Name: "alice", Agent: "test", HelloRetry: 20 * time.Millisecond}, a)
	nextHello(t, hellos, wait)
	return referee, stop
}

func turnRequest(gameID string, ply int, position string, legal ...string) protocol.TurnRequest {
	return protocol.TurnRequest{
		V: protocol.Version, Type: protocol.TypeTurn,
		GameID: gameID, Game: testgame.CountName, Seat: ply % 2, SeatName: "first", Ply: ply,
		Position: position, Legal: legal, Moves: []string{},
		Clock: protocol.Clock{MoveMS: 1000, RemainingMS: 1000},
	}
}

// ask sends a turn request and decodes the reply, which must be a valid TurnReply.
func ask(t *testing.T, nc *nats.Conn, req protocol.TurnRequest) protocol.TurnReply {
	t.Helper()
	msg, err := nc.Request(protocol.TurnSubject("alice"), protocol.Encode(req), wait)
	if err != nil {
		t.Fatalf("turn request: %v", err)
	}
	r, err := protocol.DecodeTurnReply(msg.Data)
	if err != nil {
		t.Fatalf("reply %s: %v", msg.Data, err)
	}
	if r.GameID != req.GameID || r.Ply != req.Ply {
		t.Fatalf("reply for game %q ply %d, want %q ply %d", r.GameID, r.Ply, req.GameID, req.Ply)
	}
	return r
}

func TestServeRejectsBadConfig(t *testing.T) {
	nc := connect(t, startNATS(t))
	a := players.AgentFunc(func(context.Context, players.Turn) (players.Decision, error) { return players.Decision{}, nil })
	tests := []struct {
		name string
		nc   *nats.Conn
		cfg  players.Config
		a    players.Agent
		want string
	}{
		{"empty name", nc, players.Config{}, a, "player name"},
		{"dotted name", nc, players.Config{Name: "a.b"}, a, "player name"},
		{"wildcard name", nc, players.Config{Name: "*"}, a, "player name"},
		{"long agent", nc, players.Config{Name: "p", Agent: strings.Repeat("x", 65)}, a, "at most 64"},
		{"empty game", nc, players.Config{Name: "p", Games: []string{""}}, a, "game name"},
		{"negative retry", nc, players.Config{Name: "p", HelloRetry: -time.Second}, a, "negative"},
		{"nil conn", nil, players.Config{Name: "p"}, a, "nil nats"},
		{"nil agent", nc, players.Config{Name: "p"}, nil, "nil agent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := players.Serve(context.Background(), tt.nc, tt.cfg, tt.a)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Serve: %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
}

func TestServeFailsOnClosedConnection(t *testing.T) {
	nc := connect(t, startNATS(t))
	nc.Close()
	err := players.Serve(context.Background(), nc, players.Config{Name: "p"}, players.AgentFunc(nil))
	if !errors.Is(err, nats.ErrConnectionClosed) {
		t.Fatalf("Serve on a closed connection: %v, want ErrConnectionClosed", err)
	}
}

func TestServeFailsWhenConnectionCloses(t *testing.T) {
	url := startNATS(t)
	hellos := fakeReferee(t, connect(t, url), 3_600_000)
	nc := connect(t, url)
	errc := make(chan error, 1)
	go func() {
		errc <- players.Serve(context.Background(), nc, players.Config{Name: "alice", HelloRetry: time.Hour}, players.AgentFunc(nil))
	}()
	nextHello(t, hellos, wait)
	nc.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, nats.ErrConnectionClosed) {
			t.Fatalf("Serve: %v, want ErrConnectionClosed", err)
		}
	case <-time.After(wait):
		t.Fatal("Serve did not return after its connection was closed")
	}
}

func TestConnectError(t *testing.T) {
	_, err := players.Connect("nats://127.0.0.1:1", "test", zerolog.Nop())
	if err == nil || !strings.Contains(err.Error(), "connect to nats://127.0.0.1:1") {
		t.Fatalf("Connect to a closed port: %v, want an error naming the url", err)
	}
}

func TestHelloRetriedUntilRefereeAppears(t *testing.T) {
	url := startNATS(t)
	serve(t, connect(t, url), players.Config{
		Name: "alice", Agent: "random", Version: "1.2", Games: []string{"othello"},
		HelloRetry: 20 * time.Millisecond,
	}, players.AgentFunc(nil))
	// The player's first hellos find no responders; only a retry can reach a referee that
	// starts later.
	time.Sleep(100 * time.Millisecond)
	hellos := fakeReferee(t, connect(t, url), 60_000)
	h := nextHello(t, hellos, wait)
	want := protocol.Hello{V: 1, Type: protocol.TypeHello, Name: "alice", Agent: "random", Version: "1.2", Games: []string{"othello"}}
	if h.Name != want.Name || h.Agent != want.Agent || h.Version != want.Version || !slices.Equal(h.Games, want.Games) {
		t.Fatalf("hello %+v, want %+v", h, want)
	}
	// Welcomed with a one-minute heartbeat, the player falls silent.
	select {
	case h := <-hellos:
		t.Fatalf("hello %+v repeated long before the heartbeat interval", h)
	case <-time.After(200 * time.Millisecond):
	}
}

func TestHelloRepeatedAsHeartbeat(t *testing.T) {
	url := startNATS(t)
	hellos := fakeReferee(t, connect(t, url), 50)
	serve(t, connect(t, url), players.Config{Name: "alice", HelloRetry: time.Hour}, players.AgentFunc(nil))
	for range 3 {
		nextHello(t, hellos, wait)
	}
}

func TestRollCallTriggersHello(t *testing.T) {
	url := startNATS(t)
	referee := connect(t, url)
	hellos := fakeReferee(t, referee, 3_600_000)
	serve(t, connect(t, url), players.Config{Name: "alice", HelloRetry: time.Hour}, players.AgentFunc(nil))
	nextHello(t, hellos, wait)

	// A malformed roll call is ignored; a good one brings a hello at once, although the
	// heartbeat is an hour away.
	if err := referee.Publish(protocol.SubjectRollCall, []byte(`{"v":1,"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	rc := protocol.Encode(protocol.RollCall{V: protocol.Version, Type: protocol.TypeRollCall, Referee: "ref1"})
	if err := referee.Publish(protocol.SubjectRollCall, rc); err != nil {
		t.Fatal(err)
	}
	if h := nextHello(t, hellos, wait); h.Name != "alice" {
		t.Fatalf("hello from %q", h.Name)
	}
}

func TestTurnIsAnswered(t *testing.T) {
	var got players.Turn
	agent := players.AgentFunc(func(ctx context.Context, turn players.Turn) (players.Decision, error) {
		got = turn
		if _, ok := ctx.Deadline(); !ok {
			t.Error("agent context has no deadline")
		}
		return players.Decision{Move: 2, Info: protocol.SearchInfo{Depth: 3, Nodes: 40, Score: 0.5, PV: []string{"2", "1"}}}, nil
	})
	referee, _ := setup(t, agent)

	req := turnRequest("g1", 3, "4 1", "1", "2")
	req.Moves = []string{"1", "2", "1"}
	before := time.Now()
	r := ask(t, referee, req)
	after := time.Now()
	if r.Move != "2" {
		t.Fatalf("move %q, want 2", r.Move)
	}
	if r.Info == nil || r.Info.Depth != 3 || r.Info.Nodes != 40 || r.Info.Score != 0.5 || !slices.Equal(r.Info.PV, []string{"2", "1"}) {
		t.Fatalf("info %+v", r.Info)
	}
	if got.GameID != "g1" || got.Seat != 1 || got.Game.Name() != testgame.CountName || got.State.String() != "4 1" ||
		!slices.Equal(got.Legal, []game.Move{1, 2}) || !slices.Equal(got.Moves, req.Moves) || got.Clock != req.Clock {
		t.Fatalf("agent got %+v", got)
	}
	// The default reserve for a one-second move is 20ms.
	lo, hi := before.Add(980*time.Millisecond), after.Add(980*time.Millisecond)
	if got.Deadline.Before(lo) || got.Deadline.After(hi) {
		t.Fatalf("deadline %v after the request, want 980ms", got.Deadline.Sub(before))
	}
}

func TestAgentFailuresStillYieldLegalMoves(t *testing.T) {
	tests := []struct {
		name string
		fn   func(context.Context, players.Turn) (players.Decision, error)
		want string
	}{
		{"error", func(context.Context, players.Turn) (players.Decision, error) {
			return players.Decision{}, errors.New("out of ideas")
		}, "1"},
		{"panic", func(context.Context, players.Turn) (players.Decision, error) {
			panic("boom")
		}, "1"},
		{"illegal move", func(context.Context, players.Turn) (players.Decision, error) {
			return players.Decision{Move: 7}, nil
		}, "1"},
		{"move of a modified legal list", func(_ context.Context, t players.Turn) (players.Decision, error) {
			t.Legal[0] = 9 // the runtime must judge by its own copy
			return players.Decision{Move: 9}, nil
		}, "1"},
		{"ignores deadline", func(ctx context.Context, _ players.Turn) (players.Decision, error) {
			<-ctx.Done()
			return players.Decision{}, ctx.Err()
		}, "1"},
		{"resign", func(context.Context, players.Turn) (players.Decision, error) {
			return players.Decision{Resign: true}, nil
		}, protocol.Resign},
		{"unencodable info", func(context.Context, players.Turn) (players.Decision, error) {
			pv := make([]string, 1000)
			for i := range pv {
				pv[i] = "1"
			}
			return players.Decision{Move: 2, Info: protocol.SearchInfo{Depth: -1, Nodes: -5, Score: math.NaN(), PV: pv}}, nil
		}, "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			referee, _ := setup(t, players.AgentFunc(tt.fn))
			req := turnRequest("g-2", 0, "0 0", "1", "2")
			req.Clock.MoveMS = 100
			if r := ask(t, referee, req); r.Move != tt.want {
				t.Fatalf("move %q, want %q", r.Move, tt.want)
			}
			// The player is still alive.
			want := "1"
			if tt.want == protocol.Resign {
				want = protocol.Resign
			}
			if r := ask(t, referee, turnRequest("g-2", 2, "9 0", "1")); r.Move != want {
				t.Fatalf("second move %q, want %q", r.Move, want)
			}
		})
	}
}

func TestBadRequestsGetNoReply(t *testing.T) {
	referee, _ := setup(t, players.AgentFunc(func(context.Context, players.Turn) (players.Decision, error) {
		return players.Decision{Move: 1}, nil
	}))
	unknownGame := turnRequest("g1", 0, "0 0")
	unknownGame.Game = "no-such-game"
	badSeat := turnRequest("g1", 0, "0 0")
	badSeat.Seat = 2
	wrongSeat := turnRequest("g1", 0, "0 0") // seat 1 is not to move
	wrongSeat.Seat = 1
	tests := []struct {
		name string
		data []byte
	}{
		{"not json", []byte("hello?")},
		{"wrong type", []byte(`{"v":1,"type":"move","game_id":"g","ply":0,"move":"1"}`)},
		{"unknown field", []byte(`{"v":1,"type":"turn","game_id":"g","game":"testcount","seat":0,"ply":0,"position":"0 0","legal":["1","2"],"moves":[],"clock":{"move_ms":100,"remaining_ms":100,"increment_ms":0},"colour":"red"}`)},
		{"unknown game", protocol.Encode(unknownGame)},
		{"bad position", protocol.Encode(turnRequest("g1", 0, "eleven 0"))},
		{"no such seat", protocol.Encode(badSeat)},
		{"not the seat's turn", protocol.Encode(wrongSeat)},
		{"game over", protocol.Encode(turnRequest("g1", 0, "10 0"))},
	}
	t.Run("unanswered", func(t *testing.T) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				_, err := referee.Request(protocol.TurnSubject("alice"), tt.data, 200*time.Millisecond)
				if !errors.Is(err, nats.ErrTimeout) {
					t.Fatalf("request: %v, want a timeout", err)
				}
			})
		}
	})
	if r := ask(t, referee, turnRequest("g1", 0, "0 0")); r.Move != "1" {
		t.Fatalf("move after bad requests %q, want 1", r.Move)
	}
}

type learner struct {
	players.AgentFunc
	started, ended chan protocol.GameNotice
}

func (l learner) GameStarted(n protocol.GameNotice) { l.started <- n }
func (l learner) GameEnded(n protocol.GameNotice) {
	if n.GameID == "panic" {
		panic("learning went wrong")
	}
	l.ended <- n
}

func TestNoticesReachLearner(t *testing.T) {
	l := learner{started: make(chan protocol.GameNotice, 10), ended: make(chan protocol.GameNotice, 10)}
	referee, _ := setup(t, l)
	start := protocol.GameNotice{V: 1, Type: protocol.TypeGameStart, GameID: "g7", Game: testgame.CountName, Seat: 1, Players: []string{"bob", "alice"}, Position: "0 0"}
	end := protocol.GameNotice{V: 1, Type: protocol.TypeGameEnd, GameID: "g7", Game: testgame.CountName, Seat: 1, Players: []string{"bob", "alice"},
		Position: "10 0", Moves: []string{"2", "2", "2", "2", "2"}, Result: "1-0", Reason: protocol.ReasonNormal, Returns: []float64{1, -1}}
	panicky := end
	panicky.GameID = "panic"
	for _, data := range [][]byte{
		protocol.Encode(start),
		[]byte(`{"v":1,"type":"game_start","game_id":"g8","game":"testcount","seat":5,"players":["a"]}`), // ignored
		protocol.Encode(panicky), // survived
		protocol.Encode(end),
	} {
		if err := referee.Publish(protocol.GameSubject("alice"), data); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		ch   chan protocol.GameNotice
		want protocol.GameNotice
	}{{l.started, start}, {l.ended, end}} {
		select {
		case n := <-c.ch:
			if n.GameID != c.want.GameID || n.Type != c.want.Type || n.Result != c.want.Result || !slices.Equal(n.Moves, c.want.Moves) {
				t.Fatalf("notice %+v, want %+v", n, c.want)
			}
		case <-time.After(wait):
			t.Fatalf("no %s notice", c.want.Type)
		}
	}
	if len(l.started) != 0 || len(l.ended) != 0 {
		t.Fatal("the malformed notice reached the learner")
	}
}

func TestServeStopsOnCancel(t *testing.T) {
	referee, stop := setup(t, players.AgentFunc(func(context.Context, players.Turn) (players.Decision, error) {
		return players.Decision{Move: 1}, nil
	}))
	ask(t, referee, turnRequest("g1", 0, "0 0"))
	if err := stop(); err != nil {
		t.Fatalf("Serve: %v, want nil after cancel", err)
	}
	// The player has unsubscribed: nobody answers its turn subject any more.
	_, err := referee.Request(protocol.TurnSubject("alice"), protocol.Encode(turnRequest("g1", 0, "0 0")), wait)
	if !errors.Is(err, nats.ErrNoResponders) {
		t.Fatalf("turn request after Serve returned: %v, want no responders", err)
	}
}

func TestServeAnswersPendingTurnOnCancel(t *testing.T) {
	entered := make(chan struct{})
	referee, stop := setup(t, players.AgentFunc(func(ctx context.Context, _ players.Turn) (players.Decision, error) {
		close(entered)
		<-ctx.Done() // a long search, cut short by the shutdown
		return players.Decision{Move: 2}, nil
	}))
	req := turnRequest("g1", 0, "0 0", "1", "2")
	req.Clock.MoveMS = 60_000
	type result struct {
		msg *nats.Msg
		err error
	}
	replies := make(chan result, 1)
	go func() {
		msg, err := referee.Request(protocol.TurnSubject("alice"), protocol.Encode(req), wait)
		replies <- result{msg, err}
	}()
	<-entered
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	res := <-replies
	if res.err != nil {
		t.Fatalf("the turn in progress at shutdown was not answered: %v", res.err)
	}
	if r, err := protocol.DecodeTurnReply(res.msg.Data); err != nil || r.Move != "2" {
		t.Fatalf("reply %s (%v), want move 2", res.msg.Data, err)
	}
}
