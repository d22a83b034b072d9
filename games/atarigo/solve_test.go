package atarigo_test

import (
	"strconv"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
)

// This file is a tiny exhaustive solver for capture problems, used to check the embedded
// problems' answers. It tries every legal move, pass included, on both sides, and prunes
// only with a bound that holds for every line: one stone of the attacker takes at most
// one liberty from the target (the point it stands on), and the defender may always
// pass, so a target with more liberties than the attacker has moves left cannot be
// forced off the board within them. Move order (the target's liberties first) changes
// only the speed.

// bruteForce solves from one problem's side: the attacker's colour and a memo of solved
// positions.
type bruteForce struct {
	attacker atarigo.Color
	memo     map[string]bool
	nodes    int
}

func newBruteForce(s *atarigo.State) *bruteForce {
	return &bruteForce{attacker: s.Attacker(), memo: map[string]bool{}}
}

// orderedMoves returns the legal moves of the side to move, the target's liberties
// first, then the points next to those, then the rest and the pass.
func orderedMoves(s *atarigo.State) []game.Move {
	moves := s.LegalMoves(s.ToMove(), nil)
	n := s.Size()
	near := make([]int, n*n+1) // 0: a liberty of the target, 1: next to one, 2: other
	for i := range near {
		near[i] = 2
	}
	if s.At(s.Target()) != atarigo.Empty {
		for _, p := range stringLiberties(s, s.Target()) {
			near[p] = 0
			for _, q := range adjacent(p, n) {
				near[q] = min(near[q], 1)
			}
		}
	}
	out := make([]game.Move, 0, len(moves))
	for rank := 0; rank <= 2; rank++ {
		for _, m := range moves {
			if near[m] == rank {
				out = append(out, m)
			}
		}
	}
	return out
}

func adjacent(p atarigo.Point, n int) []atarigo.Point {
	col, row := atarigo.Coords(p, n)
	var out []atarigo.Point
	for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		if q := atarigo.PointAt(col+d[0], row+d[1], n); q != atarigo.NoPoint {
			out = append(out, q)
		}
	}
	return out
}

// stringLiberties returns the liberties of the string at p, found by flood fill through
// At alone.
func stringLiberties(s *atarigo.State, p atarigo.Point) []atarigo.Point {
	n := s.Size()
	c := s.At(p)
	seen := map[atarigo.Point]bool{p: true}
	var libs []atarigo.Point
	todo := []atarigo.Point{p}
	for len(todo) > 0 {
		x := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, q := range adjacent(x, n) {
			if seen[q] {
				continue
			}
			switch s.At(q) {
			case atarigo.Empty:
				seen[q] = true
				libs = append(libs, q)
			case c:
				seen[q] = true
				todo = append(todo, q)
			}
		}
	}
	return libs
}

func (bf *bruteForce) play(s *atarigo.State, m game.Move) *atarigo.State {
	c := s.Clone().(*atarigo.State)
	if err := c.Play(m); err != nil {
		panic(err)
	}
	return c
}

// captures reports whether the attacker can force the target's capture within k moves of
// its own, whoever is to move.
func (bf *bruteForce) captures(s *atarigo.State, k int) bool {
	bf.nodes++
	if s.IsTerminal() {
		return s.Winner() == bf.attacker && s.At(s.Target()) == atarigo.Empty
	}
	if s.Liberties(s.Target()) > k {
		return false
	}
	key := s.String() + " k=" + strconv.Itoa(k)
	if v, ok := bf.memo[key]; ok {
		return v
	}
	var v bool
	if s.Turn() == bf.attacker {
		for _, m := range orderedMoves(s) {
			if bf.captures(bf.play(s, m), k-1) {
				v = true
				break
			}
		}
	} else {
		v = true
		for _, m := range orderedMoves(s) {
			if !bf.captures(bf.play(s, m), k) {
				v = false
				break
			}
		}
	}
	bf.memo[key] = v
	return v
}

// escapes reports whether the defender can force a win by the target's liberties (the
// rule of safe liberties, not the move limit or passes) within d plies, whoever is to
// move.
func (bf *bruteForce) escapes(s *atarigo.State, d int) bool {
	bf.nodes++
	if s.IsTerminal() {
		return s.Winner() == bf.attacker.Opponent() && s.At(s.Target()) != atarigo.Empty &&
			s.Liberties(s.Target()) >= s.Safe()
	}
	if d == 0 {
		return false
	}
	key := s.String() + " d=" + strconv.Itoa(d)
	if v, ok := bf.memo[key]; ok {
		return v
	}
	var v bool
	if s.Turn() != bf.attacker {
		for _, m := range orderedMoves(s) {
			if bf.escapes(bf.play(s, m), d-1) {
				v = true
				break
			}
		}
	} else {
		v = true
		for _, m := range orderedMoves(s) {
			if !bf.escapes(bf.play(s, m), d-1) {
				v = false
				break
			}
		}
	}
	bf.memo[key] = v
	return v
}

// winningMoves returns the moves of the side to move after which it wins within the
// horizon: for the attacker, capturing within k of its moves (counting the one played);
// for the defender, the attacker no longer capturing within k.
func (bf *bruteForce) winningMoves(s *atarigo.State, k int) []string {
	var out []string
	for _, m := range orderedMoves(s) {
		c := bf.play(s, m)
		if s.Turn() == bf.attacker && bf.captures(c, k-1) || s.Turn() != bf.attacker && !bf.captures(c, k) {
			out = append(out, s.MoveString(m))
		}
	}
	return out
}
