package widening

import "math/bits"

// MaxSize is the largest board side the solver handles (19x19).
const MaxSize = 19

// maxPoints is the number of points of the largest board.
const maxPoints = MaxSize * MaxSize

// words is the number of 64-bit words a set of points of the largest board takes.
const words = (maxPoints + 63) / 64

// bitset is a set of points, one bit per point index (row*size+col).
type bitset [words]uint64

func (b *bitset) set(p int)      { b[p>>6] |= 1 << uint(p&63) }
func (b *bitset) clear(p int)    { b[p>>6] &^= 1 << uint(p&63) }
func (b *bitset) has(p int) bool { return b[p>>6]&(1<<uint(p&63)) != 0 }

func (b bitset) or(c bitset) bitset {
	for i := range b {
		b[i] |= c[i]
	}
	return b
}

func (b bitset) and(c bitset) bitset {
	for i := range b {
		b[i] &= c[i]
	}
	return b
}

func (b bitset) andNot(c bitset) bitset {
	for i := range b {
		b[i] &^= c[i]
	}
	return b
}

func (b *bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

func (b *bitset) isEmpty() bool {
	var x uint64
	for _, w := range b {
		x |= w
	}
	return x == 0
}

// first returns the lowest point in b, or -1 when b is empty.
func (b *bitset) first() int {
	for i, w := range b {
		if w != 0 {
			return i<<6 + bits.TrailingZeros64(w)
		}
	}
	return -1
}

// pop removes the lowest point of b and returns it, or -1 when b is empty.
func (b *bitset) pop() int {
	for i, w := range b {
		if w != 0 {
			b[i] = w & (w - 1)
			return i<<6 + bits.TrailingZeros64(w)
		}
	}
	return -1
}

// appendTo appends the points of b to list in increasing order.
func (b *bitset) appendTo(list []int) []int {
	for i, w := range b {
		for w != 0 {
			list = append(list, i<<6+bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
	return list
}

// shiftUp moves every point k indices higher (k from 1 to 63).
func (b bitset) shiftUp(k uint) (r bitset) {
	for i := words - 1; i > 0; i-- {
		r[i] = b[i]<<k | b[i-1]>>(64-k)
	}
	r[0] = b[0] << k
	return r
}

// shiftDown moves every point k indices lower (k from 1 to 63).
func (b bitset) shiftDown(k uint) (r bitset) {
	for i := 0; i < words-1; i++ {
		r[i] = b[i]>>k | b[i+1]<<(64-k)
	}
	r[words-1] = b[words-1] >> k
	return r
}
