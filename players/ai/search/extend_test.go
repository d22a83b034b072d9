package search_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/players/ai/search"
)

// restless is pick where a position with an odd number of items taken is not settled:
// the search must play on from it past its depth.
type restless struct{ *pick }

func (r restless) Settled() bool { return len(r.hist)%2 == 0 }

// TestUnsettledPositionsAreSearchedOn checks the search against reference minimax that
// plays on past the depth while unsettled, with and without a table, iterating and at
// once (Limits.Single), and that the principal variation reaches the settled leaf whose
// value the root has.
func TestUnsettledPositionsAreSearchedOn(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	with := search.New[int](search.Config{MoveIndices: 16, TableBytes: 1 << 16})
	without := search.New[int](search.Config{MoveIndices: 16, TableBytes: -1})
	for game := range 30 {
		r := restless{newPick(rng, 5+game%4)}
		for depth := 1; depth < len(r.values); depth++ {
			want := reference(r, depth, r.Settled)
			for name, s := range map[string]*search.Searcher[int]{"table": with, "no table": without} {
				for _, single := range []bool{false, true} {
					res := s.Search(context.Background(), r, search.Limits{Depth: depth, Single: single})
					if res.Score != want {
						t.Fatalf("game %d depth %d (%s, single %v): score %d, want %d", game, depth, name, single, res.Score, want)
					}
					if name == "no table" {
						// The leaf of the variation is settled (or finished) and worth the score.
						for _, m := range res.PV {
							r.Make(m)
						}
						v, _ := r.Evaluate()
						if len(res.PV)%2 == 1 {
							v = -v
						}
						if len(res.PV) < depth && !r.over() || !r.Settled() || v != want {
							t.Errorf("game %d depth %d: variation %v ends at a leaf worth %d (settled %v), want %d", game, depth, res.PV, v, r.Settled(), want)
						}
						for range res.PV {
							r.Unmake()
						}
					}
				}
			}
		}
	}
}

// flat is a one-move game: the mover takes one of the values and the game ends, worth
// the value to it.
type flat struct {
	values []int32
	taken  int // -1 before the move
}

func (f *flat) Key() uint64 { return uint64(f.taken + 1) }
func (f *flat) Moves(buf []int) []int {
	if f.taken >= 0 {
		return buf
	}
	for i := range f.values {
		buf = append(buf, i)
	}
	return buf
}
func (f *flat) Make(m int)          { f.taken = m }
func (f *flat) Unmake()             { f.taken = -1 }
func (f *flat) MoveIndex(m int) int { return m }
func (f *flat) Evaluate() (int32, bool) {
	if f.taken < 0 {
		return 0, false
	}
	return -f.values[f.taken], true // the opponent of the mover is to move
}

// TestTiesAreDrawn checks Limits.Ties: every root move of the best value is chosen, about
// equally often, and no other is; without Ties the first is always kept.
func TestTiesAreDrawn(t *testing.T) {
	p := &flat{values: []int32{3, 3, 1, 3, 2}, taken: -1}
	s := search.New[int](search.Config{MoveIndices: 16, TableBytes: -1})
	rng := rand.New(rand.NewPCG(7, 8))
	counts := map[int]int{}
	var score int32
	for i := range 600 {
		r := s.Search(context.Background(), p, search.Limits{Depth: 1, Single: true, Ties: rng})
		if i > 0 && r.Score != score {
			t.Fatalf("score %d, then %d", score, r.Score)
		}
		score = r.Score
		counts[r.Move]++
		if len(r.PV) == 0 || r.PV[0] != r.Move {
			t.Fatalf("variation %v does not start with the move %d", r.PV, r.Move)
		}
	}
	for m, n := range counts {
		if p.values[m] != 3 || n < 150 {
			t.Errorf("move %d (worth %d) chosen %d times of 600; want each of the three worth 3 about 200 times", m, p.values[m], n)
		}
	}
	if len(counts) != 3 {
		t.Errorf("chosen: %v; want the three moves worth 3", counts)
	}
	first := s.Search(context.Background(), p, search.Limits{Depth: 1}).Move
	for range 20 {
		if m := s.Search(context.Background(), p, search.Limits{Depth: 1}).Move; m != first {
			t.Fatalf("without Ties the move changed from %d to %d", first, m)
		}
	}
}
