// Package cgrouptest opens cgroup Managers for tests that need real cgroups.
package cgrouptest

import (
	"os"
	"testing"

	"github.com/arenaref/arena/players/hosting/cgroup"
)

// Open opens a Manager with limits, closed when the test ends, or skips the test where
// the machine cannot make groups, unless ARENA_REQUIRE_CGROUP is set (as .ci/run does):
// then it fails.
func Open(t testing.TB, limits cgroup.Limits) *cgroup.Manager {
	t.Helper()
	m, err := cgroup.Open(limits)
	if err != nil {
		if os.Getenv("ARENA_REQUIRE_CGROUP") != "" {
			t.Fatalf("ARENA_REQUIRE_CGROUP is set, and: %v", err)
		}
		t.Skipf("no cgroups here (ARENA_REQUIRE_CGROUP=1 makes this a failure): %v", err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Error(err)
		}
	})
	return m
}
