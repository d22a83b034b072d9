package script

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arenaref/arena/game"
)

// A reference is an independent Go implementation of a library game's rules, written
// from the rules (not from the script), against which the script is played move by move.
type reference interface {
	moves() []string // the legal moves' texts, in any order; none when the game is over
	play(text string)
	returns() []float64 // at the end
}

// TestAgainstReferences plays random games of each library game on the script and on its
// reference side by side, and compares the legal moves (by text), the end and the returns
// at every ply.
func TestAgainstReferences(t *testing.T) {
	games := 150
	if testing.Short() {
		games = 20
	}
	tests := []struct {
		spec string
		ref  func() reference
	}{
		{"breakthrough", func() reference { return newBreakthrough() }},
		{"quixo", func() reference { return &quixoRef{limit: 200} }},
		{"gomoku:size=9", func() reference { return &gomokuRef{n: 9} }},
		{"gomoku:captures=true,size=9", func() reference { return &gomokuRef{n: 9, captures: true} }},
		{"gomoku:captures=true,size=6", func() reference { return &gomokuRef{n: 6, captures: true} }},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			g, err := game.Lookup(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(5, 6))
			plies := 0
			for i := range games {
				s, ref := g.NewState(), tt.ref()
				for ply := 0; ; ply++ {
					var got []string
					for _, m := range s.LegalMoves(s.ToMove(), nil) {
						got = append(got, s.MoveString(m))
					}
					want := ref.moves()
					slices.Sort(got)
					slices.Sort(want)
					if !slices.Equal(got, want) {
						t.Fatalf("game %d, ply %d, %s: the script's moves %v, the reference's %v", i, ply, s, got, want)
					}
					if len(want) == 0 {
						if !s.IsTerminal() || !slices.Equal(s.Returns(nil), ref.returns()) {
							t.Fatalf("game %d, ply %d, %s: over %v returns %v, the reference's %v", i, ply, s, s.IsTerminal(), s.Returns(nil), ref.returns())
						}
						break
					}
					text := want[rng.IntN(len(want))]
					m, err := s.ParseMove(text)
					if err != nil {
						t.Fatal(err)
					}
					if err := s.Play(m); err != nil {
						t.Fatal(err)
					}
					ref.play(text)
					plies++
				}
			}
			t.Logf("%d games, %d plies", games, plies)
		})
	}
}

// square names square i of a board w wide and h high, numbered row by row from the top.
func square(w, h, i int) string { return fmt.Sprintf("%c%d", 'a'+i%w, h-i/w) }

type breakthroughRef struct {
	board [64]int8 // 1 white, 2 black
	side  int
	won   int // -1 none
}

func newBreakthrough() *breakthroughRef {
	b := &breakthroughRef{won: -1}
	for i := range 16 {
		b.board[i], b.board[63-i] = 2, 1
	}
	return b
}

func (b *breakthroughRef) moves() []string {
	if b.won >= 0 {
		return nil
	}
	me, dir := int8(b.side+1), -8
	if b.side == 1 {
		dir = 8
	}
	var out []string
	for sq := range 64 {
		if b.board[sq] != me {
			continue
		}
		to := sq + dir
		if to < 0 || to >= 64 {
			continue
		}
		if b.board[to] == 0 {
			out = append(out, square(8, 8, sq)+"-"+square(8, 8, to))
		}
		for _, dc := range []int{-1, 1} {
			c := sq%8 + dc
			if c < 0 || c > 7 {
				continue
			}
			switch t := to + dc; b.board[t] {
			case 0:
				out = append(out, square(8, 8, sq)+"-"+square(8, 8, t))
			case 3 - me:
				out = append(out, square(8, 8, sq)+"x"+square(8, 8, t))
			}
		}
	}
	return out
}

func (b *breakthroughRef) play(text string) {
	from := int('8'-text[1])*8 + int(text[0]-'a')
	to := int('8'-text[4])*8 + int(text[3]-'a')
	b.board[to], b.board[from] = b.board[from], 0
	enemy := false
	for _, v := range b.board {
		enemy = enemy || v == int8(2-b.side)
	}
	if (b.side == 0 && to < 8) || (b.side == 1 && to >= 56) || !enemy {
		b.won = b.side
	}
	b.side = 1 - b.side
}

