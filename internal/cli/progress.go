package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
)

// Game is a game that ended, as the progress display shows it.
type Game struct {
	Players []string  // by seat
	Scores  []float64 // by seat
	Result  string    // "1-0"
	Reason  string    // how it ended: "normal", "time_forfeit"
}

// Progress reports recorded games on stderr. On a terminal it keeps a line of its own
// below the log: a bar and the leaders so far. Otherwise it writes one line per game, so
// logs stay readable.
type Progress struct {
	w       io.Writer
	live    *LiveLine // nil when stderr is not a terminal
	mu      sync.Mutex
	board   *Scoreboard
	total   int
	atStart int // games played before this run
	started time.Time
	drawn   time.Time     // when the line was last drawn
	done    int           // games played so far, this run's and earlier ones
	stop    chan struct{} // closed by finish: the redrawing stops
	stopped chan struct{} // closed when it has
}

// NewProgress reports on stderr, on live when it is not nil, total games of which done
// were played before; board holds the scores of those. Finish ends it.
func NewProgress(stderr io.Writer, live *LiveLine, total, done int, board *Scoreboard) *Progress {
	p := &Progress{w: stderr, live: live, board: board, total: total, atStart: done, done: done, started: time.Now()}
	p.draw(done)
	if live != nil {
		// The line is drawn again every second too: a game that ended just after a
		// throttled redraw shows without waiting for the next one to end, and the elapsed
		// time and the estimate keep moving through long games.
		p.stop, p.stopped = make(chan struct{}), make(chan struct{})
		go p.redraw()
	}
	return p
}

// redraw draws the line every second until finish.
func (p *Progress) redraw() {
	defer close(p.stopped)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
			p.mu.Lock()
			p.drawn = time.Time{}
			p.draw(p.done)
			p.mu.Unlock()
		}
	}
}

// draw shows the bar with done games and the leaders, at most every 100ms until the last
// game, so that quick games do not flood the terminal; p.mu held or not yet shared.
func (p *Progress) draw(done int) {
	if p.live == nil || (done < p.total && time.Since(p.drawn) < 100*time.Millisecond) {
		return
	}
	p.drawn = time.Now()
	text := BarText("games", done, p.total, p.atStart, time.Since(p.started))
	if l := p.board.Leaders(3); l != "" {
		text += "  leaders: " + l
	}
	p.live.Set(text)
}

// GameDone counts game g, the done-th of total.
func (p *Progress) GameDone(done, total int, g Game) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.board.Add(g.Players, g.Scores)
	if p.live != nil {
		p.total, p.done = total, done
		p.draw(done)
		return
	}
	fmt.Fprintf(p.w, "game %d/%d: %s  %s  (%s)\n", done, total, strings.Join(g.Players, " - "), g.Result, g.Reason)
}

// Finish erases the progress line, so that what follows starts on a clean line.
func (p *Progress) Finish() {
	if p.live != nil {
		if p.stop != nil {
			close(p.stop)
			<-p.stopped
			p.stop = nil
		}
		p.live.Clear()
	}
}

// TerminalBar returns a progress bar on stderr when it is a terminal, and nil otherwise.
func TerminalBar(stderr io.Writer, total, done int, description string) *progressbar.ProgressBar {
	f, ok := stderr.(*os.File)
	if !ok || !isatty.IsTerminal(f.Fd()) {
		return nil
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription(description),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	_ = bar.Set(done)
	return bar
}
