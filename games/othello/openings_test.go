package othello_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/games/othello"
)

var update = flag.Bool("update", false, "rewrite the shipped opening set from the generator")

// shippedPlies is the depth of the shipped opening set: the smallest with at least a
// hundred positions once folded by symmetry (1, 3, 14, 60, 322, 1773 positions after 1 to
// 6 plies).
const shippedPlies = 5

var shippedFile = filepath.Join("openings", "othello-5ply.txt")

// TestShippedOpenings checks that the shipped set is exactly what the generator writes, so
// the command in its header regenerates it. Run with -update after changing the generator.
func TestShippedOpenings(t *testing.T) {
	g := othello.New()
	ops, err := opening.Generate(g, shippedPlies)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := opening.Write(&want, opening.GeneratedHeader(g, shippedPlies, len(ops)), ops); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(shippedFile, want.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(shippedFile)
	if err != nil {
		t.Fatalf("%v (run go test -run TestShippedOpenings -update to create it)", err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("%s differs from the generator's output; regenerate it with go test -run TestShippedOpenings -update", shippedFile)
	}
	// The shipped file must also stand on its own as an openings file.
	back, err := opening.Parse(bytes.NewReader(got), g)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 322 {
		t.Errorf("%d openings, want 322", len(back))
	}
}