func (b *breakthroughRef) returns() []float64 {
	if b.won == 0 {
		return []float64{1, -1}
	}
	return []float64{-1, 1}
}

type quixoRef struct {
	board        [25]int8
	plies, limit int
	won          int // seat + 1; 0 none
}

func (q *quixoRef) moves() []string {
	if q.won > 0 || q.plies >= q.limit {
		return nil
	}
	me := int8(q.plies%2 + 1)
	var out []string
	for sq := range 25 {
		r, c := sq/5, sq%5
		if (r != 0 && r != 4 && c != 0 && c != 4) || (q.board[sq] != 0 && q.board[sq] != me) {
			continue
		}
		seen := map[int]bool{}
		for _, to := range []int{r * 5, r*5 + 4, c, 20 + c} {
			if to != sq && !seen[to] {
				seen[to] = true
				out = append(out, square(5, 5, sq)+"-"+square(5, 5, to))
			}
		}
	}
	return out
}

func (q *quixoRef) five(v int8) bool {
	line := func(start, step int) bool {
		for i := range 5 {
			if q.board[start+i*step] != v {
				return false
			}
		}
		return true
	}
	for i := range 5 {
		if line(i*5, 1) || line(i, 5) {
			return true
		}
	}
	return line(0, 6) || line(4, 4)
}

func (q *quixoRef) play(text string) {
	from := int('5'-text[1])*5 + int(text[0]-'a')
	to := int('5'-text[4])*5 + int(text[3]-'a')
	me := int8(q.plies%2 + 1)
	// Take the cube out, slide the rest towards the hole, put it in at the end.
	var line []int // the squares from `from` to `to`
	step := 1
	if from/5 != to/5 {
		step = 5
	}
	if to < from {
		step = -step
	}
	for i := from; ; i += step {
		line = append(line, i)
		if i == to {
			break
		}
	}
	for i := 0; i+1 < len(line); i++ {
		q.board[line[i]] = q.board[line[i+1]]
	}
	q.board[to] = me
	switch {
	case q.five(3 - me):
		q.won = int(3 - me)
	case q.five(me):
		q.won = int(me)
	}
	q.plies++
}

func (q *quixoRef) returns() []float64 {
	switch q.won {
	case 1:
		return []float64{1, -1}
	case 2:
		return []float64{-1, 1}
	}
	return []float64{0, 0}
}

type gomokuRef struct {
	n        int
	captures bool // Pente
	board    [19 * 19]int8
	plies    int
	pairs    [2]int // taken by black, white
	won      int    // seat + 1
}

func (g *gomokuRef) moves() []string {
	if g.won > 0 {
		return nil
	}
	var out []string
	for i := range g.n * g.n {
		if g.board[i] == 0 {
			out = append(out, square(g.n, g.n, i))
		}
	}
	return out
}

func (g *gomokuRef) play(text string) {
	var col, row int
	fmt.Sscanf(text[1:], "%d", &row)
	col = int(text[0] - 'a')
	row = g.n - row
	me := int8(g.plies%2 + 1)
	g.board[row*g.n+col] = me
	at := func(r, c int) int8 {
		if r < 0 || r >= g.n || c < 0 || c >= g.n {
			return -1
		}
		return g.board[r*g.n+c]
	}
	// Pente: the new stone and one of the mover's three points away, with exactly two of
	// the other's between, take the two.
	for dr := -1; g.captures && dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if (dr != 0 || dc != 0) && at(row+dr, col+dc) == 3-me && at(row+2*dr, col+2*dc) == 3-me && at(row+3*dr, col+3*dc) == me {
				g.board[(row+dr)*g.n+col+dc], g.board[(row+2*dr)*g.n+col+2*dc] = 0, 0
				g.pairs[me-1]++
			}
		}
	}
	if g.pairs[me-1] >= 5 {
		g.won = int(me)
	}
	// Free-style: five or more anywhere on the board.
	for r := range g.n {
		for c := range g.n {
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				k := 0
				for rr, cc := r, c; at(rr, cc) == me; rr, cc = rr+d[0], cc+d[1] {
					k++
				}
				if k >= 5 {
					g.won = int(me)
				}
			}
		}
	}
	g.plies++
}

func (g *gomokuRef) returns() []float64 {
	switch g.won {
	case 1:
		return []float64{1, -1}
	case 2:
		return []float64{-1, 1}
	}
	return []float64{0, 0}
}
