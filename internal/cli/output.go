package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/schollz/progressbar/v3"
)

// WriteJSON writes v as indented JSON, the --json output of every command.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Ticker shows how a long computation goes: a progress bar with a line of text on a
// terminal (TerminalBar), or else every Every-th count's text on a line of its own, so
// that a log stays readable.
type Ticker struct {
	Bar   *progressbar.ProgressBar // nil when stderr is not a terminal
	w     io.Writer
	every int
}

// NewTicker returns a Ticker on stderr for total counts of which done are done, printing
// every every-th count's text without a terminal.
func NewTicker(stderr io.Writer, total, done int, description string, every int) *Ticker {
	return &Ticker{Bar: TerminalBar(stderr, total, done, description), w: stderr, every: every}
}

// Update shows the count done with text.
func (t *Ticker) Update(done int, text string) {
	if t.Bar != nil {
		t.Bar.Describe(text)
		_ = t.Bar.Set(done)
		return
	}
	if t.every > 0 && done%t.every == 0 {
		fmt.Fprintln(t.w, text)
	}
}

// Finish completes the bar, which clears it.
func (t *Ticker) Finish() {
	if t.Bar != nil {
		_ = t.Bar.Finish()
	}
}
