package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// TestStderrLogBounds: however much an engine writes to its standard error, the log gets
// at most StderrHead lines of each game as they come and one entry with the counts and
// the last StderrTail lines, and at most StderrHeadTotal lines as they come in all.
func TestStderrLogBounds(t *testing.T) {
	tests := []struct {
		name      string
		games     int
		perGame   int
		lineLen   int
		wantLines int // entries "engine stderr" in all
		wantTails int // entries with the counts
	}{
		{"quiet", 3, 5, 10, 15, 0},
		{"exactly the head", 2, StderrHead, 10, 2 * StderrHead, 0},
		{"a flood", 2, 10000, 1000, 2 * StderrHead, 2},
		{"long lines", 1, 30, 100000, StderrHead, 1},
		{"many games", 60, 30, 10, StderrHeadTotal, 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			s := &stderrLog{log: zerolog.New(&buf)}
			for g := range tt.games {
				id := fmt.Sprintf("g%d", g)
				s.turn(id)
				for i := range tt.perGame {
					s.line(fmt.Sprintf("%d %s", i, strings.Repeat("x", tt.lineLen)))
				}
				s.end(id)
			}
			s.close()
			lines, tails := 0, 0
			for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
				if l == "" {
					continue
				}
				if len(l) > 4000 {
					t.Fatalf("a log entry of %d bytes", len(l))
				}
				var e struct {
					Msg   string   `json:"message"`
					Lines int      `json:"lines"`
					Last  []string `json:"last"`
				}
				if err := json.Unmarshal([]byte(l), &e); err != nil {
					t.Fatal(err)
				}
				switch {
				case e.Msg == "engine stderr":
					lines++
				case strings.HasPrefix(e.Msg, "engine stderr: more"):
					tails++
					if e.Lines != tt.perGame || len(e.Last) != min(StderrTail, tt.perGame) ||
						!strings.HasPrefix(e.Last[len(e.Last)-1], fmt.Sprint(tt.perGame-1)+" ") {
						t.Errorf("counts entry %s: want %d lines and the last %d", l[:min(len(l), 300)], tt.perGame, StderrTail)
					}
				}
			}
			if lines != tt.wantLines || tails != tt.wantTails {
				t.Errorf("%d lines and %d count entries logged, want %d and %d", lines, tails, tt.wantLines, tt.wantTails)
			}
		})
	}
}
