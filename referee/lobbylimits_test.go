package referee

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/protocol"
)

// logBuffer collects a referee's JSON log lines; it is safe for concurrent use.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines returns the log lines written so far, decoded.
func (b *logBuffer) lines(t testing.TB) []map[string]any {
	t.Helper()
	b.mu.Lock()
	text := b.buf.String()
	b.mu.Unlock()
	var out []map[string]any
	for line := range strings.Lines(text) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// count returns how many log lines have the message msg.
func (b *logBuffer) count(t testing.TB, msg string) int {
	n := 0
	for _, l := range b.lines(t) {
		if l["message"] == msg {
			n++
		}
	}
	return n
}

// The messages of the lobby's log lines about ignored hellos.
const (
	logIgnored = "lobby: hello ignored (further ones of this player and reason are only counted)"
	logSummary = "lobby: more hellos ignored"
)

// newLobbyEnv is newEnv with a referee made from cfg (its Conn, Clock and ID filled in) and
// logging to the returned buffer, its lobby running until the test ends.
func newLobbyEnv(t *testing.T, cfg Config) (*env, *logBuffer, context.CancelFunc) {
	t.Helper()
	e := newEnv(t)
	logs := &logBuffer{}
	cfg.Conn, cfg.Clock, cfg.ID, cfg.Log = e.refNC, e.clock, "ref-1", zerolog.New(logs)
	var err error
	if e.ref, err = New(cfg); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := e.ref.StartLobby(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	return e, logs, cancel
}

// handled is how many hellos the lobby has read.
func handled(s LobbyStats) uint64 {
	return s.Accepted + s.Invalid + s.Mismatched + s.RateLimited + s.Refused
}

// waitHandled waits until the lobby has read n hellos, and returns its stats then.
func (e *env) waitHandled(n uint64) LobbyStats {
	e.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		s := e.ref.LobbyStats()
		if handled(s) >= n {
			return s
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("the lobby read %d hellos, want %d: %+v", handled(s), n, s)
		}
		time.Sleep(time.Millisecond)
	}
}

// welcomed says hello with data on subject and checks that the referee welcomes it.
func (e *env) welcomed(subject string, data []byte) {
	e.t.Helper()
	msg, err := e.testNC.Request(subject, data, wait)
	if err != nil {
		e.t.Fatalf("hello on %s: %v", subject, err)
	}
	if w, err := protocol.DecodeWelcome(msg.Data); err != nil || w.Referee != "ref-1" {
		e.t.Fatalf("hello on %s: welcome %+v, %v", subject, w, err)
	}
}

// publish sends data on subject with no reply subject.
func (e *env) publish(subject string, data []byte) {
	e.t.Helper()
	if err := e.testNC.Publish(subject, data); err != nil {
		e.t.Fatal(err)
	}
}

// waitOwn waits until the lobby reads name's hellos on a subscription of the player's own.
func (e *env) waitOwn(name string) {
	e.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		e.ref.lobby.mu.Lock()
		ok := e.ref.lobby.run != nil && e.ref.lobby.run.own[name] != nil
		e.ref.lobby.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s has no subscription of its own", name)
		}
		time.Sleep(time.Millisecond)
	}
}

// names returns the names of the players the lobby knows.
func (e *env) names() []string {
	var out []string
	for _, p := range e.ref.Players() {
		out = append(out, p.Name)
	}
	return out
}

