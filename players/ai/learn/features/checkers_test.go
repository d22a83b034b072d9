package features_test

import (
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/ai/learn/features"
)

func squares(sq ...int) uint32 {
	var b uint32
	for _, s := range sq {
		b |= 1 << uint(s-1)
	}
	return b
}

func checkersFeatures(own, opp, kings uint32, ownToMove bool) map[string]float64 {
	var phi [features.CheckersCount]float64
	features.Checkers(own, opp, kings, ownToMove, phi[:])
	m := map[string]float64{}
	for k, n := range features.CheckersNames {
		m[n] = phi[k]
	}
	return m
}

// TestCheckersHandMade checks every feature on two small positions worked out by hand
// (own's back row is squares 1-4, own's men move towards 29-32).
func TestCheckersHandMade(t *testing.T) {
	tests := []struct {
		name             string
		ownMen, ownKings []int
		oppMen, oppKings []int
		ownToMove        bool
		want             map[string]float64
	}{
		{
			// Own men 1, 2, 10 and king 26; opp men 15, 23 and king 3; own to move.
			// Own jumps 10x19 and 26x19; opp jumps 15x6. Own steps 1-5, 1-6, 2-6, 2-7,
			// 10-14, 26-22, 26-30, 26-31; opp steps 15-11, 23-18, 23-19, 3-7 (denied:
			// 2x11 follows), 3-8. Gaps: 5 (1 and the edge), 6 (between 1 and 10), 30 and
			// 31 (26 and the edge); hole: 6 (next to 1, 2 and 10).
			name:   "middle game",
			ownMen: []int{1, 2, 10}, ownKings: []int{26},
			oppMen: []int{15, 23}, oppKings: []int{3},
			ownToMove: true,
			want: map[string]float64{
				"men_diff": 1, "kings_diff": 0, "pieces_own": 2, "pieces_opp": 1.5,
				"mobility_own": 1, "mobility_opp": 0.5,
				"denied_moves_diff": -1, "undenied_mobility_diff": 4, "threats_diff": 1,
				"exposure_diff": 0, "advancement_diff": -1, "back_row_diff": 2,
				"centre_diff": -1, "king_centre_diff": 0, "centre_control_diff": -2,
				"double_diagonal_diff": 0, "dyke_diff": 0, "gap_diff": 4, "hole_diff": 1,
				"node_diff": 0, "opposition": 0, "to_move": 1,
			},
		},
		{
			// Own men 13, 17, 22 (a dyke on 13-17-22) and king 18; opp men 28, 29 and
			// kings 12, 32; opp to move. Four pieces each; on opp's system (the rows of
			// 5-8, 13-16, 21-24, 29-32) stand 13, 22, 29 and 32: even, so own has the
			// opposition.
			name:   "kings and the opposition",
			ownMen: []int{13, 17, 22}, ownKings: []int{18},
			oppMen: []int{28, 29}, oppKings: []int{12, 32},
			ownToMove: false,
			want: map[string]float64{
				"men_diff": 1, "kings_diff": -1, "pieces_own": 2, "pieces_opp": 2,
				"exposure_diff": 2, "king_centre_diff": 1, "double_diagonal_diff": -1,
				"dyke_diff": 1, "node_diff": 1, "opposition": 1, "to_move": -1,
				"back_row_diff": -1, "advancement_diff": 2, "centre_diff": 1,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			own := squares(tc.ownMen...) | squares(tc.ownKings...)
			opp := squares(tc.oppMen...) | squares(tc.oppKings...)
			kings := squares(tc.ownKings...) | squares(tc.oppKings...)
			got := checkersFeatures(own, opp, kings, tc.ownToMove)
			for name, want := range tc.want {
				if got[name] != want {
					t.Errorf("%s = %v, want %v", name, got[name], want)
				}
			}
		})
	}
	if len(tests[0].want) != features.CheckersCount {
		t.Errorf("the first position checks %d features of %d", len(tests[0].want), features.CheckersCount)
	}
}

// randomCheckers returns positions met in random playouts of both variants.
func randomCheckers(n int, rng *rand.Rand) []*checkers.State {
	var out []*checkers.State
	var buf []game.Move
	for len(out) < n {
		s := checkers.New(checkers.Variant(rng.IntN(2))).Initial()
		for !s.IsTerminal() {
			c := *s
			out = append(out, &c)
			buf = s.LegalMoves(s.ToMove(), buf[:0])
			_ = s.Play(buf[rng.IntN(len(buf))])
		}
	}
	return out
}

// TestCheckersSymmetry checks that the features seen from the other side are the
// same facts turned round: differences, the opposition and to_move change sign, and
// pieces_own and mobility_own swap with their opp counterparts.
func TestCheckersSymmetry(t *testing.T) {
	var a, b [features.CheckersCount]float64
	swap := map[string]string{"pieces_own": "pieces_opp", "pieces_opp": "pieces_own", "mobility_own": "mobility_opp", "mobility_opp": "mobility_own"}
	idx := map[string]int{}
	for k, n := range features.CheckersNames {
		idx[n] = k
	}
	for _, s := range randomCheckers(2000, rand.New(rand.NewPCG(1, 2))) {
		black, white, kings := s.Pieces()
		features.Checkers(black, white, kings, s.Side() == checkers.Black, a[:])
		r := features.Rotate
		features.Checkers(r(white), r(black), r(kings), s.Side() == checkers.White, b[:])
		for k, n := range features.CheckersNames {
			want := -a[k]
			if o, ok := swap[n]; ok {
				want = a[idx[o]]
			}
			if b[k] != want {
				t.Fatalf("%s\n%s: %v from black, %v from white", s, n, a[k], b[k])
			}
		}
	}
}

// TestCheckersMobility checks mobility against the game's own moves: without a
// capture, every legal move is one step, so mobility_own is half their number.
func TestCheckersMobility(t *testing.T) {
	var phi [features.CheckersCount]float64
	var buf []game.Move
	checked := 0
	for _, s := range randomCheckers(2000, rand.New(rand.NewPCG(3, 4))) {
		for _, seat := range []game.Seat{checkers.Black, checkers.White} {
			black, white, kings := s.Pieces()
			own, opp := black, white
			if seat == checkers.White {
				own, opp, kings = features.Rotate(white), features.Rotate(black), features.Rotate(kings)
			}
			features.Checkers(own, opp, kings, s.Side() == seat, phi[:])
			buf = s.MovesOf(seat, buf[:0])
			captures := len(buf) > 0 && checkers.MoveCaptures(buf[0]) > 0
			if !captures {
				checked++
				if got := 2 * phi[4]; got != float64(len(buf)) {
					t.Fatalf("%s\n%v: mobility_own %v, %d legal moves", s, seat, got, len(buf))
				}
			} else if phi[4] == 0 {
				t.Fatalf("%s\n%v: must capture, mobility_own 0", s, seat)
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d positions without a capture", checked)
	}
}

func TestCheckersNoAlloc(t *testing.T) {
	var phi [features.CheckersCount]float64
	own, opp, kings := squares(1, 2, 10, 26), squares(15, 23, 3), squares(26, 3)
	if n := testing.AllocsPerRun(100, func() { features.Checkers(own, opp, kings, true, phi[:]) }); n != 0 {
		t.Errorf("Checkers allocates %v times", n)
	}
}

func BenchmarkCheckers(b *testing.B) {
	var phi [features.CheckersCount]float64
	ps := randomCheckers(1000, rand.New(rand.NewPCG(5, 6)))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		black, white, kings := ps[i%len(ps)].Pieces()
		features.Checkers(black, white, kings, true, phi[:])
	}
}
