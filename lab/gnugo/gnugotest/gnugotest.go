// Package gnugotest finds GNU Go (Debian package gnugo) for the tests that run the real
// program. Where it is not installed those tests are skipped, unless ARENA_REQUIRE_GNUGO
// is set (as CI does, having installed the package): then its absence fails them.
package gnugotest

import (
	"os"
	"testing"

	"github.com/arenaref/arena/lab/gnugo"
)

// Program returns the path of GNU Go (gnugo.Find: $ARENA_GNUGO, $PATH, /usr/games), or
// skips the test (fails it when ARENA_REQUIRE_GNUGO is set) when there is none.
func Program(t testing.TB) string {
	t.Helper()
	p, err := gnugo.Find()
	if err == nil {
		return p
	}
	if os.Getenv("ARENA_REQUIRE_GNUGO") != "" {
		t.Fatalf("ARENA_REQUIRE_GNUGO is set but GNU Go was not found (apt-get install gnugo): %v", err)
	}
	t.Skipf("GNU Go is not installed (apt-get install gnugo; ARENA_REQUIRE_GNUGO=1 makes this a failure): %v", err)
	return ""
}
