package minimax

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/agents/material"
	"github.com/arenaref/arena/players/ai/boards"
	"github.com/arenaref/arena/players/ai/search"
	"github.com/arenaref/arena/protocol"
)

var variants = []checkers.Variant{checkers.Standard, checkers.Giveaway}

// pdn returns the bitboard of PDN squares.
func pdn(sq ...int) uint32 {
	var b uint32
	for _, s := range sq {
		b |= 1 << uint(s-1)
	}
	return b
}

func checkersState(t testing.TB, v checkers.Variant, black, white, kings []int, side game.Seat) *checkers.State {
	t.Helper()
	s, err := checkers.FromPieces(v, pdn(black...), pdn(white...), pdn(kings...), side)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkersPositions returns count positions of v, the game still going, met in random
// games after a random number of plies (up to 120, so some are king endgames).
func checkersPositions(t testing.TB, v checkers.Variant, count int, seed uint64) []*checkers.State {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(v)+0xc4))
	var out []*checkers.State
	for len(out) < count {
		s := checkers.New(v).Initial()
		randomPlay(t, s, rng, rng.IntN(120))
		if !s.IsTerminal() {
			out = append(out, s)
		}
	}
	return out
}

func checkersTurn(s *checkers.State) agent.Turn { return turnOf(s.Game(), s) }

// TestCheckersPosition follows random games through a checkersPosition: its moves are
// the legal moves, captures taking most first, and it is settled exactly when no capture
// is to be made.
func TestCheckersPosition(t *testing.T) {
	for _, v := range variants {
		rng := rand.New(rand.NewPCG(uint64(v), 11))
		captures := 0
		for range 60 {
			p := positionAt(t, checkersGame{}, checkers.New(v).Initial()).(*checkersPosition)
			for {
				cur := p.State()
				moves := p.Moves(nil)
				legal := cur.LegalMoves(cur.ToMove(), nil)
				slices.Sort(legal)
				if got := slices.Sorted(slices.Values(moves)); !slices.Equal(got, legal) {
					t.Fatalf("%s: Moves %v, LegalMoves %v", cur, moves, legal)
				}
				for i := 1; i < len(moves); i++ {
					if checkers.MoveCaptures(moves[i]) > checkers.MoveCaptures(moves[i-1]) {
						t.Fatalf("%s: %v not ordered by captures", cur, moves)
					}
				}
				if len(moves) == 0 {
					break
				}
				capture := checkers.MoveCaptures(moves[0]) > 0
				if p.Settled() == capture {
					t.Fatalf("%s: settled %v with moves %v", cur, p.Settled(), moves)
				}
				if capture {
					captures++
				}
				p.Make(moves[rng.IntN(len(moves))])
			}
		}
		if captures == 0 {
			t.Errorf("%s: no capture in any game", v)
		}
	}
}

