package player_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/loadmeter"
	"github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/players/player"
	"github.com/arenaref/arena/protocol"
)

// wait bounds every wait for something that should happen; it is far above what a test
// needs, so it only matters when the test is failing.
const wait = 5 * time.Second

func startNATS(t *testing.T) string {
	t.Helper()
	s, err := embedded.Start(embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s.URL()
}

func connect(t *testing.T, url string) *nats.Conn {
	t.Helper()
	nc, err := bus.Connect(url, "test", zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// fakeReferee answers every hello with a welcome and passes the hellos on. It listens only
// on the named hello subjects, where players say hello, and checks that each hello came on
// its own player's subject.
func fakeReferee(t *testing.T, nc *nats.Conn, heartbeatMS int64) <-chan protocol.Hello {
	t.Helper()
	hellos := make(chan protocol.Hello, 100)
	welcome := protocol.Encode(protocol.Welcome{V: protocol.Version, Type: protocol.TypeWelcome, Referee: "ref1", HeartbeatMS: heartbeatMS})
	sub, err := nc.Subscribe(protocol.SubjectHelloNamed, func(m *nats.Msg) {
		h, err := protocol.DecodeHello(m.Data)
		if err != nil {
			t.Errorf("player sent a malformed hello: %v: %s", err, m.Data)
			return
		}
		if want := protocol.HelloSubject(h.Name); m.Subject != want {
			t.Errorf("hello of %s on %s, want %s", h.Name, m.Subject, want)
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

// serve runs player.Serve in the background; the returned function cancels it and
// returns its result.
func serve(t *testing.T, nc *nats.Conn, cfg player.Config, a agent.Agent) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- player.Serve(ctx, nc, cfg, a) }()
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
func setup(t *testing.T, a agent.Agent) (referee *nats.Conn, stop func() error) {
	t.Helper()
	return setupConcurrent(t, a, 0)
}

// setupConcurrent is setup with a Config.Concurrency.
func setupConcurrent(t *testing.T, a agent.Agent, concurrency int) (referee *nats.Conn, stop func() error) {
	t.Helper()
	url := startNATS(t)
	referee = connect(t, url)
	hellos := fakeReferee(t, referee, 60_000)
	stop = serve(t, connect(t, url), player.Config{Name: "alice", Agent: "test", HelloRetry: 20 * time.Millisecond, Concurrency: concurrency}, a)
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
	a := agent.Func(func(context.Context, agent.Turn) (agent.Decision, error) { return agent.Decision{}, nil })
	tests := []struct {
		name string
		nc   *nats.Conn
		cfg  player.Config
		a    agent.Agent
		want string
	}{
		{"empty name", nc, player.Config{}, a, "player name"},
		{"dotted name", nc, player.Config{Name: "a.b"}, a, "player name"},
		{"wildcard name", nc, player.Config{Name: "*"}, a, "player name"},
		{"long agent", nc, player.Config{Name: "p", Agent: strings.Repeat("x", 65)}, a, "at most 64"},
		{"empty game", nc, player.Config{Name: "p", Games: []string{""}}, a, "game name"},
		{"negative retry", nc, player.Config{Name: "p", HelloRetry: -time.Second}, a, "negative"},
		{"negative concurrency", nc, player.Config{Name: "p", Concurrency: -1}, a, "negative concurrency"},
		{"nil conn", nil, player.Config{Name: "p"}, a, "nil nats"},
		{"nil agent", nc, player.Config{Name: "p"}, nil, "nil agent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := player.Serve(context.Background(), tt.nc, tt.cfg, tt.a)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Serve: %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
}

func TestServeFailsOnClosedConnection(t *testing.T) {
	nc := connect(t, startNATS(t))
	nc.Close()
	err := player.Serve(context.Background(), nc, player.Config{Name: "p"}, agent.Func(nil))
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
		errc <- player.Serve(context.Background(), nc, player.Config{Name: "alice", HelloRetry: time.Hour}, agent.Func(nil))
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
	_, err := bus.Connect("nats://127.0.0.1:1", "test", zerolog.Nop())
	if err == nil || !strings.Contains(err.Error(), "connect to nats://127.0.0.1:1") {
		t.Fatalf("Connect to a closed port: %v, want an error naming the url", err)
	}
}

func TestHelloRetriedUntilRefereeAppears(t *testing.T) {
	url := startNATS(t)
	serve(t, connect(t, url), player.Config{
		Name: "alice", Agent: "random", Version: "1.2", Games: []string{"othello"},
		HelloRetry: 20 * time.Millisecond,
	}, agent.Func(nil))
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
	serve(t, connect(t, url), player.Config{Name: "alice", HelloRetry: time.Hour}, agent.Func(nil))
	for range 3 {
		nextHello(t, hellos, wait)
	}
}

func TestRollCallTriggersHello(t *testing.T) {
	url := startNATS(t)
	referee := connect(t, url)
	hellos := fakeReferee(t, referee, 3_600_000)
	serve(t, connect(t, url), player.Config{Name: "alice", HelloRetry: time.Hour}, agent.Func(nil))
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
	var got agent.Turn
	agent := agent.Func(func(ctx context.Context, turn agent.Turn) (agent.Decision, error) {
		got = turn
		if _, ok := ctx.Deadline(); !ok {
			t.Error("agent context has no deadline")
		}
		return agent.Decision{Move: 2, Info: protocol.SearchInfo{Depth: 3, Nodes: 40, Score: 0.5, PV: []string{"2", "1"}}}, nil
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
		fn   func(context.Context, agent.Turn) (agent.Decision, error)
		want string
	}{
		{"error", func(context.Context, agent.Turn) (agent.Decision, error) {
			return agent.Decision{}, errors.New("out of ideas")
		}, "1"},
		{"panic", func(context.Context, agent.Turn) (agent.Decision, error) {
			panic("boom")
		}, "1"},
		{"illegal move", func(context.Context, agent.Turn) (agent.Decision, error) {
			return agent.Decision{Move: 7}, nil
		}, "1"},
		{"move of a modified legal list", func(_ context.Context, t agent.Turn) (agent.Decision, error) {
			t.Legal[0] = 9 // the runtime must judge by its own copy
			return agent.Decision{Move: 9}, nil
		}, "1"},
		{"ignores deadline", func(ctx context.Context, _ agent.Turn) (agent.Decision, error) {
			<-ctx.Done()
			return agent.Decision{}, ctx.Err()
		}, "1"},
		{"resign", func(context.Context, agent.Turn) (agent.Decision, error) {
			return agent.Decision{Resign: true}, nil
		}, protocol.Resign},
		{"crashed", func(context.Context, agent.Turn) (agent.Decision, error) {
			return agent.Decision{Crashed: "exit status 3"}, nil
		}, protocol.Resign},
		{"unencodable info", func(context.Context, agent.Turn) (agent.Decision, error) {
			pv := make([]string, 1000)
			for i := range pv {
				pv[i] = "1"
			}
			return agent.Decision{Move: 2, Info: protocol.SearchInfo{Depth: -1, Nodes: -5, Score: math.NaN(), PV: pv}}, nil
		}, "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			referee, _ := setup(t, agent.Func(tt.fn))
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
	referee, _ := setup(t, agent.Func(func(context.Context, agent.Turn) (agent.Decision, error) {
		return agent.Decision{Move: 1}, nil
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
	agent.Func
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
	referee, stop := setup(t, agent.Func(func(context.Context, agent.Turn) (agent.Decision, error) {
		return agent.Decision{Move: 1}, nil
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
	referee, stop := setup(t, agent.Func(func(ctx context.Context, _ agent.Turn) (agent.Decision, error) {
		close(entered)
		<-ctx.Done() // a long search, cut short by the shutdown
		return agent.Decision{Move: 2}, nil
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

// call is one Choose call of a gate, held until release is closed.
type call struct {
	turn    agent.Turn
	at      time.Time // when Choose was called
	release chan struct{}
}

// gate is an agent whose Choose reports each call on entered and then blocks until the
// test releases it (or its context ends), replying with the last legal move. It notes the
// most calls it ever had at once, and, as a Learner, what happened in order.
type gate struct {
	entered  chan call
	stubborn bool // Choose waits for its release even after its context ends

	mu      sync.Mutex
	inside  int
	most    int
	history []string
	notices chan protocol.GameNotice
}

func newGate() *gate {
	return &gate{entered: make(chan call, 16), notices: make(chan protocol.GameNotice, 16)}
}

func (g *gate) note(s string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.history = append(g.history, s)
}

func (g *gate) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	g.mu.Lock()
	g.inside++
	g.most = max(g.most, g.inside)
	g.history = append(g.history, "choose "+t.GameID)
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		g.inside--
		g.history = append(g.history, "chosen "+t.GameID)
		g.mu.Unlock()
	}()
	c := call{turn: t, at: time.Now(), release: make(chan struct{})}
	g.entered <- c
	done := ctx.Done()
	if g.stubborn {
		done = nil
	}
	select {
	case <-c.release:
	case <-done:
	}
	return agent.Decision{Move: t.Legal[len(t.Legal)-1]}, nil
}

func (g *gate) GameStarted(n protocol.GameNotice) { g.note("start " + n.GameID); g.notices <- n }
func (g *gate) GameEnded(n protocol.GameNotice)   { g.note("end " + n.GameID); g.notices <- n }

func (g *gate) mostAtOnce() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.most
}

func (g *gate) log() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.history)
}

// enter waits for the next Choose call, which must be for game id unless id is "".
func (g *gate) enter(t *testing.T, id string) call {
	t.Helper()
	select {
	case c := <-g.entered:
		if id != "" && c.turn.GameID != id {
			t.Fatalf("agent called for game %s, want %s", c.turn.GameID, id)
		}
		return c
	case <-time.After(wait):
		t.Fatalf("agent not called for game %s", id)
		return call{}
	}
}

// quiet is how long a test watches for something that must not happen.
const quiet = 200 * time.Millisecond

// idle checks that the agent is not called for a while.
func (g *gate) idle(t *testing.T, why string) {
	t.Helper()
	select {
	case c := <-g.entered:
		t.Fatalf("agent called for game %s ply %d: %s", c.turn.GameID, len(c.turn.Moves), why)
	case <-time.After(quiet):
	}
}

type answer struct {
	reply protocol.TurnReply
	err   error
}

// askAsync sends a turn request without waiting for its reply.
func askAsync(nc *nats.Conn, req protocol.TurnRequest) <-chan answer {
	c := make(chan answer, 1)
	// The request is sent before askAsync returns, so that a test knows it is on its way;
	// only the wait for the answer is left to the goroutine.
	inbox := nc.NewRespInbox()
	sub, err := nc.SubscribeSync(inbox)
	if err == nil {
		err = nc.PublishRequest(protocol.TurnSubject("alice"), inbox, protocol.Encode(req))
	}
	if err != nil {
		c <- answer{err: err}
		return c
	}
	go func() {
		defer sub.Unsubscribe()
		msg, err := sub.NextMsg(wait)
		if err != nil {
			c <- answer{err: err}
			return
		}
		r, err := protocol.DecodeTurnReply(msg.Data)
		c <- answer{r, err}
	}()
	return c
}

// answered waits for the reply to a request, which must be the last legal move.
func answered(t *testing.T, c <-chan answer, req protocol.TurnRequest) {
	t.Helper()
	a := <-c
	if a.err != nil {
		t.Fatalf("turn of %s: %v", req.GameID, a.err)
	}
	if a.reply.GameID != req.GameID || a.reply.Ply != req.Ply || a.reply.Move != req.Legal[len(req.Legal)-1] {
		t.Fatalf("reply %+v to %s ply %d", a.reply, req.GameID, req.Ply)
	}
}

// longTurn is a turn of game id whose deadline is far away.
func longTurn(id string, ply int) protocol.TurnRequest {
	req := turnRequest(id, ply, fmt.Sprintf("%d %d", ply, ply%2), "1", "2")
	req.Moves = slices.Repeat([]string{"1"}, ply)
	req.Clock.MoveMS = 60_000
	return req
}

func TestTurnsOfDifferentGamesAtOnce(t *testing.T) {
	for _, conc := range []int{0, 1, 2} {
		t.Run(fmt.Sprintf("concurrency %d", conc), func(t *testing.T) {
			g := newGate()
			referee, _ := setupConcurrent(t, g, conc)
			r1, r2 := longTurn("g1", 0), longTurn("g2", 0)
			a1 := askAsync(referee, r1)
			c1 := g.enter(t, "g1")
			a2 := askAsync(referee, r2)
			if conc > 1 {
				c2 := g.enter(t, "g2") // while g1's turn is still in the agent
				close(c2.release)
				answered(t, a2, r2)
				close(c1.release)
				answered(t, a1, r1)
			} else {
				g.idle(t, "a second turn while the first is in the agent")
				close(c1.release)
				answered(t, a1, r1)
				close(g.enter(t, "g2").release)
				answered(t, a2, r2)
			}
			if want := max(conc, 1); g.mostAtOnce() != want {
				t.Fatalf("at most %d turns in the agent at once, want %d", g.mostAtOnce(), want)
			}
		})
	}
}

func TestTurnWaitsForAFreeSlot(t *testing.T) {
	g := newGate()
	referee, _ := setupConcurrent(t, g, 2)
	r1, r2, r3 := longTurn("g1", 0), longTurn("g2", 0), longTurn("g3", 0)
	r3.Clock.MoveMS = 2000
	a1 := askAsync(referee, r1)
	c1 := g.enter(t, "g1")
	a2 := askAsync(referee, r2)
	c2 := g.enter(t, "g2")
	stop := loadmeter.Watch()
	sent := time.Now()
	a3 := askAsync(referee, r3)
	g.idle(t, "a third turn while two are in the agent at concurrency 2")
	close(c2.release)
	answered(t, a2, r2)
	c3 := g.enter(t, "g3")
	// The deadline runs from the request's arrival, not from when a slot came free:
	// 2s less the 20ms reserve after it was sent, though it waited at least `quiet`. The
	// request's trip may take as long as the process was late (loadmeter.Watch).
	if d, own := c3.turn.Deadline.Sub(sent), stop().Late; d < 1980*time.Millisecond || d > 1980*time.Millisecond+quiet/2+own {
		t.Fatalf("deadline %v after the request (the process %v late), want 1.98s", d, own)
	}
	if c3.at.Sub(sent) < quiet {
		t.Fatalf("third turn started %v after it was sent, before a slot was free", c3.at.Sub(sent))
	}
	close(c3.release)
	answered(t, a3, r3)
	close(c1.release)
	answered(t, a1, r1)
	if g.mostAtOnce() != 2 {
		t.Fatalf("at most %d turns in the agent at once, want 2", g.mostAtOnce())
	}
}

func TestEventsOfOneGameInOrder(t *testing.T) {
	g := newGate()
	referee, _ := setupConcurrent(t, g, 4)
	// A second turn of a game does not reach the agent while its first is there, even
	// with slots free (the referee would not send it, but the runtime does not rely on it).
	r0, r2 := longTurn("g1", 0), longTurn("g1", 2)
	a0 := askAsync(referee, r0)
	c0 := g.enter(t, "g1")
	a2 := askAsync(referee, r2)
	g.idle(t, "a game's second turn while its first is in the agent")

	// Nor does the game's end notice, whereas another game's notice does.
	end := protocol.GameNotice{V: 1, Type: protocol.TypeGameEnd, GameID: "g1", Game: testgame.CountName, Seat: 0,
		Players: []string{"alice", "bob"}, Position: "10 0", Moves: []string{"2"}, Result: "1-0", Reason: protocol.ReasonNormal, Returns: []float64{1, -1}}
	start := protocol.GameNotice{V: 1, Type: protocol.TypeGameStart, GameID: "g2", Game: testgame.CountName, Seat: 1,
		Players: []string{"bob", "alice"}, Position: "0 0"}
	for _, n := range []protocol.GameNotice{end, start} {
		if err := referee.Publish(protocol.GameSubject("alice"), protocol.Encode(n)); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case n := <-g.notices:
		if n.GameID != "g2" || n.Type != protocol.TypeGameStart {
			t.Fatalf("notice %s of %s while g1's turn is in the agent, want g2's start", n.Type, n.GameID)
		}
	case <-time.After(wait):
		t.Fatal("another game's notice waited for g1's turn")
	}
	select {
	case n := <-g.notices:
		t.Fatalf("notice %s of %s overtook g1's turns", n.Type, n.GameID)
	case <-time.After(quiet):
	}

	close(c0.release)
	answered(t, a0, r0)
	c2 := g.enter(t, "g1")
	if len(c2.turn.Moves) != 2 {
		t.Fatalf("agent got g1 after %d moves, want 2", len(c2.turn.Moves))
	}
	close(c2.release)
	answered(t, a2, r2)
	select {
	case n := <-g.notices:
		if n.GameID != "g1" || n.Type != protocol.TypeGameEnd {
			t.Fatalf("notice %s of %s, want g1's end", n.Type, n.GameID)
		}
	case <-time.After(wait):
		t.Fatal("no end notice for g1")
	}
	var g1 []string
	for _, h := range g.log() {
		if strings.HasSuffix(h, " g1") {
			g1 = append(g1, h)
		}
	}
	if want := []string{"choose g1", "chosen g1", "choose g1", "chosen g1", "end g1"}; !slices.Equal(g1, want) {
		t.Fatalf("g1's events %q, want %q", g1, want)
	}
}

func TestServeAnswersConcurrentTurnsOnCancel(t *testing.T) {
	g := newGate()
	referee, stop := setupConcurrent(t, g, 2)
	reqs := []protocol.TurnRequest{longTurn("g1", 0), longTurn("g2", 0), longTurn("g3", 0)}
	var answers []<-chan answer
	for i, req := range reqs {
		answers = append(answers, askAsync(referee, req))
		if i < 2 {
			g.enter(t, req.GameID) // never released: a long search, cut short by the shutdown
		}
	}
	g.idle(t, "a third turn at concurrency 2") // and so g3 has arrived, waiting for a slot
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	for i, req := range reqs {
		answered(t, answers[i], req)
	}
}

// runnerGoroutines lists the stacks of the goroutines running the player runtime's code.
func runnerGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var found []string
	for _, st := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(st, "arena/players.(*runner)") || strings.Contains(st, "arena/player.Serve") {
			found = append(found, st)
		}
	}
	return found
}

func TestServeLeavesNoGoroutines(t *testing.T) {
	url := startNATS(t)
	referee := connect(t, url)
	hellos := fakeReferee(t, referee, 60_000)
	nc := connect(t, url)
	// A connection's first request sets up its reply subscription for good: do it now
	// on both, so that it is not counted as left behind by Serve.
	for _, c := range []*nats.Conn{referee, nc} {
		if _, err := c.Request(protocol.HelloSubject("warm"), protocol.Encode(protocol.Hello{V: 1, Type: protocol.TypeHello, Name: "warm"}), wait); err != nil {
			t.Fatal(err)
		}
		nextHello(t, hellos, wait)
	}
	before := runtime.NumGoroutine()

	g := newGate()
	g.stubborn = true
	stop := serve(t, nc, player.Config{Name: "alice", HelloRetry: 20 * time.Millisecond, Concurrency: 3}, g)
	nextHello(t, hellos, wait)
	var answers []<-chan answer
	var reqs []protocol.TurnRequest
	for i := range 5 {
		req := longTurn(fmt.Sprintf("g%d", i), 0)
		reqs = append(reqs, req)
		answers = append(answers, askAsync(referee, req))
	}
	var calls []call
	for range 3 {
		calls = append(calls, g.enter(t, ""))
	}
	// Three turns are in the agent, two wait for a slot. Serve is stopped, and must wait
	// for all five although the agent ignores the cancelled context. The flush makes sure
	// the server has all five turns before the player's subscription is drained.
	if err := referee.Flush(); err != nil {
		t.Fatal(err)
	}
	close(calls[0].release)
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	select {
	case err := <-stopped:
		t.Fatalf("Serve returned (%v) with turns still in the agent", err)
	case <-time.After(quiet):
	}
	// Slots come free one by one as the agent is let go.
	for _, c := range calls[1:] {
		close(c.release)
	}
	for range 2 {
		close(g.enter(t, "").release)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	for i, req := range reqs {
		answered(t, answers[i], req)
	}
	limit := time.Now().Add(wait)
	// Only the runtime's own goroutines count: the NATS client starts and ends goroutines
	// of its own on a schedule of its own, so the process-wide count is no measure.
	for {
		left := runnerGoroutines()
		if len(left) == 0 {
			break
		}
		if time.Now().After(limit) {
			t.Fatalf("%d of the runtime's goroutines left after Serve returned (%d goroutines in all, %d before):\n%s",
				len(left), runtime.NumGoroutine(), before, strings.Join(left, "\n\n"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRawAndNoReply: an agent may pass text on for the referee to judge, or leave a turn
// unanswered for the referee's clock to decide, as an engine bridge does.
func TestRawAndNoReply(t *testing.T) {
	tests := []struct {
		name    string
		d       agent.Decision
		want    string // the move sent; "" for no reply
		noReply bool
	}{
		{"raw illegal text goes out as it is", agent.Decision{Raw: "z9"}, "z9", false},
		{"raw legal text", agent.Decision{Raw: "1"}, "1", false},
		{"no reply", agent.Decision{NoReply: true}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := startNATS(t)
			referee := connect(t, url)
			hellos := fakeReferee(t, referee, 60_000)
			nc := connect(t, url)
			a := agent.Func(func(context.Context, agent.Turn) (agent.Decision, error) { return tt.d, nil })
			serve(t, nc, player.Config{Name: "alice", HelloRetry: 20 * time.Millisecond}, a)
			nextHello(t, hellos, wait)
			req := longTurn("g1", 0)
			msg, err := referee.Request(protocol.TurnSubject("alice"), protocol.Encode(req), time.Second)
			if tt.noReply {
				if !errors.Is(err, nats.ErrTimeout) {
					t.Fatalf("request: %v, %v; want a time-out (no reply)", msg, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rep, err := protocol.DecodeTurnReply(msg.Data)
			if err != nil || rep.Move != tt.want || rep.GameID != "g1" {
				t.Fatalf("reply %+v, %v; want move %q", rep, err, tt.want)
			}
		})
	}
}

// TestReserveAdaptsToOverruns has an agent overrun its deadline once, as a process waiting
// for a core would, and checks that the next turn keeps more time in reserve.
func TestReserveAdaptsToOverruns(t *testing.T) {
	var mu sync.Mutex
	var left []time.Duration // the time each turn's deadline left the agent from its start
	overrun := 40 * time.Millisecond
	agent := agent.Func(func(ctx context.Context, turn agent.Turn) (agent.Decision, error) {
		mu.Lock()
		left = append(left, time.Until(turn.Deadline))
		first := len(left) == 1
		mu.Unlock()
		if first {
			time.Sleep(time.Until(turn.Deadline) + overrun)
		}
		return agent.Decision{Move: 1}, nil
	})
	referee, _ := setup(t, agent)
	req := turnRequest("g1", 0, "4 0", "1", "2")
	req.Clock = protocol.Clock{MoveMS: 500, RemainingMS: 500, PerMove: true}
	stop := loadmeter.Watch()
	ask(t, referee, req)
	req.Ply = 2
	ask(t, referee, req)
	own := stop().Late
	mu.Lock()
	defer mu.Unlock()
	// The first turn kept the default 20ms; the second 20ms plus twice the overrun, at least
	// 40ms (a sleep may take longer than asked on a busy machine), and never more than half
	// the move, less what the request's trip took on a busy machine (the process's own
	// lateness, loadmeter.Watch).
	if gain := left[0] - left[1]; gain < 2*overrun-10*time.Millisecond || left[1] < 250*time.Millisecond-10*time.Millisecond-own {
		t.Errorf("the agent had %v, then %v after overrunning by %v: want at least %v less, and at least half the move left", left[0], left[1], overrun, 2*overrun)
	}
}

// TestLagDoesNotFeedOnItself has an agent that takes the same time whatever its deadline,
// as a fixed-depth search does, a little past the deadline the runtime would give without
// any lag: the reserve must settle at that small overrun, not grow with its own increases.
func TestLagDoesNotFeedOnItself(t *testing.T) {
	var mu sync.Mutex
	var left []time.Duration
	agent := agent.Func(func(ctx context.Context, turn agent.Turn) (agent.Decision, error) {
		mu.Lock()
		left = append(left, time.Until(turn.Deadline))
		mu.Unlock()
		time.Sleep(460 * time.Millisecond) // 500ms a move less the 20ms reserve is 480ms
		return agent.Decision{Move: 1}, nil
	})
	referee, _ := setup(t, agent)
	req := turnRequest("g1", 0, "4 0", "1", "2")
	req.Clock = protocol.Clock{MoveMS: 500, RemainingMS: 500, PerMove: true}
	stop := loadmeter.Watch()
	for ply := range 5 {
		req.Ply = 2 * ply
		ask(t, referee, req)
	}
	own := stop().Late
	mu.Lock()
	defer mu.Unlock()
	// 460ms is within the 480ms: no overrun, no lag, the same deadline every time (a slow
	// machine may make the sleep overrun a little, but not by 100ms in each of five turns).
	// The reserve keeps twice an overrun, and a busy machine's overrun may be as long as
	// the process's own lateness (loadmeter.Watch); a lag that fed on itself would reach
	// half the move.
	if last := left[len(left)-1]; last < 380*time.Millisecond-2*own {
		t.Errorf("deadlines left the agent %v: the reserve grew though the agent kept to its time", left)
	}
}

// instance is an agent that counts the turns it answered and the notices it heard.
type instance struct {
	turns, notices atomic.Int64
}

func (in *instance) Choose(context.Context, agent.Turn) (agent.Decision, error) {
	in.turns.Add(1)
	return agent.Decision{Move: 1}, nil
}
func (in *instance) GameStarted(protocol.GameNotice) { in.notices.Add(1) }
func (in *instance) GameEnded(protocol.GameNotice)   { in.notices.Add(1) }

func TestInstancesShareTurnsAndHearEveryNotice(t *testing.T) {
	url := startNATS(t)
	referee := connect(t, url)
	hellos := fakeReferee(t, referee, 60_000)
	const n, turns, games = 3, 300, 20
	var ins [n]instance
	for i := range ins {
		serve(t, connect(t, url), player.Config{Name: "alice", Agent: "test", HelloRetry: 20 * time.Millisecond}, &ins[i])
		nextHello(t, hellos, wait)
	}
	for i := range turns {
		if r := ask(t, referee, turnRequest(fmt.Sprintf("g%d", i), 0, "0 0", "1", "2")); r.Move != "1" {
			t.Fatalf("move %q, want 1", r.Move)
		}
	}
	for i := range games {
		for _, typ := range []string{protocol.TypeGameStart, protocol.TypeGameEnd} {
			nt := protocol.GameNotice{V: 1, Type: typ, GameID: fmt.Sprintf("g%d", i), Game: testgame.CountName, Players: []string{"alice", "bob"}, Position: "0 0"}
			if typ == protocol.TypeGameEnd {
				nt.Moves, nt.Result, nt.Reason, nt.Returns = []string{}, "1/2-1/2", protocol.ReasonNormal, []float64{0, 0}
			}
			if err := referee.Publish(protocol.GameSubject("alice"), protocol.Encode(nt)); err != nil {
				t.Fatal(err)
			}
		}
	}
	deadline := time.Now().Add(wait)
	for i := range ins {
		for ins[i].notices.Load() < 2*games && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
	var total int64
	for i := range ins {
		got := ins[i].turns.Load()
		total += got
		// Each instance gets about a third of the turns; NATS picks at random, so a share
		// below a sixth would be a 1-in-a-million event, not noise.
		if got < turns/(2*n) {
			t.Errorf("instance %d answered %d of %d turns, want a fair share", i, got, turns)
		}
		if got := ins[i].notices.Load(); got != 2*games {
			t.Errorf("instance %d heard %d notices, want every one of %d", i, got, 2*games)
		}
	}
	if total != turns {
		t.Errorf("the instances answered %d turns in all, want each of the %d exactly once", total, turns)
	}
}
