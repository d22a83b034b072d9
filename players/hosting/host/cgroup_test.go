package host

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/players/hosting/cgroup"
	"github.com/arenaref/arena/players/hosting/cgroup/cgrouptest"
	"github.com/arenaref/arena/players/hosting/sandbox"
	"github.com/arenaref/arena/protocol"
)

// The tests of this file run the engine of testdata/contained.c, honest or hostile, in
// real bwrap sandboxes, each in a cgroup of its own. They skip where sandboxes or cgroups
// cannot be made, unless ARENA_REQUIRE_BWRAP or ARENA_REQUIRE_CGROUP is set (as .ci/run
// does): then they fail.

// openCgroups opens a cgroup Manager with limits, after checking that sandboxes work.
func openCgroups(t *testing.T, limits cgroup.Limits) *cgroup.Manager {
	t.Helper()
	if err := sandbox.Available(); err != nil {
		if os.Getenv("ARENA_REQUIRE_BWRAP") != "" {
			t.Fatalf("ARENA_REQUIRE_BWRAP is set, and: %v", err)
		}
		t.Skipf("no sandboxes here: %v", err)
	}
	return cgrouptest.Open(t, limits)
}

var (
	compileOnce sync.Once
	compiled    string // the engine of testdata/contained.c, compiled once
	compileErr  error
)

