package minimax

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// plainRootScores returns plain minimax's score of every legal move of s searched depth
// plies deep, in the position's static order.
func plainRootScores(t testing.TB, s *othello.State, depth int) (moves []string, scores []int32) {
	p := positionAt(t, othelloGame{}, s)
	for _, m := range p.Moves(nil) {
		p.Make(m)
		moves = append(moves, s.MoveString(m))
		scores = append(scores, -plainValue(p, depth-1))
		p.Unmake()
	}
	return moves, scores
}

// TestTiesRandomOpening: the four opening moves of 8x8 are images of one another under
// the board's symmetries, so they tie at every depth; ties=random plays each about as
// often, with the score and depth of ties=first.
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
						len(d.Info.PV) != depth || d.Info.PV[0] != m {
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

// TestTiesRandomUniqueBest: a position with one best root move gets it whatever the
// seed, with the score of ties=first, and its depth unless the search solves the game.
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
			moves, scores := plainRootScores(t, s, depth)
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
				// A solved position (corner-win) may be proven exact at another iteration:
				// the windows that make ties exact visit other positions.
				solved := (othelloGame{}).SolveAt(r.s, -1)
				if got.Move != want.Move || got.Info.Score != want.Info.Score || got.Info.PV[0] != want.Info.PV[0] ||
					got.Info.Depth != want.Info.Depth && !solved {
					t.Fatalf("seed %d: %+v, want the move, score and depth of ties=first %+v", seed, got, want)
				}
			}
		})
	}
}

// TestTiesRandomPlaysBest: ties=random plays a root move of the best score, by plain
// minimax at the search's depth or by brute force when the search goes to the end, and
// reports that score, whatever the seed.
func TestTiesRandomPlaysBest(t *testing.T) {
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
			for i, s := range positions(t, r.n, r.empties, r.count, uint64(r.n*1000+r.empties*10+r.depth)) {
				if toEnd := (othelloGame{}).SolveAt(s, -1); toEnd != r.toEnd {
					t.Fatalf("position %d: to the end %v, want %v", i, toEnd, r.toEnd)
				}
				// The root moves' scores, in discs.
				scores := map[game.Move]float64{}
				for _, m := range s.LegalMoves(s.ToMove(), nil) {
					c := *s
					if err := c.Play(m); err != nil {
						t.Fatal(err)
					}
					if r.toEnd {
						scores[m] = float64(-solve(&c, new(int)))
					} else {
						scores[m] = scoreDiscs(-plainValue(positionAt(t, othelloGame{}, &c), r.depth-1))
					}
				}
				best := slices.Max(slices.Collect(maps.Values(scores)))
				for seed := range int64(4) {
					d := choose(t, newSeeded(t, seed, params), s)
					if scores[d.Move] != best || d.Info.Score != best || len(d.Info.PV) == 0 || d.Info.PV[0] != s.MoveString(d.Move) {
						t.Fatalf("position %d %s seed %d: ties=random played %s worth %v (info %+v), best %v",
							i, s, seed, s.MoveString(d.Move), scores[d.Move], d.Info, best)
					}
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
