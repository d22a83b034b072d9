package solvetable

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/games/atarigo"
)

func TestReadProblem(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// A ladder: Black to move captures C3.
	ladder := write("ladder.txt", "......./......./......./...X.../.XO..../..X..../....... b target=C3\n")
	untargeted := write("untargeted.txt", "......./......./......./...X.../.XO..../..X..../....... b\n")
	sgf := write("ladder.sgf", "(;GM[1]SZ[7]AB[dd][be][cf]AW[ce]PL[B])")
	junk := write("junk.txt", "not a position")
	large := write("large.txt", strings.Repeat(".", MaxProblemBytes+1))
	tests := []struct {
		name, path, target string
		target0            string // the target string's point, when read
		err                func(error) bool
	}{
		{"text", ladder, "", "C3", nil},
		{"text with its own target named again", ladder, "C3", "C3", nil},
		{"text given a target", untargeted, "C3", "C3", nil},
		{"SGF with a target", sgf, "C3", "C3", nil},
		{"SGF without a target", sgf, "", "", func(err error) bool { return errors.Is(err, ErrNoTarget) }},
		{"another string", ladder, "D4", "", func(err error) bool {
			var te *TargetError
			return errors.As(err, &te) && te.Named == "C3" && te.Err == nil
		}},
		{"not a point", ladder, "Z99", "", func(err error) bool {
			var te *TargetError
			return errors.As(err, &te) && te.Err != nil
		}},
		{"not a position", junk, "", "", func(err error) bool { return strings.Contains(err.Error(), "junk.txt") }},
		{"too large", large, "", "", func(err error) bool { return strings.Contains(err.Error(), "not a problem file") }},
		{"missing", filepath.Join(dir, "missing.txt"), "", "", func(err error) bool { return errors.Is(err, os.ErrNotExist) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := ReadProblem(tt.path, tt.target)
			if tt.err != nil {
				if err == nil || !tt.err(err) {
					t.Errorf("got error %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := atarigo.PointString(st.Target(), st.Size()); got != tt.target0 {
				t.Errorf("target %s, want %s", got, tt.target0)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "set.tsv")
	if err := os.WriteFile(path, []byte(set), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, err := ReadFile(path)
	if err != nil || len(ps) != 2 {
		t.Fatalf("%d problems, %v", len(ps), err)
	}
	bad := filepath.Join(t.TempDir(), "bad.tsv")
	if err := os.WriteFile(bad, []byte("junk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(bad); err == nil || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Errorf("a bad set: %v, want an error naming the file", err)
	}
}
