package material_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/agents/material"
)

// squares returns the bitboard of PDN squares.
func squares(sq ...int) uint32 {
	var b uint32
	for _, s := range sq {
		b |= 1 << uint(s-1)
	}
	return b
}

func position(t testing.TB, v checkers.Variant, black, white, kings []int, side game.Seat) *checkers.State {
	t.Helper()
	s, err := checkers.FromPieces(v, squares(black...), squares(white...), squares(kings...), side)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func turn(s *checkers.State) agent.Turn {
	return agent.Turn{
		Game:  checkers.New(s.Variant()),
		State: s,
		Seat:  s.ToMove(),
		Legal: s.LegalMoves(s.ToMove(), nil),
	}
}

func choose(t testing.TB, a agent.Agent, s *checkers.State) agent.Decision {
	t.Helper()
	tu := turn(s)
	d, err := a.Choose(context.Background(), tu)
	if err != nil {
		t.Fatalf("Choose(%s): %v", s, err)
	}
	if !slices.Contains(tu.Legal, d.Move) {
		t.Fatalf("Choose(%s) = %d, not legal", s, d.Move)
	}
	return d
}

func TestRegistered(t *testing.T) {
	if got := agent.Games(material.Name); !slices.Equal(got, []string{"checkers", "giveaway"}) {
		t.Errorf("material plays %v", got)
	}
	if agent.Doc(material.Name) == "" {
		t.Error("no description")
	}
	if _, err := agent.New(material.Name, agent.Config{Seed: 1}); err != nil {
		t.Error(err)
	}
	if _, err := agent.New(material.Name, agent.Config{Params: map[string]string{"depth": "2"}}); err == nil {
		t.Error("a parameter accepted")
	}
}

// TestChoices runs the agent on hand-made positions, each with one best move by its
// rules, under several seeds. Squares are PDN: black's men start on 1-12 and move towards
// 32, white's on 21-32.
func TestChoices(t *testing.T) {
	tests := []struct {
		name                string
		v                   checkers.Variant
		black, white, kings []int
		side                game.Seat
		want                string
		score               float64
	}{
		{
			// 10x19 takes the king on 15, 14x23 the man on 18: the king is worth more.
			name: "checkers takes the king", v: checkers.Standard,
			black: []int{10, 14}, white: []int{15, 18, 32}, kings: []int{15}, side: checkers.Black,
			want: "10x19", score: 0,
		},
		{
			// White's man on 22 takes two (17, then 9); the one on 30 only 26.
			name: "checkers takes two rather than one", v: checkers.Standard,
			black: []int{9, 17, 26}, white: []int{22, 30}, side: checkers.White,
			want: "22x13x6", score: 1,
		},
		{
			// Compulsory captures: giveaway takes the man, the least it may.
			name: "giveaway takes the man", v: checkers.Giveaway,
			black: []int{10, 14}, white: []int{15, 18, 32}, kings: []int{15}, side: checkers.Black,
			want: "14x23", score: 0.5,
		},
		{
			// 14-18 gives the man away (23x14 is then compulsory); 14-17 keeps it.
			name: "giveaway gives a man away", v: checkers.Giveaway,
			black: []int{14}, white: []int{23, 32}, side: checkers.Black,
			want: "14-18", score: 1,
		},
		{
			// Nothing to give: after 6-9 black has three moves (1-6, 9-13, 9-14), after
			// 5-9 or 6-10 four. The man on 1 is blocked by 5 and 6.
			name: "giveaway fewer moves", v: checkers.Giveaway,
			black: []int{1, 5, 6}, white: []int{32}, side: checkers.Black,
			want: "6-9", score: -2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := position(t, tc.v, tc.black, tc.white, tc.kings, tc.side)
			text := s.String()
			for seed := range int64(8) {
				d := choose(t, material.New(seed), s)
				if s.MoveString(d.Move) != tc.want {
					t.Fatalf("seed %d: played %s, want %s", seed, s.MoveString(d.Move), tc.want)
				}
				if d.Info.Depth != 1 || d.Info.Score != tc.score {
					t.Errorf("info %+v, want depth 1 and score %v", d.Info, tc.score)
				}
			}
			if s.String() != text {
				t.Errorf("Choose changed the position to %s", s)
			}
		})
	}
}

