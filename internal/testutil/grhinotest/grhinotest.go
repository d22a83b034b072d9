// Package grhinotest finds GRhino's GTP engine, gtp-rhino (Debian packages grhino and
// grhino-data), for the tests that play a real Othello engine. Where it is not installed
// those tests are skipped, unless ARENA_REQUIRE_GRHINO is set (as CI does, having
// installed the packages): then its absence fails them.
package grhinotest

import (
	"os"
	"os/exec"
	"testing"
)

// Debian installs the program in /usr/games, which is not on every PATH.
const debianPath = "/usr/games/gtp-rhino"

// Program returns the path of gtp-rhino, or skips the test (fails it when
// ARENA_REQUIRE_GRHINO is set) when there is none.
func Program(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("gtp-rhino"); err == nil {
		return p
	}
	if st, err := os.Stat(debianPath); err == nil && !st.IsDir() {
		return debianPath
	}
	if os.Getenv("ARENA_REQUIRE_GRHINO") != "" {
		t.Fatal("ARENA_REQUIRE_GRHINO is set but GRhino's gtp-rhino was not found (apt-get install grhino grhino-data)")
	}
	t.Skip("GRhino's gtp-rhino is not installed (apt-get install grhino grhino-data; ARENA_REQUIRE_GRHINO=1 makes this a failure)")
	return ""
}
