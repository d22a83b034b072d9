package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Subcommand is one command of a Program ("tournament"), or one subcommand of a command
// that has them ("credentials add", "ipd simulate"). Its Run parses its own flags, with a
// flag set named after all its words. A command with subcommands has Subcommands instead
// of Run, and runs them with RunSubcommand.
type Subcommand struct {
	Name        string
	Summary     string
	Run         func(ctx context.Context, args []string, stdout, stderr io.Writer) error
	Subcommands []Subcommand
}

// Exec runs s as a command of parent (the words before it: "arena"): its Run, or the
// subcommand args[0] of its Subcommands.
func (s Subcommand) Exec(ctx context.Context, parent string, args []string, stdout, stderr io.Writer) error {
	if s.Subcommands != nil {
		return RunSubcommand(ctx, parent+" "+s.Name, s.Subcommands, args, stdout, stderr)
	}
	return s.Run(ctx, args, stdout, stderr)
}

// InCommand carries an error out of a subcommand with the words that name it, so that
// the error line and its hint name the subcommand: "arena ipd simulate: ... (see 'arena
// ipd simulate -h')".
type InCommand struct {
	Path string // "arena ipd simulate"
	Err  error
}

func (e InCommand) Error() string { return e.Err.Error() }
func (e InCommand) Unwrap() error { return e.Err }

// RunSubcommand runs the subcommand args[0] of the command parent (its words: "arena
// ipd"). No subcommand, or one that does not exist, is a usage error that lists them;
// "-h", "--help" and "help" print them, and "help SUB" is "SUB -h". An error of the
// subcommand comes back as an InCommand.
func RunSubcommand(ctx context.Context, parent string, subs []Subcommand, args []string, stdout, stderr io.Writer) error {
	names := make([]string, len(subs))
	for i, s := range subs {
		names[i] = s.Name
	}
	if len(args) == 0 {
		return Usagef("want a subcommand: %s", JoinOr(names))
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if args[0] == "help" && len(args) > 1 {
			return RunSubcommand(ctx, parent, subs, append(append([]string{}, args[1:]...), "-h"), stdout, stderr)
		}
		PrintSubcommands(stderr, parent, subs)
		return ErrHelp
	}
	for _, s := range subs {
		if s.Name == args[0] {
			if err := s.Run(ctx, args[1:], stdout, stderr); err != nil {
				return InCommand{Path: parent + " " + s.Name, Err: err}
			}
			return nil
		}
	}
	if s := DidYouMean(args[0], names, Quoted); s != "" {
		return Usagef("unknown subcommand %q;%s", args[0], s)
	}
	return Usagef("unknown subcommand %q: want %s", args[0], JoinOr(names))
}

// JoinOr lists words as a sentence does: "a", "a or b", "a, b or c".
func JoinOr(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// PrintSubcommands is the help of the command parent ("arena ipd"), which has subcommands.
func PrintSubcommands(w io.Writer, parent string, subs []Subcommand) {
	fmt.Fprintf(w, "Usage: %s SUBCOMMAND [flags]\n\nSubcommands:\n", parent)
	width := 0
	for _, s := range subs {
		width = max(width, len(s.Name))
	}
	for _, s := range subs {
		fmt.Fprintf(w, "  %-*s  %s\n", width, s.Name, s.Summary)
	}
	fmt.Fprintf(w, "\nRun '%s SUBCOMMAND -h' for its flags.\n", parent)
}