// TestTiesAtRandom: in the opening every move keeps the material even, so the agent
// plays all seven of them over seeds, and the same seed gives the same moves.
func TestTiesAtRandom(t *testing.T) {
	s := checkers.New(checkers.Standard).Initial()
	seen := map[string]bool{}
	for seed := range int64(100) {
		m := s.MoveString(choose(t, material.New(seed), s).Move)
		if again := s.MoveString(choose(t, material.New(seed), s).Move); again != m {
			t.Fatalf("seed %d: %s then %s", seed, m, again)
		}
		seen[m] = true
	}
	if len(seen) != 7 {
		t.Errorf("opening moves played: %v, want all 7", seen)
	}
}

// randomPositions returns positions met in random games of v, the game still going.
func randomPositions(t testing.TB, v checkers.Variant, games int, seed uint64) []*checkers.State {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []*checkers.State
	for range games {
		s := checkers.New(v).Initial()
		for !s.IsTerminal() {
			c := *s
			out = append(out, &c)
			ms := s.LegalMoves(s.ToMove(), nil)
			if err := s.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// TestBestByItsRules checks every choice on random positions against the rules the
// package documentation states, computed here from the position after each move.
func TestBestByItsRules(t *testing.T) {
	for _, v := range []checkers.Variant{checkers.Standard, checkers.Giveaway} {
		t.Run(v.String(), func(t *testing.T) {
			a := material.New(1)
			for _, s := range randomPositions(t, v, 30, uint64(v)+1) {
				me := s.ToMove()
				value := func(m game.Move) [4]int {
					c := *s
					if err := c.Play(m); err != nil {
						t.Fatal(err)
					}
					var r [4]int
					if c.IsTerminal() {
						ret := c.Returns(nil)
						switch {
						case ret[me] > 0:
							r[0] = 1
						case ret[me] < 0:
							r[0] = -1
						}
					}
					b, w := material.Points(&c)
					r[1] = b - w
					if me == checkers.White {
						r[1] = -r[1]
					}
					if v == checkers.Giveaway {
						r[1] = -r[1]
						if c.MustCapture() {
							r[2] = 1
						}
						r[3] = -len(c.MovesOf(me, nil))
					}
					return r
				}
				var best [4]int
				for i, m := range s.LegalMoves(me, nil) {
					if r := value(m); i == 0 || slices.Compare(r[:], best[:]) > 0 {
						best = r
					}
				}
				d := choose(t, a, s)
				if got := value(d.Move); got != best {
					t.Fatalf("%s: played %s valued %v, best %v", s, s.MoveString(d.Move), got, best)
				}
			}
		})
	}
}

func TestErrors(t *testing.T) {
	a := material.New(1)
	if _, err := a.Choose(context.Background(), agent.Turn{State: othello.NewState(), Legal: []game.Move{19}}); !errors.Is(err, material.ErrNotCheckers) {
		t.Errorf("Othello position: %v", err)
	}
	s := checkers.New(checkers.Standard).Initial()
	tu := turn(s)
	tu.Seat = checkers.White
	if _, err := a.Choose(context.Background(), tu); err == nil {
		t.Error("wrong seat accepted")
	}
	over := position(t, checkers.Standard, []int{14}, nil, nil, checkers.White)
	if _, err := a.Choose(context.Background(), agent.Turn{State: over, Seat: checkers.White, Legal: []game.Move{0}}); err == nil {
		t.Error("finished game accepted")
	}
}

// TestConcurrentChoose: the race detector watches the shared generator.
func TestConcurrentChoose(t *testing.T) {
	a := material.New(3)
	s := checkers.New(checkers.Giveaway).Initial()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				c := *s
				if _, err := a.Choose(context.Background(), turn(&c)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}
