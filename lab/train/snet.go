package train

import (
	"github.com/arenaref/arena/players/ai/learn/model"
)

// NetUsage gathers the nodes (or pairs of nodes) of a strategy network used in the
// positions of one game, and how many of the positions used each.
type NetUsage struct {
	net  *model.StrategyNet
	used []int32
	list []int
	buf  []int32
}

// NewNetUsage returns an empty usage for net.
func NewNetUsage(net *model.StrategyNet) *NetUsage {
	return &NetUsage{net: net, used: make([]int32, len(net.W))}
}

// Reset forgets the positions seen.
func (u *NetUsage) Reset() {
	for _, i := range u.list {
		u.used[i] = 0
	}
	u.list = u.list[:0]
}

// Add records the nodes present in p (with pairs, the pairs of nodes present together).
func (u *NetUsage) Add(p model.Position) {
	u.buf = u.net.ActiveNodes(p, u.buf[:0])
	if !u.net.Pairs {
		for _, id := range u.buf {
			u.mark(int(id))
		}
		return
	}
	for a, i := range u.buf {
		for _, j := range u.buf[a+1:] {
			u.mark(u.net.PairIndex(int(i), int(j)))
		}
	}
}

// AddNode records node i as used: under CreditPlaced, the learner's own node on a square
// where it placed a disc.
func (u *NetUsage) AddNode(i int) { u.mark(i) }

func (u *NetUsage) mark(i int) {
	if u.used[i] == 0 {
		u.list = append(u.list, i)
	}
	u.used[i]++
}

// Used returns how many weights the game used.
func (u *NetUsage) Used() int { return len(u.list) }

// NetPenalty is the amount the strategy network rule takes off each used weight after a
// loss, given the learner's wins and losses before that game: wins / losses, and, with
// no loss yet, the number of wins (the paper's "current total number", read as the
// total of wins: the same as dividing by one loss).
func NetPenalty(wins, losses int) float64 {
	if losses == 0 {
		return float64(wins)
	}
	return float64(wins) / float64(losses)
}

// Reinforce applies the strategy network rule of seed 003 after one game: every weight
// used gains 1 after a win (result > 0), loses NetPenalty(wins, losses) after a loss
// (result < 0), and a draw changes nothing. wins and losses are the learner's totals
// before this game.
func (u *NetUsage) Reinforce(result, wins, losses int) {
	var step float64
	switch {
	case result > 0:
		step = 1
	case result < 0:
		step = -NetPenalty(wins, losses)
	default:
		return
	}
	for _, i := range u.list {
		u.net.W[i] += step
	}
}
