package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"text/template"
)

// helpFlag matches a flag's line in a command's help, as flag.PrintDefaults writes it.
var helpFlag = regexp.MustCompile(`(?m)^  -([A-Za-z0-9][A-Za-z0-9_.-]*)`)

// commandFlags returns the flags of a command or subcommand ("tournament", "credentials
// add") as its -h lists them, each as --name.
func commandFlags(ctx context.Context, run func(context.Context, []string, io.Writer, io.Writer) error) ([]string, error) {
	var help bytes.Buffer
	if err := run(ctx, []string{"-h"}, io.Discard, &help); !errors.Is(err, ErrHelp) {
		return nil, fmt.Errorf("-h did not print the help: %v", err)
	}
	var flags []string
	for _, m := range helpFlag.FindAllStringSubmatch(help.String(), -1) {
		flags = append(flags, "--"+m[1])
	}
	return flags, nil
}

// WriteBashCompletion writes the bash completion script of program at version, made from
// its commands themselves: their names, subcommands and flags, as their -h lists them.
// The program's own "completion" command is completed with "bash", the shell the script
// is for; "help" completes with the commands and their subcommands.
func WriteBashCompletion(ctx context.Context, w io.Writer, program, version string, cmds []Subcommand) error {
	var subsCases, flagCases strings.Builder
	var names, example []string
	addFlags := func(key string, run func(context.Context, []string, io.Writer, io.Writer) error) error {
		flags, err := commandFlags(ctx, run)
		if err != nil {
			return fmt.Errorf("%s %s: %w", program, key, err)
		}
		if len(flags) > 0 {
			fmt.Fprintf(&flagCases, "\t%q) echo %q ;;\n", key, strings.Join(flags, " "))
		}
		return nil
	}
	var plain, nested string // the examples of the script's comment
	for _, c := range cmds {
		names = append(names, c.Name)
		if len(c.Subcommands) == 0 {
			if plain == "" {
				plain = c.Name
			}
			if err := addFlags(c.Name, c.Run); err != nil {
				return err
			}
			continue
		}
		var subs []string
		for _, s := range c.Subcommands {
			subs = append(subs, s.Name)
			if err := addFlags(c.Name+" "+s.Name, s.Run); err != nil {
				return err
			}
		}
		if nested == "" {
			nested = c.Name + " " + c.Subcommands[0].Name
		}
		fmt.Fprintf(&subsCases, "\t%s) echo %q ;;\n", c.Name, strings.Join(subs, " "))
	}
	fmt.Fprintf(&subsCases, "\tcompletion) echo bash ;;\n")
	for _, e := range []string{plain, nested} {
		if e != "" {
			example = append(example, fmt.Sprintf("%q", e))
		}
	}
	return bashCompletion.Execute(w, map[string]string{
		"Prog": program, "Version": version, "Commands": strings.Join(names, " "),
		"Subs": subsCases.String(), "Flags": flagCases.String(), "Example": strings.Join(example, ", "),
	})
}

// bashCompletion is the script's text: the version, the commands, then the case arms of
// _PROG_subs and _PROG_flags.
var bashCompletion = template.Must(template.New("bash").Parse(`# bash completion for {{.Prog}} {{.Version}}, printed by '{{.Prog}} completion bash'.
# Load it with: source <({{.Prog}} completion bash)

_{{.Prog}}_commands="{{.Commands}}"

# _{{.Prog}}_subs prints the subcommands of command $1.
_{{.Prog}}_subs() {
	case $1 in
{{.Subs}}	esac
}

# _{{.Prog}}_flags prints the flags of command $1 ({{.Example}}).
_{{.Prog}}_flags() {
	case $1 in
{{.Flags}}	esac
}

_{{.Prog}}() {
	local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]} subs words=""
	COMPREPLY=()
	if ((COMP_CWORD == 1)); then
		words="$_{{.Prog}}_commands help"
	elif [[ $cmd == help ]]; then
		if ((COMP_CWORD == 2)); then
			words=$_{{.Prog}}_commands
		elif ((COMP_CWORD == 3)); then
			words=$(_{{.Prog}}_subs "${COMP_WORDS[2]}")
		fi
	else
		subs=$(_{{.Prog}}_subs "$cmd")
		if [[ -n $subs ]] && ((COMP_CWORD == 2)); then
			words=$subs
		elif [[ $cur == -* ]]; then
			if [[ -n $subs ]]; then
				words=$(_{{.Prog}}_flags "$cmd ${COMP_WORDS[2]}")
			else
				words=$(_{{.Prog}}_flags "$cmd")
			fi
		fi
	fi
	if [[ -n $words ]]; then
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
	fi
}

complete -o default -F _{{.Prog}} {{.Prog}}
`))
