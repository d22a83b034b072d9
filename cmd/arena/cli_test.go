package main

import (
	"strings"
	"testing"
)

// TestUsageSummaries checks what arena --help says of commands whose scope has grown.
func TestUsageSummaries(t *testing.T) {
	code, _, stderr := runCLI(t, "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	tests := []struct{ command, want string }{
		{"train", "Othello, checkers or give-away checkers"},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			for _, line := range strings.Split(stderr, "\n") {
				if f := strings.Fields(line); len(f) > 0 && f[0] == tt.command {
					if !strings.Contains(line, tt.want) {
						t.Errorf("%q does not say %q", line, tt.want)
					}
					return
				}
			}
			t.Errorf("no %s in the usage:\n%s", tt.command, stderr)
		})
	}
}
