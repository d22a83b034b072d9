package minimax

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/search"
)

// newGame returns Othello of size n.
func newGame(t testing.TB, n int) *othello.Game {
	t.Helper()
	g, err := othello.NewSize(n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// randomPlay plays up to plies random legal moves (passes included) from s, stopping at
// the end of the game.
func randomPlay(t testing.TB, s game.State, rng *rand.Rand, plies int) {
	t.Helper()
	var buf []game.Move
	for range plies {
		if s.IsTerminal() {
			return
		}
		buf = s.LegalMoves(s.ToMove(), buf[:0])
		if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
			t.Fatal(err)
		}
	}
}

// positions returns count positions of an n by n game reached by random play until
// exactly empties squares are empty, the game still going.
func positions(t testing.TB, n, empties, count int, seed uint64) []*othello.State {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0xbeef))
	var out []*othello.State
	for len(out) < count {
		s := newGame(t, n).Initial()
		for !s.IsTerminal() && s.Empties() > empties {
			randomPlay(t, s, rng, 1)
		}
		if !s.IsTerminal() && s.Empties() == empties {
			out = append(out, s)
		}
	}
	return out
}

// solve returns the final disc margin for the side to move under perfect play, by plain
// minimax over the othello package's own rules, and counts the passes it meets.
func solve(s *othello.State, passes *int) int {
	if s.IsTerminal() {
		black, white := s.Bitboards()
		d := bits.OnesCount64(black) - bits.OnesCount64(white)
		if s.Side() == othello.White {
			d = -d
		}
		return d
	}
	best := -100
	for _, m := range s.LegalMoves(s.ToMove(), nil) {
		if m == othello.Pass {
			*passes++
		}
		c := *s
		if err := c.Play(m); err != nil {
			panic(err)
		}
		best = max(best, -solve(&c, passes))
	}
	return best
}

// plainValue returns the value of p searched depth plies deep by plain minimax, the
// value a fixed-depth search promises: the evaluation at the end of the game, or at
// depth 0 once the position is settled (search.Unsettled); the best negated child value
// otherwise.
func plainValue(p search.Position[game.Move], depth int) int32 {
	moves := p.Moves(nil)
	if u, ok := p.(search.Unsettled); len(moves) == 0 || depth <= 0 && (!ok || u.Settled()) {
		v, _ := p.Evaluate()
		return v
	}
	best := -search.Infinity
	for _, m := range moves {
		p.Make(m)
		best = max(best, -plainValue(p, depth-1))
		p.Unmake()
	}
	return best
}

// positionAt returns a position of g at s.
func positionAt(t testing.TB, g Game, s game.State) Position {
	t.Helper()
	p := g.NewPosition()
	if err := p.Reset(s); err != nil {
		t.Fatal(err)
	}
	return p
}

func newAgent(t testing.TB, params map[string]string) *Agent { return newSeeded(t, 0, params) }

func newSeeded(t testing.TB, seed int64, params map[string]string) *Agent {
	t.Helper()
	a, err := New(agent.Config{Seed: seed, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// turnOf returns the turn of the seat to move in s, a position of g.
func turnOf(g game.Game, s game.State) agent.Turn {
	return agent.Turn{GameID: "g", Game: g, State: s, Seat: s.ToMove(), Legal: s.LegalMoves(s.ToMove(), nil)}
}

func turnFor(s *othello.State) agent.Turn { return turnOf(s.Game(), s) }

// decide asks a for a move in tu.
func decide(t testing.TB, a *Agent, tu agent.Turn) agent.Decision {
	t.Helper()
	d, err := a.Choose(context.Background(), tu)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func choose(t testing.TB, a *Agent, s *othello.State) agent.Decision {
	t.Helper()
	return decide(t, a, turnFor(s))
}

// sample is positions of one game, for the tests that run over every game.
type sample struct {
	name   string
	game   game.Game
	states []game.State
}

// samples returns about count positions of each game: 8x8 and 6x6 Othello, two thirds of
// them 20 plies in and a third with a third of the board empty, and checkers and
// giveaway met in random games.
func samples(t testing.TB, count int, seed uint64) []sample {
	t.Helper()
	var out []sample
	for _, n := range []int{8, 6} {
		ps := append(positions(t, n, n*n-20, count*2/3, seed), positions(t, n, n*n/3, count/3, seed+1)...)
		out = append(out, sample{fmt.Sprintf("othello %dx%d", n, n), ps[0].Game(), states(ps)})
	}
	for _, v := range variants {
		out = append(out, sample{v.String(), checkers.New(v), states(checkersPositions(t, v, count, seed))})
	}
	return out
}

func states[S game.State](ps []S) []game.State {
	out := make([]game.State, len(ps))
	for i, s := range ps {
		out[i] = s
	}
	return out
}
