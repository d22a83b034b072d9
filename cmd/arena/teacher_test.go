package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/store/sqlite"
)

// TestTeacherCommands runs a course with real processes (course init, a secured referee,
// two students' built-in players) and the teacher's commands on its database while the
// referee plays the ladder: arena course entries lists both entries active; disable stops
// alice's games with the teacher's reason; enable puts her back through validation to
// active; remove takes bob out; and arena status shows the ladder's games and ranks.
func TestTeacherCommands(t *testing.T) {
	b := buildBinaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "students.csv"), "name\nalice\nbob\n")
	db := filepath.Join(dir, "course.db")
	busPort := freePort(t)
	busURL := "nats://127.0.0.1:" + strconv.Itoa(busPort)
	code, out, errOut := runCLI(t, "course", "init", "--roster", filepath.Join(dir, "students.csv"), "--db", db,
		"--dir", filepath.Join(dir, "course"), "--nats-url", busURL, "--deadline", "10m", "--tc", "1s",
		"--validation-games", "1", "--concurrency", "2", "--games-per-hour", "3600")
	if code != 0 || !strings.Contains(out, "watch: arena course entries --db "+db) {
		t.Fatalf("course init: %d\n%s%s", code, out, errOut)
	}
	ref := startProc(ctx, t, "referee", b.arena, "referee", "--db", db, "--listen", "127.0.0.1:"+strconv.Itoa(busPort), "--auth",
		"--heartbeat", "250ms", "--log-level", "warn")
	ref.waitFor(t, "referee ready", 30*time.Second)
	for _, name := range []string{"alice", "bob"} {
		startProc(ctx, t, name, b.arena, "player", "--nats", busURL, "--credentials", filepath.Join(dir, "course", "credentials", name+".cred"),
			"--agent", "minimax", "--params", "depth=1", "--log-level", "warn")
	}
	course := func(args ...string) (string, error) {
		out, err := exec.CommandContext(ctx, b.arena, append([]string{"course"}, args...)...).CombinedOutput()
		return string(out), err
	}
	// entry is the line of a player's newest entry in the listing.
	entry := func(name string) string {
		out, err := course("entries", "--db", db)
		if err != nil {
			t.Fatalf("course entries: %v\n%s", err, out)
		}
		if _, rest, ok := strings.Cut(out, name+"\n"); ok {
			line, _, _ := strings.Cut(rest, "\n")
			return line
		}
		return ""
	}
	waitUntil(t, time.Minute, "both entries active", func() bool {
		return strings.Contains(entry("alice"), " active") && strings.Contains(entry("bob"), " active")
	})

	sdb, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	games := func(player string) int {
		gs, err := sdb.LadderGames(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, g := range gs {
			for _, p := range g.Players {
				if p == player {
					n++
				}
			}
		}
		return n
	}

	tests := []struct {
		name, action, player string
		want                 string // in the command's answer and in the player's entry line
	}{
		{"disable", "disable", "alice", "disabled: spins between turns"},
		{"enable", "enable", "alice", "validating: enabled again by the teacher"},
		{"remove", "remove", "bob", "removed: removed by the teacher"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{tc.action, "--db", db, tc.player}
			if tc.action == "disable" {
				args = append(args, "--reason", "spins between turns")
			}
			out, err := course(args...)
			if err != nil || !strings.Contains(out, tc.want) {
				t.Fatalf("course %s: %v\n%s", tc.action, err, out)
			}
			if line := entry(tc.player); !strings.Contains(line, tc.want) && tc.action != "enable" {
				t.Errorf("after %s, %s's entry: %q, want %q", tc.action, tc.player, line, tc.want)
			}
			switch tc.action {
			case "disable":
				time.Sleep(2 * time.Second) // the game under way, if any, ends
				before := games("alice")
				time.Sleep(3 * time.Second)
				if after := games("alice"); after != before {
					t.Errorf("disabled alice played %d games in 3 s", after-before)
				}
			case "enable":
				waitUntil(t, time.Minute, "alice active again", func() bool { return strings.Contains(entry("alice"), " active") })
			}
		})
	}
	if out, err := course("enable", "--db", db, "carol"); err == nil || !strings.Contains(out, "carol has no entry") {
		t.Errorf("enable a player without an entry: %v\n%s", err, out)
	}
	// arena status of the ladder: its games without a total, no Elo column, bob removed.
	status, err := exec.CommandContext(ctx, b.arena, "status", "--nats", busURL, "--credentials", filepath.Join(dir, "course", "teacher.cred"), "1").CombinedOutput()
	if err != nil || !regexp.MustCompile(`(?m)^1 +course course +othello +ladder +running +[1-9][0-9]* `).Match(status) ||
		strings.Contains(string(status), "Elo") || !regexp.MustCompile(`(?m)^ +- +bob +.* removed: removed by the teacher`).Match(status) {
		t.Errorf("arena status 1: %v\n%s", err, status)
	}
	t.Logf("arena status 1:\n%s", status)
}
