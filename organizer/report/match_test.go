package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/organizer/report"
	"github.com/arenaref/arena/ratings"
)

func TestWriteMatch(t *testing.T) {
	test := &ratings.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	tests := []struct {
		name string
		m    report.Match
		want []string // the lines, each a prefix
	}{
		{"no test", report.Match{A: "a", B: "b", Score: organizer.MatchScore{Wins: 6, Draws: 2, Losses: 2}, Elapsed: 1500 * time.Millisecond},
			[]string{"a v b: 10 games in 1.5s, +6 =2 -2, score 70.0%, Elo difference +"}},
		{"no games", report.Match{A: "a", B: "b"}, []string{"a v b: 0 games in 0s, +0 =0 -0, score 0.0%"}},
		{"H1", report.Match{A: "a", B: "b", Score: organizer.MatchScore{Wins: 90, Losses: 10}, Test: test, Decision: ratings.AcceptH1},
			[]string{"a v b: 100 games", "SPRT: H1 accepted (LLR ", "a is stronger than b by at least about 10 Elo"}},
		{"H0", report.Match{A: "a", B: "b", Score: organizer.MatchScore{Wins: 10, Losses: 90}, Test: test, Decision: ratings.AcceptH0},
			[]string{"a v b: 100 games", "SPRT: H0 accepted (LLR "}},
		{"undecided", report.Match{A: "a", B: "b", Score: organizer.MatchScore{Wins: 1, Losses: 1}, Test: test},
			[]string{"a v b: 2 games", "SPRT: no decision after 2 games (LLR "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := report.WriteMatch(&b, tt.m); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if len(lines) != min(len(tt.want), 2) {
				t.Fatalf("%d lines, want %d:\n%s", len(lines), min(len(tt.want), 2), b.String())
			}
			for i, w := range tt.want {
				if line := lines[min(i, len(lines)-1)]; !strings.Contains(line, w) {
					t.Errorf("line %q, want it to contain %q", line, w)
				}
			}
		})
	}
}
