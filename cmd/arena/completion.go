package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// runCompletion prints a shell completion script. The script is made from the commands
// themselves (their names, subcommands and flags, as their -h lists them), so it is as
// new as the binary that printed it: load it with source <(arena completion bash).
func runCompletion(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("completion", "bash\n\nPrints a bash completion script for arena: commands, subcommands and flags.\n"+
		"Load it in the shell with: source <(arena completion bash); for every shell, save it as\n"+
		"~/.local/share/bash-completion/completions/arena (or in /etc/bash_completion.d/).", stderr)
	if err := fs.parseWithArgs(args, 1); err != nil {
		return err
	}
	if fs.Arg(0) != "bash" {
		return usagef("%q: only bash completion is available (arena completion bash)", fs.Arg(0))
	}
	return writeBashCompletion(ctx, stdout)
}

// helpFlag matches a flag's line in a command's help, as flag.PrintDefaults writes it.
var helpFlag = regexp.MustCompile(`(?m)^  -([A-Za-z0-9][A-Za-z0-9_.-]*)`)

// commandFlags returns the flags of a command or subcommand ("tournament", "credentials
// add") as its -h lists them, each as --name.
func commandFlags(ctx context.Context, run func(context.Context, []string, io.Writer, io.Writer) error) ([]string, error) {
	var help bytes.Buffer
	if err := run(ctx, []string{"-h"}, io.Discard, &help); !errors.Is(err, errHelp) {
		return nil, fmt.Errorf("-h did not print the help: %v", err)
	}
	var flags []string
	for _, m := range helpFlag.FindAllStringSubmatch(help.String(), -1) {
		flags = append(flags, "--"+m[1])
	}
	return flags, nil
}

// writeBashCompletion writes the bash completion script.
func writeBashCompletion(ctx context.Context, w io.Writer) error {
	var subsCases, flagCases strings.Builder
	addFlags := func(key string, run func(context.Context, []string, io.Writer, io.Writer) error) error {
		flags, err := commandFlags(ctx, run)
		if err != nil {
			return fmt.Errorf("arena %s: %w", key, err)
		}
		if len(flags) > 0 {
			fmt.Fprintf(&flagCases, "\t%q) echo %q ;;\n", key, strings.Join(flags, " "))
		}
		return nil
	}
	for _, c := range commands() {
		subs := subcommandsOf(c.name)
		if len(subs) == 0 {
			if err := addFlags(c.name, c.run); err != nil {
				return err
			}
			continue
		}
		var names []string
		for _, s := range subs {
			names = append(names, s.name)
			if err := addFlags(c.name+" "+s.name, s.run); err != nil {
				return err
			}
		}
		fmt.Fprintf(&subsCases, "\t%s) echo %q ;;\n", c.name, strings.Join(names, " "))
	}
	fmt.Fprintf(&subsCases, "\tcompletion) echo bash ;;\n")
	_, err := fmt.Fprintf(w, bashCompletion, version, strings.Join(commandNames(), " "), subsCases.String(), flagCases.String())
	return err
}

// bashCompletion is the script's text: the version, the commands, then the case arms of
// _arena_subs and _arena_flags.
const bashCompletion = `# bash completion for arena %s, printed by 'arena completion bash'.
# Load it with: source <(arena completion bash)

_arena_commands="%s"

# _arena_subs prints the subcommands of command $1.
_arena_subs() {
	case $1 in
%s	esac
}

# _arena_flags prints the flags of command $1 ("tournament", "credentials add").
_arena_flags() {
	case $1 in
%s	esac
}

_arena() {
	local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]} subs words=""
	COMPREPLY=()
	if ((COMP_CWORD == 1)); then
		words="$_arena_commands help"
	elif [[ $cmd == help ]]; then
		if ((COMP_CWORD == 2)); then
			words=$_arena_commands
		elif ((COMP_CWORD == 3)); then
			words=$(_arena_subs "${COMP_WORDS[2]}")
		fi
	else
		subs=$(_arena_subs "$cmd")
		if [[ -n $subs ]] && ((COMP_CWORD == 2)); then
			words=$subs
		elif [[ $cur == -* ]]; then
			if [[ -n $subs ]]; then
				words=$(_arena_flags "$cmd ${COMP_WORDS[2]}")
			else
				words=$(_arena_flags "$cmd")
			fi
		fi
	fi
	if [[ -n $words ]]; then
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
	fi
}

complete -o default -F _arena arena
`
