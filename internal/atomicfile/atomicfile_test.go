package atomicfile_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/internal/atomicfile"
)

func TestWrite(t *testing.T) {
	boom := errors.New("boom")
	writeText := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	tests := []struct {
		name    string
		old     string // the file's text before, "" for no file
		path    string // relative to the test's directory
		write   func(io.Writer) error
		want    string // the file's text after
		wantErr error  // nil for success; otherwise errors.Is must hold
	}{
		{"new file", "", "f.txt", writeText("new"), "new", nil},
		{"replaces a longer file whole", "an old and long text", "f.txt", writeText("new"), "new", nil},
		{"dot file", "", ".f", writeText("new"), "new", nil},
		{"write fails half way", "old", "f.txt", func(w io.Writer) error {
			if _, err := io.WriteString(w, "half"); err != nil {
				return err
			}
			return boom
		}, "old", boom},
		{"no such directory", "", filepath.Join("nowhere", "f.txt"), writeText("new"), "", os.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir) // relative paths: the temporary file goes to "."
			if tt.old != "" {
				if err := os.WriteFile(tt.path, []byte(tt.old), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := atomicfile.Write(tt.path, tt.write)
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("Write = %v", err)
			case tt.wantErr != nil && (!errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.path)):
				t.Fatalf("Write = %v, want an error naming %s and wrapping %v", err, tt.path, tt.wantErr)
			}
			got, rerr := os.ReadFile(tt.path)
			if string(got) != tt.want || (tt.want != "" && rerr != nil) {
				t.Errorf("the file holds %q (%v), want %q", got, rerr, tt.want)
			}
			if tt.wantErr == nil {
				if fi, err := os.Stat(tt.path); err != nil || fi.Mode().Perm() != 0o644 {
					t.Errorf("the file's mode: %v, %v; want 0644", fi.Mode(), err)
				}
			}
			var names []string
			ents, err := os.ReadDir(".")
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ents {
				names = append(names, e.Name())
			}
			if want := filepath.Base(tt.path); tt.want != "" && !slices.Equal(names, []string{want}) || tt.want == "" && len(names) != 0 {
				t.Errorf("the directory holds %q: a temporary file left behind?", names)
			}
		})
	}
}