// containedDir returns an engine directory, its sandbox's uid may reach and handed to it,
// holding the engine of testdata/contained.c.
func containedDir(t *testing.T) string {
	t.Helper()
	compileOnce.Do(func() {
		compiled = filepath.Join(os.TempDir(), fmt.Sprintf("arena-contained-%d", os.Getpid()))
		if out, err := exec.Command("cc", "-O2", "-pthread", "-o", compiled, "testdata/contained.c").CombinedOutput(); err != nil {
			compileErr = fmt.Errorf("cc: %v\n%s", err, out)
		}
	})
	if compileErr != nil {
		t.Fatal(compileErr)
	}
	base, err := os.MkdirTemp("", "arena-cgroup-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	dir := filepath.Join(base, "engine")
	if err := os.Chmod(base, 0o711); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(compiled)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "contained"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := sandbox.Prepare(dir, 0); err != nil {
		t.Fatal(err)
	}
	return dir
}

// contained is one engine of contained.c, sandboxed, in its group when it has one.
type contained struct {
	bridge *engine.Bridge
	group  *cgroup.Group
	agent  agent.Agent // the bridge, frozen between turns when asked
	logs   *bytes.Buffer
}

// startContained starts the engine mode (honest, spin, shm, fork) in a sandbox of limits,
// in a group of m (none when m is nil), frozen between its turns when freeze is set.
func startContained(t *testing.T, m *cgroup.Manager, mode string, limits sandbox.Limits, freeze bool) *contained {
	t.Helper()
	argv, err := sandbox.Command(sandbox.Config{Dir: containedDir(t), Limits: limits}, []string{"./contained", mode})
	if err != nil {
		t.Fatal(err)
	}
	c := &contained{logs: &bytes.Buffer{}}
	if m != nil {
		if c.group, err = m.New(mode); err != nil {
			t.Fatal(err)
		}
		argv = c.group.Wrap(argv)
	}
	c.bridge = engine.NewBridge(argv, engine.NewLine, engine.Options{}, zerolog.New(zerolog.SyncWriter(c.logs)).Level(zerolog.WarnLevel))
	c.agent = c.bridge
	t.Cleanup(func() {
		if f, ok := c.agent.(*frozen); ok {
			f.release()
		}
		_ = c.bridge.Close()
		if c.group != nil {
			if err := c.group.Remove(); err != nil {
				t.Error(err)
			}
		}
	})
	if _, err := c.bridge.Start(context.Background()); err != nil {
		t.Fatalf("%s: %v", mode, err)
	}
	if freeze {
		var fz freezer = &treeStopper{pid: c.bridge.Pid}
		if c.group != nil {
			fz = c.group
		}
		c.agent = newFrozen(c.bridge, fz, zerolog.Nop())
	}
	return c
}

// openingTurn is the turn of Othello's first move.
func openingTurn(t *testing.T, id string) agent.Turn {
	t.Helper()
	g, err := game.Lookup("othello")
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewState()
	return agent.Turn{GameID: id, Game: g, State: s, Seat: s.ToMove(), Legal: s.LegalMoves(s.ToMove(), nil),
		Clock: protocol.Clock{MoveMS: 5000, RemainingMS: 5000, PerMove: true}}
}

// play plays one turn of game id: its start, the move, its end. It fails the test unless
// the engine answers with a move.
func (c *contained) play(t *testing.T, id string) time.Duration {
	t.Helper()
	l, _ := c.agent.(agent.Learner)
	n := protocol.GameNotice{GameID: id, Game: "othello", Players: []string{"a", "b"}}
	if l != nil {
		l.GameStarted(n)
	}
	start := time.Now()
	d, err := c.agent.Choose(context.Background(), openingTurn(t, id))
	took := time.Since(start)
	if err != nil || d.Resign || d.NoReply || d.Crashed != "" || d.Raw != "" {
		t.Fatalf("turn of %s: %+v, %v\n%s", id, d, err, c.logs)
	}
	if l != nil {
		n.Result, n.Reason = "1-0", "resign"
		l.GameEnded(n)
	}
	return took
}

// groupTicks is the CPU time the processes of the group (or, without one, of the engine's
// process tree) have spent, in clock ticks.
func (c *contained) ticks() int {
	var pids []int
	if c.group != nil {
		pids, _ = c.group.Pids()
	} else if pid := c.bridge.Pid(); pid != 0 {
		pids = descendants(pid)
	}
	sum := 0
	for _, pid := range pids {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
		u, _ := strconv.Atoi(f[11])
		s, _ := strconv.Atoi(f[12])
		sum += u + s
	}
	return sum
}

// TestSpinnerFrozenBetweenTurns plays an honest engine's turns in turn with those of an
// engine that keeps 60 threads spinning except during its own turns, and compares, in the
// same run, the honest engine's time per move in four setups: alone; beside the spinner
// without cgroups (the host before cgroups); beside it in cgroups, pondering allowed; and
// beside it in cgroups, frozen between its turns (the host's default). The setups take
// rounds in turn, so that a change of the machine's load falls on each alike; a setup
// whose round it is not has its engines stopped. Frozen, the spinner spends no CPU during
// the honest engine's turns, and the honest engine is faster than beside the spinner
// without cgroups.
func TestSpinnerFrozenBetweenTurns(t *testing.T) {
	m := openCgroups(t, cgroup.Limits{})
	const rounds = 7
	type setup struct {
		name            string
		honest, spinner *contained
		pause           []freezer // stops the setup's engines outside its rounds
		times           []time.Duration
		ticks           int // the spinner's, during the honest engine's turns
	}
	pauser := func(c *contained) freezer {
		if c.group != nil {
			return c.group
		}
		return &treeStopper{pid: c.bridge.Pid}
	}
	add := func(name string, withSpinner, inGroups, freeze bool) *setup {
		var gm *cgroup.Manager
		if inGroups {
			gm = m
		}
		s := &setup{name: name, honest: startContained(t, gm, "honest", sandbox.Limits{}, false)}
		s.pause = append(s.pause, pauser(s.honest))
		if withSpinner {
			s.spinner = startContained(t, gm, "spin", sandbox.Limits{Procs: 128}, freeze)
			if !freeze {
				s.pause = append(s.pause, pauser(s.spinner))
			}
		}
		for _, p := range s.pause {
			if err := p.Freeze(); err != nil {
				t.Fatal(err)
			}
		}
		return s
	}
	setups := []*setup{
		add("alone", false, true, false),
		add("spinner, no cgroups (before)", true, false, false),
		add("spinner in cgroups, pondering", true, true, false),
		add("spinner in cgroups, frozen (after)", true, true, true),
	}
	t.Cleanup(func() { // before the engines are closed: a stopped engine cannot quit
		for _, s := range setups {
			for _, p := range s.pause {
				_ = p.Thaw()
			}
		}
	})
	for i := range rounds {
		for _, s := range setups {
			for _, p := range s.pause {
				if err := p.Thaw(); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(20 * time.Millisecond) // the spinner spins
			before := 0
			if s.spinner != nil {
				before = s.spinner.ticks()
			}
			s.times = append(s.times, s.honest.play(t, fmt.Sprintf("h%d", i)))
			if s.spinner != nil {
				s.ticks += s.spinner.ticks() - before
				s.spinner.play(t, fmt.Sprintf("s%d", i))
			}
			for _, p := range s.pause {
				if err := p.Freeze(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	median := func(s *setup) time.Duration {
		sorted := slices.Sorted(slices.Values(s.times))
		return sorted[len(sorted)/2]
	}
	for _, s := range setups {
		t.Logf("%-35s honest engine's median time per move %7v; the spinner's CPU during the honest turns: %d ticks", s.name, median(s).Round(100*time.Microsecond), s.ticks)
	}
	alone, pondering, frozen := setups[0], setups[2], setups[3]
	for _, c := range []*contained{frozen.honest, frozen.spinner} { // thawed for every notice
		if strings.Contains(c.logs.String(), "did not take") {
			t.Errorf("a frozen engine missed a notice:\n%s", c.logs)
		}
	}
	if frozen.ticks > rounds || pondering.ticks <= frozen.ticks { // a tick of accounting at a turn's edges at most
		t.Errorf("the spinner spent %d ticks of CPU during the honest engine's %d turns frozen, %d pondering", frozen.ticks, rounds, pondering.ticks)
	}
	// Frozen, the spinner runs only during its own turns, never beside the honest
	// engine: the honest engine's times are those it has alone, within the noise of a
	// loaded machine.
	if median(frozen) > 3*median(alone) {
		t.Errorf("beside a frozen spinner the honest engine took %v a move, over 3 times the %v it takes alone", median(frozen), median(alone))
	}
}

// TestShmHogContained runs, beside an honest engine that holds 64 MiB, an engine whose
// child makes System V shared memory segments without end and never removes them. The
// segments are charged to the hog's group, which reaches its memory limit: the kernel
// kills in that group only, the honest engine plays on, untouched, and the segments go
// with the hog's sandbox (its IPC namespace).
func TestShmHogContained(t *testing.T) {
	const limit = 256 << 20
	m := openCgroups(t, cgroup.Limits{Memory: limit})
	honest := startContained(t, m, "honest", sandbox.Limits{}, false)
	pid := honest.bridge.Pid()
	hog := startContained(t, m, "shm", sandbox.Limits{}, false)
	deadline := time.Now().Add(30 * time.Second)
	for i := 0; ; i++ {
		kills, err := hog.group.OOMKills()
		if err != nil {
			t.Fatal(err)
		}
		if kills > 0 {
			break
		}
		if time.Now().After(deadline) {
			used, _ := hog.group.Memory()
			t.Fatalf("no OOM kill in the hog's group after 30s (it holds %d MiB)", used>>20)
		}
		honest.play(t, fmt.Sprintf("g%d", i))
	}
	used, err := hog.group.Memory()
	if err != nil {
		t.Fatal(err)
	}
	kills, _ := hog.group.OOMKills()
	t.Logf("the hog's group: %d OOM kills, %d MiB held (limit %d MiB)", kills, used>>20, limit>>20)
	if used > limit {
		t.Errorf("the hog's group holds %d bytes, over its limit of %d", used, limit)
	}
	honest.play(t, "after")
	if got := honest.bridge.Pid(); got != pid {
		t.Errorf("the honest engine was restarted (pid %d, then %d)", pid, got)
	}
	if n, err := honest.group.OOMKills(); err != nil || n != 0 {
		t.Errorf("the honest engine's group: %d OOM kills (%v)", n, err)
	}
	// The hog's sandbox ends: its IPC namespace goes, and the segments with it.
	if err := hog.bridge.Close(); err != nil {
		t.Log(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if used, err = hog.group.Memory(); err != nil || used < 16<<20 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hog's group still holds %d MiB 10s after its sandbox ended", used>>20)
		}
	}
	t.Logf("once the hog's sandbox ended, its group holds %d KiB", used>>10)
}

// TestForkBombContained runs an engine whose child forks without end, under a process
// limit of the sandbox far above its group's: the group's pids limit holds it, and the
// machine can still start processes.
func TestForkBombContained(t *testing.T) {
	const pids = 64
	m := openCgroups(t, cgroup.Limits{Pids: pids})
	bomb := startContained(t, m, "fork", sandbox.Limits{Procs: 10000}, false)
	most := 0
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		p, err := bomb.group.Pids()
		if err != nil {
			t.Fatal(err)
		}
		most = max(most, len(p))
		if err := exec.Command("true").Run(); err != nil {
			t.Fatalf("the machine cannot start a process beside the bomb: %v", err)
		}
	}
	bomb.play(t, "g1")
	t.Logf("the bomb's group held up to %d processes (its limit: %d)", most, pids)
	if most > pids {
		t.Errorf("the bomb's group held %d processes, over its limit of %d", most, pids)
	}
	if err := bomb.bridge.Close(); err != nil {
		t.Log(err)
	}
	if err := bomb.group.Remove(); err != nil {
		t.Fatal(err)
	}
}

// TestBuildInCgroup runs builds through sandbox.Host with cgroups: a build that passes
// its group's memory limit is killed by it and says so in its log; the next build runs.
// (Inside, the build's cgroup namespace shows its group as its root, "/".)
func TestBuildInCgroup(t *testing.T) {
	m := openCgroups(t, cgroup.Limits{Memory: 64 << 20})
	dir := containedDir(t)
	h := sandbox.Host{Cgroups: m}
	out, err := h.Build(context.Background(), dir, "head -c 512M /dev/zero | tail -n 1 >/dev/null")
	if err == nil || !strings.Contains(string(out), "reached its memory limit (64 MiB)") {
		t.Errorf("a build past its memory limit: %v\n%s", err, out)
	}
	if out, err := h.Build(context.Background(), dir, "echo built"); err != nil || !strings.Contains(string(out), "built") {
		t.Errorf("the next build: %v\n%s", err, out)
	}
}

// countingFreezer counts freezes and thaws, and says whether the engine is frozen.
type countingFreezer struct {
	mu             sync.Mutex
	freezes, thaws int
	frozen         bool
}

func (c *countingFreezer) Freeze() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.freezes, c.frozen = c.freezes+1, true
	return nil
}

func (c *countingFreezer) Thaw() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.thaws, c.frozen = c.thaws+1, false
	return nil
}

func (c *countingFreezer) state() (freezes, thaws int, frozen bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.freezes, c.thaws, c.frozen
}

// settled returns a check that waits up to 5s for the engine to be frozen, or thawed.
func (c *countingFreezer) settled(t *testing.T) func(frozen bool) {
	return func(want bool) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
			if _, _, frozen := c.state(); frozen == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("frozen is not %v", want)
			}
		}
	}
}

