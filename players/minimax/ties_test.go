package minimax

import (
	"context"
	"github.com/arenaref/arena/agent"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/search"
)

// plainMinimax returns the value of p searched depth plies deep by plain minimax, the
// value a fixed-depth search promises: the evaluation at depth 0 or at the end of the
// game, the best negated child value otherwise.
func plainMinimax(p *Position, depth int) int32 {
	if depth > 0 {
		if moves := p.Moves(nil); len(moves) > 0 {
			best := -search.Infinity
			for _, m := range moves {
				p.Make(m)
				best = max(best, -plainMinimax(p, depth-1))
				p.Unmake()
			}
			return best
		}
	}
	v, _ := p.Evaluate()
	return v
}

// plainRootScores returns plainMinimax's score of every legal move of s searched depth
// plies deep, in the position's static order.
func plainRootScores(s *othello.State, depth int) (moves []string, scores []int32) {
	p := NewPosition(s)
	for _, m := range p.Moves(nil) {
		p.Make(m)
		moves = append(moves, s.MoveString(m))
		scores = append(scores, -plainMinimax(p, depth-1))
		p.Unmake()
	}
	return moves, scores
}

func newSeeded(t testing.TB, seed int64, params map[string]string) *Agent {
	t.Helper()
	a, err := New(agent.Config{Seed: seed, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func choose(t testing.TB, a *Agent, s *othello.State) agent.Decision {
	t.Helper()
	d, err := a.Choose(context.Background(), turnFor(s))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestTiesRandomOpening: the four opening moves of 8x8 are images of one another under
// the board's symmetries, so they tie at every depth; ties=random plays each about as
// often, with the Info of ties=first but for the nodes and the PV.
func TestTiesRandomOpening(t *testing.T) {
	const seeds, calls = 40, 100
	opening := []string{"d3", "c4", "f5", "e6"}
	for _, depth := range []int{1, 2} {
		t.Run("depth="+strconv.Itoa(depth), func(t *testing.T) {
			s := othello.NewState()
			first := choose(t, newAgent(t, map[string]string{"depth": strconv.Itoa(depth)}), s)
			count := map[string]int{}
			for seed := range int64(seeds) {
				a := newSeeded(t, seed, map[string]string{"depth": strconv.Itoa(depth), "ties": "random", "tt": "1"})
				for range calls {
					d := choose(t, a, s)
					m := s.MoveString(d.Move)
					count[m]++
					if d.Info.Score != first.Info.Score || d.Info.Depth != first.Info.Depth ||
						len(d.Info.PV) != depth || d.Info.PV[0] != m || d.Info.Nodes <= first.Info.Nodes {
						t.Fatalf("seed %d: %s with info %+v; ties=first: %+v", seed, m, d.Info, first.Info)
					}
				}
			}
			total := seeds * calls
			for _, m := range opening {
				// Expected a quarter; the bounds are about seven standard deviations.
				if n := count[m]; n < total/5 || n > total*3/10 {
					t.Errorf("%s played %d times of %d (all: %v)", m, n, total, count)
				}
			}
			if len(count) != len(opening) {
				t.Errorf("moves played: %v, want only %v", count, opening)
			}
		})
	}
}

// TestTiesFirstUnchanged: ties=first is the agent as it was, move and Info alike, and it
// plays the same move every time. Both agents see the same calls: the table left by
// earlier searches can change the nodes and the PV (never the move or the score), by
// the moves it hands on to later entries for ordering.
func TestTiesFirstUnchanged(t *testing.T) {
	ps := append([]*othello.State{othello.NewState()}, positions(t, 8, 40, 6, 21)...)
	ps = append(ps, positions(t, 8, 10, 4, 22)...) // solved exactly
	ps = append(ps, positions(t, 6, 20, 4, 23)...)
	for _, depth := range []string{"1", "2", "3"} {
		t.Run("depth="+depth, func(t *testing.T) {
			plain := newAgent(t, map[string]string{"depth": depth})
			first := newSeeded(t, 5, map[string]string{"depth": depth, "ties": "first"})
			for i, s := range ps {
				var move game.Move
				for k := range 3 {
					want, got := choose(t, plain, s), choose(t, first, s)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("position %d: %+v, without the option %+v", i, got, want)
					}
					if k == 0 {
						move = got.Move
					} else if got.Move != move {
						t.Fatalf("position %d: played %s, then %s", i, s.MoveString(move), s.MoveString(got.Move))
					}
				}
			}
		})
	}
}

// TestTiesRandomSameSeed: a seed gives the same choices, Info included; another seed
// other choices.
func TestTiesRandomSameSeed(t *testing.T) {
	params := map[string]string{"depth": "2", "ties": "random"}
	ps := append(slices.Repeat([]*othello.State{othello.NewState()}, 30), positions(t, 8, 40, 20, 31)...)
	a, b, c := newSeeded(t, 7, params), newSeeded(t, 7, params), newSeeded(t, 8, params)
	differ := false
	for i, s := range ps {
		da, db, dc := choose(t, a, s), choose(t, b, s), choose(t, c, s)
		if !reflect.DeepEqual(da, db) {
			t.Fatalf("position %d: %+v, then %+v with the same seed", i, da, db)
		}
		differ = differ || da.Move != dc.Move
	}
	if !differ {
		t.Error("seeds 7 and 8 made the same choices")
	}
}

// TestTiesRandomUniqueBest: a position with one best root move gets it whatever the seed.
func TestTiesRandomUniqueBest(t *testing.T) {
	corner, err := othello.Parse(cornerWin) // solved at depth 2: one winning move
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		name  string
		s     *othello.State
		depth int
	}
	rows := []row{{"corner-win", corner, 2}}
	for depth := 1; depth <= 3; depth++ {
		found := 0
		for i, s := range positions(t, 8, 36, 40, uint64(40+depth)) {
			moves, scores := plainRootScores(s, depth)
			best := slices.Max(scores)
			tied := len(slices.DeleteFunc(slices.Clone(scores), func(v int32) bool { return v != best }))
			if len(moves) > 1 && tied == 1 && found < 4 {
				rows = append(rows, row{"depth=" + strconv.Itoa(depth) + "/" + strconv.Itoa(i), s, depth})
				found++
			}
		}
		if found == 0 {
			t.Fatalf("depth %d: no position with a unique best move", depth)
		}
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			params := map[string]string{"depth": strconv.Itoa(r.depth)}
			want := choose(t, newAgent(t, params), r.s)
			params["ties"] = "random"
			for seed := range int64(30) {
				got := choose(t, newSeeded(t, seed, params), r.s)
				if got.Move != want.Move || got.Info.Score != want.Info.Score || !slices.Equal(got.Info.PV, want.Info.PV) ||
					got.Info.Depth != want.Info.Depth || got.Info.Nodes <= want.Info.Nodes {
					t.Fatalf("seed %d: %+v, want the move and Info of ties=first %+v with more nodes", seed, got, want)
				}
			}
		})
	}
}

