package minimax

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// newGame returns Othello of size n.
func newGame(t testing.TB, n int) *othello.Game {
	t.Helper()
	g, err := othello.NewSize(n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// randomPlay plays up to plies random legal moves (passes included) from s, stopping at
// the end of the game.
func randomPlay(t testing.TB, s *othello.State, rng *rand.Rand, plies int) {
	t.Helper()
	var buf []game.Move
	for range plies {
		if s.IsTerminal() {
			return
		}
		buf = s.LegalMoves(s.ToMove(), buf[:0])
		if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
			t.Fatal(err)
		}
	}
}

// positions returns count positions of an n by n game reached by random play until
// exactly empties squares are empty, the game still going.
func positions(t testing.TB, n, empties, count int, seed uint64) []*othello.State {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0xbeef))
	var out []*othello.State
	for len(out) < count {
		s := newGame(t, n).Initial()
		for !s.IsTerminal() && s.Empties() > empties {
			randomPlay(t, s, rng, 1)
		}
		if !s.IsTerminal() && s.Empties() == empties {
			out = append(out, s)
		}
	}
	return out
}

// solve returns the final disc margin for the side to move under perfect play, by plain
// minimax over the othello package's own rules, and counts the passes it meets.
func solve(s *othello.State, passes *int) int {
	if s.IsTerminal() {
		black, white := s.Bitboards()
		d := bits.OnesCount64(black) - bits.OnesCount64(white)
		if s.Side() == othello.White {
			d = -d
		}
		return d
	}
	best := -100
	for _, m := range s.LegalMoves(s.ToMove(), nil) {
		if m == othello.Pass {
			*passes++
		}
		c := *s
		if err := c.Play(m); err != nil {
			panic(err)
		}
		best = max(best, -solve(&c, passes))
	}
	return best
}