// TestFrozenPondering checks that a turn of an event that allows pondering leaves the
// engine thawed after it, and that a turn that does not, or a game's end, freezes it.
func TestFrozenPondering(t *testing.T) {
	tests := []struct {
		name   string
		calls  []bool // each call's ponder
		frozen bool   // after the last
	}{
		{"a turn without pondering", []bool{false}, true},
		{"a turn with pondering", []bool{true}, false},
		{"pondering, then a turn without", []bool{true, false}, true},
		{"without, then pondering", []bool{false, true}, false},
		{"pondering twice", []bool{true, true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fz := &countingFreezer{}
			f := newFrozen(nil, fz, zerolog.Nop())
			settled := fz.settled(t)
			for _, ponder := range tt.calls {
				f.use(ponder)()
			}
			settled(tt.frozen)
			time.Sleep(20 * time.Millisecond) // a freeze still to come would come now
			if _, _, frozen := fz.state(); frozen != tt.frozen {
				t.Errorf("frozen %v after %v, want %v", frozen, tt.calls, tt.frozen)
			}
		})
	}
}

// TestFrozenOverlappingCalls checks that calls that overlap keep the engine thawed until
// the last ends, that it is frozen after, and that release thaws it for good.
func TestFrozenOverlappingCalls(t *testing.T) {
	fz := &countingFreezer{}
	f := newFrozen(nil, fz, zerolog.Nop())
	settled := fz.settled(t)
	settled(true)
	done1 := f.use(false)
	done2 := f.use(false) // a game's end while a turn is on
	if _, thaws, frozen := fz.state(); frozen || thaws != 1 {
		t.Fatalf("in two calls: frozen %v after %d thaws, want thawed once", frozen, thaws)
	}
	done1()
	time.Sleep(20 * time.Millisecond)
	if _, _, frozen := fz.state(); frozen {
		t.Fatal("frozen while a call is still on")
	}
	done2()
	settled(true)
	f.release()
	settled(false)
	f.use(false)()
	time.Sleep(20 * time.Millisecond)
	if freezes, thaws, frozen := fz.state(); frozen || freezes != 2 || thaws != 2 {
		t.Errorf("after release: %d freezes, %d thaws, frozen %v; want 2, 2, thawed", freezes, thaws, frozen)
	}
}

