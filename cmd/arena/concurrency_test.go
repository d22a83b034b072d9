package main

import (
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/arenaref/arena/organizer"
)

func TestConcurrencyWarning(t *testing.T) {
	tests := []struct {
		name        string
		games, cpus int
		warn        bool
	}{
		{"one game", 1, 1, false},
		{"as many games as cores", 8, 8, false},
		{"fewer games than cores", 2, 16, false},
		{"one game more than the cores", 3, 2, true},
		{"many more", 256, 4, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msg := organizer.ConcurrencyWarning(tc.games, tc.cpus)
			if (msg != "") != tc.warn {
				t.Fatalf("concurrencyWarning(%d, %d) = %q, want a warning: %v", tc.games, tc.cpus, msg, tc.warn)
			}
			if !tc.warn {
				return
			}
			for _, want := range []string{strconv.Itoa(tc.games), strconv.Itoa(tc.cpus) + " cores", "lose on time"} {
				if !strings.Contains(msg, want) {
					t.Errorf("warning %q does not say %q", msg, want)
				}
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("warning %q is more than one line", msg)
			}
		})
	}
}

// TestConcurrencyWarningCommands checks that tournament and match warn on stderr, once,
// when --concurrency exceeds the cores, still play, and say nothing when it does not.
func TestConcurrencyWarningCommands(t *testing.T) {
	over := strconv.Itoa(runtime.NumCPU() + 1)
	for _, cmd := range [][]string{
		{"tournament", "--players", "random,r2=random", "--rounds", "1"},
		{"match", "random", "r2=random", "--games", "2"},
	} {
		for _, conc := range []string{"1", over} {
			t.Run(cmd[0]+"/concurrency "+conc, func(t *testing.T) {
				args := append(cmd, "--tc", "1s", "--db", filepath.Join(t.TempDir(), "a.db"), "--concurrency", conc)
				code, _, stderr := runCLI(t, args...)
				if code != 0 {
					t.Fatalf("%v: exit %d\n%s", args, code, stderr)
				}
				n := strings.Count(stderr, "warning: concurrency")
				if want := map[bool]int{true: 1, false: 0}[conc == over]; n != want {
					t.Errorf("%v: %d concurrency warnings on stderr, want %d:\n%s", args, n, want, stderr)
				}
			})
		}
	}
}
