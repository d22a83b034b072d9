package checkers_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
)

// This file is a second, deliberately naive implementation of the rules, on ranks and
// files instead of bitboards, that the tests compare the package against on random
// positions.

// refBoard holds 'b', 'B' (a black man, king), 'w', 'W' or 0 for each square index
// (square-1).
type refBoard [32]byte

// rowFile returns the row (0 for squares 1-4, 7 for 29-32) and file (0 for a) of index i.
func rowFile(i int) (int, int) {
	r := i / 4
	if r%2 == 0 {
		return r, 2*(i%4) + 1
	}
	return r, 2 * (i % 4)
}

// index returns the index of row r, file f, or -1 off the dark squares.
func index(r, f int) int {
	if r < 0 || r > 7 || f < 0 || f > 7 || (r+f)%2 == 0 {
		return -1
	}
	return r*4 + f/2
}

func refFromState(s *checkers.State) refBoard {
	var b refBoard
	black, white, kings := s.Pieces()
	for i := range 32 {
		bit := uint32(1) << i
		switch {
		case black&bit != 0 && kings&bit != 0:
			b[i] = 'B'
		case black&bit != 0:
			b[i] = 'b'
		case white&bit != 0 && kings&bit != 0:
			b[i] = 'W'
		case white&bit != 0:
			b[i] = 'w'
		}
	}
	return b
}

func (b refBoard) pieces() (black, white, kings uint32) {
	for i, c := range b {
		bit := uint32(1) << i
		switch c {
		case 'b':
			black |= bit
		case 'B':
			black |= bit
			kings |= bit
		case 'w':
			white |= bit
		case 'W':
			white |= bit
			kings |= bit
		}
	}
	return black, white, kings
}

func own(c byte, side game.Seat) bool {
	if side == checkers.Black {
		return c == 'b' || c == 'B'
	}
	return c == 'w' || c == 'W'
}

// refMove is a move as the reference finds it: its squares and the board after it.
type refMove struct {
	text  string
	after refBoard
}

// refMoves returns the legal moves of side, sorted by text.
func refMoves(b refBoard, side game.Seat) []refMove {
	fw := 1 // Black goes to higher rows
	crown := 7
	if side == checkers.White {
		fw, crown = -1, 0
	}
	var caps, steps []refMove
	for i, c := range b {
		if !own(c, side) {
			continue
		}
		king := c == 'B' || c == 'W'
		dirs := [][2]int{{fw, -1}, {fw, 1}}
		if king {
			dirs = [][2]int{{1, -1}, {1, 1}, {-1, -1}, {-1, 1}}
		}
		var jump func(bd refBoard, at int, path []int)
		jump = func(bd refBoard, at int, path []int) {
			r, f := rowFile(at)
			extended := false
			for _, d := range dirs {
				mid, land := index(r+d[0], f+d[1]), index(r+2*d[0], f+2*d[1])
				if mid < 0 || land < 0 || bd[mid] == 0 || own(bd[mid], side) || bd[land] != 0 {
					continue
				}
				extended = true
				nb := bd
				nb[mid] = 0
				nb[land], nb[at] = nb[at], 0
				p := append(slices.Clone(path), land)
				if !king && land/4 == crown {
					nb[land] -= 'a' - 'A' // crowned: the move ends
					caps = append(caps, refMove{join(p, "x"), nb})
					continue
				}
				jump(nb, land, p)
			}
			if !extended && len(path) > 1 {
				caps = append(caps, refMove{join(path, "x"), bd})
			}
		}
		jump(b, i, []int{i})
		r, f := rowFile(i)
		for _, d := range dirs {
			if t := index(r+d[0], f+d[1]); t >= 0 && b[t] == 0 {
				nb := b
				nb[t], nb[i] = nb[i], 0
				if !king && t/4 == crown {
					nb[t] -= 'a' - 'A'
				}
				steps = append(steps, refMove{join([]int{i, t}, "-"), nb})
			}
		}
	}
	out := steps
	if len(caps) > 0 {
		out = caps
	}
	slices.SortFunc(out, func(x, y refMove) int { return strings.Compare(x.text, y.text) })
	return out
}

func join(path []int, sep string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = strconv.Itoa(p + 1)
	}
	return strings.Join(parts, sep)
}

// randomState returns a legal-looking random position of variant v: up to twelve pieces
// a side, kings now and then, no man on its crowning row.
func randomState(rng *rand.Rand, v checkers.Variant) *checkers.State {
	var b refBoard
	for _, colour := range []byte{'b', 'w'} {
		n := rng.IntN(13)
		for range n {
			i := rng.IntN(32)
			if b[i] != 0 {
				continue
			}
			c := colour
			crownRow := 7
			if colour == 'w' {
				crownRow = 0
			}
			if rng.IntN(3) == 0 || i/4 == crownRow {
				c -= 'a' - 'A'
			}
			b[i] = c
		}
	}
	black, white, kings := b.pieces()
	s, err := checkers.FromPieces(v, black, white, kings, game.Seat(rng.IntN(2)))
	if err != nil {
		panic(err)
	}
	return s
}