// TestFrozenLateEngineCatchesUp plays, frozen between its turns, an engine that answers
// its first move 1.2 s into a turn of 1 s. The turn is lost on time; the engine stays
// thawed while the bridge waits for its late answer, and plays its next turn without
// being restarted (frozen at once, it could not answer, and was restarted as
// unresponsive: one death per late answer).
func TestFrozenLateEngineCatchesUp(t *testing.T) {
	m := openCgroups(t, cgroup.Limits{})
	c := startContained(t, m, "late", sandbox.Limits{}, true)
	pid := c.bridge.Pid()
	turn := openingTurn(t, "g1")
	turn.Clock.MoveMS, turn.Clock.RemainingMS = 1000, 1000
	turn.Deadline = time.Now().Add(time.Second)
	turn.Cutoff = turn.Deadline
	ctx, cancel := context.WithDeadline(context.Background(), turn.Cutoff)
	d, err := c.agent.Choose(ctx, turn)
	cancel()
	if err != nil || !d.NoReply {
		t.Fatalf("the late turn: %+v, %v; want it left unanswered", d, err)
	}
	c.play(t, "g2")
	if got := c.bridge.Pid(); got != pid {
		t.Errorf("the engine was restarted after its late answer (pid %d, then %d):\n%s", pid, got, c.logs)
	}
}
