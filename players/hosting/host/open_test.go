package host

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/arenaref/arena/players/hosting/sandbox"
)

// TestConfinementOpen: a host runs its engines sandboxed and in cgroups unless told not
// to, and says loudly what it gives up.
func TestConfinementOpen(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		if os.Getenv("ARENA_REQUIRE_BWRAP") != "" {
			t.Fatalf("ARENA_REQUIRE_BWRAP is set, and: %v", err)
		}
		t.Skipf("no sandboxes here: %v", err)
	}
	tests := []struct {
		name      string
		c         Confinement
		sandboxed bool
		cgroups   bool
		warn      string
	}{
		{"everything", Confinement{}, true, true, "every engine and build in a cgroup of its own"},
		{"no cgroups", Confinement{NoCgroups: true}, true, false, "WARNING: --no-cgroups"},
		{"no sandbox", Confinement{NoSandbox: true}, false, false, "WARNING: --no-sandbox"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var warn bytes.Buffer
			sb, cg, err := tt.c.Open(&warn)
			if err != nil && tt.cgroups && os.Getenv("ARENA_REQUIRE_CGROUP") == "" {
				t.Skipf("no cgroups here: %v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if cg != nil {
				t.Cleanup(func() { cg.Close() })
			}
			got, sandboxed := sb.(sandbox.Host)
			if sandboxed != tt.sandboxed || (cg != nil) != tt.cgroups || (sandboxed && (got.Cgroups != nil) != tt.cgroups) {
				t.Errorf("Open = %T (cgroups %v), want sandboxed %v, cgroups %v", sb, cg != nil, tt.sandboxed, tt.cgroups)
			}
			if !strings.Contains(warn.String(), tt.warn) {
				t.Errorf("said %q, want %q", warn.String(), tt.warn)
			}
		})
	}
}
