package othello

import "math/bits"

// The board has the eight symmetries of a square: four rotations, each with or without a
// reflection. The rules treat all eight alike (the starting diagonal is only a matter of
// which position is reached), so positions that are images of each other are the same
// contest. Each symmetry is a composition of the three reflections below.

// flipVertical reflects a bitboard about the line between ranks 4 and 5: rank 1 swaps
// with rank 8, and so on. One rank is one byte, so this reverses the bytes.
func flipVertical(b uint64) uint64 { return bits.ReverseBytes64(b) }

// mirrorHorizontal reflects a bitboard about the line between the d- and e-files: the
// a-file swaps with the h-file, and so on. It reverses the bits inside each byte, swapping
// neighbouring bits, then pairs, then nibbles.
func mirrorHorizontal(b uint64) uint64 {
	const (
		k1 = 0x5555555555555555
		k2 = 0x3333333333333333
		k4 = 0x0f0f0f0f0f0f0f0f
	)
	b = (b>>1)&k1 | (b&k1)<<1
	b = (b>>2)&k2 | (b&k2)<<2
	b = (b>>4)&k4 | (b&k4)<<4
	return b
}

// flipDiagonal reflects a bitboard about the a1-h8 diagonal: the square on file f and
// rank r goes to file r and rank f. It swaps the off-diagonal 4x4 blocks, then the 2x2
// blocks inside them, then single squares; each step moves the bits under a mask by the
// distance between a square and its image (28, 14 and 7 bit positions) with an exchange
// through XOR.
func flipDiagonal(b uint64) uint64 {
	const (
		k1 = 0x5500550055005500
		k2 = 0x3333000033330000
		k4 = 0x0f0f0f0f00000000
	)
	t := k4 & (b ^ b<<28)
	b ^= t ^ t>>28
	t = k2 & (b ^ b<<14)
	b ^= t ^ t>>14
	t = k1 & (b ^ b<<7)
	b ^= t ^ t>>7
	return b
}

// symmetries is the number of symmetries of the board, the identity included.
const symmetries = 8

// transform applies symmetry number sym (0 to 7; 0 is the identity) to a bitboard of an
// n by n board in the a1 corner of the layout. Bit 0 mirrors the files, bit 1 flips the
// ranks, and bit 2 reflects about the a1-h8 diagonal first; the eight combinations are the
// eight symmetries. On a smaller board the 8x8 mirror and flip move the block to the far
// corner, so a shift by the missing files or ranks brings it back to a1: the file f goes
// to 7-f, then to 7-f-(8-n) = n-1-f. The diagonal keeps the a1 block where it is.
func transform(b uint64, sym, n int) uint64 {
	gap := uint(Size - n)
	if sym&4 != 0 {
		b = flipDiagonal(b)
	}
	if sym&2 != 0 {
		b = flipVertical(b) >> (Size * gap)
	}
	if sym&1 != 0 {
		b = mirrorHorizontal(b) >> gap
	}
	return b
}

// CanonicalKey returns the same text for this position and its seven images under the
// rotations and reflections of the board, and different texts for positions that are not
// images of each other. The side to move is part of the key. It implements the
// Canonicalizer interface of package game/opening, which folds symmetric openings. It
// works on every board size.
//
// The key is in the notation of String: of the eight transformed boards, the one whose
// text is smallest, then a space and the side to move. It is therefore itself a position
// (one of the eight images), which ParseState reads.
func (s *State) CanonicalKey() string {
	n := s.Size()
	bestB, bestW := s.discs[Black], s.discs[White]
	for sym := 1; sym < symmetries; sym++ {
		b, w := transform(s.discs[Black], sym, n), transform(s.discs[White], sym, n)
		if textLess(b, w, bestB, bestW) {
			bestB, bestW = b, w
		}
	}
	var key [maxTextLen]byte
	k := appendBoard(key[:0], n, bestB, bestW)
	k = append(k, ' ', sideChar(s.side))
	return string(k)
}

// textLess reports whether the board (b1, w1) has a smaller text than (b2, w2) without
// writing either text out. The texts list the squares in the order of their bits, so they
// first differ at the lowest square where the boards differ, and there the characters
// order as '-' < 'O' < 'X' (empty, white, black).
func textLess(b1, w1, b2, w2 uint64) bool {
	diff := (b1 ^ b2) | (w1 ^ w2)
	if diff == 0 {
		return false
	}
	sq := diff & -diff
	return squareRank(b1, w1, sq) < squareRank(b2, w2, sq)
}

// squareRank orders the contents of square sq (a one-bit mask) as their characters do.
func squareRank(b, w, sq uint64) int {
	switch {
	case b&sq != 0:
		return 2
	case w&sq != 0:
		return 1
	}
	return 0
}
