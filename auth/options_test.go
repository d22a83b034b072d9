package auth

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadOptions(t *testing.T) {
	dir := t.TempDir()
	good, _, _ := NewPassword("alice", RolePlayer)
	goodPath := filepath.Join(dir, "good.cred")
	if err := good.WriteFile(goodPath); err != nil {
		t.Fatal(err)
	}
	badPath := filepath.Join(dir, "bad.cred")
	if err := os.WriteFile(badPath, []byte("name = 'x'\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		want    *File
		wantErr string
	}{
		{name: "no path", path: ""},
		{name: "good", path: goodPath, want: &good},
		{name: "missing", path: filepath.Join(dir, "none.cred"), wantErr: "credentials: open "},
		{name: "malformed", path: badPath, wantErr: "credentials " + badPath + ": "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, f, err := ReadOptions(tt.path)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one starting %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (f == nil) != (tt.want == nil) || f != nil && *f != *tt.want || (len(opts) > 0) != (tt.want != nil) {
				t.Errorf("got %v and %d options, want %v", f, len(opts), tt.want)
			}
		})
	}
	if _, _, err := ReadOptions(filepath.Join(dir, "none.cred")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestPlayerName(t *testing.T) {
	tests := []struct {
		role, own, name string
		want            string
		ok              bool
	}{
		{RolePlayer, "alice", "", "alice", true},
		{RolePlayer, "alice", "alice", "alice", true},
		{RolePlayer, "alice", "bob", "bob", false},
		{RoleSpectator, "carol", "", "carol", true},
		{RoleSpectator, "carol", "dave", "dave", true},
	}
	for _, tt := range tests {
		t.Run(tt.role+"/"+tt.own+"/"+tt.name, func(t *testing.T) {
			got, ok := File{Name: tt.own, Role: tt.role}.PlayerName(tt.name)
			if got != tt.want || ok != tt.ok {
				t.Errorf("PlayerName(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
			}
		})
	}
}
