package cli

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"golang.org/x/term"
)

// eraseLine moves the cursor to the start of the line and erases the line.
const eraseLine = "\r\x1b[K"

// LiveLine keeps one status line, such as a progress bar, at the bottom of a terminal while
// other output, such as log lines, scrolls above it. Everything written to it goes out with
// the status line erased first and drawn again after it, so a log line never lands in the
// middle of the bar. A write that does not end its line leaves the status line undrawn
// until a later write ends it. It is safe for concurrent use.
type LiveLine struct {
	mu      sync.Mutex
	w       io.Writer
	width   func() int // terminal columns; the line is cut to fit, since a wrapped line cannot be erased
	text    string
	drawn   bool
	partial bool // the last write left its line unfinished
}

// NewLiveLine returns a LiveLine on stderr when it is a terminal, and nil otherwise.
func NewLiveLine(stderr io.Writer) *LiveLine {
	f, ok := stderr.(*os.File)
	if !ok || !isatty.IsTerminal(f.Fd()) {
		return nil
	}
	return &LiveLine{w: stderr, width: func() int {
		w, _, err := term.GetSize(int(f.Fd()))
		if err != nil || w <= 0 {
			return 80
		}
		return w
	}}
}

// Write writes p above the status line.
func (l *LiveLine) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	buf := make([]byte, 0, len(p)+len(eraseLine)+len(l.text)+8)
	if l.drawn {
		buf = append(buf, eraseLine...)
		l.drawn = false
	}
	buf = append(buf, p...)
	l.partial = p[len(p)-1] != '\n'
	if !l.partial && l.text != "" {
		buf = append(buf, l.fit()...)
		l.drawn = true
	}
	if _, err := l.w.Write(buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Set replaces the status line's text and draws it.
func (l *LiveLine) Set(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.text = text
	switch {
	case l.partial: // drawn when the line is ended
	case text != "":
		_, _ = io.WriteString(l.w, eraseLine+l.fit())
		l.drawn = true
	case l.drawn:
		_, _ = io.WriteString(l.w, eraseLine)
		l.drawn = false
	}
}

// Clear erases the status line for good: output that follows starts on a clean line.
func (l *LiveLine) Clear() { l.Set("") }

// fit returns the status line, cut to the terminal's width less one column (writing the
// last column makes some terminals wrap); l.mu held.
func (l *LiveLine) fit() string {
	r := []rune(l.text)
	if w := l.width(); w > 1 && len(r) > w-1 {
		r = r[:w-1]
	}
	return string(r)
}

// BarText renders a progress bar line: what is counted, done of total, a bar, the percentage,
// the time elapsed and, once something was done since start (the count done when it began),
// an estimate of the time left.
func BarText(what string, done, total, atStart int, elapsed time.Duration) string {
	const width = 20
	frac := 0.0
	if total > 0 {
		frac = min(1, float64(done)/float64(total))
	}
	full := int(frac * width)
	bar := strings.Repeat("=", full)
	if full < width {
		bar += ">" + strings.Repeat(" ", width-full-1)
	}
	s := fmt.Sprintf("%s %d/%d [%s] %3.0f%% %s", what, done, total, bar, 100*frac, elapsed.Round(time.Second))
	if n := done - atStart; n > 0 && done < total {
		left := time.Duration(float64(elapsed) / float64(n) * float64(total-done))
		s += fmt.Sprintf(", ~%s left", left.Round(time.Second))
	}
	return s
}

// Scoreboard keeps the points and games of each player as games end, for the leaders shown
// on the progress line.
type Scoreboard struct {
	points map[string]float64
	games  map[string]int
}

// NewScoreboard returns an empty scoreboard.
func NewScoreboard() *Scoreboard {
	return &Scoreboard{points: map[string]float64{}, games: map[string]int{}}
}

// Add counts one game: the players by seat and their scores.
func (b *Scoreboard) Add(players []string, scores []float64) {
	for seat, p := range players {
		if seat < len(scores) {
			b.points[p] += scores[seat]
			b.games[p]++
		}
	}
}

// Leaders returns the n players with the most points, as "name points/games", ties by the
// fewer games, then by name.
func (b *Scoreboard) Leaders(n int) string {
	names := make([]string, 0, len(b.games))
	for p := range b.games {
		names = append(names, p)
	}
	slices.SortFunc(names, func(x, y string) int {
		if c := cmp.Compare(b.points[y], b.points[x]); c != 0 {
			return c
		}
		if c := cmp.Compare(b.games[x], b.games[y]); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	parts := make([]string, 0, n)
	for _, p := range names[:min(n, len(names))] {
		parts = append(parts, fmt.Sprintf("%s %g/%d", p, b.points[p], b.games[p]))
	}
	return strings.Join(parts, ", ")
}
