package cli

import (
	"io"
	"os"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
)

// NewLogger builds the logger for a command: JSON on stderr, or human-readable console
// output when stderr is a terminal. A level zerolog does not know is a UsageError of the
// --log-level flag.
func NewLogger(stderr io.Writer, level string) (zerolog.Logger, error) {
	f, ok := stderr.(*os.File)
	return newLoggerTo(stderr, ok && isatty.IsTerminal(f.Fd()), level)
}

// NewLiveLogger is NewLogger writing through live, the status line on a terminal, when
// there is one, so that log lines scroll above it.
func NewLiveLogger(stderr io.Writer, live *LiveLine, level string) (zerolog.Logger, error) {
	if live != nil {
		return newLoggerTo(live, true, level)
	}
	return NewLogger(stderr, level)
}

// newLoggerTo builds a logger writing to w: human-readable console lines when console is
// set, JSON otherwise.
func newLoggerTo(w io.Writer, console bool, level string) (zerolog.Logger, error) {
	lvl, err := zerolog.ParseLevel(strings.ToLower(level))
	if err != nil || level == "" {
		return zerolog.Nop(), Usagef("--log-level %q: want trace, debug, info, warn, error or disabled", level)
	}
	if console {
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: time.TimeOnly}
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger(), nil
}
