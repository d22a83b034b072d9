package othello

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// slowFlips walks the eight directions from sq square by square: the reference the
// bitboard move generator is checked against. The second result reports whether the
// move flips anything, that is whether it is legal.
func slowFlips(p, o uint64, sq int) (uint64, bool) {
	var f uint64
	for _, d := range [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}} {
		var run uint64
		for fi, r := sq%Size+d[0], sq/Size+d[1]; fi >= 0 && fi < Size && r >= 0 && r < Size; fi, r = fi+d[0], r+d[1] {
			b := bitOf(r*Size + fi)
			if o&b != 0 {
				run |= b
				continue
			}
			if p&b != 0 {
				f |= run
			}
			break
		}
	}
	return f, f != 0
}

// randomDiscs returns random disjoint disc sets, of every density from nearly empty to
// nearly full, and a few crafted edge cases.
func randomDiscs(rng *rand.Rand, n int) [][2]uint64 {
	out := [][2]uint64{
		{0, 0},
		{1, ^uint64(1)},
		{1 << 63, ^uint64(1 << 63)},
		{0x8100000000000081, 0x7e7e7e7e7e7e7e7e},
		{0x00000000000000ff, 0xffffffffffffff00},
		{0xff00000000000000, 0x00ffffffffffffff},
	}
	for range n {
		a, b := rng.Uint64(), rng.Uint64()
		switch rng.IntN(4) {
		case 0: // dense: few empties
			out = append(out, [2]uint64{a, ^a &^ (rng.Uint64() & rng.Uint64() & rng.Uint64())})
		case 1: // sparse
			a &= rng.Uint64()
			b &= rng.Uint64() &^ a
			out = append(out, [2]uint64{a, b})
		default:
			out = append(out, [2]uint64{a &^ b, b &^ a &^ rng.Uint64()})
		}
	}
	return out
}

func TestMoveGenerationMatchesSquareBySquare(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, d := range randomDiscs(rng, 20000) {
		p, o := d[0], d[1]
		if p&o != 0 {
			t.Fatalf("test bug: overlapping discs %#x %#x", p, o)
		}
		var want uint64
		for sq := range Squares {
			if (p|o)&bitOf(sq) != 0 {
				continue
			}
			wf, legal := slowFlips(p, o, sq)
			if legal {
				want |= bitOf(sq)
			}
			if got := flips(p, o, sq); got != wf {
				t.Fatalf("flips(%#x, %#x, %d) = %#x, want %#x", p, o, sq, got, wf)
			}
		}
		if got := legalMask(p, o); got != want {
			t.Fatalf("legalMask(%#x, %#x) = %#x, want %#x", p, o, got, want)
		}
	}
}

// benchMoves returns the positions and legal moves met in random games, the inputs the
// move generator sees in searches.
func benchMoves(b *testing.B) (ps, os []uint64, sqs []int) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 200 {
		s := NewState()
		for !s.IsTerminal() {
			p, o := s.discs[s.side], s.discs[1-s.side]
			for m := s.MoveMask(); m != 0; m &= m - 1 {
				ps, os, sqs = append(ps, p), append(os, o), append(sqs, bits.TrailingZeros64(m))
			}
			ms := s.LegalMoves(s.ToMove(), nil)
			if err := s.Play(ms[rng.IntN(len(ms))]); err != nil {
				b.Fatal(err)
			}
		}
	}
	return ps, os, sqs
}

func BenchmarkFlips(b *testing.B) {
	ps, os, sqs := benchMoves(b)
	var sink uint64
	for b.Loop() {
		for i := range ps {
			sink ^= flips(ps[i], os[i], sqs[i])
		}
	}
	b.ReportMetric(float64(b.N*len(ps))/b.Elapsed().Seconds(), "flips/s")
	if sink == 1 {
		b.Log(sink)
	}
}

func BenchmarkLegalMask(b *testing.B) {
	ps, os, _ := benchMoves(b)
	var sink uint64
	for b.Loop() {
		for i := range ps {
			sink ^= legalMask(ps[i], os[i])
		}
	}
	b.ReportMetric(float64(b.N*len(ps))/b.Elapsed().Seconds(), "masks/s")
	if sink == 1 {
		b.Log(sink)
	}
}
