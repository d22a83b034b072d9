package heuristic

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/protocol"
)

func init() {
	agent.Register("hp1", "Othello: corners first, then most discs; exact search in the last 6 empties; ties=random|first",
		[]string{othello.Name}, func(cfg agent.Config) (agent.Agent, error) {
			rule, err := tieSetting(cfg)
			if err != nil {
				return nil, err
			}
			return NewHP1(cfg.Seed, rule), nil
		})
	agent.Register("hp2", "Othello: best square-weight table score after the move; ties=random|first",
		[]string{othello.Name}, func(cfg agent.Config) (agent.Agent, error) {
			rule, err := tieSetting(cfg)
			if err != nil {
				return nil, err
			}
			return NewHP2(cfg.Seed, rule), nil
		})
}

// TieRule is how HP1 and HP2 choose among equally good moves.
type TieRule int

// Tie rules.
const (
	// TiesRandom draws uniformly among the equally good moves, from the agent's seed: the
	// default, and what the seed paper says its players do.
	TiesRandom TieRule = iota
	// TiesFirst plays the first of them in square order (a1, b1, ..., h1, a2, ..., h8),
	// in the greedy phase and in HP1's endgame alike: the agent is then deterministic.
	TiesFirst
)

// Tie rules by their setting's name (ties=NAME).
var tieRules = map[string]TieRule{"random": TiesRandom, "first": TiesFirst}

// tieSetting reads an agent's only setting, ties (default random).
func tieSetting(cfg agent.Config) (TieRule, error) {
	st := cfg.Settings()
	name := st.Choice("ties", "random", "random", "first")
	if err := st.Err(); err != nil {
		return 0, err
	}
	return tieRules[name], nil
}

// EndgameEmpties is the number of empty squares at or below which HP1 searches to the end
// of the game instead of playing greedily, on every board size. A 4x4 game starts with 12
// empties, so HP1 plays its first moves there greedily too.
const EndgameEmpties = 6

// Table is a square-weight table as HP2 plays by, indexed by square in the 8x8 layout of
// package othello (a1 = 0, h1 = 7, ..., h8 = 63) on every board size; squares off a smaller
// board are zero. Every table here is symmetric, so its orientation does not matter.
type Table [othello.Squares]int

// Weights is the 8x8 table of the seed paper (its Fig. 6). Corners are worth most; the
// squares next to them, which tend to give a corner away, least; edges are positive and
// the inner squares small.
var Weights = Table{
	100, -25, 10, 5, 5, 10, -25, 100,
	-25, -25, 2, 2, 2, 2, -25, -25,
	10, 2, 5, 1, 1, 5, 2, 10,
	5, 2, 1, 2, 2, 1, 2, 5,
	5, 2, 1, 2, 2, 1, 2, 5,
	10, 2, 5, 1, 1, 5, 2, 10,
	-25, -25, 2, 2, 2, 2, -25, -25,
	100, -25, 10, 5, 5, 10, -25, 100,
}

// Weights6 is the 6x6 table, which the paper does not give. It is built as Weights is
// (see the package documentation): the 8x8 values of corners (100), of the squares next
// to them (-25) and of the edge squares two away from a corner (10, which on 6x6 are all
// the middle edge squares); 2 on the second ring as on 8x8; and 1 on the four centre
// squares, which are occupied from the start and only ever change colour.
var Weights6 = Table{
	100, -25, 10, 10, -25, 100, 0, 0,
	-25, -25, 2, 2, -25, -25, 0, 0,
	10, 2, 1, 1, 2, 10, 0, 0,
	10, 2, 1, 1, 2, 10, 0, 0,
	-25, -25, 2, 2, -25, -25, 0, 0,
	100, -25, 10, 10, -25, 100, 0, 0,
}

// Weights4 is the 4x4 table of the seed paper (its Fig. 11): 4 for a corner, -1 for every
// other square.
var Weights4 = Table{
	4, -1, -1, 4, 0, 0, 0, 0,
	-1, -1, -1, -1, 0, 0, 0, 0,
	-1, -1, -1, -1, 0, 0, 0, 0,
	4, -1, -1, 4, 0, 0, 0, 0,
}

// TableFor returns the table HP2 plays by on a board of the given size (4, 6 or 8), or nil
// for another size.
func TableFor(size int) *Table {
	switch size {
	case 8:
		return &Weights
	case 6:
		return &Weights6
	case 4:
		return &Weights4
	}
	return nil
}

// Score returns the sum of the table over the squares of own minus the sum over the
// squares of opp.
func (w *Table) Score(own, opp uint64) int {
	v := 0
	for ; own != 0; own &= own - 1 {
		v += w[bits.TrailingZeros64(own)]
	}
	for ; opp != 0; opp &= opp - 1 {
		v -= w[bits.TrailingZeros64(opp)]
	}
	return v
}

// cornerMask returns the four corners of a board of the given size.
func cornerMask(size int) uint64 {
	far := uint(size - 1)
	return 1 | 1<<far | 1<<(othello.Size*far) | 1<<(othello.Size*far+far)
}

// ErrNotOthello is returned by the agents when asked to play another game.
var ErrNotOthello = agent.ErrWrongGame

// picker breaks ties between equally good moves: at random, from a seeded source, so that
// an agent is reproducible for a seed yet does not always play the same game, or, under
// TiesFirst, by taking the first in square order. The runtime
// may ask one agent for moves of several games at once, and rand.Rand is not safe for
// concurrent use, so mu guards rng (and HP1's endgame search, which draws from it);
// everything else the agents do works on copies.
type picker struct {
	mu   sync.Mutex
	rng  *rand.Rand
	rule TieRule
}

