package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/bus/embedded"
	_ "github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/hosting"
	at "github.com/arenaref/arena/players/hosting/archive/archivetest"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store/sqlite"
)

// shEngine is an engine of the line protocol in sh: it plays the first legal move.
// Started with "die", it exits at once; with "die-at-game", when a game starts.
const shEngine = `#!/bin/sh
[ "$1" = die ] && { echo "dying at once" >&2; exit 3; }
while read -r cmd rest; do
  case "$cmd" in
    arena) echo "ready shbot 1" ;;
    newgame) [ "$1" = die-at-game ] && { echo "dying at the game" >&2; exit 4; } ;;
    legal) set -- $rest; first=$1 ;;
    go) echo "$first" ;;
    quit) exit 0 ;;
  esac
done
`

func shArchive(t *testing.T, args string) []byte {
	return at.TarGz(t,
		at.Member{Name: "arena.toml", Body: at.Manifest("line", "", "sh engine.sh "+args) + "game = \"othello\"\n"},
		at.Member{Name: "engine.sh", Body: shEngine},
	)
}

// bench is a referee's side of hosting, in process: a NATS server, the store and the
// engines subjects, a lobby that welcomes every hello, and a client that submits.
type bench struct {
	t      *testing.T
	url    string
	client *nats.Conn
	states chan protocol.EngineEvent // of every player, in order

	mu     sync.Mutex
	hellos map[string]string // the version of each player's latest hello
}

