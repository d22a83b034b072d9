package main

import (
	"context"
	"io"

	"github.com/arenaref/arena/internal/cli"
)

// runCompletion prints a shell completion script. The script is made from the commands
// themselves (their names, subcommands and flags, as their -h lists them), so it is as
// new as the binary that printed it: load it with source <(arena completion bash).
func runCompletion(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena completion", "bash\n\nPrints a bash completion script for arena: commands, subcommands and flags.\n"+
		"Load it in the shell with: source <(arena completion bash); for every shell, save it as\n"+
		"~/.local/share/bash-completion/completions/arena (or in /etc/bash_completion.d/).", stderr)
	if err := fs.ParseArgs(args, 1); err != nil {
		return err
	}
	if fs.Arg(0) != "bash" {
		return cli.Usagef("%q: only bash completion is available (arena completion bash)", fs.Arg(0))
	}
	return writeBashCompletion(ctx, stdout)
}

// writeBashCompletion writes the bash completion script of arena's commands.
func writeBashCompletion(ctx context.Context, w io.Writer) error {
	return cli.WriteBashCompletion(ctx, w, "arena", version, commands())
}
