//go:build linux

package sandbox

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// envReader prints every environment it can read in its sandbox: its pid 1's (bwrap's
// init), its own, and every process's that /proc shows.
const envReader = `for f in /proc/1/environ /proc/self/environ /proc/[0-9]*/environ; do
  echo "== $f"; tr '\0' '\n' <"$f" 2>&1
done`

// TestEnvironmentClean: nothing of the caller's environment, a planted secret in
// particular, reaches a sandbox, neither a build's (Build) nor a run's (Command, started
// as players/engine starts it, with the caller's environment), not even through bwrap's
// own processes.
func TestEnvironmentClean(t *testing.T) {
	requireBwrap(t)
	const secret = "arena-planted-secret-4b1d"
	t.Setenv("ARENA_SECRET", secret)
	tests := []struct {
		name string
		run  func(t *testing.T, cfg Config) string
	}{
		{"build", func(t *testing.T, cfg Config) string {
			out, err := Build(context.Background(), cfg, envReader, 20*time.Second)
			if err != nil {
				t.Fatalf("build: %v\n%s", err, out)
			}
			return string(out)
		}},
		{"run", func(t *testing.T, cfg Config) string {
			argv, err := Command(cfg, []string{"/bin/sh", "-c", envReader})
			if err != nil {
				t.Fatal(err)
			}
			// As engine.Start with Options.Env nil: the caller's environment.
			out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
			if err != nil {
				t.Fatalf("run: %v\n%s", err, out)
			}
			return string(out)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Dir: emptyDir(t), Env: []string{"ENGINE_SETTING=1"}}
			out := tt.run(t, cfg)
			for _, l := range lines(out) {
				if strings.Contains(l, secret) || strings.Contains(l, "ARENA_SECRET") {
					t.Errorf("the caller's environment leaks into the sandbox: %s", l)
				}
			}
			for _, want := range []string{"== /proc/1/environ\nPATH=/usr/local/bin:/usr/bin:/bin\n", "ENGINE_SETTING=1"} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
		})
	}
}
