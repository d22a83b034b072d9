package cgroup_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenaref/arena/players/hosting/cgroup"
	"github.com/arenaref/arena/players/hosting/cgroup/cgrouptest"
)

// group makes a group of m that is removed when the test ends.
func group(t *testing.T, m *cgroup.Manager, name string) *cgroup.Group {
	t.Helper()
	g, err := m.New(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Remove() })
	return g
}

// start starts argv wrapped in g, and reaps it when the test ends.
func start(t *testing.T, g *cgroup.Group, argv ...string) *exec.Cmd {
	t.Helper()
	argv = g.Wrap(argv)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}

// cpuTicks is the CPU time pid has spent, in clock ticks.
func cpuTicks(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return u + s
}

func TestOpenSaysWhat(t *testing.T) {
	m := cgrouptest.Open(t, cgroup.Limits{})
	t.Log(m)
	if m.Version() == cgroup.None {
		t.Errorf("version %v", m.Version())
	}
}

func TestJoinBeforeExec(t *testing.T) {
	m := cgrouptest.Open(t, cgroup.Limits{})
	g := group(t, m, "join")
	argv := g.Wrap([]string{"cat", "/proc/self/cgroup"})
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		_, rest, _ := strings.Cut(line, ":")
		ctl, path, _ := strings.Cut(rest, ":")
		for _, c := range cgroup.Controllers {
			if (ctl == c || m.Version() == cgroup.V2 && ctl == "") && !strings.HasSuffix(path, "/"+g.Name()) {
				t.Errorf("the program runs in %q, not in %s", line, g.Name())
			}
		}
	}
}

func TestFreezeThaw(t *testing.T) {
	m := cgrouptest.Open(t, cgroup.Limits{})
	g := group(t, m, "spin")
	cmd := start(t, g, "sh", "-c", "while :; do :; done")
	time.Sleep(50 * time.Millisecond)
	if err := g.Freeze(); err != nil {
		t.Fatal(err)
	}
	before := cpuTicks(t, cmd.Process.Pid)
	time.Sleep(300 * time.Millisecond)
	if after := cpuTicks(t, cmd.Process.Pid); after != before {
		t.Errorf("frozen, the spinner spent %d ticks in 300ms", after-before)
	}
	if err := g.Thaw(); err != nil {
		t.Fatal(err)
	}
	before = cpuTicks(t, cmd.Process.Pid)
	for deadline := time.Now().Add(10 * time.Second); cpuTicks(t, cmd.Process.Pid) == before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("thawed, the spinner spent nothing in 10s")
		}
	}
}

func TestPidsLimit(t *testing.T) {
	m := cgrouptest.Open(t, cgroup.Limits{Pids: 20})
	g := group(t, m, "forkbomb")
	// Each shell starts sleepers until fork fails, and keeps them.
	start(t, g, "sh", "-c", "for i in $(seq 100); do sleep 60 & done 2>/dev/null; wait")
	most := 0
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		pids, err := g.Pids()
		if err != nil {
			t.Fatal(err)
		}
		most = max(most, len(pids))
	}
	if most > 20 || most < 15 {
		t.Errorf("the group held up to %d processes under a limit of 20", most)
	}
	if err := g.Remove(); err != nil {
		t.Fatal(err)
	}
}

func TestRemoveKillsEverything(t *testing.T) {
	m := cgrouptest.Open(t, cgroup.Limits{})
	g := group(t, m, "stubborn")
	// A process that ignores SIGTERM, with a child that left its session and forks on.
	cmd := start(t, g, "sh", "-c", `trap '' TERM; setsid sh -c 'trap "" TERM; while :; do sleep 1 & wait; done' & while :; do sleep 1; done`)
	time.Sleep(100 * time.Millisecond)
	pids, _ := g.Pids()
	if len(pids) < 3 {
		t.Fatalf("only %v in the group", pids)
	}
	if err := g.Remove(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			if b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); !strings.Contains(string(b), ") Z ") {
				t.Errorf("process %d is still there after Remove: %s", pid, b)
			}
		}
	}
	for _, p := range g.Procs() {
		if _, err := os.Stat(filepath.Dir(p)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there: %v", filepath.Dir(p), err)
		}
	}
}

func TestMemoryLimit(t *testing.T) {
	m := cgrouptest.Open(t, cgroup.Limits{Memory: 64 << 20})
	g := group(t, m, "hog")
	// tail holds its last line whole: 512 MiB without a newline.
	cmd := start(t, g, "sh", "-c", "head -c 512M /dev/zero | tail -n 1 | wc -c")
	err := cmd.Wait()
	kills, kerr := g.OOMKills()
	if kerr != nil {
		t.Fatal(kerr)
	}
	if kills == 0 {
		t.Errorf("no OOM kill in the group (the command ended with %v)", err)
	}
	t.Logf("%d OOM kills; the command ended with %v", kills, err)
}

// BenchmarkThawFreeze measures what freezing costs an engine's turn: a thaw before it and
// a freeze after it, of a group holding a busy process.
func BenchmarkThawFreeze(b *testing.B) {
	m := cgrouptest.Open(b, cgroup.Limits{})
	g, err := m.New("bench")
	if err != nil {
		b.Fatal(err)
	}
	argv := g.Wrap([]string{"sh", "-c", "while :; do :; done"})
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = g.Remove(); _ = cmd.Wait() }() // a frozen process dies once thawed
	var thaw, freeze time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := g.Thaw(); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := g.Freeze(); err != nil {
			b.Fatal(err)
		}
		thaw, freeze = thaw+t1.Sub(t0), freeze+time.Since(t1)
	}
	b.ReportMetric(float64(thaw.Microseconds())/float64(b.N), "µs-thaw/op")
	b.ReportMetric(float64(freeze.Microseconds())/float64(b.N), "µs-freeze/op")
}

// TestSweep leaves a group with a frozen process behind, as a host killed with SIGKILL
// does, under the name of a process that is gone; the next Open removes it, and the
// process with it.
func TestSweep(t *testing.T) {
	m := cgrouptest.Open(t, cgroup.Limits{})
	g := group(t, m, "left")
	cmd := start(t, g, "sleep", "600")
	if err := g.Freeze(); err != nil {
		t.Fatal(err)
	}
	// A process that is gone: a child reaped.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	var stale []string
	for _, p := range g.Procs() {
		base := filepath.Dir(filepath.Dir(p))
		dir := filepath.Join(filepath.Dir(base), "arena-"+strconv.Itoa(gone.Process.Pid))
		if err := os.Rename(base, dir); err != nil {
			t.Fatal(err)
		}
		stale = append(stale, dir)
	}
	m2 := cgrouptest.Open(t, cgroup.Limits{})
	_ = m2
	for _, dir := range stale {
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there: %v", dir, err)
		}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the frozen process left behind is still there")
	}
}

// TestCPUSet confines a group to the machine's last CPU: a program in it may run there
// only.
func TestCPUSet(t *testing.T) {
	last := strconv.Itoa(runtime.NumCPU() - 1)
	m := cgrouptest.Open(t, cgroup.Limits{CPUs: last})
	g := group(t, m, "cpuset")
	argv := g.Wrap([]string{"grep", "Cpus_allowed_list", "/proc/self/status"})
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got := strings.TrimSpace(strings.TrimPrefix(string(out), "Cpus_allowed_list:")); got != last {
		t.Errorf("in a group of CPU %s, the program may run on %q", last, got)
	}
}
