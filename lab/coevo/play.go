package coevo

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/agents/heuristic"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// Kinds of player.
const (
	kindNet = iota // a strategy network, 1-ply
	kindHS         // the heuristic strategy of Fig. 11, 1-ply
	kindES         // exhaustive search: perfect play
)

// player rates the positions its moves lead to. A concrete type rather than an
// interface, so that the positions it is handed stay on the stack.
type player struct {
	kind int
	net  *model.StrategyNet // kindNet
	sol  *solution          // kindES
}

func netPlayer(n *model.StrategyNet) player { return player{kind: kindNet, net: n} }

var hsPlayer = player{kind: kindHS}

func esPlayer() player { return player{kind: kindES, sol: perfect()} }

// score rates after, the position just after a move of seat: higher is better for seat.
func (p *player) score(after *othello.State, seat game.Seat) float64 {
	switch p.kind {
	case kindNet:
		return p.net.Eval(model.FromState(after, seat))
	case kindHS:
		own, opp := after.Bitboards()
		if seat == othello.White {
			own, opp = opp, own
		}
		return float64(heuristic.Weights4.Score(own, opp))
	default:
		return float64(sideSign(seat) * p.sol.blackValue(after))
	}
}

// choose returns p's move in s: the move leading to the position p scores highest,
// chosen uniformly among equals, or Pass when the side to move has no disc to place.
// s must not be over.
func (p *player) choose(s *othello.State, rng *rand.Rand) game.Move {
	seat := s.Side()
	moves := s.MoveMask()
	if moves == 0 {
		return othello.Pass
	}
	best, bestV, ties := game.Move(-1), math.Inf(-1), 0
	for ; moves != 0; moves &= moves - 1 {
		m := game.Move(bits.TrailingZeros64(moves))
		c := *s
		mustPlay(&c, m)
		switch v := p.score(&c, seat); {
		case best < 0 || v > bestV:
			best, bestV, ties = m, v, 1
		case v == bestV:
			// Reservoir sampling: each of the k equal moves seen so far is kept with
			// probability 1/k.
			ties++
			if rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}

// play plays a game from s between black and white and returns its final disc
// differential, black minus white.
func play(s othello.State, black, white *player, rng *rand.Rand) int {
	for !s.IsTerminal() {
		p := black
		if s.Side() == othello.White {
			p = white
		}
		mustPlay(&s, p.choose(&s, rng))
	}
	return s.Margin()
}

// stream is a reusable random source: reseeding it for each game costs no allocation.
type stream struct {
	pcg rand.PCG
	rng *rand.Rand
}

func newStream() *stream {
	st := &stream{}
	st.rng = rand.New(&st.pcg)
	return st
}

// Stream purposes, kept apart so that no two uses of a seed share a stream.
const (
	purposeGame = iota + 1
	purposeInitFirst
	purposeInitSecond
	purposeBreedFirst
	purposeBreedSecond
	purposeES
	purposeHSSecond
	purposeHSFirst
)

// reseed points st at the stream of (seed, purpose, generation, i, j).
func (st *stream) reseed(seed uint64, purpose, gen, i, j int) *rand.Rand {
	h := mix(uint64(purpose))
	h = mix(h ^ uint64(gen))
	h = mix(h ^ uint64(i))
	h = mix(h ^ uint64(j))
	st.pcg.Seed(seed, h)
	return st.rng
}

// mix is the SplitMix64 finalizer: a bijection that scatters nearby inputs.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
