package widening

import "math/bits"

// zobrist holds a random key per colour and point; zobristKo one per ko point (index
// point+1, 0 for none) and zobristSide one per colour to move.
var zobrist, zobristKo, zobristSide = func() (z [3][maxPoints]uint64, ko [maxPoints + 1]uint64, side [3]uint64) {
	x := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 { // splitmix64
		x += 0x9e3779b97f4a7c15
		v := x
		v = (v ^ v>>30) * 0xbf58476d1ce4e5b9
		v = (v ^ v>>27) * 0x94d049bb133111eb
		return v ^ v>>31
	}
	for c := range z {
		for p := range z[c] {
			z[c][p] = next()
		}
	}
	for p := range ko {
		ko[p] = next()
	}
	for c := range side {
		side[c] = next()
	}
	return
}()

func trailingZeros(w uint64) int { return bits.TrailingZeros64(w) }
