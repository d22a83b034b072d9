package opening_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/testutil/testgame"
)

// moves splits "1 1 2" into its moves.
func moves(s string) []string { return strings.Fields(s) }

func movesOf(ops []opening.Opening) []string {
	out := make([]string, len(ops))
	for i, o := range ops {
		out[i] = o.String()
	}
	return out
}

func TestGenerateCount(t *testing.T) {
	// With target T, the counter after p plies is any of p..2p; the counts that reach T
	// end the game and are left out. The first sequence in depth-first order to count c
	// is 2p-c ones followed by c-p twos, since "1" sorts before "2".
	tests := []struct {
		target, plies int
		want          []string
	}{
		{10, 1, []string{"1", "2"}},
		{10, 2, []string{"1 1", "1 2", "2 2"}},
		{10, 3, []string{"1 1 1", "1 1 2", "1 2 2", "2 2 2"}},
		{10, 5, []string{"1 1 1 1 1", "1 1 1 1 2", "1 1 1 2 2", "1 1 2 2 2", "1 2 2 2 2"}}, // 10 ends the game
		{10, 9, []string{"1 1 1 1 1 1 1 1 1"}},
		{3, 1, []string{"1", "2"}},
		{3, 2, []string{"1 1"}}, // 1+2 and 2+1 reach 3 and end the game
		{2, 1, []string{"1"}},
		{1000, 20, nil}, // 21 counters, 20..40
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("target%d/plies%d", tt.target, tt.plies), func(t *testing.T) {
			ops, err := opening.Generate(testgame.NewCount(tt.target), tt.plies)
			if err != nil {
				t.Fatal(err)
			}
			got := movesOf(ops)
			if tt.want == nil {
				if len(got) != tt.plies+1 {
					t.Fatalf("%d openings, want %d", len(got), tt.plies+1)
				}
				return
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			for _, o := range ops {
				if o.Line != 0 {
					t.Errorf("generated opening has Line %d", o.Line)
				}
			}
		})
	}
}

func TestGenerateErrors(t *testing.T) {
	count := testgame.NewCount(10)
	for _, plies := range []int{-1, 0, opening.MaxPlies + 1} {
		if _, err := opening.Generate(count, plies); !errors.Is(err, opening.ErrLimit) {
			t.Errorf("plies %d: error %v, want ErrLimit", plies, err)
		}
	}
	// Every game of target 10 is over within 10 plies.
	if _, err := opening.Generate(count, 10); !errors.Is(err, opening.ErrEmpty) {
		t.Errorf("plies 10 of testcount: error %v, want ErrEmpty", err)
	}
	pennies, err := game.Lookup("testpennies")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := opening.Generate(pennies, 1); !errors.Is(err, opening.ErrUnsupported) {
		t.Errorf("simultaneous game: error %v, want ErrUnsupported", err)
	}
	// Othello has more than MaxOpenings folded positions after 9 plies.
	if _, err := opening.Generate(othello.New(), 9); !errors.Is(err, opening.ErrLimit) {
		t.Errorf("othello, 9 plies: error %v, want ErrLimit", err)
	}
}

// literal is Generate as its documentation defines it: a full depth-first walk, moves in
// text order, keeping the first sequence found for each key. It is exponential, so only
// for small depths.
func literal(g game.Game, plies int) []string {
	first := map[string]string{}
	var path []string
	var walk func(s game.State)
	walk = func(s game.State) {
		if s.IsTerminal() {
			return
		}
		if len(path) == plies {
			key := s.String()
			if c, ok := s.(opening.Canonicalizer); ok {
				key = c.CanonicalKey()
			}
			if _, ok := first[key]; !ok {
				first[key] = strings.Join(path, " ")
			}
			return
		}
		ms := s.LegalMoves(s.ToMove(), nil)
		sort.Slice(ms, func(i, j int) bool { return s.MoveString(ms[i]) < s.MoveString(ms[j]) })
		for _, m := range ms {
			c := s.Clone()
			if err := c.Play(m); err != nil {
				panic(err)
			}
			path = append(path, s.MoveString(m))
			walk(c)
			path = path[:len(path)-1]
		}
	}
	walk(g.NewState())
	var out []string
	for _, seq := range first {
		out = append(out, seq)
	}
	slices.SortFunc(out, func(a, b string) int { return slices.Compare(moves(a), moves(b)) })
	return out
}