func TestLobbyLimits(t *testing.T) {
	named := protocol.HelloSubject
	tests := []struct {
		name    string
		cfg     Config
		steps   func(t *testing.T, e *env)
		want    LobbyStats
		players []string
	}{
		{
			name: "named hello is welcomed",
			steps: func(t *testing.T, e *env) {
				e.welcomed(named("alice"), hello("alice"))
			},
			want:    LobbyStats{Accepted: 1},
			players: []string{"alice"},
		},
		{
			name: "unnamed hello is still welcomed",
			steps: func(t *testing.T, e *env) {
				e.welcomed(protocol.SubjectHello, hello("alice"))
				e.welcomed(named("alice"), hello("alice"))
			},
			want:    LobbyStats{Accepted: 2},
			players: []string{"alice"},
		},
		{
			name: "hello on another player's subject is ignored",
			steps: func(t *testing.T, e *env) {
				e.publish(named("mallory"), hello("alice"))
				e.publish(named("alice"), hello("mallory"))
				// Hellos on the named subjects are read in order: the welcome comes after.
				e.welcomed(named("bob"), hello("bob"))
			},
			want:    LobbyStats{Accepted: 1, Mismatched: 2},
			players: []string{"bob"},
		},
		{
			name: "malformed hellos are counted",
			steps: func(t *testing.T, e *env) {
				for _, bad := range [][]byte{
					[]byte("garbage"),
					protocol.Encode(protocol.Hello{V: 1, Type: protocol.TypeHello, Name: "no spaces"}),
					protocol.Encode(protocol.Hello{V: 2, Type: protocol.TypeHello, Name: "future"}),
					make([]byte, protocol.MaxMessageSize+1),
					nil,
				} {
					e.publish(protocol.SubjectHello, bad)
				}
				e.publish(named("bob"), []byte(`{"v":1,"type":"hello","name":"bob"`))
				e.publish(named(strings.Repeat("x", 65)), hello(strings.Repeat("x", 65)))
				e.publish(named("é"), hello("é"))
			},
			want: LobbyStats{Invalid: 8},
		},
		{
			name: "new names are refused once MaxPlayers are known",
			cfg:  Config{MaxPlayers: 2},
			steps: func(t *testing.T, e *env) {
				e.welcomed(named("alice"), hello("alice"))
				e.welcomed(protocol.SubjectHello, hello("bob"))
				e.publish(named("carol"), hello("carol"))
				e.publish(protocol.SubjectHello, hello("dave"))
				e.waitHandled(4)
				// Known players are still welcomed, on either subject.
				e.welcomed(named("alice"), hello("alice"))
				e.welcomed(protocol.SubjectHello, hello("bob"))
			},
			want:    LobbyStats{Accepted: 4, Refused: 2},
			players: []string{"alice", "bob"},
		},
		{
			name: "hellos over a name's rate are ignored",
			cfg:  Config{HelloRate: 1, HelloBurst: 3},
			steps: func(t *testing.T, e *env) {
				for range 3 { // the burst
					e.welcomed(named("alice"), hello("alice"))
				}
				e.publish(named("alice"), hello("alice"))
				e.publish(named("alice"), []byte("garbage: limited before it is decoded"))
				e.waitHandled(5)
				// Both subjects count for the name.
				e.publish(protocol.SubjectHello, hello("alice"))
				e.waitHandled(6)
				// The limit is the name's own.
				e.welcomed(named("bob"), hello("bob"))
				e.clock.Advance(time.Second)
				e.welcomed(named("alice"), hello("alice"))
				e.publish(named("alice"), hello("alice"))
				e.waitHandled(9)
				e.clock.Advance(3 * time.Second)
				for range 3 {
					e.welcomed(protocol.SubjectHello, hello("alice"))
				}
			},
			want:    LobbyStats{Accepted: 8, RateLimited: 4},
			players: []string{"alice", "bob"},
		},
		{
			name: "no rate limit",
			cfg:  Config{HelloRate: math.Inf(1), HelloBurst: 1},
			steps: func(t *testing.T, e *env) {
				for range 50 {
					e.welcomed(named("alice"), hello("alice"))
				}
			},
			want:    LobbyStats{Accepted: 50},
			players: []string{"alice"},
		},
		{
			// Once alice has a subscription of her own, her hellos reach the lobby twice,
			// on it and on the shared one, and are read once.
			name: "a known player's hellos are read once",
			steps: func(t *testing.T, e *env) {
				e.welcomed(named("alice"), hello("alice"))
				e.waitOwn("alice")
				for range 5 {
					e.welcomed(named("alice"), hello("alice"))
				}
				e.welcomed(protocol.SubjectHello, hello("alice"))
			},
			want:    LobbyStats{Accepted: 7},
			players: []string{"alice"},
		},
		{
			name: "strangers' limiters stay bounded",
			steps: func(t *testing.T, e *env) {
				for i := range 3 * maxAdmitting {
					e.publish(named(fmt.Sprintf("p%d", i)), []byte("garbage"))
				}
			},
			want: LobbyStats{Invalid: 3 * maxAdmitting},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _, _ := newLobbyEnv(t, tt.cfg)
			tt.steps(t, e)
			got := e.waitHandled(handled(tt.want))
			got.Dropped = 0
			if got != tt.want {
				t.Errorf("stats %+v, want %+v", got, tt.want)
			}
			if got := e.names(); !slices.Equal(got, tt.players) {
				t.Errorf("players %v, want %v", got, tt.players)
			}
			e.ref.lobby.mu.Lock()
			limits, admitting := len(e.ref.lobby.limits), len(e.ref.lobby.admitting)
			e.ref.lobby.mu.Unlock()
			if limits != len(tt.players) || admitting > maxAdmitting {
				t.Errorf("%d limiters of known players and %d of others, want %d and at most %d",
					limits, admitting, len(tt.players), maxAdmitting)
			}
		})
	}
}

