package features

import (
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// stableSets returns the discs stable returns for black and white in s.
func stableSets(s *othello.State) (black, white uint64) {
	b, w := s.Bitboards()
	board := s.BoardMask()
	rank, file, diag, anti := fullLines(b | w | ^board)
	return stable(b, ^board, rank, file, diag, anti), stable(w, ^board, rank, file, diag, anti)
}

// TestStableIsSound plays random games and, from every position of each, a random
// continuation to the end, checking that no disc counted stable ever changes colour.
func TestStableIsSound(t *testing.T) {
	for _, n := range othello.Sizes() {
		g, err := othello.NewSize(n)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(n), 11))
		var buf []game.Move
		play := func(s *othello.State) {
			buf = s.LegalMoves(s.ToMove(), buf[:0])
			if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
				t.Fatal(err)
			}
		}
		found := 0
		for range 100 {
			s := g.Initial()
			for !s.IsTerminal() {
				sb, sw := stableSets(s)
				found += popcountTest(sb | sw)
				for c := *s; ; play(&c) {
					b, w := c.Bitboards()
					if sb&^b != 0 || sw&^w != 0 {
						t.Fatalf("%dx%d: in %s, discs %#x (black) and %#x (white) were counted stable, but later %s",
							n, n, s, sb, sw, &c)
					}
					if c.IsTerminal() {
						break
					}
				}
				play(s)
			}
		}
		if found == 0 {
			t.Errorf("%dx%d: no stable disc in any position", n, n)
		}
	}
}

func popcountTest(b uint64) int {
	c := 0
	for ; b != 0; b &= b - 1 {
		c++
	}
	return c
}
