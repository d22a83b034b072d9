package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	_ "github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/testutil/proctag"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/protocol"
)

// fakeEngine is the path of internal/cmd/fakeengine, built once by TestMain.
var fakeEngine string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "arena-engine-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakeEngine = filepath.Join(dir, "fakeengine")
	if out, err := exec.Command("go", "build", "-o", fakeEngine, "../../internal/cmd/fakeengine").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build fakeengine: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fake returns the command line of the fake engine with these flags.
func fakeArgv(flags ...string) []string { return append([]string{fakeEngine}, flags...) }

func lookupOthello(t testing.TB) game.Game {
	t.Helper()
	g, err := game.Lookup("othello")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// bridgeTurn is the turn of the side to move in st, with moves the history and a move time of
// tc from now.
func bridgeTurn(g game.Game, id string, st game.State, moves []string, tc time.Duration) agent.Turn {
	seat := st.ToMove()
	ms := tc.Milliseconds()
	return agent.Turn{
		GameID: id, Game: g, State: st.Clone(), Seat: seat, Legal: st.LegalMoves(seat, nil),
		Moves: append([]string(nil), moves...),
		Clock: protocol.Clock{MoveMS: ms, RemainingMS: ms, PerMove: true}, Deadline: time.Now().Add(tc),
	}
}

// choose calls b.Choose as the player runtime does: with a context ending at the deadline.
func chooseAsRuntime(b *engine.Bridge, t agent.Turn) (agent.Decision, error) {
	ctx, cancel := context.WithDeadline(context.Background(), t.Deadline)
	defer cancel()
	return b.Choose(ctx, t)
}

// gameResult is what playGame saw.
type gameResult struct {
	moves    []string
	resigned bool   // at len(moves)
	raw      string // at len(moves): the engine's words passed on for the referee to judge
	noReply  bool   // at len(moves): the turn left for the referee's clock
	crashed  string // at len(moves): the engine died choosing the move, and this is how
	infos    int    // turns answered with search info
}

// playGame plays one Othello game with the bridge on both seats, as the runtime would
// drive it (start notice, turns, end notice), stopping at the end, at a resignation, or
// where the referee would judge (a raw answer, or none).
func playGame(t *testing.T, b *engine.Bridge, id string, tc time.Duration) gameResult {
	t.Helper()
	g := lookupOthello(t)
	st := g.NewState()
	b.GameStarted(protocol.GameNotice{V: 1, Type: protocol.TypeGameStart, GameID: id, Game: g.Name(), Seat: 0,
		Players: []string{"x", "y"}, Position: st.String()})
	var r gameResult
	for !st.IsTerminal() {
		d, err := chooseAsRuntime(b, bridgeTurn(g, id, st, r.moves, tc))
		if err != nil {
			t.Fatalf("%s ply %d: Choose: %v", id, len(r.moves), err)
		}
		if d.Resign || d.Raw != "" || d.NoReply || d.Crashed != "" {
			r.resigned, r.raw, r.noReply, r.crashed = d.Resign, d.Raw, d.NoReply, d.Crashed
			break
		}
		if len(d.Info.PV) > 0 || d.Info.Depth > 0 {
			r.infos++
		}
		r.moves = append(r.moves, st.MoveString(d.Move))
		if err := st.Play(d.Move); err != nil {
			t.Fatalf("%s ply %d: the bridge chose %s: %v", id, len(r.moves), st.MoveString(d.Move), err)
		}
	}
	b.GameEnded(protocol.GameNotice{V: 1, Type: protocol.TypeGameEnd, GameID: id, Game: g.Name(), Seat: 0,
		Players: []string{"x", "y"}, Result: "1-0", Reason: "normal", Moves: r.moves})
	return r
}

func newBridge(t *testing.T, argv []string, opts engine.Options) *engine.Bridge {
	t.Helper()
	b := engine.NewBridge(argv, engine.NewLine, opts, zerolog.New(zerolog.NewTestWriter(t)))
	t.Cleanup(func() { b.Close() })
	return b
}

// groupGone waits until no live process of the group pgid is left. Zombies are not
// counted: the engine's own children are reparented when it dies, and their reaping is up
// to init, which may take its time; the engine itself must be reaped (see pidGone).
func groupGone(t *testing.T, pgid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		live := liveMembers(pgid)
		if len(live) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still has live processes %v", pgid, live)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// liveMembers lists the processes of group pgid that are not zombies, from /proc, or
// from kill(-pgid, 0) where there is no /proc.
func liveMembers(pgid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		if errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) {
			return nil
		}
		return []int{-pgid}
	}
	var live []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, pgrp, ok := procStat(pid)
		if ok && pgrp == pgid && state != "Z" {
			live = append(live, pid)
		}
	}
	return live
}

// procStat reads a process's state and process group from /proc/PID/stat.
func procStat(pid int) (state string, pgrp int, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	// The command name, in parentheses, may hold spaces: the fields follow its last ")".
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 3 {
		return "", 0, false
	}
	pgrp, err = strconv.Atoi(f[2])
	return f[0], pgrp, err == nil
}

// pidGone reports whether process pid no longer runs: gone, or a zombie that is not ours
// to reap (the engine itself, our child, must be gone altogether).
func pidGone(pid int) bool {
	state, _, ok := procStat(pid)
	return !ok || state == "Z" && ppid(pid) != os.Getpid()
}

func ppid(pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// engineAndChild waits for the fake engine and the one child it started, which carry
// token, and returns their pids, as this process sees them; the engine's must be pid.
func engineAndChild(t *testing.T, token string, pid int) (own, child int) {
	t.Helper()
	own, children := waitEngine(t, token, 1, false)
	if own != pid {
		t.Fatalf("the engine runs as pid %d; want %d", own, pid)
	}
	return own, children[0]
}

// tag returns a fresh token for the fake engine's --tag (see proctag.Track).
func tag(t *testing.T) string { return proctag.Track(t, "arena-engine-test") }

// waitEngine waits until the fake engine and n children (--sleep-forever) carry token,
// one of the children leading a session of its own if setsid (the child of setsid-child,
// once it has left the engine's session and process group). It returns their pids, as
// this process sees them. (A child that has not yet run its program carries the engine's
// command line: that is why it waits for the children by their own.)
func waitEngine(t *testing.T, token string, n int, setsid bool) (engine int, children []int) {
	t.Helper()
	found, ok, err := proctag.Wait(token, 5*time.Second, func(found []proctag.Proc) bool {
		engine, children = 0, nil
		for _, p := range found {
			if slices.Contains(p.Args, "--sleep-forever") {
				children = append(children, p.Pid)
			} else {
				engine = p.Pid
			}
		}
		return len(found) == n+1 && len(children) == n &&
			(!setsid || slices.ContainsFunc(found, proctag.Proc.LeadsSession))
	})
	if !ok {
		t.Fatalf("processes carrying the tag: %v (%v); want the engine and %d children (one of which called setsid: %v)", found, err, n, setsid)
	}
	return engine, children
}

// noneTagged fails the test if a process carrying token is still running after within.
func noneTagged(t *testing.T, token string, within time.Duration, when string) {
	t.Helper()
	if left, err := proctag.WaitGone(token, within); err != nil || len(left) > 0 {
		t.Errorf("%s: still running: %v (%v)", when, left, err)
	}
}
