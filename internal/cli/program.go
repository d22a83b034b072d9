package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Program is a command line program made of commands: its name ("arena"), the line that
// opens its help, the commands, and the lines that close the help.
type Program struct {
	Name     string
	Summary  string
	Commands []Subcommand
	Footer   string
}

// Run executes one command line and returns the process exit status: 0 on success and
// for help, 2 for a usage error (with a hint at the command's -h), 1 for any other failure.
// Every failure is one line on stderr, named after the command (or subcommand, from an
// InCommand) that failed. No arguments prints the help and is a usage error; "help",
// "-h" and "--help" print it; "help CMD ..." is "CMD ... -h"; an unknown command is
// answered with the nearest names.
func (p Program) Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) >= 2 && args[0] == "help" {
		args = append(append([]string{}, args[1:]...), "-h")
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		p.PrintUsage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range p.Commands {
		if c.Name != args[0] {
			continue
		}
		err := c.Exec(ctx, p.Name, args[1:], stdout, stderr)
		name := p.Name + " " + c.Name
		var in InCommand
		if errors.As(err, &in) {
			name = in.Path
		}
		switch {
		case err == nil, errors.Is(err, ErrHelp):
			return 0
		case errors.As(err, new(UsageError)):
			fmt.Fprintf(stderr, "%s: %v (see '%s -h')\n", name, err, name)
			return 2
		default:
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return 1
		}
	}
	msg := fmt.Sprintf("%s: unknown command %q", p.Name, args[0])
	if s := DidYouMean(strings.TrimLeft(args[0], "-"), p.Names(), Quoted); s != "" {
		msg += ";" + s
	}
	fmt.Fprintf(stderr, "%s (see '%s help')\n", msg, p.Name)
	return 2
}

// Names lists the commands' names, in order.
func (p Program) Names() []string {
	names := make([]string, len(p.Commands))
	for i, c := range p.Commands {
		names[i] = c.Name
	}
	return names
}

// PrintUsage is the program's help: its summary, every command with its own, the footer.
func (p Program) PrintUsage(w io.Writer) {
	fmt.Fprintf(w, "%s: %s\n", p.Name, p.Summary)
	fmt.Fprintf(w, "\nUsage: %s COMMAND [flags]\n\nCommands:\n", p.Name)
	for _, c := range p.Commands {
		fmt.Fprintf(w, "  %-13s %s\n", c.Name, c.Summary)
	}
	if p.Footer != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(p.Footer, "\n"))
	}
}
