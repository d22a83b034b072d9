package hosting

import (
	"bytes"
	"strings"
	"testing"

	"github.com/arenaref/arena/protocol"
)

// TestWriteStatus checks what submit-engine --status prints: every version's log, newest
// first, with its state, not only the newest's.
func TestWriteStatus(t *testing.T) {
	subs := []protocol.EngineSubmission{
		{Name: "alice", Version: "s3", State: protocol.EngineRunning},
		{Name: "alice", Version: "s2", State: protocol.EngineRunFailed, Log: "Traceback\nZeroDivisionError"},
		{Name: "alice", Version: "s1", State: protocol.EngineBuildFailed, Log: "engine.c:3: error: expected ';'\n"},
	}
	tests := []struct {
		name string
		subs []protocol.EngineSubmission
		want []string // in this order
	}{
		{"none", nil, []string{"alice has submitted no engine\n"}},
		{"three", subs, []string{"VERSION", "s3", "running", "s2", "s1",
			"\ns2's log (run_failed):\nTraceback\nZeroDivisionError\n", "\ns1's log (build_failed):\nengine.c:3: error: expected ';'\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := WriteStatus(&out, "alice", tc.subs); err != nil {
				t.Fatal(err)
			}
			text := out.String()
			at := 0
			for _, w := range tc.want {
				i := strings.Index(text[at:], w)
				if i < 0 {
					t.Fatalf("no %q after byte %d of:\n%s", w, at, text)
				}
				at += i + len(w)
			}
		})
	}
}