func TestNewLobbyConfig(t *testing.T) {
	e := newEnv(t)
	for _, cfg := range []Config{
		{MaxPlayers: -1},
		{HelloRate: -1},
		{HelloRate: math.NaN()},
		{HelloBurst: -1},
	} {
		cfg.Conn = e.refNC
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v) succeeded", cfg)
		}
	}
	r, err := New(Config{Conn: e.refNC})
	if err != nil {
		t.Fatal(err)
	}
	if r.lobbyNC != e.refNC {
		t.Error("the lobby does not default to Conn")
	}
	if r.maxPlayers != DefaultMaxPlayers || r.helloRate != DefaultHelloRate || r.helloBurst != DefaultHelloBurst {
		t.Errorf("defaults: %d players, %v hellos/s, bursts of %d", r.maxPlayers, r.helloRate, r.helloBurst)
	}
	if s := r.LobbyStats(); s != (LobbyStats{}) {
		t.Errorf("stats of a new referee %+v", s)
	}
}

// The log says what was ignored without a line per hello: the first of each name and
// reason, then summaries.
func TestLobbyRejectLog(t *testing.T) {
	e, logs, cancel := newLobbyEnv(t, Config{})
	for range 10 {
		e.publish(protocol.HelloSubject("bob"), []byte("garbage"))
	}
	e.publish(protocol.HelloSubject("carol"), []byte("garbage"))
	e.waitHandled(11)
	if n := logs.count(t, logIgnored); n != 2 {
		t.Errorf("%d lines for the first rejections of bob and carol, want 2", n)
	}
	e.clock.Advance(rejectSummaryEvery)
	e.publish(protocol.HelloSubject("bob"), []byte("garbage"))
	e.waitHandled(12)
	// Past the names it remembers, the lobby logs only summaries.
	for i := range maxLoggedRejections {
		e.publish(protocol.HelloSubject(fmt.Sprintf("p%d", i)), []byte("garbage"))
	}
	e.waitHandled(12 + maxLoggedRejections)
	cancel() // the lobby sums up what is left when it closes
	deadline := time.Now().Add(wait)
	for logs.count(t, "lobby closed") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the lobby did not close")
		}
		time.Sleep(time.Millisecond)
	}

	var firsts, summaries int
	var summed float64
	for _, l := range logs.lines(t) {
		switch l["message"] {
		case logIgnored:
			firsts++
			if l["reason"] != "invalid" || l["level"] != "warn" {
				t.Errorf("line %v", l)
			}
		case logSummary:
			summaries++
			summed += l["count"].(float64)
		}
	}
	if firsts != maxLoggedRejections {
		t.Errorf("%d lines for first rejections, want %d", firsts, maxLoggedRejections)
	}
	// 10 of bob's hellos and the 2 of its names the lobby no longer had room for.
	if want := 12 + maxLoggedRejections - firsts; summed != float64(want) || summaries < 1 || summaries > 3 {
		t.Errorf("%d summary lines counting %v hellos, want 1-3 lines counting %d", summaries, summed, want)
	}
}

// The lobby reads whatever anyone publishes: no subject and no payload may make it panic,
// and each hello it reads lands in exactly one count.
func FuzzLobbyHello(f *testing.F) {
	for _, seed := range []struct {
		subject string
		data    []byte
	}{
		{protocol.HelloSubject("alice"), hello("alice")},
		{protocol.HelloSubject("alice"), hello("bob")},
		{protocol.SubjectHello, hello("alice")},
		{protocol.SubjectHello, []byte("garbage")},
		{protocol.HelloSubject("é"), hello("é")},
		{protocol.HelloSubject(""), nil},
		{protocol.HelloSubject("a.b"), []byte(`{"v":1,"type":"hello","name":"a"}`)},
	} {
		f.Add(seed.subject, seed.data)
	}
	f.Fuzz(func(t *testing.T, subject string, data []byte) {
		r := &Referee{clock: NewFakeClock(testStart), maxPlayers: 2, helloRate: 1, helloBurst: 2}
		r.lobby.init()
		// A closed run: the fuzzer has no NATS connection to make subscriptions on.
		run := &lobbyRun{welcome: []byte("{}"), own: map[string]*nats.Subscription{}, closed: true}
		for i := range 4 {
			r.hello(run, &nats.Msg{Subject: subject, Data: data}, false)
			if got := handled(r.LobbyStats()); got != uint64(i+1) {
				t.Fatalf("after %d hellos, %d counted: %+v", i+1, got, r.LobbyStats())
			}
		}
		if n := len(r.Players()); n > r.maxPlayers {
			t.Fatalf("%d players known, at most %d allowed", n, r.maxPlayers)
		}
	})
}
