package atarigo_test

import (
	"strconv"
	"strings"
)

// This file is a second implementation of the rules of both games, written from the rules
// as the package doc states them and deliberately naive: a grid of bytes, strings and
// liberties found by flood fill from scratch whenever they are needed, every move tried
// out on a copy of the grid, nothing kept from one move to the next but the grid and the
// facts the rules name (the last move and what it took, the passes, the ply count). The
// tests compare the package against it move by move.

// spot is a point of the grid: row 0 at the bottom, col 0 on the left.
type spot struct{ row, col int }

// naive is a position under the naive rules.
type naive struct {
	n      int
	grid   [][]byte // grid[row][col]: 'X' black, 'O' white, '.' empty
	toMove byte     // 'X' or 'O'

	// The last move: a stone at last (by the player not to move) that took the stones in
	// took, or a pass (lastPass).
	last     spot
	lastPass bool
	took     []spot
	passes   int // passes in a row just played

	capture       bool
	target        spot
	defender      byte
	safe, limit   int
	played        int
	capturedFirst byte // atari-go: who made the game's capture; capture: who took the target
}

func newNaiveAtariGo(n int) *naive {
	g := &naive{n: n, toMove: 'X', last: spot{-1, -1}}
	g.grid = make([][]byte, n)
	for r := range g.grid {
		g.grid[r] = []byte(strings.Repeat(".", n))
	}
	return g
}

// newNaiveCapture returns a capture problem from a grid (copied), the colour to move, the
// target and the rules.
func newNaiveCapture(grid [][]byte, toMove byte, target spot, safe, limit int) *naive {
	g := &naive{n: len(grid), toMove: toMove, last: spot{-1, -1}, capture: true, target: target, safe: safe, limit: limit}
	g.grid = copyGrid(grid)
	g.defender = grid[target.row][target.col]
	return g
}

func copyGrid(grid [][]byte) [][]byte {
	out := make([][]byte, len(grid))
	for r := range grid {
		out[r] = append([]byte(nil), grid[r]...)
	}
	return out
}

func other(c byte) byte {
	if c == 'X' {
		return 'O'
	}
	return 'X'
}

// around returns the points next to p: the first k of the array.
func (g *naive) around(p spot) (out [4]spot, k int) {
	for _, d := range [4]spot{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		q := spot{p.row + d.row, p.col + d.col}
		if q.row >= 0 && q.row < g.n && q.col >= 0 && q.col < g.n {
			out[k] = q
			k++
		}
	}
	return out, k
}

// group returns the stones connected to the stone at p on grid, and its liberties.
func (g *naive) group(grid [][]byte, p spot) (stones []spot, liberties int) {
	c := grid[p.row][p.col]
	var mark [19][19]byte // 1: a stone of the group, 2: a liberty
	mark[p.row][p.col] = 1
	todo := []spot{p}
	for len(todo) > 0 {
		s := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		stones = append(stones, s)
		adj, k := g.around(s)
		for _, q := range adj[:k] {
			switch {
			case mark[q.row][q.col] != 0:
			case grid[q.row][q.col] == '.':
				mark[q.row][q.col] = 2
				liberties++
			case grid[q.row][q.col] == c:
				mark[q.row][q.col] = 1
				todo = append(todo, q)
			}
		}
	}
	return stones, liberties
}

// try plays a stone of the side to move at p on a copy of the grid and returns the new
// grid, the stones it took, and whether the move is allowed by the placement rules
// (empty point, no suicide); ko is judged by the caller.
func (g *naive) try(p spot) (grid [][]byte, took []spot, ok bool) {
	if g.grid[p.row][p.col] != '.' {
		return nil, nil, false
	}
	grid = copyGrid(g.grid)
	grid[p.row][p.col] = g.toMove
	adj, k := g.around(p)
	for _, q := range adj[:k] {
		if grid[q.row][q.col] != other(g.toMove) {
			continue
		}
		if stones, libs := g.group(grid, q); libs == 0 {
			for _, s := range stones {
				grid[s.row][s.col] = '.'
				took = append(took, s)
			}
		}
	}
	if _, libs := g.group(grid, p); libs == 0 {
		return nil, nil, false
	}
	return grid, took, true
}

