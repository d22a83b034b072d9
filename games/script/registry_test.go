package script_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
)

// TestEnvGames checks that a process finds the games ARENA_GAMES names, files and
// directories, and that a broken file there says why its game is missing.
func TestEnvGames(t *testing.T) {
	src, err := os.ReadFile("../../docs/examples/tictactoe.star")
	if err != nil {
		t.Fatal(err)
	}
	rename := func(name string) []byte {
		return []byte(strings.Replace(string(src), `name = "tictactoe"`, `name = "`+name+`"`, 1))
	}
	dir := t.TempDir()
	sub := filepath.Join(dir, "more")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for path, data := range map[string][]byte{
		filepath.Join(dir, "envfile.star"):   rename("envfile"),
		filepath.Join(sub, "envdir.star"):    rename("envdir"),
		filepath.Join(sub, "notes.txt"):      []byte("not a game"),
		filepath.Join(dir, "envbroken.star"): []byte("name = \"envbroken\"\ndef status(s):\n    return (0, [1]\n"),
	} {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := game.Lookup("envfile"); !errors.Is(err, game.ErrUnknownGame) {
		t.Fatalf("before %s is set: Lookup(envfile) = %v, want an unknown game", game.EnvFiles, err)
	}
	t.Setenv(game.EnvFiles, strings.Join([]string{filepath.Join(dir, "envfile.star"), "", sub}, string(os.PathListSeparator)))
	for _, name := range []string{"envfile", "envdir"} {
		g, err := game.Lookup(name)
		if err != nil {
			t.Fatalf("Lookup(%s) with %s set: %v", name, game.EnvFiles, err)
		}
		if g.Name() != name || len(g.NewState().LegalMoves(0, nil)) != 9 {
			t.Errorf("Lookup(%s) gave %s with %d first moves", name, g.Name(), len(g.NewState().LegalMoves(0, nil)))
		}
	}
	if _, err := game.Lookup("envfile:size=3"); !errors.Is(err, game.ErrBadGameOption) {
		t.Errorf("an option the file does not take: %v, want a bad option", err)
	}
	t.Setenv(game.EnvFiles, strings.Join([]string{filepath.Join(dir, "envbroken.star"), filepath.Join(dir, "missing.star"), filepath.Join(sub, "notes.txt")}, string(os.PathListSeparator)))
	_, err = game.Lookup("envbroken")
	if !errors.Is(err, game.ErrUnknownGame) {
		t.Fatalf("a broken file: %v, want an unknown game", err)
	}
	for _, want := range []string{"ARENA_GAMES", "envbroken.star:4", "missing.star", "notes.txt: not a game file (.star)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
}

// TestFile checks which specs name game files.
func TestFile(t *testing.T) {
	for spec, want := range map[string]string{
		"./quoridor.star:walls=8": "./quoridor.star",
		"/x/y.star":               "/x/y.star",
		"quoridor":                "",
		"othello:size=6":          "",
		"notes.txt":               "",
		":size=3":                 "",
	} {
		if got := game.File(spec); got != want {
			t.Errorf("File(%q) = %q, want %q", spec, got, want)
		}
	}
}

// TestCopies: a copy of a game file at another path is the same game (a course keeps a
// copy of the teacher's file); another file with the same name is refused.
func TestCopies(t *testing.T) {
	src, err := os.ReadFile("../../docs/examples/tictactoe.star")
	if err != nil {
		t.Fatal(err)
	}
	same := []byte(strings.Replace(string(src), `name = "tictactoe"`, `name = "copied"`, 1))
	edited := append(append([]byte{}, same...), "\n# edited\n"...)
	dir := t.TempDir()
	for _, f := range []struct {
		name string
		data []byte
		ok   bool
	}{{"a.star", same, true}, {"b.star", same, true}, {"c.star", edited, false}} {
		path := filepath.Join(dir, f.name)
		if err := os.WriteFile(path, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := game.Lookup(path)
		if f.ok && (err != nil || g.Name() != "copied") {
			t.Errorf("%s: %v, want the game copied", f.name, err)
		}
		if !f.ok && (err == nil || !strings.Contains(err.Error(), "taken")) {
			t.Errorf("%s, an edited file with a taken name: %v, want it refused", f.name, err)
		}
	}
}