// TestCheckersForced: hand-made positions with one winning move, found at every depth
// from the shot's length on and under a time limit. Squares are PDN: black's men start
// on 1-12 and move towards 32, white's on 21-32.
func TestCheckersForced(t *testing.T) {
	tests := []struct {
		name                string
		v                   checkers.Variant
		black, white, kings []int
		side                game.Seat
		want                string
		minDepth            int
		proven              bool // a forced win of the game, not only of material
	}{
		{
			// Two for one: 13-17 gives a man, 21x14 is forced (the man cannot jump on
			// over 9: 5 is taken), and 9x18x27 takes 14 and 23 back.
			name: "checkers two for one", v: checkers.Standard,
			black: []int{5, 9, 13}, white: []int{21, 23, 29}, side: checkers.Black,
			want: "13-17", minDepth: 3,
		},
		{
			// The same shot for white, the board turned round.
			name: "checkers two for one, white", v: checkers.Standard,
			black: []int{4, 10, 12}, white: []int{20, 24, 28}, side: checkers.White,
			want: "20-16", minDepth: 3,
		},
		{
			// The two for one takes white's last two pieces: a won game.
			name: "checkers shot wins", v: checkers.Standard,
			black: []int{5, 9, 13}, white: []int{21, 23}, side: checkers.Black,
			want: "13-17", minDepth: 3, proven: true,
		},
		{
			// Giving the last man away wins: after 14-18 23x14 is forced and black,
			// with no piece left, cannot move.
			name: "giveaway last man", v: checkers.Giveaway,
			black: []int{14}, white: []int{23, 32}, side: checkers.Black,
			want: "14-18", minDepth: 2, proven: true,
		},
		{
			// A king given away: after 19-23 26x19 is forced; black has nothing left.
			name: "giveaway last king", v: checkers.Giveaway,
			black: []int{19}, white: []int{5, 26}, kings: []int{19}, side: checkers.Black,
			want: "19-23", minDepth: 2, proven: true,
		},
	}
	for _, tc := range tests {
		s := checkersState(t, tc.v, tc.black, tc.white, tc.kings, tc.side)
		var runs []map[string]string
		for d := tc.minDepth; d <= 6; d++ {
			runs = append(runs, map[string]string{"depth": strconv.Itoa(d)}, map[string]string{"depth": strconv.Itoa(d), "ties": "random"})
		}
		runs = append(runs, nil)
		for _, params := range runs {
			t.Run(tc.name+"/"+paramsName(params), func(t *testing.T) {
				tu := checkersTurn(s)
				tu.Deadline = time.Now().Add(200 * time.Millisecond)
				tu.Clock = protocol.Clock{MoveMS: 200, RemainingMS: 200, PerMove: true}
				d, err := newAgent(t, params).Choose(context.Background(), tu)
				if err != nil {
					t.Fatal(err)
				}
				if got := s.MoveString(d.Move); got != tc.want || d.Info.Score <= 0 {
					t.Fatalf("%s: played %s (info %+v), want %s", s, got, d.Info, tc.want)
				}
				if tc.proven && params == nil && d.Info.Depth > tc.minDepth+1 {
					t.Errorf("a win in %d plies, searched to depth %d", tc.minDepth, d.Info.Depth)
				}
				if len(d.Info.PV) == 0 || d.Info.PV[0] != tc.want {
					t.Errorf("PV %v", d.Info.PV)
				}
			})
		}
	}
}

func paramsName(p map[string]string) string {
	if len(p) == 0 {
		return "timed"
	}
	name := "depth=" + p["depth"]
	if p["ties"] != "" {
		name += ",ties=" + p["ties"]
	}
	return name
}

// TestCheckersAgentsLegal asks the minimax agent, in each of its modes, and the material
// agent for moves in random positions of both variants, and checks that each is legal
// and its principal variation starts with it.
func TestCheckersAgentsLegal(t *testing.T) {
	agents := []struct {
		name   string
		params map[string]string
	}{
		{"depth=1", map[string]string{"depth": "1"}},
		{"depth=4", map[string]string{"depth": "4", "tt": "1"}},
		{"depth=3,ties=random", map[string]string{"depth": "3", "ties": "random", "tt": "1"}},
		{"timed", nil},
		{"material", nil},
	}
	for _, v := range variants {
		ps := checkersPositions(t, v, 150, 5)
		for _, ag := range agents {
			t.Run(v.String()+"/"+ag.name, func(t *testing.T) {
				var a agent.Agent = material.New(1)
				if ag.name != "material" {
					a = newSeeded(t, 2, ag.params)
				}
				for i, s := range ps {
					c := *s
					tu := checkersTurn(&c)
					tu.Deadline = time.Now().Add(5 * time.Millisecond)
					tu.Clock = protocol.Clock{MoveMS: 5, RemainingMS: 5, PerMove: true}
					d, err := a.Choose(context.Background(), tu)
					if err != nil {
						t.Fatalf("position %d %s: %v", i, s, err)
					}
					if !slices.Contains(tu.Legal, d.Move) {
						t.Fatalf("position %d %s: illegal move %d", i, s, d.Move)
					}
					if c != *s {
						t.Fatalf("position %d: Choose changed the turn's state to %s", i, &c)
					}
					if ag.name != "material" && (len(d.Info.PV) == 0 || d.Info.PV[0] != s.MoveString(d.Move) || d.Info.Depth < 1) {
						t.Fatalf("position %d %s: %s with info %+v", i, s, s.MoveString(d.Move), d.Info)
					}
				}
			})
		}
	}
}