func TestGenerateMatchesDepthFirstWalk(t *testing.T) {
	games := []struct {
		g        game.Game
		maxPlies int
	}{
		{testgame.NewCount(7), 6},
		{othello.New(), 6},
	}
	for _, tt := range games {
		for plies := 1; plies <= tt.maxPlies; plies++ {
			ops, err := opening.Generate(tt.g, plies)
			if err != nil {
				t.Fatalf("%s, %d plies: %v", tt.g.Name(), plies, err)
			}
			if got, want := movesOf(ops), literal(tt.g, plies); !slices.Equal(got, want) {
				t.Fatalf("%s, %d plies: Generate gives %d openings, the depth-first walk %d\n got %q\nwant %q",
					tt.g.Name(), plies, len(got), len(want), got, want)
			}
		}
	}
}

func TestGenerateOthello(t *testing.T) {
	// Folded positions after 1 to 6 plies; the four first moves are one position.
	want := []int{1, 3, 14, 60, 322, 1773}
	for i, n := range want {
		plies := i + 1
		ops, err := opening.Generate(othello.New(), plies)
		if err != nil {
			t.Fatal(err)
		}
		if len(ops) != n {
			t.Errorf("%d plies: %d openings, want %d", plies, len(ops), n)
		}
		// The set reads back through Parse, and no two openings reach images of one position.
		var buf bytes.Buffer
		if err := opening.Write(&buf, opening.GeneratedHeader(othello.New(), plies, len(ops)), ops); err != nil {
			t.Fatal(err)
		}
		back, err := opening.Parse(&buf, othello.New())
		if err != nil {
			t.Fatalf("%d plies: generated set does not parse: %v", plies, err)
		}
		if !slices.Equal(movesOf(back), movesOf(ops)) {
			t.Fatalf("%d plies: set changed through Write and Parse", plies)
		}
		keys := map[string]string{}
		for _, o := range ops {
			s := othello.NewState()
			for _, m := range o.Moves {
				mv, _ := s.ParseMove(m)
				if err := s.Play(mv); err != nil {
					t.Fatal(err)
				}
			}
			k := s.CanonicalKey()
			if prev, dup := keys[k]; dup {
				t.Fatalf("%q and %q reach symmetric positions", prev, o.String())
			}
			keys[k] = o.String()
		}
	}
	ops, _ := opening.Generate(othello.New(), 2)
	if got, want := movesOf(ops), []string{"c4 c3", "c4 c5", "c4 e3"}; !slices.Equal(got, want) {
		t.Errorf("2 plies: %q, want %q (diagonal, parallel, perpendicular)", got, want)
	}
}

func TestGeneratedHeader(t *testing.T) {
	h := opening.GeneratedHeader(othello.New(), 5, 322)
	text := strings.Join(h, "\n")
	for _, want := range []string{"322 distinct positions after 5 plies", "symmetries", "arena openings --game othello --plies 5"} {
		if !strings.Contains(text, want) {
			t.Errorf("header lacks %q:\n%s", want, text)
		}
	}
	if h := strings.Join(opening.GeneratedHeader(testgame.NewCount(4), 2, 3), "\n"); !strings.Contains(h, "--game testcount:target=4 --plies 2") || strings.Contains(h, "symmetries") {
		t.Errorf("testcount header:\n%s", h)
	}
}

func BenchmarkGenerateOthello6(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := opening.Generate(othello.New(), 6); err != nil {
			b.Fatal(err)
		}
	}
}
