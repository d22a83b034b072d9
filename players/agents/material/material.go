package material

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sync"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/protocol"
)

// Name is the name the agent is registered under.
const Name = "material"

func init() {
	agent.Register(Name, "checkers, giveaway: one-ply greedy on material (men 1, kings 1.5; giveaway: the least material, then the fewest moves)",
		[]string{checkers.Name, checkers.GiveawayName}, func(cfg agent.Config) (agent.Agent, error) {
			if err := cfg.Settings().Err(); err != nil {
				return nil, err
			}
			return New(cfg.Seed), nil
		})
}

// Material values in half-men, so that a king's 1.5 is a whole number.
const (
	ManPoints  = 2
	KingPoints = 3
)

// ErrNotCheckers is returned when the agent is asked to play another game.
var ErrNotCheckers = agent.ErrWrongGame

// Agent is the material player; see the package documentation. It is safe for concurrent
// use.
type Agent struct {
	mu  sync.Mutex // rand.Rand is not safe for concurrent use
	rng *rand.Rand
}

var _ agent.Agent = (*Agent)(nil)

// pcgStream is the PCG generator's second seed word: any fixed constant keeps the choices
// a function of agent.Config.Seed alone.
const pcgStream = 0x6d6174657269616c

// New returns the agent with its tie-breaking seeded by seed.
func New(seed int64) *Agent {
	return &Agent{rng: rand.New(rand.NewPCG(uint64(seed), pcgStream))}
}

// Points returns the material of black and of white in s, in half-men.
func Points(s *checkers.State) (black, white int) {
	b, w, k := s.Pieces()
	count := func(p uint32) int {
		return ManPoints*bits.OnesCount32(p&^k) + KingPoints*bits.OnesCount32(p&k)
	}
	return count(b), count(w)
}

// rank orders the positions after the agent's moves: greater is better, field by field.
type rank struct {
	result   int // +1 the move wins the game at once, -1 it loses it, 0 otherwise
	material int // the balance by the variant's goal, in half-men
	capture  int // 1 when the opponent must then capture (giveaway) or need not (checkers)
	mobility int // giveaway: minus the agent's legal moves in that position
}

func (r rank) less(o rank) bool {
	switch {
	case r.result != o.result:
		return r.result < o.result
	case r.material != o.material:
		return r.material < o.material
	case r.capture != o.capture:
		return r.capture < o.capture
	}
	return r.mobility < o.mobility
}

// Choose plays the best move by the variant's goal; see the package documentation.
func (a *Agent) Choose(_ context.Context, t agent.Turn) (agent.Decision, error) {
	s, ok := t.State.(*checkers.State)
	if !ok || s == nil {
		return agent.Decision{}, agent.WrongGame("material", t.GameName(), "it plays checkers and giveaway")
	}
	me := s.ToMove()
	if me == game.Terminal {
		return agent.Decision{}, errors.New("material: asked to move after the end of the game")
	}
	if me != t.Seat {
		return agent.Decision{}, fmt.Errorf("material: asked to move for seat %v but %v is to move", t.Seat, me)
	}
	giveaway := s.Variant() == checkers.Giveaway
	var movesArr, scratchArr [64]game.Move
	moves := s.LegalMoves(me, movesArr[:0])
	if len(moves) == 0 {
		return agent.Decision{}, errors.New("material: no legal move")
	}
	var returns [2]float64
	best := moves[:0:0]
	var bestRank rank
	for _, m := range moves {
		c := *s
		if err := c.Play(m); err != nil {
			return agent.Decision{}, fmt.Errorf("material: legal move %s refused: %w", s.MoveString(m), err)
		}
		var r rank
		if c.IsTerminal() {
			switch ret := c.Returns(returns[:0]); {
			case ret[me] > ret[1-me]:
				r.result = 1
			case ret[me] < ret[1-me]:
				r.result = -1
			}
		}
		black, white := Points(&c)
		r.material = black - white
		if me == checkers.White {
			r.material = -r.material
		}
		if giveaway {
			r.material = -r.material
			if c.MustCapture() {
				r.capture = 1
			}
			r.mobility = -len(c.MovesOf(me, scratchArr[:0]))
		} else if !c.MustCapture() {
			// Leave nothing to take: a piece given away in checkers is lost for nothing.
			r.capture = 1
		}
		switch {
		case len(best) == 0 || bestRank.less(r):
			best, bestRank = append(best[:0], m), r
		case !r.less(bestRank):
			best = append(best, m)
		}
	}
	move := best[0]
	if len(best) > 1 {
		a.mu.Lock()
		move = best[a.rng.IntN(len(best))]
		a.mu.Unlock()
	}
	return agent.Decision{
		Move: move,
		Info: protocol.SearchInfo{Depth: 1, Score: float64(bestRank.material) / ManPoints},
	}, nil
}