// TestRootScores: the root moves' exact scores match plain minimax (or the brute-force
// solution when the search goes to the end), their best is the root search's score and
// the search's move has it, and ties=random plays a move with that score.
func TestRootScores(t *testing.T) {
	type row struct {
		n, empties, count, depth int
		toEnd                    bool
	}
	var rows []row
	for depth := 1; depth <= 3; depth++ {
		rows = append(rows, row{8, 50, 6, depth, false}, row{8, 40, 10, depth, false}, row{8, 26, 10, depth, false},
			row{8, 14, 6, depth, false}, row{6, 20, 6, depth, false},
			row{8, 8, 4, depth, true}, row{6, 10, 4, depth, true}, row{4, 9, 4, depth, true})
	}
	for _, r := range rows {
		name := strconv.Itoa(r.n) + "x" + strconv.Itoa(r.n) + "/empties=" + strconv.Itoa(r.empties) + "/depth=" + strconv.Itoa(r.depth)
		t.Run(name, func(t *testing.T) {
			params := map[string]string{"depth": strconv.Itoa(r.depth), "ties": "random"}
			a := newSeeded(t, int64(r.empties), params)
			for i, s := range positions(t, r.n, r.empties, r.count, uint64(r.n*1000+r.empties*10+r.depth)) {
				w := a.get()
				w.pos.Reset(s)
				depth, toEnd := a.fixedDepth(s)
				if toEnd != r.toEnd {
					t.Fatalf("position %d: to the end %v, want %v", i, toEnd, r.toEnd)
				}
				res := w.s.Search(context.Background(), w.pos, search.Limits{Depth: depth})
				scores, _, ok := w.scoreRoot(context.Background(), childDepth(depth, toEnd))
				if !ok {
					t.Fatal("scoreRoot did not finish")
				}
				best := -search.Infinity
				for _, sc := range scores {
					best = max(best, sc.score)
					if sc.move == res.Move && sc.score != res.Score {
						t.Errorf("position %d %s: the search's move %s scores %d, the search %d", i, s, s.MoveString(sc.move), sc.score, res.Score)
					}
					c := *s
					if err := c.Play(sc.move); err != nil {
						t.Fatal(err)
					}
					if toEnd {
						if got, want := scoreDiscs(sc.score), float64(-solve(&c, new(int))); got != want {
							t.Errorf("position %d %s: %s scores %v discs, brute force %v", i, s, s.MoveString(sc.move), got, want)
						}
					} else if want := -plainMinimax(NewPosition(&c), r.depth-1); sc.score != want {
						t.Errorf("position %d %s: %s scores %d, plain minimax %d", i, s, s.MoveString(sc.move), sc.score, want)
					}
				}
				scores = slices.Clone(scores)
				a.put(w)
				if best != res.Score {
					t.Fatalf("position %d %s: best root score %d, search score %d", i, s, best, res.Score)
				}
				d := choose(t, a, s)
				k := slices.IndexFunc(scores, func(sc rootScore) bool { return sc.move == d.Move })
				if k < 0 || scores[k].score != best || d.Info.Score != scoreDiscs(best) || d.Info.Depth != res.Depth ||
					len(d.Info.PV) == 0 || d.Info.PV[0] != s.MoveString(d.Move) {
					t.Fatalf("position %d %s: ties=random played %+v, best score %d", i, s, d, best)
				}
			}
		})
	}
}

// TestTiesRandomConcurrent runs ties=random from several goroutines; the race detector
// watches the generator.
func TestTiesRandomConcurrent(t *testing.T) {
	a := newSeeded(t, 3, map[string]string{"depth": "2", "ties": "random", "tt": "1"})
	s := othello.NewState()
	opening := []string{"d3", "c4", "f5", "e6"}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				d, err := a.Choose(context.Background(), turnFor(s))
				if err != nil || !slices.Contains(opening, s.MoveString(d.Move)) {
					t.Errorf("%v %v", s.MoveString(d.Move), err)
				}
			}
		})
	}
	wg.Wait()
}
