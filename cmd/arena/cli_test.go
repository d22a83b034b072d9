package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/internal/cli"
)

// TestUsageSummaries checks what arena --help says of commands whose scope has grown.
func TestUsageSummaries(t *testing.T) {
	code, _, stderr := runCLI(t, "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	tests := []struct{ command, want string }{
		{"train", "Othello, checkers or give-away checkers"},
		{"completion", "arena completion bash"},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			for _, line := range strings.Split(stderr, "\n") {
				if f := strings.Fields(line); len(f) > 0 && f[0] == tt.command {
					if !strings.Contains(line, tt.want) {
						t.Errorf("%q does not say %q", line, tt.want)
					}
					return
				}
			}
			t.Errorf("no %s in the usage:\n%s", tt.command, stderr)
		})
	}
}

// command is arena's command called name.
func command(name string) (cli.Subcommand, bool) {
	for _, c := range commands() {
		if c.Name == name {
			return c, true
		}
	}
	return cli.Subcommand{}, false
}

// runCommand runs arena's command name with args, as arena does, and returns its error.
func runCommand(ctx context.Context, name string, args []string, stdout, stderr io.Writer) error {
	c, ok := command(name)
	if !ok {
		return fmt.Errorf("no command %s", name)
	}
	return c.Exec(ctx, "arena", args, stdout, stderr)
}

// commandPaths lists every command and subcommand: "tournament", "credentials add".
func commandPaths() []string {
	var paths []string
	for _, c := range commands() {
		paths = append(paths, c.Name)
		for _, s := range c.Subcommands {
			paths = append(paths, c.Name+" "+s.Name)
		}
	}
	return paths
}

// TestHelpEverywhere checks that every command and subcommand answers -h, --help and
// "arena help ..." alike: its usage on stderr, exit 0, nothing on stdout.
func TestHelpEverywhere(t *testing.T) {
	for _, path := range commandPaths() {
		words := strings.Fields(path)
		for _, args := range [][]string{
			append(append([]string{}, words...), "-h"),
			append(append([]string{}, words...), "--help"),
			append([]string{"help"}, words...),
		} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, stdout, stderr := runCLI(t, args...)
				if code != 0 || stdout != "" || !(strings.HasPrefix(stderr, "Usage: arena "+path+" ") || strings.HasPrefix(stderr, "Usage: arena "+path+"\n")) {
					t.Errorf("exit %d, stdout %q, stderr %q; want 0 and the usage of arena %s", code, stdout, stderr, path)
				}
				if c, ok := command(path); ok {
					for _, s := range c.Subcommands {
						if !strings.Contains(stderr, "\n  "+s.Name+" ") {
							t.Errorf("the help of %s does not list %s:\n%s", path, s.Name, stderr)
						}
					}
				}
			})
		}
	}
}

// TestCompletionBash checks the bash completion script: it names every command, and the
// flags of tournament; then bash itself completes command lines with it.
func TestCompletionBash(t *testing.T) {
	code, script, stderr := runCLI(t, "completion", "bash")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var listed []string
	for _, line := range strings.Split(script, "\n") {
		if v, ok := strings.CutPrefix(line, "_arena_commands="); ok {
			listed = strings.Fields(strings.Trim(v, `"`))
		}
	}
	for _, c := range commands() {
		if !slices.Contains(listed, c.Name) {
			t.Errorf("the script's commands %v lack %s", listed, c.Name)
		}
	}
	var tournamentFlags []string
	if m := regexp.MustCompile(`(?m)^\t"tournament"\) echo "([^"]*)" ;;$`).FindStringSubmatch(script); m != nil {
		tournamentFlags = strings.Fields(m[1])
	}
	// Every flag tournament -h lists, among them these.
	_, _, help := runCLI(t, "tournament", "-h")
	want := []string{"--players", "--rounds", "--tc", "--db", "--config", "--resume", "--game", "--seed", "--json"}
	for _, line := range strings.Split(help, "\n") {
		if name, ok := strings.CutPrefix(line, "  -"); ok {
			want = append(want, "--"+strings.Fields(name)[0])
		}
	}
	for _, f := range want {
		if !slices.Contains(tournamentFlags, f) {
			t.Errorf("tournament's flags in the script %v lack %s", tournamentFlags, f)
		}
	}

	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "arena.bash")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line string // the words typed, the last one being completed
		want string // COMPREPLY, sorted, space-separated
	}{
		{"arena tour", "tournament"},
		{"arena c", "cancel capture-problems check-engine completion course credentials"},
		{"arena tournament --rou", "--rounds"},
		{"arena tournament --pl", "--players"},
		{"arena credentials ", "add export list remove"},
		{"arena credentials add --ro", "--role"},
		{"arena ipd simulate --tr", "--trials"},
		{"arena experience r", "run"},
		{"arena help ipd ", "simulate"},
		{"arena help tourn", "tournament"},
		{"arena completion ", "bash"},
		{"arena perft --", "--count --depth --game --position"},
		{"arena tournament --game oth", ""}, // a flag's value: left to bash's defaults
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			words := strings.Split(tt.line, " ")
			quoted := make([]string, len(words))
			for i, w := range words {
				quoted[i] = "'" + w + "'"
			}
			prog := fmt.Sprintf("source %q; COMP_WORDS=(%s); COMP_CWORD=%d; _arena; printf '%%s\\n' \"${COMPREPLY[@]}\" | sort | tr '\\n' ' '",
				path, strings.Join(quoted, " "), len(words)-1)
			out, err := exec.Command(bash, "-c", prog).CombinedOutput()
			if err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if got := strings.TrimSpace(string(out)); got != tt.want {
				t.Errorf("completing %q: %q, want %q", tt.line, got, tt.want)
			}
		})
	}
}
