package host

import (
	"strings"
	"testing"
	"time"
)

// TestHostSlowBuildHoldsNoOne: with one build place, a player whose build sleeps (60 s)
// holds it for BuildSlotHold at most: another player's build, submitted after, runs and
// its engine plays while the slow build goes on.
func TestHostSlowBuildHoldsNoOne(t *testing.T) {
	const hold = 500 * time.Millisecond
	b := newBench(t)
	b.hostWith(t.TempDir(), func(c *Config) { c.Concurrency, c.BuildSlotHold = 1, hold })
	b.submit("mallory", buildArchive(t, "sleep 60"))
	b.expect("mallory", "s1 submitted", "s1 building")
	start := time.Now()
	b.submit("alice", buildArchive(t, "true"))
	b.expect("alice", "s1 submitted", "s1 building", "s1 built", "s1 running")
	b.plays("alice", "s1")
	t.Logf("alice's engine played %v after its submission", time.Since(start).Round(time.Millisecond))
	// mallory's build still runs: alice did not wait for it.
	b.quiet("mallory", 100*time.Millisecond)
}

// TestHostBuildTimeout: a build past Config.BuildTimeout is killed and reported
// build_failed, with the reason.
func TestHostBuildTimeout(t *testing.T) {
	b := newBench(t)
	b.hostWith(t.TempDir(), func(c *Config) { c.BuildTimeout = 500 * time.Millisecond })
	b.submit("mallory", buildArchive(t, "echo sleeping; sleep 60"))
	evs := b.expect("mallory", "s1 submitted", "s1 building", "s1 build_failed")
	if log := evs[2].Log; !strings.Contains(log, "sleeping") || !strings.Contains(log, "the build took longer than 500ms") {
		t.Errorf("build_failed log %q", log)
	}
}
