package search_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/loadmeter"
	"github.com/arenaref/arena/players/ai/search"
)

// pick is a small game with many transpositions: items with values lie on a table, the
// players take one each in turn, and each scores the values it took. The game ends when
// the table is empty, and the result is the difference of the sums.
// The heuristic is the current difference plus some deterministic noise, so that
// shallow and deep searches disagree.
type pick struct {
	values []int32
	taken  uint32 // bit i: item i is gone
	diff   int32  // sum taken by the side to move minus the other's
	hist   []int  // moves made, for Unmake
	noise  uint64
	makes  int64
}

func newPick(rng *rand.Rand, n int) *pick {
	p := &pick{values: make([]int32, n), noise: rng.Uint64()}
	for i := range p.values {
		p.values[i] = int32(rng.IntN(20) - 5)
	}
	return p
}

func (p *pick) Key() uint64 {
	// The diff is determined by who took what, which the key must then include: the
	// side to move is the parity of the count taken, and the items each side took
	// differ between transpositions, so the key hashes the diff too.
	return uint64(p.taken)*0x9e3779b97f4a7c15 ^ uint64(uint32(p.diff))<<32 ^ uint64(len(p.hist)&1)
}

func (p *pick) Moves(buf []int) []int {
	for i := range p.values {
		if p.taken&(1<<i) == 0 {
			buf = append(buf, i)
		}
	}
	return buf
}

func (p *pick) Make(m int) {
	p.makes++
	p.taken |= 1 << m
	p.diff = -(p.diff + p.values[m])
	p.hist = append(p.hist, m)
}

func (p *pick) Unmake() {
	m := p.hist[len(p.hist)-1]
	p.hist = p.hist[:len(p.hist)-1]
	p.taken &^= 1 << m
	p.diff = -p.diff - p.values[m]
}

func (p *pick) over() bool { return int(p.taken) == 1<<len(p.values)-1 }

func (p *pick) Evaluate() (int32, bool) {
	if p.over() {
		switch {
		case p.diff > 0:
			return search.Win + p.diff, true
		case p.diff < 0:
			return -search.Win + p.diff, true
		}
		return 0, true
	}
	h := (uint64(p.taken) ^ p.noise) * 0xbf58476d1ce4e5b9
	h ^= h >> 31
	return 4*p.diff + int32(h%7) - 3, false
}

func (p *pick) MoveIndex(m int) int { return m }

// minimax is the plain minimax value of p at depth.
func minimax(p *pick, depth int) int32 { return reference(p, depth, nil) }

// reference is plain minimax of p to depth that, where settled is given and says no at
// the depth limit, plays on through the moves.
func reference(p search.Position[int], depth int, settled func() bool) int32 {
	var buf [32]int
	moves := p.Moves(buf[:0])
	if len(moves) == 0 || depth <= 0 && (settled == nil || settled()) {
		v, _ := p.Evaluate()
		return v
	}
	best := -search.Infinity
	for _, m := range moves {
		p.Make(m)
		best = max(best, -reference(p, depth-1, settled))
		p.Unmake()
	}
	return best
}

func TestSearchEqualsMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	with := search.New[int](search.Config{MoveIndices: 16, TableBytes: 1 << 16})
	without := search.New[int](search.Config{MoveIndices: 16, TableBytes: -1})
	for game := range 40 {
		p := newPick(rng, 5+game%4)
		for depth := 1; depth <= len(p.values); depth++ {
			want := minimax(p, depth)
			for name, s := range map[string]*search.Searcher[int]{"table": with, "no table": without} {
				r := s.Search(context.Background(), p, search.Limits{Depth: depth})
				if r.Score != want || r.Depth != depth {
					t.Fatalf("game %d depth %d (%s): score %d at depth %d, minimax %d", game, depth, name, r.Score, r.Depth, want)
				}
				if len(p.hist) != 0 {
					t.Fatalf("search left %d moves made", len(p.hist))
				}
				checkPV(t, p, r)
			}
		}
	}
}

