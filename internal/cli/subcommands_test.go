package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestRunSubcommand(t *testing.T) {
	var ran []string
	subs := []Subcommand{
		{Name: "add", Summary: "add one", Run: func(_ context.Context, args []string, _, stderr io.Writer) error {
			fs := NewFlagSet("arena creds add", "NAME", stderr)
			if err := fs.ParseArgs(args, 1); err != nil {
				return err
			}
			ran = append(ran, fs.Arg(0))
			return nil
		}},
		{Name: "remove", Summary: "remove one", Run: func(context.Context, []string, io.Writer, io.Writer) error {
			return fmt.Errorf("no such thing")
		}},
	}
	tests := []struct {
		args     []string
		wantErr  string // "help": ErrHelp; "usage: ...": a UsageError containing it; else the error's text
		wantPath string // the InCommand's path, if any
		wantHelp string // the start of what stderr shows
	}{
		{args: []string{"add", "x"}},
		{args: nil, wantErr: "usage: want a subcommand: add or remove"},
		{args: []string{"ad"}, wantErr: `usage: unknown subcommand "ad"; did you mean 'add'?`},
		{args: []string{"zap"}, wantErr: `usage: unknown subcommand "zap": want add or remove`},
		{args: []string{"remove"}, wantErr: "no such thing", wantPath: "arena creds remove"},
		{args: []string{"add"}, wantErr: "usage: want 1 argument(s), got 0", wantPath: "arena creds add"},
		{args: []string{"--help"}, wantErr: "help", wantHelp: "Usage: arena creds SUBCOMMAND [flags]\n\nSubcommands:\n  add     add one\n  remove  remove one\n\nRun 'arena creds SUBCOMMAND -h' for its flags.\n"},
		{args: []string{"help", "add"}, wantErr: "help", wantPath: "arena creds add", wantHelp: "Usage: arena creds add NAME\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stderr bytes.Buffer
			err := RunSubcommand(context.Background(), "arena creds", subs, tt.args, io.Discard, &stderr)
			var in InCommand
			if errors.As(err, &in) != (tt.wantPath != "") || in.Path != tt.wantPath {
				t.Errorf("err %v: path %q, want %q", err, in.Path, tt.wantPath)
			}
			switch msg, usage := strings.CutPrefix(tt.wantErr, "usage: "); {
			case tt.wantErr == "":
				if err != nil {
					t.Fatal(err)
				}
			case tt.wantErr == "help":
				if !errors.Is(err, ErrHelp) || stderr.String() != tt.wantHelp {
					t.Errorf("err %v, stderr %q; want ErrHelp and %q", err, stderr.String(), tt.wantHelp)
				}
			case err == nil || err.Error() != msg || errors.As(err, new(UsageError)) != usage:
				t.Errorf("err %v, want %q (a usage error: %v)", err, msg, usage)
			}
		})
	}
	if len(ran) != 1 || ran[0] != "x" {
		t.Errorf("add ran with %q, want once with x", ran)
	}
}

func TestJoinOr(t *testing.T) {
	tests := []struct {
		words []string
		want  string
	}{
		{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a or b"}, {[]string{"a", "b", "c"}, "a, b or c"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := JoinOr(tt.words); got != tt.want {
				t.Errorf("JoinOr(%q) = %q, want %q", tt.words, got, tt.want)
			}
		})
	}
}