// TestCheckersTiesRandom: several opening moves of checkers score the same at depths 2
// and 3 (in giveaway one is best), so ties=random plays several of them, each with the
// best score, and a seed always gives the same choices.
func TestCheckersTiesRandom(t *testing.T) {
	s := checkers.New(checkers.Standard).Initial()
	for _, depth := range []string{"2", "3"} {
		first := chooseCheckers(t, newAgent(t, map[string]string{"depth": depth}), s)
		seen := map[string]bool{}
		for seed := range int64(30) {
			params := map[string]string{"depth": depth, "ties": "random"}
			a, b := newSeeded(t, seed, params), newSeeded(t, seed, params)
			da, db := chooseCheckers(t, a, s), chooseCheckers(t, b, s)
			if da.Move != db.Move {
				t.Fatalf("depth %s seed %d: %s, then %s", depth, seed, s.MoveString(da.Move), s.MoveString(db.Move))
			}
			if da.Info.Score != first.Info.Score || da.Info.Nodes <= first.Info.Nodes {
				t.Fatalf("depth %s seed %d: %s with %+v; ties=first %+v", depth, seed, s.MoveString(da.Move), da.Info, first.Info)
			}
			seen[s.MoveString(da.Move)] = true
		}
		if len(seen) < 2 {
			t.Errorf("depth %s: ties=random always played %v", depth, seen)
		}
	}
}

// TestCheckersSearchAllocs: a search allocates its principal variation and nothing per
// node, the capture sequences it plays out past its depth included.
func TestCheckersSearchAllocs(t *testing.T) {
	for _, v := range variants {
		ps := checkersPositions(t, v, 8, 12)
		s := search.New[game.Move](search.Config{MoveIndices: boards.CheckersMoveIndices, TableBytes: 1 << 20})
		pos := positionAt(t, checkersGame{}, ps[0])
		var nodes int64
		allocs := testing.AllocsPerRun(3, func() {
			for _, p := range ps {
				pos.Reset(p)
				nodes += s.Search(context.Background(), pos, search.Limits{Depth: 6}).Nodes
			}
		})
		// One allocation per search, for the principal variation.
		if allocs > float64(len(ps)) {
			t.Errorf("%s: %v allocations for %d searches of %d nodes", v, allocs, len(ps), nodes/4)
		}
	}
}

// chooseCheckers asks a for a move in s.
func chooseCheckers(t testing.TB, a *Agent, s *checkers.State) agent.Decision {
	t.Helper()
	return decide(t, a, checkersTurn(s))
}

// TestCheckersMobility checks the evaluation's move count on bitboards against the
// rules' move lists: equal without captures; with captures, one per first jump, so at
// least one and at most the number of capture paths.
func TestCheckersMobility(t *testing.T) {
	withCaptures := 0
	for _, v := range variants {
		for _, s := range checkersPositions(t, v, 400, 13) {
			b, w, k := s.Pieces()
			for _, seat := range []game.Seat{checkers.Black, checkers.White} {
				own, opp := b, w
				if seat == checkers.White {
					own, opp = w, b
				}
				got := int(checkersMobility(own, opp, k, seat == checkers.Black))
				moves := s.MovesOf(seat, nil)
				captures := len(moves) > 0 && checkers.MoveCaptures(moves[0]) > 0
				switch {
				case !captures && got != len(moves):
					t.Fatalf("%s: %d moves for seat %v, counted %d", s, len(moves), seat, got)
				case captures && (got < 1 || got > len(moves)):
					t.Fatalf("%s: %d captures for seat %v, counted %d", s, len(moves), seat, got)
				}
				if captures {
					withCaptures++
				}
			}
		}
	}
	if withCaptures == 0 {
		t.Error("no position with a capture")
	}
}

// TestCheckersIgnoresExact: exact= is Othello's; in checkers a fixed-depth search is the
// same with it.
func TestCheckersIgnoresExact(t *testing.T) {
	plain := newAgent(t, map[string]string{"depth": "3"})
	exact := newAgent(t, map[string]string{"depth": "3", "exact": "64"})
	for _, v := range variants {
		for _, s := range checkersPositions(t, v, 10, 15) {
			a, b := chooseCheckers(t, plain, s), chooseCheckers(t, exact, s)
			if a.Move != b.Move || a.Info.Depth != 3 || b.Info.Depth != 3 || a.Info.Score != b.Info.Score {
				t.Fatalf("%s: %+v without exact=, %+v with", s, a, b)
			}
		}
	}
}
