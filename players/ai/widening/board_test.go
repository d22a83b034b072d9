package widening

import (
	"math/rand/v2"
	"testing"
)

// naiveBoard is the reference for the incremental board: a colour per point, groups
// and liberties found by flood fill every time they are asked for.
type naiveBoard struct {
	size  int
	color []Color
	ko    int
}

func newNaive(size int) *naiveBoard {
	return &naiveBoard{size: size, color: make([]Color, size*size), ko: -1}
}

func (n *naiveBoard) clone() *naiveBoard {
	c := *n
	c.color = append([]Color(nil), n.color...)
	return &c
}

func (n *naiveBoard) neighbours(p int) []int {
	var r []int
	row, col := p/n.size, p%n.size
	if row > 0 {
		r = append(r, p-n.size)
	}
	if col > 0 {
		r = append(r, p-1)
	}
	if col < n.size-1 {
		r = append(r, p+1)
	}
	if row < n.size-1 {
		r = append(r, p+n.size)
	}
	return r
}

// group returns the stones of the group at p and its liberties.
func (n *naiveBoard) group(p int) (stones, libs map[int]bool) {
	stones, libs = map[int]bool{p: true}, map[int]bool{}
	stack := []int{p}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, r := range n.neighbours(q) {
			switch {
			case n.color[r] == Empty:
				libs[r] = true
			case n.color[r] == n.color[p] && !stones[r]:
				stones[r] = true
				stack = append(stack, r)
			}
		}
	}
	return stones, libs
}

// play plays by the rules: the point must be empty and not the ko point; opponent
// groups left without liberties are removed; a move leaving its own group without
// liberties is refused.
func (n *naiveBoard) play(p int, c Color) bool {
	if n.color[p] != Empty || p == n.ko {
		return false
	}
	next := n.clone()
	next.color[p] = c
	captured := []int{}
	for _, q := range next.neighbours(p) {
		if next.color[q] != c.Opponent() {
			continue
		}
		stones, libs := next.group(q)
		if len(libs) == 0 {
			for s := range stones {
				next.color[s] = Empty
				captured = append(captured, s)
			}
		}
	}
	stones, libs := next.group(p)
	if len(libs) == 0 {
		return false
	}
	next.ko = -1
	if len(captured) == 1 && len(stones) == 1 && len(libs) == 1 {
		next.ko = captured[0]
	}
	*n = *next
	return true
}

// checkSame fails when the incremental board and the reference disagree on any point,
// chain, liberty set, count, ko or key.
func checkSame(t *testing.T, b *board, n *naiveBoard, when string) {
	t.Helper()
	if b.ko != n.ko {
		t.Fatalf("%s: ko %d, reference %d", when, b.ko, n.ko)
	}
	var hash uint64
	for p, c := range n.color {
		if b.color[p] != c {
			t.Fatalf("%s: point %s is %v, reference %v", when, PointName(p, n.size), b.color[p], c)
		}
		if b.occ[Black].has(p) != (c == Black) || b.occ[White].has(p) != (c == White) {
			t.Fatalf("%s: colour sets wrong at %s", when, PointName(p, n.size))
		}
		if c == Empty {
			if b.root[p] != -1 {
				t.Fatalf("%s: empty point %s has a chain", when, PointName(p, n.size))
			}
			continue
		}
		hash ^= zobrist[c][p]
		stones, libs := n.group(p)
		ch := b.chainAt(p)
		if !ch.stones.has(int(b.root[p])) || ch.color != c {
			t.Fatalf("%s: chain of %s has a bad root or colour", when, PointName(p, n.size))
		}
		if int(ch.nstones) != len(stones) || ch.stones.count() != len(stones) {
			t.Fatalf("%s: chain of %s has %d stones, reference %d", when, PointName(p, n.size), ch.nstones, len(stones))
		}
		for s := range stones {
			if !ch.stones.has(s) || b.root[s] != b.root[p] {
				t.Fatalf("%s: %s not in the chain of %s", when, PointName(s, n.size), PointName(p, n.size))
			}
		}
		if int(ch.nlibs) != len(libs) || ch.libs.count() != len(libs) {
			t.Fatalf("%s: chain of %s has %d liberties, reference %d", when, PointName(p, n.size), ch.nlibs, len(libs))
		}
		for l := range libs {
			if !ch.libs.has(l) {
				t.Fatalf("%s: %s not a liberty of %s", when, PointName(l, n.size), PointName(p, n.size))
			}
		}
	}
	if hash != b.hash {
		t.Fatalf("%s: key %x, recomputed %x", when, b.hash, hash)
	}
}

// TestBoardAgainstFloodFill plays random games on several sizes, with random passes
// and take-backs, and checks the incremental board against the flood-fill reference
// after every step: same legality, same position, same chains.
func TestBoardAgainstFloodFill(t *testing.T) {
	for _, size := range []int{2, 3, 5, 7, 9, 13, 19} {
		t.Run(PointName(size*size-1, size), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(size), 7))
			games := 20
			if size > 9 {
				games = 2 // the reference is slow on large boards
			}
			for game := 0; game < games; game++ {
				b := newBoard(size)
				history := []*naiveBoard{newNaive(size)}
				c := Black
				for step := 0; step < 3*size*size; step++ {
					n := history[len(history)-1]
					switch r := rng.IntN(20); {
					case r == 0 && len(history) > 1: // take back
						b.undo()
						history = history[:len(history)-1]
						checkSame(t, b, history[len(history)-1], "after undo")
						continue
					case r == 1: // pass
						b.pass()
						next := n.clone()
						next.ko = -1
						history = append(history, next)
					default:
						p := rng.IntN(size * size)
						next := n.clone()
						want := next.play(p, c)
						if got := b.legal(p, c); got != want {
							t.Fatalf("legal(%s, %v) = %v, reference %v", PointName(p, size), c, got, want)
						}
						if got := b.play(p, c); got != want {
							t.Fatalf("play(%s, %v) = %v, reference %v", PointName(p, size), c, got, want)
						}
						if !want {
							checkSame(t, b, n, "after an illegal move")
							continue
						}
						history = append(history, next)
					}
					checkSame(t, b, history[len(history)-1], "after a move")
					c = c.Opponent()
				}
				for len(history) > 1 {
					b.undo()
					history = history[:len(history)-1]
				}
				checkSame(t, b, history[0], "after taking every move back")
			}
		})
	}
}

// TestSetupMatchesPlay builds positions by play and by setup and checks they agree.
func TestSetupMatchesPlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for game := 0; game < 50; game++ {
		size := 2 + rng.IntN(MaxSize-1)
		n := newNaive(size)
		c := Black
		for i := 0; i < size*size; i++ {
			if n.play(rng.IntN(size*size), c) {
				c = c.Opponent()
			}
		}
		b := newBoard(size)
		b.setup(n.color)
		n.ko = -1
		checkSame(t, b, n, "after setup")
	}
}

// TestNeighbours checks the shifted-set neighbours against the neighbour lists.
func TestNeighbours(t *testing.T) {
	for size := 1; size <= MaxSize; size++ {
		g := geometries[size]
		for p := 0; p < g.n; p++ {
			var s, want bitset
			s.set(p)
			for _, q := range g.nbr[p][:g.degree[p]] {
				want.set(int(q))
			}
			if got := g.neighbours(s); got != want {
				t.Fatalf("size %d: neighbours of %s wrong", size, PointName(p, size))
			}
			var near bitset
			g.addDilated(&near, &s)
			want.set(p)
			if near != want {
				t.Fatalf("size %d: near mask of %s wrong", size, PointName(p, size))
			}
		}
	}
}
