package cli

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/lockedbuf"
)

// screen plays terminal output back the way a terminal shows it: "\r\x1b[K" erases the
// current line, "\n" moves it into the scrolled lines, colours are dropped; any other
// control character fails the test. It returns the scrolled lines and
// the current (last, unfinished) line.
func screen(t *testing.T, out string) (lines []string, current string) {
	t.Helper()
	var cur strings.Builder
	for len(out) > 0 {
		switch {
		case strings.HasPrefix(out, eraseLine):
			cur.Reset()
			out = out[len(eraseLine):]
		case out[0] == '\n':
			lines = append(lines, cur.String())
			cur.Reset()
			out = out[1:]
		case strings.HasPrefix(out, "\x1b[") && strings.IndexByte(out, 'm') > 0 && !strings.ContainsAny(out[2:strings.IndexByte(out, 'm')], "\r\n\x1b"):
			out = out[strings.IndexByte(out, 'm')+1:] // a colour: nothing to see
		case out[0] == '\r' || out[0] == '\x1b':
			t.Fatalf("unexpected control sequence at %q", out[:min(len(out), 10)])
		default:
			cur.WriteByte(out[0])
			out = out[1:]
		}
	}
	return lines, cur.String()
}

func fixedWidth(n int) func() int { return func() int { return n } }

func TestLiveLineKeepsLogAndBarApart(t *testing.T) {
	tests := []struct {
		name string
		// steps: "bar:TEXT" sets the status line, "clear" clears it, anything else is
		// written as it is.
		steps     []string
		wantLines []string
		wantLast  string
	}{
		{
			name:      "log lines scroll above the bar",
			steps:     []string{"bar:games 1/4", "warn one\n", "bar:games 2/4", "warn two\n", "warn three\n"},
			wantLines: []string{"warn one", "warn two", "warn three"},
			wantLast:  "games 2/4",
		},
		{
			name:      "a line written in pieces is not cut by the bar",
			steps:     []string{"bar:games 1/4", "warn ", "bar:games 2/4", "half\n"},
			wantLines: []string{"warn half"},
			wantLast:  "games 2/4",
		},
		{
			name:      "several lines in one write",
			steps:     []string{"bar:games 3/4", "a\nb\n"},
			wantLines: []string{"a", "b"},
			wantLast:  "games 3/4",
		},
		{
			name:      "clear leaves a clean line",
			steps:     []string{"bar:games 4/4", "clear", "standings\n"},
			wantLines: []string{"standings"},
		},
		{
			name:      "no bar: writes pass through",
			steps:     []string{"just a log line\n"},
			wantLines: []string{"just a log line"},
		},
		{
			name:     "the bar is cut to the terminal's width",
			steps:    []string{"bar:" + strings.Repeat("x", 100)},
			wantLast: strings.Repeat("x", 39),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			l := &LiveLine{w: &buf, width: fixedWidth(40)}
			for _, s := range tc.steps {
				switch {
				case strings.HasPrefix(s, "bar:"):
					l.Set(strings.TrimPrefix(s, "bar:"))
				case s == "clear":
					l.Clear()
				default:
					if n, err := l.Write([]byte(s)); n != len(s) || err != nil {
						t.Fatalf("Write(%q) = %d, %v", s, n, err)
					}
				}
			}
			lines, last := screen(t, buf.String())
			if !slices.Equal(lines, tc.wantLines) || last != tc.wantLast {
				t.Errorf("screen:\n lines %q\n last  %q\nwant\n lines %q\n last  %q\noutput %q", lines, last, tc.wantLines, tc.wantLast, buf.String())
			}
		})
	}
}

// TestLiveLineConcurrentLogs logs through zerolog's console writer from several goroutines
// while the bar changes, and checks that every log line scrolls up whole and no bar ever
// shares a line with one.
func TestLiveLineConcurrentLogs(t *testing.T) {
	var buf bytes.Buffer
	l := &LiveLine{w: &buf, width: fixedWidth(200)}
	log, err := newLoggerTo(l, true, "warn")
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 4, 50
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				log.Warn().Int("writer", g).Int("i", i).Msg("time forfeit")
			}
		})
	}
	wg.Go(func() {
		for i := range 200 {
			l.Set(fmt.Sprintf("BAR games %d/200", i))
		}
	})
	wg.Wait()
	l.Set("BAR games 200/200")
	lines, last := screen(t, buf.String())
	if len(lines) != writers*each {
		t.Errorf("%d lines scrolled, want %d log lines", len(lines), writers*each)
	}
	for _, line := range lines {
		if strings.Contains(line, "BAR") || !strings.Contains(line, "time forfeit") || strings.Count(line, "writer=") != 1 {
			t.Errorf("scrolled line %q: want one whole log line and no bar", line)
		}
	}
	if last != "BAR games 200/200" {
		t.Errorf("last line %q, want the bar", last)
	}
}

