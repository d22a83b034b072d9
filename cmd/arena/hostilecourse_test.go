package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
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

	"github.com/arenaref/arena/internal/loadmeter"
	"github.com/arenaref/arena/internal/testutil/proctag"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/organizer/course"
	"github.com/arenaref/arena/players/hosting/cgroup"
	"github.com/arenaref/arena/players/hosting/cgroup/cgrouptest"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// hostileEntry is one student of TestHostileCourse: the files of its archive beside the
// engine's source, its manifest's build and run commands, and what the teacher must
// see of it: the state its newest submission ends in, and a line its log must hold.
type hostileEntry struct {
	name       string
	build, run string
	files      map[string]string
	state      string // the submission's final state
	logHas     string // in the submission's log, as the teacher's listing shows it
}

// TestHostileCourse submits, into one course, the attacks that got through before
// cgroups and the clean sandbox environment, beside two honest engines: an engine and a
// build that print the host's environment (a secret is planted in it), an engine whose
// child fills System V shared memory and never frees it, an engine that keeps 60 threads
// spinning between its turns, a build that fills its disk, a build that holds the only
// build slot, and a build that leaves its manifest as a FIFO. The secret must appear
// nowhere (submit-engine's output, the teacher's listing, the database); the honest
// engines must be built while the slot is held, stay active, and lose no game on time,
// by a crash or a disconnection; every submission must be answered within 2 s (plus the
// lateness this process measured); the spinner must get almost no CPU between its
// turns; the host must restart past the FIFO and stop on SIGTERM; and the teacher's
// listing must show each hostile entry with its reason.
func TestHostileCourse(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs eight sandboxed engines in cgroups")
	}
	requireSandbox(t)
	cgrouptest.Open(t, cgroup.Limits{}) // the host needs cgroups: skipped (or failed, in CI) without
	b := buildBinaries(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := sandboxTempDir(t)
	secretBytes := make([]byte, 12)
	_, _ = rand.Read(secretBytes)
	secret := "planted-" + hex.EncodeToString(secretBytes)

	contained, err := os.ReadFile("../../players/hosting/host/testdata/contained.c")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("../../examples/c/engine.c")
	if err != nil {
		t.Fatal(err)
	}
	const cc = "cc -O2 -pthread -o contained contained.c"
	entries := []hostileEntry{
		{name: "honest1", build: "cc -O2 -o engine engine.c", run: "./engine", state: protocol.EngineRunning},
		{name: "honest2", build: cc, run: "./contained idle", state: protocol.EngineRunning},
		{name: "slothold", build: "sleep 295", run: "./contained honest",
			state: protocol.EngineBuildFailed, logHas: "took longer than"},
		{name: "envread", build: "sh dump.sh", run: "sh dump.sh",
			files: map[string]string{"dump.sh": "tr '\\0' '\\n' < /proc/1/environ >&2\nenv >&2\ncat /proc/self/environ >&2\nexit 3\n"},
			state: protocol.EngineBuildFailed, logHas: "PATH="},
		{name: "envrun", build: cc, run: "sh dump.sh",
			files: map[string]string{"dump.sh": "tr '\\0' '\\n' < /proc/1/environ >&2\nenv >&2\nexit 3\n"},
			state: protocol.EngineRunFailed, logHas: "PATH="},
		// The shm hog's child runs only during its turns (frozen with it in between), so it
		// may or may not reach its memory limit during the test; its segments live in its
		// own IPC namespace, never in the host's.
		{name: "shmhog", build: cc, run: "./contained shm"},
		// The spinner is valid: frozen between its turns it takes nothing from the others,
		// and during its turns its own threads compete with its answer, its own business.
		{name: "spinner", build: cc, run: "./contained spin"},
		{name: "diskfill", build: "sh fill.sh", run: "./contained honest",
			files: map[string]string{"fill.sh": cc + " && dd if=/dev/zero of=fill bs=1M count=100000\n"},
			state: protocol.EngineBuildFailed, logHas: "No space left on device"},
		{name: "fifo", build: "sh fifo.sh", run: "./contained honest",
			files: map[string]string{"fifo.sh": cc + " && rm arena.toml && mkfifo arena.toml\n"},
			state: protocol.EngineBuildFailed, logHas: "arena.toml"},
	}

	busPort := freePort(t)
	busURL := "nats://127.0.0.1:" + strconv.Itoa(busPort)
	db := filepath.Join(dir, "course.db")
	roster := ""
	for _, e := range entries {
		roster += e.name + "\n"
	}
	writeFile(t, filepath.Join(dir, "students.csv"), roster)
	code, out, errOut := runCLI(t, "course", "init", "--roster", filepath.Join(dir, "students.csv"), "--db", db,
		"--dir", filepath.Join(dir, "course"), "--nats-url", busURL, "--deadline", "10m", "--tc", "5s",
		"--validation-games", "2", "--concurrency", "2", "--games-per-hour", "3600")
	if code != 0 {
		t.Fatalf("course init: %d\n%s%s", code, out, errOut)
	}
	cred := func(name string) string { return filepath.Join(dir, "course", "credentials", name+".cred") }
	ref := startProc(ctx, t, "referee", b.arena, "referee", "--db", db, "--listen", "127.0.0.1:"+strconv.Itoa(busPort), "--auth",
		"--heartbeat", "250ms", "--log-level", "warn")
	ref.waitFor(t, "referee ready", 30*time.Second)
	startHost := func() *proc {
		cmd := exec.CommandContext(ctx, b.arena, "host", "--nats", busURL, "--credentials", filepath.Join(dir, "course", "host.cred"),
			"--dir", filepath.Join(dir, "engines"), "--memory", "256", "--build-size", "64", "--build-timeout", "60s",
			"--build-slot-hold", "2s", "--log-level", "warn")
		cmd.Env = append(os.Environ(), "ARENA_TEST_SECRET="+secret)
		h := startCmd(t, "host", cmd)
		h.waitFor(t, "arena host ready", 30*time.Second)
		return h
	}
	host := startHost()

	// Every submission is answered at once, whatever the builds before it do.
	var submitted bytes.Buffer
	stopLoad := loadmeter.Watch()
	var slowest time.Duration
	for _, e := range entries {
		src := filepath.Join(dir, "src-"+e.name)
		if err := os.MkdirAll(src, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(src, "contained.c"), string(contained))
		writeFile(t, filepath.Join(src, "engine.c"), string(example))
		for name, text := range e.files {
			writeFile(t, filepath.Join(src, name), text)
		}
		writeFile(t, filepath.Join(src, "arena.toml"), fmt.Sprintf("protocol = \"line\"\nbuild = %q\nrun = %q\n", e.build, e.run))
		archive := filepath.Join(dir, e.name+".tar.gz")
		makeTarGz(t, archive, src)
		start := time.Now()
		out, err := exec.CommandContext(ctx, b.arena, "submit-engine", "--nats", busURL, "--credentials", cred(e.name), "--wait", "0", archive).CombinedOutput()
		took := time.Since(start)
		slowest = max(slowest, took)
		submitted.Write(out)
		if err != nil || !strings.Contains(string(out), e.name+" s1") {
			t.Fatalf("submit-engine %s: %v\n%s", e.name, err, out)
		}
	}
	load := stopLoad()
	t.Logf("the slowest submission was answered in %v (this process was late by up to %v)", slowest, load.Late)
	if slowest > 2*time.Second+load.Late {
		t.Errorf("a submission took %v to be answered, more than 2s (and %v of lateness)", slowest, load.Late)
	}

	sdb, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	ladder, err := course.FindLadder(ctx, sdb, 0)
	if err != nil {
		t.Fatal(err)
	}
	players := func() map[string]course.Player {
		t.Helper()
		list, err := course.Players(ctx, sdb, ladder)
		if err != nil {
			t.Fatal(err)
		}
		by := map[string]course.Player{}
		for _, p := range list {
			by[p.Name] = p
		}
		return by
	}
	state := func(p course.Player) string {
		if len(p.Submissions) == 0 {
			return ""
		}
		return p.Submissions[0].State
	}
	// The honest engines are built while the slot holder still builds.
	waitUntil(t, 3*time.Minute, "the honest engines to run", func() bool {
		ps := players()
		if s := state(ps["slothold"]); s != protocol.EngineBuilding && s != protocol.EngineSubmitted {
			t.Fatalf("the slot holder's build ended (%s) before the honest engines ran: they waited for it", s)
		}
		return state(ps["honest1"]) == protocol.EngineRunning && state(ps["honest2"]) == protocol.EngineRunning
	})
	// Every attack ends as it must, and the honest engines play on.
	var ps map[string]course.Player
	defer func() {
		if t.Failed() {
			_, listing, _ := runCLI(t, "course", "entries", "--db", db, "--tail", "4")
			t.Logf("arena course entries:\n%s", listing)
		}
	}()
	waitUntil(t, 4*time.Minute, "every submission to reach its state, and the honest engines 10 rated games", func() bool {
		ps = players()
		for _, e := range entries {
			if e.state != "" && state(ps[e.name]) != e.state {
				return false
			}
		}
		board, err := organizer.LadderBoard(ctx, sdb, ladder)
		if err != nil {
			t.Fatal(err)
		}
		games := map[string]int{}
		for _, r := range board.Rows {
			games[r.Player] += r.Games
		}
		return games["honest1"] >= 10 && games["honest2"] >= 10
	})

	// Nothing of the host's environment reaches the students or the database.
	if strings.Contains(submitted.String(), secret) {
		t.Errorf("submit-engine printed the host's secret:\n%s", submitted.String())
	}
	for _, e := range entries {
		if e.logHas == "" {
			continue
		}
		log := ps[e.name].Submissions[0].Log
		if !strings.Contains(log, e.logHas) {
			t.Errorf("%s ended %s with a log without %q:\n%s", e.name, state(ps[e.name]), e.logHas, log)
		}
		if strings.Contains(log, secret) {
			t.Errorf("%s's log shows the host's secret:\n%s", e.name, log)
		}
	}
	for _, f := range []string{db, db + "-wal"} {
		if data, err := os.ReadFile(f); err == nil && bytes.Contains(data, []byte(secret)) {
			t.Errorf("%s holds the host's secret", f)
		}
	}
	// The disk that holds the database and the engines is not filled by the build: it
	// filled its scratch space, a tmpfs, and its result was refused.
	if used := diskUsage(t, dir); used > 32<<20 {
		t.Errorf("the course's directory takes %d MiB of disk", used>>20)
	} else {
		t.Logf("the course's directory (database and engines) takes %d MiB of disk", used>>20)
	}

	// The honest engines lose nothing they should not.
	games, err := sdb.LadderGames(ctx, ladder)
	if err != nil {
		t.Fatal(err)
	}
	honest := map[string]bool{"honest1": true, "honest2": true}
	for _, g := range games {
		loser := ""
		switch g.Result {
		case "1-0":
			loser = g.Players[1]
		case "0-1":
			loser = g.Players[0]
		}
		if honest[loser] && g.Reason != "normal" {
			t.Errorf("game %d: %v %s %s: an honest engine lost by %s", g.ID, g.Players, g.Result, g.Reason, g.Reason)
		}
	}
	board, err := sdb.LadderEntries(ctx, ladder)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range board {
		if honest[e.Player] && e.Status != store.EntryActive {
			t.Errorf("honest entry %s is %s: %s", e.Player, e.Status, e.Reason)
		}
	}

	// No System V segment of the shm hog ever reaches the host's IPC namespace.
	if data, err := os.ReadFile("/proc/sysvipc/shm"); err != nil {
		t.Error(err)
	} else if strings.Contains(string(data), " 16777216 ") {
		t.Errorf("a 16 MiB shared memory segment is in the host's namespace:\n%s", data)
	}

	// The spinner spins only during its turns: frozen in between, it gets no CPU. The
	// teacher disables it, so that it has no turn, and its CPU time stays still.
	if code, out, errOut := runCLI(t, "course", "disable", "--db", db, "--reason", "spins between its turns", "spinner"); code != 0 {
		t.Errorf("course disable: %d\n%s%s", code, out, errOut)
	}
	engines, err := proctag.Find("./contained")
	if err != nil {
		t.Fatal(err)
	}
	var spinners []int
	for _, p := range engines {
		if slices.Contains(p.Args, "spin") {
			spinners = append(spinners, p.Pid)
		}
	}
	if len(spinners) == 0 {
		t.Error("no spinner runs")
	}
	measured := 0
	for _, pid := range spinners {
		var before, after time.Duration
		gone := false
		waitUntil(t, time.Minute, "the spinner to stay still for 2s", func() bool {
			var ok1, ok2 bool
			before, ok1 = proctag.CPU(pid)
			time.Sleep(2 * time.Second)
			after, ok2 = proctag.CPU(pid)
			gone = !ok1 || !ok2
			return gone || after-before < 100*time.Millisecond
		})
		if !gone {
			measured++
			t.Logf("the spinner (pid %d) used %v of CPU in 2s between turns", pid, after-before)
		}
	}
	if measured == 0 {
		t.Errorf("no spinner process could be measured (of %v)", spinners)
	}

	// The teacher's listing names every hostile entry with its reason.
	_, listing, _ := runCLI(t, "course", "entries", "--db", db, "--tail", "3")
	t.Logf("arena course entries:\n%s", listing)
	if strings.Contains(listing, secret) {
		t.Errorf("the teacher's listing shows the host's secret")
	}
	for _, e := range entries {
		if e.state != "" && !strings.Contains(listing, " "+e.state+" ") {
			t.Errorf("the listing does not show %s as %s", e.name, e.state)
		}
	}

	// The host restarts past the FIFO left in an engine directory, and stops on SIGTERM.
	if st := host.stop(t); st == nil || !st.Exited() {
		t.Errorf("the host did not stop on SIGTERM: %v", st)
	}
	host = startHost()
	waitUntil(t, time.Minute, "the honest engines to run again", func() bool {
		ps := players()
		return state(ps["honest1"]) == protocol.EngineRunning && state(ps["honest2"]) == protocol.EngineRunning
	})
	if st := host.stop(t); st == nil || !st.Exited() {
		t.Errorf("the restarted host did not stop on SIGTERM: %v", st)
	}
	time.Sleep(500 * time.Millisecond)
	if left, err := proctag.Find("./contained"); err != nil || len(left) > 0 {
		t.Errorf("engines outlived the host: %v (%v)", left, err)
	}
}

// diskUsage returns the disk space the files under dir take.
func diskUsage(t *testing.T, dir string) int64 {
	t.Helper()
	var used int64
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return nil // a file removed meanwhile, or one the sandbox's uid keeps to itself
		}
		if info, err := d.Info(); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok {
				used += st.Blocks * 512
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return used
}
