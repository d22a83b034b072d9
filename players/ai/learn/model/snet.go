package model

import (
	"fmt"
	"math/bits"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// Node states of a square, as seen from the evaluated side.
const (
	StateOwn = iota
	StateOpp
	StateEmpty
)

// StrategyNet is the strategy network of seed 003 for one board size: a weight per
// node, or with Pairs a weight per pair of nodes, and the evaluation is the sum of the
// weights of the nodes (pairs) present. See the package documentation for the node
// numbering.
type StrategyNet struct {
	Size  int
	Pairs bool
	W     []float64

	layout *layout
}

// layout numbers the nodes of one board size: node[sq][state] is a node index or -1.
type layout struct {
	node  [64][3]int32
	count int
}

var layouts = map[int]*layout{4: newLayout(4), 6: newLayout(6), 8: newLayout(8)}

func newLayout(n int) *layout {
	l := &layout{}
	lo, hi := n/2-1, n/2
	for sq := range 64 {
		l.node[sq] = [3]int32{-1, -1, -1}
	}
	for rank := range n {
		for file := range n {
			sq := rank*8 + file
			centre := (rank == lo || rank == hi) && (file == lo || file == hi)
			for st := StateOwn; st <= StateEmpty; st++ {
				if st == StateEmpty && centre {
					continue
				}
				l.node[sq][st] = int32(l.count)
				l.count++
			}
		}
	}
	return l
}

// Nodes returns the number of nodes of a board size (3n^2 - 4), or 0 for a size
// package othello does not play.
func Nodes(size int) int {
	if l := layouts[size]; l != nil {
		return l.count
	}
	return 0
}

// WeightCount returns the number of weights of a network: one per node, or one per pair
// of nodes.
func WeightCount(size int, pairs bool) int {
	n := Nodes(size)
	if pairs {
		return n * (n - 1) / 2
	}
	return n
}

// NetSize returns the board size of the strategy networks of g: they play Othello only,
// and a network is for one board size.
func NetSize(g game.Game) (int, error) {
	og, ok := g.(*othello.Game)
	if !ok {
		return 0, fmt.Errorf("model: strategy networks play othello, not %s", g.Name())
	}
	return og.Size(), nil
}

// NewStrategyNet returns a network for a board size (4, 6 or 8) with all weights zero.
func NewStrategyNet(size int, pairs bool) (*StrategyNet, error) {
	l := layouts[size]
	if l == nil {
		return nil, fmt.Errorf("model: no %dx%d Othello board", size, size)
	}
	return &StrategyNet{Size: size, Pairs: pairs, W: make([]float64, WeightCount(size, pairs)), layout: l}, nil
}

var _ Evaluator = (*StrategyNet)(nil)

// ActiveNodes appends the indexes of the nodes present in p, in square order: one per
// square of the board.
func (n *StrategyNet) ActiveNodes(p Position, dst []int32) []int32 {
	l := n.lay()
	for b := p.Board; b != 0; b &= b - 1 {
		sq := bits.TrailingZeros64(b)
		bit := uint64(1) << sq
		st := StateEmpty
		if p.Own&bit != 0 {
			st = StateOwn
		} else if p.Opp&bit != 0 {
			st = StateOpp
		}
		if id := l.node[sq][st]; id >= 0 {
			dst = append(dst, id)
		}
	}
	return dst
}

// Node returns the index of the node of square sq (8x8 layout) in state st, or -1 when
// there is none (off the board, or empty on a centre square).
func (n *StrategyNet) Node(sq, st int) int { return int(n.lay().node[sq][st]) }

// PairIndex returns the weight index of the pair of nodes i and j (i != j) in the pair
// variant.
func (n *StrategyNet) PairIndex(i, j int) int {
	if i > j {
		i, j = j, i
	}
	N := n.lay().count
	return i*N - i*(i+1)/2 + (j - i - 1)
}

// Eval returns the sum of the weights of the nodes (or pairs of nodes) present in p.
func (n *StrategyNet) Eval(p Position) float64 {
	var buf [64]int32
	active := n.ActiveNodes(p, buf[:0])
	var s float64
	if !n.Pairs {
		for _, id := range active {
			s += n.W[id]
		}
		return s
	}
	for a, i := range active {
		for _, j := range active[a+1:] {
			s += n.W[n.PairIndex(int(i), int(j))]
		}
	}
	return s
}

// Value returns Eval of s, an Othello position, seen from seat. It reads the board, not
// the features.
func (n *StrategyNet) Value(_ Features, s game.State, seat game.Seat, _ []float64) float64 {
	return n.Eval(FromState(s.(*othello.State), seat))
}

// Clone returns a copy with its own weights.
func (n *StrategyNet) Clone() *StrategyNet {
	c := *n
	c.W = append([]float64(nil), n.W...)
	return &c
}

func (n *StrategyNet) lay() *layout {
	if n.layout != nil {
		return n.layout
	}
	return layouts[n.Size]
}
