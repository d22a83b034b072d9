package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"
)

// errHelp is returned when the user asked for a command's help, which is not a failure.
var errHelp = errors.New("help requested")

// flagSet is a command's flags and the help text that goes with them.
type flagSet struct {
	*flag.FlagSet
	help func()
}

// newFlagSet returns a flag set that reports errors as values instead of printing usage,
// so that a bad flag is one clear line; the help is printed only when asked for.
func newFlagSet(name, synopsis string, stderr io.Writer) *flagSet {
	fs := flag.NewFlagSet("arena "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, help: func() {
		fmt.Fprintln(stderr, strings.TrimSpace("Usage: arena "+name+" "+synopsis))
		if !hasFlags(fs) {
			return
		}
		fmt.Fprint(stderr, "\nFlags:\n")
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}}
}

// parseWithArgs parses args with positional arguments: exactly n of them, which may stand
// anywhere among the flags (positionalsLast), or any number after the flags when n < 0
// (a command line to run, whose own flags must stay as they are).
func (fs *flagSet) parseWithArgs(args []string, n int) error {
	if n > 0 {
		args = fs.positionalsLast(args)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.help()
			return errHelp
		}
		return usageError{flagError(fs.FlagSet, err)}
	}
	switch {
	case n == 0 && fs.NArg() > 0:
		return usagef("unexpected argument %q", fs.Arg(0))
	case n > 0 && fs.NArg() != n:
		return usagef("want %d argument(s), got %d", n, fs.NArg())
	}
	return nil
}

// positionalsLast moves the positional arguments among args behind the flags, keeping
// their order, so that "arena match A --tc 10ms B" reads like "arena match --tc 10ms A B"
// (the flag package stops at the first argument that is not a flag). A flag's value is
// never taken for a positional argument: a flag that is not boolean, written without "=",
// takes the next argument. Everything after "--" stays positional, in place.
func (fs *flagSet) positionalsLast(args []string) []string {
	var flags, positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(append(flags, "--"), append(positional, args[i+1:]...)...)
		case len(a) < 2 || a[0] != '-':
			positional = append(positional, a)
		default:
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if strings.Contains(name, "=") {
				continue
			}
			f := fs.Lookup(name)
			if f == nil {
				continue // unknown: Parse says so
			}
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				continue
			}
			if i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		}
	}
	if len(positional) == 0 {
		return flags
	}
	return append(append(flags, "--"), positional...)
}

// parse parses args that have no positional arguments.
func (fs *flagSet) parse(args []string) error { return fs.parseWithArgs(args, 0) }

// newLogger builds the logger for a command: JSON on stderr, or human-readable console
// output when stderr is a terminal.
func newLogger(stderr io.Writer, level string) (zerolog.Logger, error) {
	f, ok := stderr.(*os.File)
	return newLoggerTo(stderr, ok && isatty.IsTerminal(f.Fd()), level)
}

// newLiveLogger is newLogger writing through live, the status line on a terminal, when
// there is one, so that log lines scroll above it.
func newLiveLogger(stderr io.Writer, live *liveLine, level string) (zerolog.Logger, error) {
	if live != nil {
		return newLoggerTo(live, true, level)
	}
	return newLogger(stderr, level)
}

// newLoggerTo builds a logger writing to w: human-readable console lines when console is
// set, JSON otherwise.
func newLoggerTo(w io.Writer, console bool, level string) (zerolog.Logger, error) {
	lvl, err := zerolog.ParseLevel(strings.ToLower(level))
	if err != nil || level == "" {
		return zerolog.Nop(), usagef("--log-level %q: want trace, debug, info, warn, error or disabled", level)
	}
	if console {
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: time.TimeOnly}
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger(), nil
}

// splitList splits a comma-separated flag value, trimming blanks and dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
