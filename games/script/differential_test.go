package script

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/connect4"
)

// TestFourInARowAgainstGo plays thousands of random games of the script's four in a row
// and of the Go Connect Four side by side, and compares them at every ply: whose turn, the
// legal moves and their texts, the position's text, the end and the returns, and the
// position read back from its text by each game.
func TestFourInARowAgainstGo(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 300
	}
	sizes := [][2]int{{7, 6}, {8, 7}, {4, 4}, {5, 4}, {10, 5}}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range games {
		size := sizes[i%len(sizes)]
		sg := loadGameCached(t, size)
		gg, err := connect4.New(size[0], size[1])
		if err != nil {
			t.Fatal(err)
		}
		s, g := sg.NewState(), gg.NewState()
		for ply := 0; ; ply++ {
			if err := samePosition(sg, gg, s, g); err != "" {
				t.Fatalf("game %d (%dx%d), ply %d, position %s: %s", i, size[0], size[1], ply, g, err)
			}
			if g.IsTerminal() {
				break
			}
			moves := g.LegalMoves(g.ToMove(), nil)
			m := moves[rng.IntN(len(moves))]
			if err := s.Play(m); err != nil {
				t.Fatalf("game %d, ply %d: the script refused %d: %v", i, ply, m, err)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
}

var scriptGames = map[[2]int]*Game{}

func loadGameCached(t *testing.T, size [2]int) *Game {
	if g, ok := scriptGames[size]; ok {
		return g
	}
	g := loadGame(t, "library/fourinarow.star", game.Options{"width": strconv.Itoa(size[0]), "height": strconv.Itoa(size[1])})
	scriptGames[size] = g
	return g
}

// samePosition compares the script's position s with the Go game's g; "" when they agree.
func samePosition(sg, gg game.Game, s, g game.State) string {
	if s.ToMove() != g.ToMove() || s.IsTerminal() != g.IsTerminal() {
		return "to move " + s.ToMove().String() + ", want " + g.ToMove().String()
	}
	if a, b := s.LegalMoves(s.ToMove(), nil), g.LegalMoves(g.ToMove(), nil); !slices.Equal(a, b) {
		return "legal moves differ"
	}
	if s.String() != g.String() {
		return "text " + s.String()
	}
	if a, b := s.Returns(nil), g.Returns(nil); !slices.Equal(a, b) {
		return "returns differ"
	}
	if s.Ply() != g.Ply() {
		return "plies differ"
	}
	for _, m := range g.LegalMoves(g.ToMove(), nil) {
		if s.MoveString(m) != g.MoveString(m) {
			return "move text " + s.MoveString(m)
		}
		if pm, err := s.ParseMove(g.MoveString(m)); err != nil || pm != m {
			return "the script reads " + g.MoveString(m) + " wrong"
		}
	}
	ps, err := sg.ParseState(g.String())
	if err != nil {
		return "the script cannot read the position: " + err.Error()
	}
	if ps.ToMove() != g.ToMove() || !slices.Equal(ps.LegalMoves(ps.ToMove(), nil), g.LegalMoves(g.ToMove(), nil)) || !slices.Equal(ps.Returns(nil), g.Returns(nil)) {
		return "the script reads the position back differently"
	}
	return ""
}

// TestParseStateAgainstGo gives both games the same texts, good and bad, and checks they
// accept the same ones.
func TestParseStateAgainstGo(t *testing.T) {
	sg := loadGame(t, "library/fourinarow.star", nil)
	gg, _ := connect4.New(7, 6)
	rng := rand.New(rand.NewPCG(3, 4))
	cells := []byte("xo.")
	accepted := 0
	for i := range 5000 {
		// A position of random play, and half the time one cell changed: near misses of
		// the rules (a floating disc, a disc too many, a line played past).
		st := gg.NewState()
		for n := rng.IntN(30); n > 0 && !st.IsTerminal(); n-- {
			moves := st.LegalMoves(st.ToMove(), nil)
			_ = st.Play(moves[rng.IntN(len(moves))])
		}
		b := []byte(st.String())
		if rng.IntN(2) == 0 {
			for {
				if k := rng.IntN(len(b)); b[k] != '/' {
					b[k] = cells[rng.IntN(3)]
					break
				}
			}
		}
		text := string(b)
		_, serr := sg.ParseState(text)
		_, gerr := gg.ParseState(text)
		if (serr == nil) != (gerr == nil) {
			t.Fatalf("text %d %q: the script says %v, Go says %v", i, text, serr, gerr)
		}
		if serr == nil {
			accepted++
		}
	}
	// Both sides of the rule are exercised.
	if accepted < 100 || accepted > 4900 {
		t.Errorf("%d of 5000 texts accepted: the texts do not test both sides", accepted)
	}
	t.Logf("%d of 5000 texts are positions", accepted)
}
