package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/proctag"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// TestHostileSubmissionsAreContained submits engines that attack their sandbox (a fork
// bomb, a memory hog, a disk filler, one that reaches for the network, one that looks for
// the database, the credentials and another entrant's files, and one that never answers
// nor exits), plus one that does not build, to a course whose two other entrants are
// well behaved. Each hostile one must end as a failed validation whose reason shows its
// attack was contained; the build failure must reach submit-engine with the compiler's
// message; the host must keep running and the other entrants keep playing; and nothing
// the hostile engines started may outlive the host.
func TestHostileSubmissionsAreContained(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a dozen sandboxes")
	}
	requireSandbox(t)
	b := buildBinaries(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := sandboxTempDir(t)
	busPort, webPort := freePort(t), freePort(t)
	busURL := "nats://127.0.0.1:" + strconv.Itoa(busPort)
	db := filepath.Join(dir, "course.db")
	wd, _ := os.Getwd()
	hostile := map[string]string{ // entrant: the arguments of ./hostile
		"fork":    "forkbomb",
		"memhog":  "memhog",
		"fill":    "diskfill",
		"net":     fmt.Sprintf("network 127.0.0.1 %d 127.0.0.1 %d 1.1.1.1 53", busPort, webPort),
		"peek":    fmt.Sprintf("read %s %s %s %s /work", db, filepath.Join(dir, "course", "credentials"), filepath.Join(dir, "engines", "good2"), wd),
		"never":   "never",
		"nobuild": "",
	}
	roster := "good1\ngood2\n"
	for n := range hostile {
		roster += n + "\n"
	}
	writeFile(t, filepath.Join(dir, "students.csv"), roster)
	code, out, errOut := runCLI(t, "course", "init", "--roster", filepath.Join(dir, "students.csv"), "--db", db,
		"--dir", filepath.Join(dir, "course"), "--nats-url", busURL, "--deadline", "10m", "--tc", "1s",
		"--validation-games", "1", "--concurrency", "2", "--games-per-hour", "36000",
		"--time-strikes", "1") // one time-out fails an entry, as before strikes: the test times containment, not strikes
	if code != 0 {
		t.Fatalf("course init: %d\n%s%s", code, out, errOut)
	}
	cred := func(name string) string { return filepath.Join(dir, "course", "credentials", name+".cred") }
	ref := startProc(ctx, t, "referee", b.arena, "referee", "--db", db, "--listen", "127.0.0.1:"+strconv.Itoa(busPort), "--auth",
		"--http", "127.0.0.1:"+strconv.Itoa(webPort), "--heartbeat", "250ms", "--log-level", "warn")
	ref.waitFor(t, "referee ready", 30*time.Second)
	host := startProc(ctx, t, "host", b.arena, "host", "--nats", busURL, "--credentials", filepath.Join(dir, "course", "host.cred"),
		"--dir", filepath.Join(dir, "engines"), "--log-level", "warn")
	startProc(ctx, t, "good1", b.arena, "player", "--nats", busURL, "--credentials", cred("good1"), "--agent", "minimax", "--params", "depth=1", "--log-level", "warn")
	// good2 is hosted too: the peeking engine looks for its files.
	good2 := filepath.Join(dir, "src-good2")
	if err := os.MkdirAll(good2, 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := os.ReadFile("../../examples/c/engine.c")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(good2, "engine.c"), string(c))
	writeFile(t, filepath.Join(good2, "arena.toml"), "protocol = \"line\"\nbuild = \"cc -O2 -o engine engine.c\"\nrun = \"./engine\"\n")
	makeTarGz(t, filepath.Join(dir, "good2.tar.gz"), good2)
	if out, err := exec.CommandContext(ctx, b.arena, "submit-engine", "--nats", busURL, "--credentials", cred("good2"), "--wait", "2m", filepath.Join(dir, "good2.tar.gz")).CombinedOutput(); err != nil {
		t.Fatalf("submit-engine good2: %v\n%s", err, out)
	}

	src, err := os.ReadFile("testdata/hostile.c")
	if err != nil {
		t.Fatal(err)
	}
	for name, args := range hostile {
		d := filepath.Join(dir, "src-"+name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		code := string(src)
		if name == "nobuild" {
			code = "int main( { return 0; }\n"
			args = "x"
		}
		writeFile(t, filepath.Join(d, "hostile.c"), code)
		writeFile(t, filepath.Join(d, "arena.toml"), fmt.Sprintf("protocol = \"line\"\nbuild = \"cc -O2 -o hostile hostile.c\"\nrun = \"./hostile %s\"\n", args))
		archive := filepath.Join(dir, name+".tar.gz")
		makeTarGz(t, archive, d)
		out, err := exec.CommandContext(ctx, b.arena, "submit-engine", "--nats", busURL, "--credentials", cred(name), "--wait", "2m", archive).CombinedOutput()
		switch {
		case name == "nobuild":
			if err == nil || !strings.Contains(string(out), "hostile.c") || !strings.Contains(string(out), "error") {
				t.Errorf("submit-engine of a broken build: %v, want a failure quoting the compiler:\n%s", err, out)
			}
		case err != nil:
			t.Fatalf("submit-engine %s: %v\n%s", name, err, out)
		}
	}

	sdb, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	// How each may end: the reasons that mean "contained". The memory hog and the disk
	// filler may run out of time before they reach their limit (under the race detector,
	// writing 64 MiB can take longer than the 1s move).
	want := map[string][]string{
		"fork": {"time_forfeit", "crashed"}, "memhog": {"crashed", "time_forfeit"}, "fill": {"crashed", "time_forfeit"},
		"net": {"crashed"}, "peek": {"crashed"}, "never": {"time_forfeit"},
	}
	var board organizer.Leaderboard
	for start := time.Now(); ; time.Sleep(500 * time.Millisecond) {
		if board, err = organizer.LadderBoard(ctx, sdb, 1); err != nil {
			t.Fatal(err)
		}
		failed := 0
		for _, r := range board.Rows {
			if r.Status == store.EntryFailed {
				failed++
			}
		}
		if failed >= len(want) {
			break
		}
		if time.Since(start) > 90*time.Second {
			t.Fatalf("after 90s only %d hostile entries have failed: %+v", failed, board.Rows)
		}
	}
	games := map[string]int{}
	for _, r := range board.Rows {
		t.Logf("%-8s %-10s games %d validation %d %s", r.Player, r.Status, r.Games, r.Validation, r.Reason)
		games[r.Player] = r.Games
		reasons, isHostile := want[r.Player]
		switch {
		case r.Player == "nobuild":
			t.Errorf("the engine that does not build entered the ladder: %+v", r)
		case isHostile:
			ok := r.Status == store.EntryFailed && !strings.Contains(r.Reason, "escaped")
			matched := false
			for _, re := range reasons {
				matched = matched || strings.HasPrefix(r.Reason, re)
			}
			if !ok || !matched {
				t.Errorf("%s: %s %q, want failed with one of %v and nothing escaped", r.Player, r.Status, r.Reason, reasons)
			}
		case r.Status != store.EntryActive:
			t.Errorf("%s is %s %q: the well-behaved entrants must stay active", r.Player, r.Status, r.Reason)
		}
	}
	// The others keep playing after the attacks (a game can take seconds on a loaded
	// machine: the wait is long, and ends as soon as both played one more).
	waitUntil(t, time.Minute, "good1 and good2 to play on", func() bool {
		if board, err = organizer.LadderBoard(ctx, sdb, 1); err != nil {
			t.Fatal(err)
		}
		more := 0
		for _, r := range board.Rows {
			if (r.Player == "good1" || r.Player == "good2") && r.Games > games[r.Player] {
				more++
			}
		}
		return more == 2
	})
	if host.exited() {
		t.Fatalf("the host exited: %s", host.output())
	}
	host.stop(t)
	time.Sleep(500 * time.Millisecond)
	if left, err := proctag.Find("./hostile"); err != nil || len(left) > 0 {
		t.Errorf("processes of the hostile engines outlived the host: %v (%v)", left, err)
	}
}
