package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
)

// subcommand is one subcommand of a command that has them ("credentials add", "ipd
// simulate"). Its run parses its own flags, with a flag set named after both words.
type subcommand struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// subcommandsOf returns the subcommands of the named command, or nil when it has none.
// Completion and help use it; each command's run dispatches with runSubcommand.
func subcommandsOf(name string) []subcommand {
	switch name {
	case "credentials":
		return credentialsSubcommands()
	case "course":
		return courseSubcommands()
	case "experience":
		return experienceSubcommands()
	case "ipd":
		return ipdSubcommands()
	case "tune-checkers":
		return tuneCheckersSubcommands()
	}
	return nil
}

// inCommand carries an error out of a subcommand with the words that name it, so that
// the error line and its hint name the subcommand: "arena ipd simulate: ... (see 'arena
// ipd simulate -h')".
type inCommand struct {
	path string // "ipd simulate"
	err  error
}

func (e inCommand) Error() string { return e.err.Error() }
func (e inCommand) Unwrap() error { return e.err }

// runSubcommand runs the subcommand args[0] of the command parent. No subcommand, or one
// that does not exist, is a usage error that lists them; "-h", "--help" and "help" print
// them, and "help SUB" is "SUB -h".
func runSubcommand(ctx context.Context, parent string, subs []subcommand, args []string, stdout, stderr io.Writer) error {
	names := make([]string, len(subs))
	for i, s := range subs {
		names[i] = s.name
	}
	if len(args) == 0 {
		return usagef("want a subcommand: %s", joinOr(names))
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if args[0] == "help" && len(args) > 1 {
			return runSubcommand(ctx, parent, subs, append(append([]string{}, args[1:]...), "-h"), stdout, stderr)
		}
		printSubcommands(stderr, parent, subs)
		return errHelp
	}
	for _, s := range subs {
		if s.name == args[0] {
			if err := s.run(ctx, args[1:], stdout, stderr); err != nil {
				return inCommand{path: parent + " " + s.name, err: err}
			}
			return nil
		}
	}
	if s := didYouMean(args[0], names, quoted); s != "" {
		return usagef("unknown subcommand %q;%s", args[0], s)
	}
	return usagef("unknown subcommand %q: want %s", args[0], joinOr(names))
}

// joinOr lists words as a sentence does: "a", "a or b", "a, b or c".
func joinOr(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// printSubcommands is the help of a command that has subcommands.
func printSubcommands(w io.Writer, parent string, subs []subcommand) {
	fmt.Fprintf(w, "Usage: arena %s SUBCOMMAND [flags]\n\nSubcommands:\n", parent)
	width := 0
	for _, s := range subs {
		width = max(width, len(s.name))
	}
	for _, s := range subs {
		fmt.Fprintf(w, "  %-*s  %s\n", width, s.name, s.summary)
	}
	fmt.Fprintf(w, "\nRun 'arena %s SUBCOMMAND -h' for its flags.\n", parent)
}

// hasFlags reports whether fs defines any flag: a help without flags has no Flags
// section.
func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}
