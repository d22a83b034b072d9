package captureset

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// committed is the set made with the defaults and committed with the code.
const committed = "testdata/gnugo-problems.tsv"

// TestCommittedSet reads the committed set: every record keeps the set's promises, the
// counts in its header are the records', and the header's command is the defaults'.
func TestCommittedSet(t *testing.T) {
	data, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := ReadProblems(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if want := "# Made by: " + (Config{}).Command("lab/captureset/testdata/gnugo-problems.tsv") + "\n"; !strings.Contains(string(data), want) {
		t.Errorf("the header does not say %q", want)
	}
	count := map[string]int{}
	for _, p := range ps {
		n := p.Position.Board.Size()
		count[fmt.Sprintf("%dx%d %s", n, n, p.Kind)]++
	}
	for _, n := range DefaultSizes {
		a, d := count[fmt.Sprintf("%dx%d attack", n, n)], count[fmt.Sprintf("%dx%d defend", n, n)]
		if a == 0 || d == 0 {
			t.Errorf("%dx%d: %d attack and %d defence problems", n, n, a, d)
		}
		if want := fmt.Sprintf(" %dx%d %d attack + %d defend from ", n, n, a, d); !strings.Contains(string(data), want) {
			t.Errorf("the header does not count %q", want)
		}
	}
	if want := fmt.Sprintf("# %d problems: ", len(ps)); !strings.Contains(string(data), want) {
		t.Errorf("the header does not say %q", want)
	}
}

// TestCommittedSetVerifies replays GNU Go's move of every committed problem on the
// position set up from its text: GNU Go must still agree that it succeeds (a newer GNU
// Go that reads differently shows here).
func TestCommittedSetVerifies(t *testing.T) {
	e := startGNUGo(t)
	f, err := os.Open(committed)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps, err := ReadProblems(f)
	if err != nil {
		t.Fatal(err)
	}
	v := NewVerifier(e)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, p := range ps {
		verdict, err := v.Check(ctx, p, p.Move)
		if err != nil {
			t.Fatal(err)
		}
		if verdict != Works {
			t.Errorf("%s: GNU Go's move %v %v", p.ID, p.Move, verdict)
		}
	}
}
