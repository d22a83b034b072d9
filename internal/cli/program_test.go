package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestProgramRun(t *testing.T) {
	greet := func(_ context.Context, args []string, stdout, stderr io.Writer) error {
		fs := NewFlagSet("demo greet", "[--loud]", stderr)
		loud := fs.Bool("loud", false, "shout")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if *loud {
			_, err := io.WriteString(stdout, "HELLO\n")
			return err
		}
		_, err := io.WriteString(stdout, "hello\n")
		return err
	}
	fail := func(context.Context, []string, io.Writer, io.Writer) error { return errors.New("disk full") }
	p := Program{Name: "demo", Summary: "a demonstration", Footer: "the end", Commands: []Subcommand{
		{Name: "greet", Summary: "say hello", Run: greet},
		{Name: "fail", Summary: "fail", Run: fail},
		{Name: "keys", Summary: "key tools", Subcommands: []Subcommand{
			{Name: "make", Summary: "make a key", Run: greet},
			{Name: "break", Summary: "break a key", Run: fail},
		}},
	}}
	tests := []struct {
		args           []string
		code           int
		stdout, stderr string // stderr: a part of it
	}{
		{nil, 2, "", "demo: a demonstration\n\nUsage: demo COMMAND [flags]"},
		{[]string{"help"}, 0, "", "  greet         say hello\n"},
		{[]string{"--help"}, 0, "", "\nthe end\n"},
		{[]string{"greet"}, 0, "hello\n", ""},
		{[]string{"greet", "--loud"}, 0, "HELLO\n", ""},
		{[]string{"help", "greet"}, 0, "", "Usage: demo greet [--loud]"},
		{[]string{"greet", "--quiet"}, 2, "", "(see 'demo greet -h')"},
		{[]string{"fail"}, 1, "", "demo fail: disk full\n"},
		{[]string{"gret"}, 2, "", `demo: unknown command "gret"; did you mean 'greet'? (see 'demo help')`},
		{[]string{"keys"}, 2, "", "demo keys: want a subcommand: make or break (see 'demo keys -h')"},
		{[]string{"keys", "break"}, 1, "", "demo keys break: disk full\n"},
		{[]string{"help", "keys"}, 0, "", "Usage: demo keys SUBCOMMAND"},
		{[]string{"keys", "make", "--loud"}, 0, "HELLO\n", ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := p.Run(context.Background(), tt.args, &stdout, &stderr)
			if code != tt.code || stdout.String() != tt.stdout || !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q and a stderr with %q", code, stdout.String(), stderr.String(), tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}
