package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// ErrHelp is returned when the user asked for a command's help, which is not a failure.
var ErrHelp = errors.New("help requested")

// UsageError marks errors in how a command was called; a program exits with status 2 on
// them and points to the command's help.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Usagef is a UsageError with a formatted message.
func Usagef(format string, args ...any) error { return UsageError{fmt.Sprintf(format, args...)} }

// FlagSet is a command's flags and the help text that goes with them.
type FlagSet struct {
	*flag.FlagSet
	help func()
}

// NewFlagSet returns the flag set of command (the words that call it: "arena tournament")
// that reports errors as values instead of printing usage, so that a bad flag is one clear
// line; the help, the synopsis then the flags, is printed on stderr only when asked for.
func NewFlagSet(command, synopsis string, stderr io.Writer) *FlagSet {
	fs := flag.NewFlagSet(command, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &FlagSet{FlagSet: fs, help: func() {
		fmt.Fprintln(stderr, strings.TrimSpace("Usage: "+command+" "+synopsis))
		if !hasFlags(fs) {
			return
		}
		fmt.Fprint(stderr, "\nFlags:\n")
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}}
}

// ParseArgs parses args with positional arguments: exactly n of them, which may stand
// anywhere among the flags (PositionalsLast), or any number after the flags when n < 0
// (a command line to run, whose own flags must stay as they are). A help flag prints the
// help and returns ErrHelp; other mistakes are a UsageError.
func (fs *FlagSet) ParseArgs(args []string, n int) error {
	if n > 0 {
		args = fs.PositionalsLast(args)
	}
	if err := fs.FlagSet.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.help()
			return ErrHelp
		}
		return UsageError{flagError(fs.FlagSet, err)}
	}
	switch {
	case n == 0 && fs.NArg() > 0:
		return Usagef("unexpected argument %q", fs.Arg(0))
	case n > 0 && fs.NArg() != n:
		return Usagef("want %d argument(s), got %d", n, fs.NArg())
	}
	return nil
}

// Parse parses args that have no positional arguments, as ParseArgs does. It hides the
// flag package's Parse, so that every command reports its mistakes the same way.
func (fs *FlagSet) Parse(args []string) error { return fs.ParseArgs(args, 0) }

// PositionalsLast moves the positional arguments among args behind the flags, keeping
// their order, so that "arena match A --tc 10ms B" reads like "arena match --tc 10ms A B"
// (the flag package stops at the first argument that is not a flag). A flag's value is
// never taken for a positional argument: a flag that is not boolean, written without "=",
// takes the next argument. Everything after "--" stays positional, in place.
func (fs *FlagSet) PositionalsLast(args []string) []string {
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

// hasFlags reports whether fs defines any flag: a help without flags has no Flags
// section.
func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// SplitList splits a comma-separated flag value, trimming blanks and dropping empty items.
func SplitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// TextFlag is a flag.Value for a value that reads itself from text, such as a duration
// of a configuration file: fs.Var(cli.TextFlag{&spec.Margin}, ...).
type TextFlag struct {
	V interface {
		UnmarshalText([]byte) error
		String() string
	}
}

func (f TextFlag) String() string {
	if f.V == nil {
		return ""
	}
	return f.V.String()
}

// Set reads the flag's value.
func (f TextFlag) Set(s string) error { return f.V.UnmarshalText([]byte(s)) }