// TestFixedDepthIsReproducible checks that a fixed-depth search gives the same result,
// node count included, whatever the searcher searched before: nothing an earlier search
// left in the table may steer it.
func TestFixedDepthIsReproducible(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	games := make([]*pick, 30)
	for i := range games {
		games[i] = newPick(rng, 7+i%3)
	}
	fresh := func(p *pick, depth int) search.Result[int] {
		return search.New[int](search.Config{MoveIndices: 16, TableBytes: 1 << 12}).Search(context.Background(), p, search.Limits{Depth: depth})
	}
	used := search.New[int](search.Config{MoveIndices: 16, TableBytes: 1 << 12})
	for round := range 3 {
		for i, p := range games {
			for depth := 2; depth <= 5; depth++ {
				want := fresh(p, depth)
				got := used.Search(context.Background(), p, search.Limits{Depth: depth})
				if got.Score != want.Score || got.Move != want.Move || got.Nodes != want.Nodes || !slices.Equal(got.PV, want.PV) {
					t.Fatalf("round %d game %d depth %d: after other searches %+v, fresh %+v", round, i, depth, got, want)
				}
			}
		}
	}
}

// checkPV replays the principal variation and checks that it starts with the move and
// that each move is legal, and, when it reaches a leaf of the search, that the leaf's
// score is the result's.
func checkPV(t *testing.T, p *pick, r search.Result[int]) {
	t.Helper()
	if !r.HasMove || len(r.PV) == 0 || r.PV[0] != r.Move {
		t.Fatalf("result %+v: PV does not start with the move", r)
	}
	for _, m := range r.PV {
		ok := false
		for _, l := range p.Moves(nil) {
			ok = ok || l == m
		}
		if !ok {
			t.Fatalf("PV %v: move %d illegal", r.PV, m)
		}
		p.Make(m)
	}
	if len(r.PV) == r.Depth || p.over() {
		v, _ := p.Evaluate()
		if len(r.PV)%2 == 1 {
			v = -v
		}
		if v != r.Score {
			t.Errorf("PV %v ends at score %d, search says %d", r.PV, v, r.Score)
		}
	}
	for range r.PV {
		p.Unmake()
	}
}

func TestExactSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := search.New[int](search.Config{MoveIndices: 16})
	for range 20 {
		p := newPick(rng, 9)
		want := minimax(p, 99)
		r := s.Search(context.Background(), p, search.Limits{})
		if !r.Exact || r.Score != want {
			t.Fatalf("solve: score %d exact %v, minimax %d", r.Score, r.Exact, want)
		}
		if r.Depth != 9 {
			t.Errorf("solve stopped at depth %d, want 9 (the game's length)", r.Depth)
		}
	}
}

func TestNodesCountEveryPosition(t *testing.T) {
	p := newPick(rand.New(rand.NewPCG(5, 6)), 8)
	s := search.New[int](search.Config{MoveIndices: 16})
	r := s.Search(context.Background(), p, search.Limits{Depth: 5})
	// Every node but the root of each iteration is entered through Make, and some are
	// searched a second time with a wider window.
	if min := p.makes + int64(r.Depth); r.Nodes < min || r.Nodes > 2*min {
		t.Errorf("nodes %d, want from makes+iterations = %d to twice that", r.Nodes, min)
	}
}

func TestGameOverAtRoot(t *testing.T) {
	p := newPick(rand.New(rand.NewPCG(7, 8)), 3)
	for _, m := range []int{0, 1, 2} {
		p.Make(m)
	}
	r := search.New[int](search.Config{MoveIndices: 16}).Search(context.Background(), p, search.Limits{Depth: 3})
	if r.HasMove || !r.Exact || r.Depth != 0 {
		t.Errorf("finished game: %+v", r)
	}
}

// slow is a game of unbounded length, so only the deadline can end a search of it.
type slow struct{ depth int }

