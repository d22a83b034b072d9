package archive

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFiles: an engine's directory with a link, a FIFO or a socket is refused,
// and so is a manifest that is one, without blocking on a FIFO.
func TestSpecialFiles(t *testing.T) {
	tests := []struct {
		name string
		make func(t *testing.T, path string) // makes the manifest at path
		want string                          // in the error; "" for none
	}{
		{"regular", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("protocol = \"line\"\nrun = \"./engine\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, ""},
		{"fifo", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "arena.toml is a FIFO (named pipe)"},
		{"link outside", func(t *testing.T, path string) {
			if err := os.Symlink("/etc/passwd", path); err != nil {
				t.Fatal(err)
			}
		}, "arena.toml is a symbolic link"},
		{"link inside", func(t *testing.T, path string) {
			other := filepath.Join(filepath.Dir(path), "other.toml")
			if err := os.WriteFile(other, []byte("protocol = \"line\"\nrun = \"./engine\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("other.toml", path); err != nil {
				t.Fatal(err)
			}
		}, "arena.toml is a symbolic link"},
		{"socket", func(t *testing.T, path string) {
			l, err := net.Listen("unix", path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { l.Close() })
		}, "arena.toml is a socket"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.make(t, filepath.Join(dir, ManifestName))
			check := func(what string, err error) {
				t.Helper()
				switch {
				case tt.want == "" && err != nil:
					t.Errorf("%s: %v", what, err)
				case tt.want != "" && (!errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tt.want)):
					t.Errorf("%s: %v, want ErrRefused with %q", what, err, tt.want)
				}
			}
			check("CheckDir", CheckDir(dir))
			done := make(chan error, 1)
			go func() {
				_, err := ReadManifest(dir, []string{"line"})
				done <- err
			}()
			select {
			case err := <-done:
				check("ReadManifest", err)
			case <-time.After(5 * time.Second):
				t.Fatal("ReadManifest blocks")
			}
		})
	}
}
