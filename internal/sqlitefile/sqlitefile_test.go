package sqlitefile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPrepare(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.db")
	if created, err := Prepare(path); err != nil || !created {
		t.Fatalf("first Prepare = %v, %v; want created", created, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the new file: %v, %v; want mode 0600", fi.Mode(), err)
	}
	if created, err := Prepare(path); err != nil || created {
		t.Fatalf("second Prepare = %v, %v; want an existing file", created, err)
	}
	for name, bad := range map[string]string{
		"a directory":         dir,
		"under a file":        filepath.Join(path, "b.db"),
		"in a missing folder": filepath.Join(dir, "no", "c.db"),
	} {
		if _, err := Prepare(bad); err == nil {
			t.Errorf("%s: Prepare(%s) succeeded", name, bad)
		}
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.WriteFile(path+suffix, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	Remove(path)
	left, _ := filepath.Glob(filepath.Join(dir, "a.db*"))
	if len(left) != 0 {
		t.Errorf("Remove left %v", left)
	}
}

func TestURIPath(t *testing.T) {
	if got, want := URIPath("/x/50% off?#.db"), "/x/50%25 off%3f%23.db"; got != want {
		t.Errorf("URIPath = %q, want %q", got, want)
	}
}