func (s *slow) Key() uint64               { return uint64(s.depth) }
func (s *slow) Moves(buf []int32) []int32 { return append(buf, 0, 1, 2, 3, 4, 5) }
func (s *slow) Make(int32)                { s.depth++; time.Sleep(0) }
func (s *slow) Unmake()                   { s.depth-- }
func (s *slow) Evaluate() (int32, bool)   { return int32(s.depth % 3), false }
func (s *slow) MoveIndex(m int32) int     { return int(m) }

// TestDeadline checks that a search stops at its deadline. A busy machine can deschedule
// the test at the wrong moment, so the search may be late by as much as the process was
// (loadmeter.Watch), and a late search is run again up to twice: one that ignores its
// deadline is late every time.
func TestDeadline(t *testing.T) {
	s := search.New[int32](search.Config{MoveIndices: 6, TableBytes: -1})
	for _, budget := range []time.Duration{0, time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond} {
		var late time.Duration
		for range 3 {
			stop := loadmeter.Watch()
			start := time.Now()
			r := s.Search(context.Background(), &slow{}, search.Limits{Deadline: start.Add(budget)})
			late = time.Since(start) - budget - stop().Late
			if !r.HasMove {
				t.Errorf("budget %v: no move", budget)
			}
			if budget >= 5*time.Millisecond && r.Depth < 2 {
				t.Errorf("budget %v: only depth %d completed", budget, r.Depth)
			}
			if late <= 3*time.Millisecond {
				break
			}
		}
		if late > 3*time.Millisecond {
			t.Errorf("budget %v: search returned %v late three times, beyond the process's own lateness", budget, late)
		}
	}
}

// TestContextStops: a search stops soon after its context ends, allowing for the
// process's own lateness on a busy machine (loadmeter.Watch).
func TestContextStops(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	s := search.New[int32](search.Config{MoveIndices: 6}) // its table is made before the clock starts
	stop := loadmeter.Watch()
	start := time.Now()
	r := s.Search(ctx, &slow{}, search.Limits{})
	d := time.Since(start)
	if late := stop().Late; d > 100*time.Millisecond+late || !r.HasMove {
		t.Errorf("cancelled search took %v (the process %v late), result %+v", d, late, r)
	}
}

func TestNodeLimit(t *testing.T) {
	r := search.New[int32](search.Config{MoveIndices: 6}).Search(context.Background(), &slow{}, search.Limits{Nodes: 10000})
	if r.Nodes > 10000+search.CheckInterval || r.Depth < 1 {
		t.Errorf("node limit 10000: %d nodes, depth %d", r.Nodes, r.Depth)
	}
}

func TestSoftLimitStartsNoIteration(t *testing.T) {
	now := time.Now()
	r := search.New[int32](search.Config{MoveIndices: 6}).Search(context.Background(), &slow{},
		search.Limits{Soft: now.Add(-time.Second), Deadline: now.Add(time.Second)})
	if r.Depth != 1 {
		t.Errorf("soft limit already past: depth %d, want 1", r.Depth)
	}
}

func TestConcurrentSearches(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			s := search.New[int](search.Config{MoveIndices: 16, TableBytes: 1 << 16})
			for range 10 {
				p := newPick(rng, 7)
				if r, want := s.Search(context.Background(), p, search.Limits{Depth: 4}), minimax(p, 4); r.Score != want {
					t.Errorf("score %d, want %d", r.Score, want)
				}
			}
		}()
	}
	wg.Wait()
}

func TestNoAllocationPerNode(t *testing.T) {
	p := newPick(rand.New(rand.NewPCG(10, 11)), 9)
	p.hist = make([]int, 0, 16)
	s := search.New[int](search.Config{MoveIndices: 16, TableBytes: 1 << 16})
	s.Search(context.Background(), p, search.Limits{Depth: 6}) // grow the move buffers
	var nodes int64
	allocs := testing.AllocsPerRun(10, func() {
		nodes = s.Search(context.Background(), p, search.Limits{Depth: 6}).Nodes
	})
	if allocs > 2 || nodes < 1000 {
		t.Errorf("%v allocations for a search of %d nodes; want at most 2 (the PV)", allocs, nodes)
	}
}