func TestBarText(t *testing.T) {
	tests := []struct {
		name                 string
		done, total, atStart int
		elapsed              time.Duration
		want                 string
	}{
		{"start", 0, 10, 0, 0, "games 0/10 [>                   ]   0% 0s"},
		{"half, time left", 5, 10, 0, 10 * time.Second, "games 5/10 [==========>         ]  50% 10s, ~10s left"},
		{"resumed: the estimate counts this run's games only", 6, 10, 4, 4 * time.Second, "games 6/10 [============>       ]  60% 4s, ~8s left"},
		{"done", 10, 10, 0, 20 * time.Second, "games 10/10 [====================] 100% 20s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := BarText("games", tc.done, tc.total, tc.atStart, tc.elapsed); got != tc.want {
				t.Errorf("BarText = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestProgressShowsLeaders checks that the tournament's progress line on a terminal shows
// the top three players as games end, and that without a terminal each game gets its line.
func TestProgressShowsLeaders(t *testing.T) {
	games := []Game{
		{Players: []string{"hp2", "random"}, Scores: []float64{1, 0}, Result: "1-0", Reason: "normal"},
		{Players: []string{"minimax", "hp1"}, Scores: []float64{0.5, 0.5}, Result: "1/2-1/2", Reason: "normal"},
		{Players: []string{"minimax", "hp2"}, Scores: []float64{1, 0}, Result: "1-0", Reason: "time_forfeit"},
		{Players: []string{"hp1", "random"}, Scores: []float64{1, 0}, Result: "1-0", Reason: "normal"},
	}
	var term bytes.Buffer
	p := NewProgress(&term, &LiveLine{w: &term, width: fixedWidth(200)}, len(games), 0, NewScoreboard())
	for i, g := range games {
		p.GameDone(i+1, len(games), g)
	}
	_, last := screen(t, term.String())
	if want := "leaders: hp1 1.5/2, minimax 1.5/2, hp2 1/2"; !strings.HasPrefix(last, "games 4/4 [") || !strings.HasSuffix(last, want) {
		t.Errorf("progress line %q, want the bar then %q", last, want)
	}
	p.Finish()
	if _, last := screen(t, term.String()); last != "" {
		t.Errorf("after finish the line holds %q, want it erased", last)
	}

	var plain bytes.Buffer
	p = NewProgress(&plain, nil, len(games), 0, NewScoreboard())
	for i, g := range games {
		p.GameDone(i+1, len(games), g)
	}
	p.Finish()
	lines, last := screen(t, plain.String())
	if len(lines) != len(games) || last != "" || lines[2] != "game 3/4: minimax - hp2  1-0  (time_forfeit)" {
		t.Errorf("without a terminal: lines %q, last %q; want one line per game", lines, last)
	}
}

// TestProgressRedrawsThrottledGames ends two games at once, right after the first drawing,
// so that their redraws are throttled, and checks that the line shows it within the second all the same.
func TestProgressRedrawsThrottledGames(t *testing.T) {
	g := Game{Players: []string{"hp2", "random"}, Scores: []float64{1, 0}, Result: "1-0", Reason: "normal"}
	var term lockedbuf.Buffer
	p := NewProgress(&term, &LiveLine{w: &term, width: fixedWidth(200)}, 3, 0, NewScoreboard())
	defer p.Finish()
	p.GameDone(1, 3, g)
	p.GameDone(2, 3, g)
	if _, last := screen(t, term.String()); strings.HasPrefix(last, "games 2/3 [") {
		t.Fatalf("line %q right after two games: want the second one's redraw throttled", last)
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		_, last := screen(t, term.String())
		if strings.HasPrefix(last, "games 2/3 [") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("line %q after 3s: the second game never showed", last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
