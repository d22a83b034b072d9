package othello

import (
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/game"
)

// slowTransform applies symmetry sym to a bitboard of an n by n board square by square:
// the reference the bitboard transforms are checked against.
func slowTransform(b uint64, sym, n int) uint64 {
	var out uint64
	for sq := range Squares {
		if b&bitOf(sq) == 0 {
			continue
		}
		f, r := sq%Size, sq/Size
		if sym&4 != 0 {
			f, r = r, f
		}
		if sym&2 != 0 {
			r = n - 1 - r
		}
		if sym&1 != 0 {
			f = n - 1 - f
		}
		out |= bitOf(r*Size + f)
	}
	return out
}

func TestTransformsMatchSquareBySquare(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	boards := []uint64{0, ^uint64(0), 1, 1 << 63, 0x00000000000000ff, 0x0101010101010101, 0x8040201008040201}
	for range 1000 {
		boards = append(boards, rng.Uint64(), rng.Uint64()&rng.Uint64())
	}
	for _, b := range boards {
		for _, n := range sizes {
			bn := b & boardMask(n)
			for sym := range symmetries {
				if got, want := transform(bn, sym, n), slowTransform(bn, sym, n); got != want {
					t.Fatalf("%dx%d: transform(%#016x, %d) = %#016x, want %#016x", n, n, bn, sym, got, want)
				}
				if got := transform(bn, sym, n); got&^boardMask(n) != 0 {
					t.Fatalf("%dx%d: transform(%#016x, %d) = %#016x leaves the board", n, n, bn, sym, got)
				}
			}
		}
		if flipVertical(flipVertical(b)) != b || mirrorHorizontal(mirrorHorizontal(b)) != b || flipDiagonal(flipDiagonal(b)) != b {
			t.Fatalf("a reflection of %#016x is not its own inverse", b)
		}
	}
	// Spot checks against the board: a1 goes to a8, h1 and a1 under the three reflections.
	a1, h1, a8, b1, a2 := bitOf(0), bitOf(7), bitOf(56), bitOf(1), bitOf(8)
	if flipVertical(a1) != a8 || mirrorHorizontal(a1) != h1 || flipDiagonal(b1) != a2 {
		t.Errorf("reflections of single squares are wrong")
	}
}

func TestTransformsFormTheGroup(t *testing.T) {
	// The eight symmetries send one asymmetric board to eight different boards.
	b := bitOf(1) | bitOf(2) | bitOf(10) // b1, c1, c2: no symmetry maps it to itself
	for _, n := range sizes {
		seen := map[uint64]int{}
		for sym := range symmetries {
			img := transform(b, sym, n)
			if other, dup := seen[img]; dup {
				t.Fatalf("%dx%d: symmetries %d and %d give the same image", n, n, other, sym)
			}
			seen[img] = sym
		}
	}
}

func BenchmarkCanonicalKey(b *testing.B) {
	s := NewState()
	for _, m := range []string{"d3", "c5", "f6", "f5", "e6", "e3"} {
		mv, _ := ParseMove(m)
		if err := s.Play(mv); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = s.CanonicalKey()
	}
}

// slowKey is CanonicalKey written the obvious way: the eight texts, the smallest kept.
func slowKey(s *State) string {
	best := ""
	n := s.Size()
	for sym := range symmetries {
		img := State{discs: [2]uint64{slowTransform(s.discs[Black], sym, n), slowTransform(s.discs[White], sym, n)}, board: s.board, side: s.side}
		if text := img.String(); sym == 0 || text < best {
			best = text
		}
	}
	return best
}

func TestCanonicalKeyMatchesSlowKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 6000 {
		n := sizes[i%len(sizes)]
		board := boardMask(n)
		b := rng.Uint64() & rng.Uint64() & board
		w := rng.Uint64() & rng.Uint64() & board &^ b
		if i%5 < 2 { // sparse boards, where many squares tie, as in openings
			b &= rng.Uint64() & rng.Uint64()
			w &= rng.Uint64() & rng.Uint64()
		}
		s := &State{discs: [2]uint64{b, w}, board: board, side: []game.Seat{Black, White}[i%2]}
		if got, want := s.CanonicalKey(), slowKey(s); got != want {
			t.Fatalf("CanonicalKey of %s = %s, want %s", s, got, want)
		}
	}
}
