package cli

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// TestWriteBashCompletion checks the script of a small program: its commands, the
// subcommands and the flags of each, as their help lists them.
func TestWriteBashCompletion(t *testing.T) {
	withFlags := func(command string, flags ...string) func(context.Context, []string, io.Writer, io.Writer) error {
		return func(_ context.Context, args []string, _, stderr io.Writer) error {
			fs := NewFlagSet(command, "", stderr)
			for _, f := range flags {
				fs.Bool(f, false, "a flag")
			}
			return fs.Parse(args)
		}
	}
	cmds := []Subcommand{
		{Name: "run", Run: withFlags("prog run", "fast", "db")},
		{Name: "keys", Subcommands: []Subcommand{{Name: "add", Run: withFlags("prog keys add", "role")}, {Name: "list", Run: withFlags("prog keys list")}}},
		{Name: "completion", Run: withFlags("prog completion")},
	}
	var out bytes.Buffer
	if err := WriteBashCompletion(context.Background(), &out, "prog", "1.2", cmds); err != nil {
		t.Fatal(err)
	}
	script := out.String()
	for _, want := range []string{
		"# bash completion for prog 1.2, printed by 'prog completion bash'.\n",
		"\n_prog_commands=\"run keys completion\"\n",
		"\tkeys) echo \"add list\" ;;\n\tcompletion) echo bash ;;\n\tesac",
		"# _prog_flags prints the flags of command $1 (\"run\", \"keys add\").\n",
		"\t\"run\") echo \"--db --fast\" ;;\n\t\"keys add\") echo \"--role\" ;;\n\tesac",
		"\ncomplete -o default -F _prog prog\n",
	} {
		if !strings.Contains(script, want) {
			t.Errorf("the script lacks %q:\n%s", want, script)
		}
	}

	broken := []Subcommand{{Name: "bad", Run: func(context.Context, []string, io.Writer, io.Writer) error { return nil }}}
	if err := WriteBashCompletion(context.Background(), io.Discard, "prog", "1.2", broken); err == nil || !strings.Contains(err.Error(), "prog bad: -h did not print the help") {
		t.Errorf("err %v, want one naming the command without help", err)
	}
}
