package cli

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// duration is a value that reads itself from text, for TextFlag.
type duration struct{ time.Duration }

func (d *duration) UnmarshalText(b []byte) (err error) {
	d.Duration, err = time.ParseDuration(string(b))
	return err
}

func TestParseArgs(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		n         int
		wantArgs  []string
		wantRound int
		wantErr   string // "" for none, "help" for ErrHelp, else a UsageError containing it
	}{
		{name: "flags only", args: []string{"--rounds", "3"}, n: 0, wantRound: 3},
		{name: "positionals anywhere", args: []string{"A", "--rounds", "2", "B"}, n: 2, wantArgs: []string{"A", "B"}, wantRound: 2},
		{name: "a bool flag takes no value", args: []string{"--json", "A"}, n: 1, wantArgs: []string{"A"}},
		{name: "after -- stays positional", args: []string{"A", "--", "--rounds"}, n: 2, wantArgs: []string{"A", "--rounds"}},
		{name: "a command line keeps its flags", args: []string{"--rounds", "4", "cmd", "--x"}, n: -1, wantArgs: []string{"cmd", "--x"}, wantRound: 4},
		{name: "unexpected argument", args: []string{"A"}, n: 0, wantErr: `unexpected argument "A"`},
		{name: "too few", args: []string{"A"}, n: 2, wantErr: "want 2 argument(s), got 1"},
		{name: "did you mean", args: []string{"--round", "3"}, n: 0, wantErr: "unknown flag --round; did you mean --rounds?"},
		{name: "bad value", args: []string{"--rounds", "x"}, n: 0, wantErr: `invalid value "x" for flag -rounds`},
		{name: "help", args: []string{"-h"}, n: 0, wantErr: "help"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			fs := NewFlagSet("arena x", "[--rounds N] ARGS", &stderr)
			rounds := fs.Int("rounds", 1, "rounds")
			fs.Bool("json", false, "JSON")
			if tt.wantRound == 0 {
				tt.wantRound = 1
			}
			err := fs.ParseArgs(tt.args, tt.n)
			switch {
			case tt.wantErr == "help":
				if !errors.Is(err, ErrHelp) || !strings.HasPrefix(stderr.String(), "Usage: arena x [--rounds N] ARGS\n\nFlags:\n  -json") {
					t.Errorf("err %v, help %q; want ErrHelp and the usage", err, stderr.String())
				}
			case tt.wantErr != "":
				if !errors.As(err, new(UsageError)) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err %v, want a usage error saying %q", err, tt.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case !slices.Equal(fs.Args(), tt.wantArgs) && len(fs.Args())+len(tt.wantArgs) > 0:
				t.Errorf("args %q, want %q", fs.Args(), tt.wantArgs)
			case *rounds != tt.wantRound:
				t.Errorf("rounds %d, want %d", *rounds, tt.wantRound)
			}
			if tt.wantErr != "help" && stderr.Len() > 0 {
				t.Errorf("printed %q without being asked", stderr.String())
			}
		})
	}
}

// TestHelpWithoutFlags checks that a command without flags has no Flags section.
func TestHelpWithoutFlags(t *testing.T) {
	var stderr bytes.Buffer
	if err := NewFlagSet("arena version", "", &stderr).Parse([]string{"--help"}); !errors.Is(err, ErrHelp) {
		t.Fatalf("err %v, want ErrHelp", err)
	}
	if got := stderr.String(); got != "Usage: arena version\n" {
		t.Errorf("help %q", got)
	}
}

func TestSplitList(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""}, {"a", "a"}, {" a , b,,c ", "a|b|c"}, {",", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := strings.Join(SplitList(tt.in), "|"); got != tt.want {
				t.Errorf("SplitList(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestTextFlag checks that a TextFlag sets its value and shows the default it had when
// defined in the help.
func TestTextFlag(t *testing.T) {
	var stderr bytes.Buffer
	d := duration{5 * time.Second}
	fs := NewFlagSet("arena x", "", &stderr)
	fs.Var(TextFlag{V: &d}, "wait", "how long to wait")
	if err := fs.Parse([]string{"--wait", "2m"}); err != nil || d.Duration != 2*time.Minute {
		t.Fatalf("err %v, wait %v; want 2m", err, d.Duration)
	}
	if err := fs.Parse([]string{"--wait", "soon"}); !errors.As(err, new(UsageError)) {
		t.Errorf("err %v, want a usage error", err)
	}
	_ = fs.Parse([]string{"-h"})
	if !strings.Contains(stderr.String(), "(default 5s)") {
		t.Errorf("help %q lacks the default", stderr.String())
	}
}

func TestLoggerLevel(t *testing.T) {
	for _, level := range []string{"", "loud"} {
		t.Run(level, func(t *testing.T) {
			if _, err := NewLogger(&bytes.Buffer{}, level); !errors.As(err, new(UsageError)) {
				t.Errorf("err %v, want a usage error", err)
			}
		})
	}
	var buf bytes.Buffer
	log, err := NewLiveLogger(&buf, nil, "warn")
	if err != nil {
		t.Fatal(err)
	}
	log.Info().Msg("quiet")
	log.Warn().Msg("loud")
	if s := buf.String(); strings.Contains(s, "quiet") || !strings.Contains(s, `"message":"loud"`) {
		t.Errorf("log %q: want the warning only, as JSON", s)
	}
}

func TestPositionalsLast(t *testing.T) {
	fs := NewFlagSet("arena match", "A B", io.Discard)
	fs.String("tc", "100ms", "")
	fs.Int("games", 2, "")
	fs.Bool("auth", false, "")
	tests := []struct {
		name string
		args []string
		want []string // the positional arguments after parsing
	}{
		{"players first", []string{"a", "b", "--tc", "10ms"}, []string{"a", "b"}},
		{"players last", []string{"--tc", "10ms", "a", "b"}, []string{"a", "b"}},
		{"one on each side of a flag", []string{"a", "--tc", "10ms", "b"}, []string{"a", "b"}},
		{"after a boolean flag", []string{"--auth", "a", "b"}, []string{"a", "b"}},
		{"value with =", []string{"a", "--games=4", "b"}, []string{"a", "b"}},
		{"single dash", []string{"a", "-tc", "10ms", "b", "-games", "4"}, []string{"a", "b"}},
		{"after --", []string{"--tc", "1s", "--", "-a", "b"}, []string{"-a", "b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := fs.ParseArgs(tc.args, 2); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(fs.Args(), tc.want) {
				t.Errorf("positional %q, want %q", fs.Args(), tc.want)
			}
		})
	}
}
