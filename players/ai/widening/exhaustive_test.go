package widening

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

// exhaustive decides by plain minimax over every legal move (and, for the defender, a
// pass) whether the attacker captures the target within a number of plies. It is the
// reference the solver's wins are checked against on tiny boards.
type exhaustive struct {
	target   int
	att, def Color
	memo     map[exKey]bool
	nodes    int
}

type exKey struct {
	key   uint64
	plies int
}

func newExhaustive(p Problem) *exhaustive {
	def := p.Stones[p.Target]
	return &exhaustive{target: p.Target, def: def, att: def.Opponent(), memo: map[exKey]bool{}}
}

// captures reports whether the attacker captures within plies plies, c to move.
func (x *exhaustive) captures(b *board, c Color, plies int) bool {
	if b.color[x.target] != x.def {
		return true
	}
	if plies == 0 {
		return false
	}
	k := exKey{b.hash ^ zobristKo[b.ko+1] ^ zobristSide[c], plies}
	if v, ok := x.memo[k]; ok {
		return v
	}
	x.nodes++
	var v bool
	if c == x.att {
		v = false
		for p := 0; p < b.g.n && !v; p++ {
			if b.play(p, c) {
				v = x.captures(b, x.def, plies-1)
				b.undo()
			}
		}
	} else {
		b.pass()
		v = x.captures(b, x.att, plies-1)
		b.undo()
		for p := 0; p < b.g.n && v; p++ {
			if b.play(p, c) {
				v = x.captures(b, x.att, plies-1)
				b.undo()
			}
		}
	}
	x.memo[k] = v
	return v
}

// problemBoard returns a board set up for p.
func problemBoard(p Problem) *board {
	b := newBoard(p.Size)
	b.setup(p.Stones)
	b.ko = p.Ko
	return b
}

// randomProblem makes a valid problem on a size x size board with about empties empty
// points, a target of at most three liberties, and a random side to move.
func randomProblem(rng *rand.Rand, size, empties int) (Problem, bool) {
	n := size * size
	stones := make([]Color, n)
	for i := range stones {
		stones[i] = Color(1 + rng.IntN(2))
	}
	for _, i := range rng.Perm(n)[:empties] {
		stones[i] = Empty
	}
	// Remove strings without liberties until none is left.
	for {
		b := newBoard(size)
		b.setup(stones)
		removed := false
		for q := 0; q < n; q++ {
			if b.color[q] != Empty && b.chainAt(q).nlibs == 0 {
				stones[q] = Empty
				removed = true
			}
		}
		if !removed {
			break
		}
	}
	b := newBoard(size)
	b.setup(stones)
	var targets []int
	for q := 0; q < n; q++ {
		if b.color[q] != Empty && int(b.root[q]) == q && b.chain[q].nlibs <= 3 {
			targets = append(targets, q)
		}
	}
	if len(targets) == 0 {
		return Problem{}, false
	}
	p := Problem{Size: size, Stones: stones, Target: targets[rng.IntN(len(targets))], Ko: -1, ToMove: Color(1 + rng.IntN(2))}
	return p, p.Validate() == nil
}

// exhaustivePlies is how far the reference looks; the tiny problems are settled well
// within it.
const exhaustivePlies = 16

// TestWinsAreRealCaptures solves random positions on tiny boards with every strategy and
// both table modes and checks every win the solver claims against exhaustive search:
// an attacker's win must be a forced capture and its move must keep it one; a defender
// that is told it has lost must really lose; a saving move must leave the attacker
// without a capture that the solver claims.
func TestWinsAreRealCaptures(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	problems := 0
	verified := 0
	for problems < 60 {
		size := 4 + rng.IntN(2)
		p, ok := randomProblem(rng, size, 5+rng.IntN(4))
		if !ok {
			continue
		}
		problems++
		ref := newExhaustive(p)
		for _, st := range Strategies() {
			for _, keep := range []bool{false, true} {
				res, err := Solve(context.Background(), p, Options{Strategy: st, KeepTable: keep, Time: 2 * time.Second, MaxDepth: 20})
				if err != nil {
					t.Fatal(err)
				}
				attacker := p.ToMove == ref.att
				claimsCapture := (attacker && res.Verdict == Won) || (!attacker && res.Verdict == Lost)
				if !claimsCapture {
					continue
				}
				verified++
				b := problemBoard(p)
				if !ref.captures(b, p.ToMove, exhaustivePlies) {
					t.Fatalf("strategy %v keep=%v claims a capture the exhaustive search does not find:\n%s", st, keep, p)
				}
				if attacker {
					if !b.play(res.Move, ref.att) {
						t.Fatalf("strategy %v: winning move %s is illegal:\n%s", st, PointName(res.Move, p.Size), p)
					}
					if !ref.captures(b, ref.def, exhaustivePlies-1) {
						t.Fatalf("strategy %v keep=%v: after its move %s the capture fails:\n%s", st, keep, PointName(res.Move, p.Size), p)
					}
				}
			}
		}
	}
	if verified == 0 {
		t.Fatal("no capture claimed on any problem: the check checked nothing")
	}
	t.Logf("%d problems, %d claimed captures verified", problems, verified)
}
