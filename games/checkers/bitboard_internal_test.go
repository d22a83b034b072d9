package checkers

import "testing"

// TestSteps checks the bitboard shifts against the board's geometry, worked out from
// rows and files, and the four one-direction shifts against step.
func TestSteps(t *testing.T) {
	rowFile := func(i int) (int, int) {
		r := i / 4
		return r, 2*(i%4) + 1 - r%2
	}
	index := func(r, f int) int {
		if r < 0 || r > 7 || f < 0 || f > 7 {
			return -1
		}
		return r*4 + f/2
	}
	deltas := [4][2]int{downLeft: {1, -1}, downRight: {1, 1}, upLeft: {-1, -1}, upRight: {-1, 1}}
	fixed := [4]func(uint32) uint32{stepDL, stepDR, stepUL, stepUR}
	for d, dd := range deltas {
		for i := range 32 {
			r, f := rowFile(i)
			want := uint32(0)
			if j := index(r+dd[0], f+dd[1]); j >= 0 {
				want = 1 << uint(j)
			}
			if got := step(d, 1<<uint(i)); got != want {
				t.Errorf("step(%d, square %d) = %#x, want %#x", d, i+1, got, want)
			}
			if got := fixed[d](1 << uint(i)); got != want {
				t.Errorf("fixed step %d of square %d = %#x, want %#x", d, i+1, got, want)
			}
			if want != 0 && back(d, want) != 1<<uint(i) {
				t.Errorf("back(%d, step(%d, square %d)) = %#x", d, d, i+1, back(d, want))
			}
		}
	}
}
