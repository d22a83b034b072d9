package host

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	at "github.com/arenaref/arena/players/hosting/archive/archivetest"
)

// buildArchive is the sh engine of shArchive with a build command.
func buildArchive(t *testing.T, build string) []byte {
	return at.TarGz(t,
		at.Member{Name: "arena.toml", Body: at.Manifest("line", build, "sh engine.sh") + "game = \"othello\"\n"},
		at.Member{Name: "engine.sh", Body: shEngine},
	)
}

// stopsWithin stops a host and fails the test if that takes longer than d.
func stopsWithin(t *testing.T, stop func(), d time.Duration) {
	t.Helper()
	done := make(chan struct{})
	go func() { stop(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("the host did not stop within %v", d)
	}
}

// TestHostRefusesSpecialFiles: a build that leaves a link or a special file in its
// directory, its manifest in particular, fails with the reason, and the host neither
// hangs on a FIFO nor reads through a link; it stops at once when told.
func TestHostRefusesSpecialFiles(t *testing.T) {
	tests := []struct {
		name, build, want string
	}{
		{"fifo manifest", "rm arena.toml && mkfifo arena.toml", "arena.toml is a FIFO"},
		{"link manifest", "rm arena.toml && ln -s /etc/passwd arena.toml", "arena.toml is a symbolic link"},
		{"fifo", "mkfifo pipe", "pipe is a FIFO"},
		{"link", "mkdir d && ln -s ../engine.sh d/run", "d/run is a symbolic link"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBench(t)
			stop := b.host(t.TempDir())
			b.submit("mallory", buildArchive(t, tt.build))
			evs := b.expect("mallory", "s1 submitted", "s1 building", "s1 build_failed")
			if log := evs[2].Log; !strings.Contains(log, tt.want) {
				t.Errorf("build_failed log %q, want %q", log, tt.want)
			}
			stopsWithin(t, stop, 5*time.Second)
		})
	}
}

// TestHostRestartFIFOManifest: a host that restarts onto an engine's directory whose
// manifest became a FIFO after its build neither hangs nor runs it: it builds the
// version again from its archive, and stops at once when told.
func TestHostRestartFIFOManifest(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "mallory", "s1", "arena.toml")
	b := newBench(t)
	stop := b.host(dir)
	b.submit("mallory", shArchive(t, ""))
	b.expect("mallory", "s1 submitted", "s1 building", "s1 built", "s1 running")
	stop()
	b.expect("mallory", "s1 stopped")
	// As a build could before the host checked what builds leave: a FIFO manifest.
	if out, err := exec.Command("sh", "-c", `rm "$1" && mkfifo "$1"`, "sh", manifest).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	stop = b.host(dir)
	b.expect("mallory", "s1 building", "s1 built", "s1 running")
	b.plays("mallory", "s1")
	stopsWithin(t, stop, 5*time.Second)
}