// koForbids reports whether the simple-ko rule forbids the stone at p: the last move was
// one stone that took exactly one stone, at p, and this stone would take exactly that one
// stone back.
func (g *naive) koForbids(p spot, took []spot) bool {
	return !g.lastPass && g.last.row >= 0 && len(g.took) == 1 && g.took[0] == p &&
		len(took) == 1 && took[0] == g.last
}

// legal returns the legal stones of the side to move, bottom row first and left to right
// within a row, and whether it may pass (always, before the end).
func (g *naive) legal() []spot {
	if g.over() {
		return nil
	}
	var out []spot
	for r := range g.n {
		for c := range g.n {
			p := spot{r, c}
			if _, took, ok := g.try(p); ok && !g.koForbids(p, took) {
				out = append(out, p)
			}
		}
	}
	return out
}

// play plays a stone at p, or passes when pass is true. The move must be legal.
func (g *naive) play(p spot, pass bool) {
	if pass {
		g.lastPass, g.took = true, nil
		g.passes++
	} else {
		grid, took, ok := g.try(p)
		if !ok || g.koForbids(p, took) {
			panic("naive: illegal move played")
		}
		g.grid, g.took, g.last, g.lastPass, g.passes = grid, took, p, false, 0
		if len(took) > 0 && g.capturedFirst == 0 {
			if !g.capture || g.grid[g.target.row][g.target.col] == '.' {
				g.capturedFirst = g.toMove
			}
		}
	}
	g.toMove = other(g.toMove)
	g.played++
}

// result returns whether the game is over and the winner's colour, 0 for a draw.
func (g *naive) result() (over bool, winner byte) {
	if g.capturedFirst != 0 {
		return true, g.capturedFirst
	}
	if g.capture {
		if _, libs := g.group(g.grid, g.target); libs >= g.safe {
			return true, g.defender
		}
		if g.passes >= 2 || g.played >= g.limit {
			return true, g.defender
		}
		return false, 0
	}
	return g.passes >= 2, 0
}

func (g *naive) over() bool {
	over, _ := g.result()
	return over
}

// returns is the seats' rewards: black's, then white's.
func (g *naive) returns() []float64 {
	switch _, w := g.result(); w {
	case 'X':
		return []float64{1, -1}
	case 'O':
		return []float64{-1, 1}
	}
	return []float64{0, 0}
}

func (g *naive) pointName(p spot) string {
	return string("ABCDEFGHJKLMNOPQRST"[p.col]) + strconv.Itoa(p.row+1)
}

// koPoint returns the point the ko rule forbids the side to move, if any: the single
// stone the last move took, when taking back the stone that took it would be refused.
func (g *naive) koPoint() (spot, bool) {
	if g.over() || g.lastPass || len(g.took) != 1 {
		return spot{}, false
	}
	p := g.took[0]
	if _, took, ok := g.try(p); ok && g.koForbids(p, took) {
		return p, true
	}
	return spot{}, false
}

// text writes the position in the package's notation, from its description in the doc.
func (g *naive) text() string {
	var b strings.Builder
	for r := g.n - 1; r >= 0; r-- {
		b.Write(g.grid[r])
		if r > 0 {
			b.WriteByte('/')
		}
	}
	if g.toMove == 'X' {
		b.WriteString(" b")
	} else {
		b.WriteString(" w")
	}
	if p, ok := g.koPoint(); ok {
		b.WriteString(" ko=" + g.pointName(p))
	}
	if g.passes > 0 {
		b.WriteString(" passes=" + strconv.Itoa(g.passes))
	}
	if g.capture {
		b.WriteString(" target=" + g.pointName(g.target))
		if g.played > 0 {
			b.WriteString(" played=" + strconv.Itoa(g.played))
		}
	}
	switch g.capturedFirst {
	case 'X':
		b.WriteString(" winner=b")
	case 'O':
		b.WriteString(" winner=w")
	}
	return b.String()
}