func newPicker(seed int64, rule TieRule) picker {
	return picker{rng: rand.New(rand.NewPCG(uint64(seed), 0x6870)), rule: rule}
}

// pick chooses among moves, which are in square order.
func (p *picker) pick(moves []game.Move) game.Move {
	if len(moves) == 1 || p.rule == TiesFirst {
		return moves[0]
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return moves[p.rng.IntN(len(moves))]
}

// position checks a turn and returns its Othello state, which carries the board size.
func position(t agent.Turn) (*othello.State, error) {
	s, ok := t.State.(*othello.State)
	if !ok || s == nil {
		return nil, agent.WrongGame("heuristic", t.GameName(), "it plays othello")
	}
	if s.ToMove() == game.Terminal {
		return nil, fmt.Errorf("heuristic: asked to move after the end of the game")
	}
	if s.ToMove() != t.Seat {
		return nil, fmt.Errorf("heuristic: asked to move for seat %v but %v is to move", t.Seat, s.ToMove())
	}
	return s, nil
}

// after returns the discs of the mover of s and of its opponent once it has played m.
func after(s *othello.State, m game.Move) (own, opp uint64) {
	c := *s
	if err := c.Play(m); err != nil {
		panic(fmt.Sprintf("heuristic: legal move %s refused: %v", othello.MoveString(m), err))
	}
	black, white := c.Bitboards()
	if s.Side() == othello.White {
		return white, black
	}
	return black, white
}

// HP1 is the first heuristic player of the seed paper. With EndgameEmpties or fewer
// empty squares it searches to the end (with players/ai/search) and plays a move with the
// best final disc differential. Before that it plays greedily: a corner if it can (the
// corner leaving it the most discs, if several), otherwise the move leaving it the most
// discs. Ties are broken by its TieRule. It plays every board size and is safe for
// concurrent use.
type HP1 struct{ picker }

// NewHP1 returns HP1 breaking ties by rule, at random from seed under TiesRandom.
func NewHP1(seed int64, rule TieRule) *HP1 { return &HP1{picker: newPicker(seed, rule)} }

// Choose picks HP1's move. Info reports depth 1 and the disc count after the move when
// greedy, or the number of empty squares searched, the nodes visited and the exact final
// disc differential (own view) in the endgame.
func (a *HP1) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	s, err := position(t)
	if err != nil {
		return agent.Decision{}, err
	}
	mask := s.MoveMask()
	if mask == 0 {
		return agent.Decision{Move: othello.Pass}, nil
	}
	if s.Empties() <= EndgameEmpties {
		return a.endgame(ctx, s), nil
	}
	if corners := cornerMask(s.Size()); mask&corners != 0 {
		mask &= corners
	}
	best, bestScore := bestMoves(mask, func(mv game.Move) int {
		own, _ := after(s, mv)
		return bits.OnesCount64(own)
	})
	return agent.Decision{
		Move: a.pick(best),
		Info: protocol.SearchInfo{Depth: 1, Score: float64(bestScore)},
	}, nil
}

// endgame searches s to the end with a searcher from the pool. Under TiesRandom the
// search draws from the tie-breaking source throughout, so it runs under the picker's
// lock: endgames of six empties take a few hundred microseconds.
func (a *HP1) endgame(ctx context.Context, s *othello.State) agent.Decision {
	e := endgames.Get().(*endgame)
	defer endgames.Put(e)
	if a.rule == TiesFirst {
		return e.chooseFirst(ctx, s)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return e.choose(ctx, s, a.rng)
}

// HP2 is the second heuristic player of the seed paper: it plays the move after which
// the table weights of its own discs minus those of its opponent's discs are greatest,
// ties broken by its TieRule. The table is that of the position's board size (TableFor). It is
// safe for concurrent use.
type HP2 struct{ picker }

// NewHP2 returns HP2 breaking ties by rule, at random from seed under TiesRandom.
func NewHP2(seed int64, rule TieRule) *HP2 { return &HP2{newPicker(seed, rule)} }

// Choose picks HP2's move. Info reports depth 1 and the table score after the move.
func (a *HP2) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	s, err := position(t)
	if err != nil {
		return agent.Decision{}, err
	}
	mask := s.MoveMask()
	if mask == 0 {
		return agent.Decision{Move: othello.Pass}, nil
	}
	table := TableFor(s.Size())
	if table == nil {
		return agent.Decision{}, agent.WrongGame("hp2", t.GameName(), fmt.Sprintf("no weight table for a %dx%d board", s.Size(), s.Size()))
	}
	best, bestScore := bestMoves(mask, func(mv game.Move) int {
		return table.Score(after(s, mv))
	})
	return agent.Decision{
		Move: a.pick(best),
		Info: protocol.SearchInfo{Depth: 1, Score: float64(bestScore)},
	}, nil
}

// bestMoves returns the moves of mask with the highest score, in square order, and that
// score. Keeping every equally good move lets the caller break ties at random, as the
// seed paper does, or take the first.
func bestMoves(mask uint64, score func(game.Move) int) ([]game.Move, int) {
	var best []game.Move
	bestScore := math.MinInt
	for m := mask; m != 0; m &= m - 1 {
		mv := game.Move(bits.TrailingZeros64(m))
		switch v := score(mv); {
		case v > bestScore:
			bestScore, best = v, append(best[:0], mv)
		case v == bestScore:
			best = append(best, mv)
		}
	}
	return best, bestScore
}

var (
	_ agent.Agent = (*HP1)(nil)
	_ agent.Agent = (*HP2)(nil)
)