func newBench(t *testing.T) *bench {
	t.Helper()
	srv, err := embedded.Start(embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	b := &bench{t: t, url: srv.URL(), states: make(chan protocol.EngineEvent, 256), hellos: map[string]string{}}
	b.client = b.connect()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ref := b.connect()
	eng := hosting.NewEngines(hosting.EnginesConfig{Store: db, Publish: ref.Publish, Log: zerolog.Nop()})
	stop, err := eng.Serve(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	if _, err := ref.Subscribe(protocol.SubjectHelloNamed, func(m *nats.Msg) {
		h, err := protocol.DecodeHello(m.Data)
		if err != nil {
			return
		}
		b.mu.Lock()
		b.hellos[h.Name] = h.Version
		b.mu.Unlock()
		_ = m.Respond(protocol.Encode(protocol.Welcome{V: 1, Type: protocol.TypeWelcome, Referee: "bench", HeartbeatMS: 200}))
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.client.Subscribe("arena.v1.player.*.engine", func(m *nats.Msg) {
		if ev, err := protocol.DecodeEngineEvent(m.Data); err == nil {
			b.states <- ev
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := ref.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := b.client.Flush(); err != nil {
		t.Fatal(err)
	}
	return b
}

func (b *bench) connect() *nats.Conn {
	nc, err := nats.Connect(b.url)
	if err != nil {
		b.t.Fatal(err)
	}
	b.t.Cleanup(nc.Close)
	return nc
}

// host starts a host on dir until the returned function stops it.
func (b *bench) host(dir string) (stop func()) { return b.hostWith(dir, nil) }

// hostWith is host with edit applied to the host's Config, when not nil.
func (b *bench) hostWith(dir string, edit func(*Config)) (stop func()) {
	cfg := Config{Conn: b.connect(), Dir: dir, Sandbox: Unsandboxed{}, Resync: 200 * time.Millisecond, Log: zerolog.Nop()}
	if edit != nil {
		edit(&cfg)
	}
	h, err := New(cfg)
	if err != nil {
		b.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				b.t.Errorf("host: %v", err)
			}
		})
	}
	b.t.Cleanup(stop)
	return stop
}

func (b *bench) submit(name string, data []byte) string {
	b.t.Helper()
	m, err := b.client.Request(protocol.EngineSubmitSubject(name), data, 10*time.Second)
	if err != nil {
		b.t.Fatal(err)
	}
	r, err := protocol.DecodeEngineReply(m.Data)
	if err != nil {
		b.t.Fatalf("submit: %v", err)
	}
	return r.Version
}

// expect waits for the states of versions, in order, and returns their events; states of
// other versions may come in between.
func (b *bench) expect(name string, want ...string) []protocol.EngineEvent {
	b.t.Helper()
	var got []protocol.EngineEvent
	var seen []string
	timeout := time.After(60 * time.Second)
	for len(got) < len(want) {
		select {
		case ev := <-b.states:
			s := ev.Version + " " + ev.State
			seen = append(seen, s)
			if ev.Name == name && s == want[len(got)] {
				got = append(got, ev)
			} else if ev.Name == name && slices.Contains(want[len(got):], s) {
				b.t.Fatalf("states %q, want %q in this order", seen, want)
			}
		case <-timeout:
			b.t.Fatalf("states so far %q, want %q", seen, want)
		}
	}
	return got
}

// quiet checks that no state of name comes within d.
func (b *bench) quiet(name string, d time.Duration) {
	b.t.Helper()
	timeout := time.After(d)
	for {
		select {
		case ev := <-b.states:
			if ev.Name == name {
				b.t.Fatalf("unexpected state %s %s", ev.Version, ev.State)
			}
		case <-timeout:
			return
		}
	}
}

// plays checks that name's player answers a turn with a legal move, and says hello as
// version.
func (b *bench) plays(name, version string) {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b.mu.Lock()
		v := b.hellos[name]
		b.mu.Unlock()
		if v == version {
			break
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("%s says hello as %q, want %q", name, v, version)
		}
		time.Sleep(20 * time.Millisecond)
	}
	turn := protocol.TurnRequest{V: 1, Type: protocol.TypeTurn, GameID: "g" + version, Game: "othello", Seat: 0, SeatName: "black",
		Position: "---------------------------OX------XO--------------------------- X", Legal: []string{"d3", "c4", "f5", "e6"},
		Moves: []string{}, Clock: protocol.Clock{MoveMS: 5000, RemainingMS: 5000, PerMove: true}}
	// An engine started again (a restarted host, or after a replacement failed) may say
	// "running" before its process has subscribed, while the last hello seen is still the
	// one of its previous run: nobody answering yet is worth another try.
	m, err := b.client.Request(protocol.TurnSubject(name), protocol.Encode(turn), 10*time.Second)
	for errors.Is(err, nats.ErrNoResponders) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		m, err = b.client.Request(protocol.TurnSubject(name), protocol.Encode(turn), 10*time.Second)
	}
	if err != nil {
		b.t.Fatalf("%s's turn: %v", name, err)
	}
	r, err := protocol.DecodeTurnReply(m.Data)
	if err != nil || !slices.Contains(turn.Legal, r.Move) {
		b.t.Fatalf("%s answered %+v, %v", name, r, err)
	}
}

func TestHostBuildsRunsAndReplaces(t *testing.T) {
	b := newBench(t)
	dir := t.TempDir()
	stop := b.host(dir)

	// s1: no build; it runs, says hello as s1 and plays.
	b.submit("alice", shArchive(t, ""))
	b.expect("alice", "s1 submitted", "s1 building", "s1 built", "s1 running")
	b.plays("alice", "s1")

	// s2: the example C engine, built with cc, replaces s1.
	b.submit("alice", at.CEngine(t, "../../../examples/c/engine.c", ""))
	b.expect("alice", "s2 submitted", "s2 building", "s2 built", "s1 stopped", "s2 running")
	b.plays("alice", "s2")
	if _, err := os.Stat(filepath.Join(dir, "alice", "s2", "engine")); err != nil {
		t.Fatalf("the build left no engine: %v", err)
	}

	// s3 does not compile: the compiler's message is its log, and s2 plays on.
	b.submit("alice", at.CEngine(t, "../../../examples/c/engine.c", "int broken(void) { return 0 }\n"))
	evs := b.expect("alice", "s3 submitted", "s3 building", "s3 build_failed")
	if log := evs[2].Log; !strings.Contains(log, "error") || !strings.Contains(log, "engine.c") {
		t.Errorf("build_failed log %q does not quote the compiler", log)
	}
	b.quiet("alice", 500*time.Millisecond)
	b.plays("alice", "s2")

	// A restarted host finds s2 built and runs it again without building it.
	stop()
	b.expect("alice", "s2 stopped")
	b.host(dir)
	b.expect("alice", "s2 running")
	b.plays("alice", "s2")

	// s4 dies at once: after its tries it is run_failed, with its standard error, and s2
	// comes back.
	b.submit("alice", shArchive(t, "die"))
	evs = b.expect("alice", "s4 submitted", "s4 building", "s4 built", "s2 stopped", "s4 run_failed", "s2 running")
	if !strings.Contains(evs[4].Log, "dying at once") {
		t.Errorf("run_failed log %q has not the engine's standard error", evs[4].Log)
	}
	b.plays("alice", "s2")
}

func TestHostEngineThatKeepsDying(t *testing.T) {
	b := newBench(t)
	b.host(t.TempDir())
	b.submit("bob", shArchive(t, ""))
	b.expect("bob", "s1 submitted", "s1 building", "s1 built", "s1 running")
	b.submit("bob", shArchive(t, "die-at-game"))
	b.expect("bob", "s2 submitted", "s2 building", "s2 built", "s1 stopped", "s2 running")
	// Each game that starts kills the engine; the bridge starts it again for the next.
	notice := protocol.GameNotice{V: 1, Type: protocol.TypeGameStart, Game: "othello", Seat: 0, Players: []string{"bob", "carol"},
		Position: "---------------------------OX------XO--------------------------- X"}
	stop := make(chan struct{})
	go func() {
		for i := 0; ; i++ {
			notice.GameID = fmt.Sprintf("g%d", i)
			_ = b.client.Publish(protocol.GameSubject("bob"), protocol.Encode(notice))
			select {
			case <-stop:
				return
			case <-time.After(300 * time.Millisecond):
			}
		}
	}()
	evs := b.expect("bob", "s2 run_failed", "s1 running")
	close(stop)
	if !strings.Contains(evs[0].Log, "dying at the game") || !strings.Contains(evs[0].Log, "died 3 times") {
		t.Errorf("run_failed log %q", evs[0].Log)
	}
	b.plays("bob", "s1")
}
