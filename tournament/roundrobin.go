package tournament

import (
	"fmt"
	"math"
	"slices"

	"github.com/arenaref/arena/protocol"
)

// RoundRobin schedules rounds of a double round robin for two-seat games: in every round
// each ordered pair of players plays once, so every pair meets once with each colour, and
// n players play n*(n-1) games a round. Rounds follow each other; inside a round the games
// are ordered so that players rest as long as possible between their games (no player plays
// twice in a row when five or more take part, nor three times in a row when three or four
// do) and alternate colours where they can; beyond 64 players, the circle method keeps
// the first rule and not the longest rests (see maxSearchedPlayers). The order depends
// only on the order of players.
func RoundRobin(players []string, rounds int) ([]Pairing, error) {
	n := len(players)
	if n < 2 {
		return nil, fmt.Errorf("tournament: a round robin needs at least 2 players, got %d", n)
	}
	if rounds < 1 {
		return nil, fmt.Errorf("tournament: a round robin needs at least 1 round, got %d", rounds)
	}
	if n > MaxScheduledGames {
		return nil, fmt.Errorf("%w: a round robin of %d players", ErrTooManyGames, n)
	}
	if err := checkGames("a round robin", n*(n-1), rounds); err != nil {
		return nil, err
	}
	seen := make(map[string]bool, n)
	for _, p := range players {
		if err := protocol.CheckName("player name", p); err != nil {
			return nil, fmt.Errorf("tournament: round robin: %w", err)
		}
		if seen[p] {
			return nil, fmt.Errorf("tournament: round robin: player %q listed twice", p)
		}
		seen[p] = true
	}

	// The longest run of consecutive games a player may be given. With five players or
	// more nobody needs to play twice in a row. With four, two games in a row that share
	// no player leave only one pair for the next, so runs of two cannot be avoided; with
	// three, one of every game's players played the game before; two can only play
	// each other.
	maxRun := 1
	switch n {
	case 2:
		maxRun = math.MaxInt
	case 3, 4:
		maxRun = 2
	}
	var next func() []pair
	if n > maxSearchedPlayers {
		next = newCircle(n).round
	} else {
		next = newOrderer(n, maxRun).round
	}
	out := make([]Pairing, 0, rounds*n*(n-1))
	for round := 1; round <= rounds; round++ {
		for _, p := range next() {
			out = append(out, Pairing{Index: len(out) + 1, Round: round, Players: []string{players[p.a], players[p.b]}})
		}
	}
	return out, nil
}

// pair is one game of a round robin: player a has seat 0, b seat 1.
type pair struct{ a, b int }

// maxSearchedPlayers is the most players whose round robin the orderer's search orders.
// Its cost grows with the fourth power of the players (each of the n*(n-1) games of a round
// is chosen among all the games left): 0.1 s a round for 64 players, 50 s for 300. Beyond
// it the circle method orders a round in time proportional to its games, keeping the
// rule that matters most (nobody plays twice in a row) but not the longest rests.
const maxSearchedPlayers = 64

// circle orders the rounds of a round robin by the circle method: players sit at the
// places of a polygon around one fixed place (a bye makes their number even), and each
// turn of the polygon pairs every player once, so no player meets two games in a row
// within a turn. A round of the double round robin is n-1 turns with one colour and the
// same turns again with colours swapped. Each turn begins with a game whose players were
// not in the game before it, so nobody plays twice in a row across turns either.
type circle struct {
	n, m int  // players, and places (n rounded up to even)
	prev pair // the latest game ordered; {-1, -1} before the first
}

func newCircle(n int) *circle { return &circle{n: n, m: n + n%2, prev: pair{-1, -1}} }

// round returns the order of the next round's n*(n-1) games.
func (c *circle) round() []pair {
	turns := make([][]pair, 0, 2*(c.m-1))
	for r := range c.m - 1 {
		turn := make([]pair, 0, c.m/2)
		for i := range c.m / 2 {
			a, b := c.m-1, r // the fixed place meets place r
			if i > 0 {
				a, b = (r+i)%(c.m-1), (r-i+c.m-1)%(c.m-1)
			}
			if a >= c.n || b >= c.n {
				continue // the bye
			}
			if (r+i)%2 == 1 {
				a, b = b, a // colours change from turn to turn
			}
			turn = append(turn, pair{a, b})
		}
		turns = append(turns, turn)
	}
	for r := range c.m - 1 {
		swapped := make([]pair, len(turns[r]))
		for i, p := range turns[r] {
			swapped[i] = pair{p.b, p.a}
		}
		turns = append(turns, swapped)
	}
	out := make([]pair, 0, c.n*(c.n-1))
	for _, turn := range turns {
		start := slices.IndexFunc(turn, func(p pair) bool {
			return p.a != c.prev.a && p.a != c.prev.b && p.b != c.prev.a && p.b != c.prev.b
		})
		start = max(start, 0) // with more than 64 players a turn has games to spare
		out = append(out, turn[start:]...)
		out = append(out, turn[:start]...)
		c.prev = out[len(out)-1]
	}
	return out
}

// orderer orders the games of round after round. It searches, depth first and best
// candidate first, for an order in which no player's run of consecutive games exceeds
// maxRun, and falls back to the plain greedy order when the search takes too long.
type orderer struct {
	n, maxRun int
	placed    int   // games placed in earlier rounds and this one so far
	last      []int // index of each player's latest game, -1 for none
	runStart  []int // index of the first game of each player's current run
	colour    []int // seat of each player's latest game, -1 for none
	todo      []int // games each player has left in this round
	budget    int
}

// searchBudget bounds the placements one round's search may try before falling back.
const searchBudget = 1 << 17

func newOrderer(n, maxRun int) *orderer {
	o := &orderer{n: n, maxRun: maxRun, last: make([]int, n), runStart: make([]int, n),
		colour: make([]int, n), todo: make([]int, n)}
	for i := range n {
		o.last[i], o.colour[i] = -1, -1
	}
	return o
}

// undo is what place changed, to take it back.
type undo struct{ last, runStart, colour [2]int }

// run is the length of p's run if p played the next game.
func (o *orderer) run(p int) int {
	if o.last[p] == o.placed-1 && o.last[p] >= 0 {
		return o.placed - o.runStart[p] + 1
	}
	return 1
}

func (o *orderer) rest(p int) int {
	if o.last[p] < 0 {
		return math.MaxInt
	}
	return o.placed - o.last[p]
}

// key ranks a candidate game, higher first: allowed by maxRun; the longer rest of the more
// tired player, then of the other; the players with the most games left, so that nobody
// ends the round with a run of games; colours alternating.
func (o *orderer) key(p pair) [5]int {
	var k [5]int
	if max(o.run(p.a), o.run(p.b)) <= o.maxRun {
		k[0] = 1
	}
	ra, rb := o.rest(p.a), o.rest(p.b)
	k[1], k[2], k[3] = min(ra, rb), max(ra, rb), o.todo[p.a]+o.todo[p.b]
	if o.colour[p.a] != 0 {
		k[4]++
	}
	if o.colour[p.b] != 1 {
		k[4]++
	}
	return k
}

func (o *orderer) place(p pair) undo {
	u := undo{[2]int{o.last[p.a], o.last[p.b]}, [2]int{o.runStart[p.a], o.runStart[p.b]}, [2]int{o.colour[p.a], o.colour[p.b]}}
	for seat, x := range [2]int{p.a, p.b} {
		if o.last[x] != o.placed-1 || o.last[x] < 0 {
			o.runStart[x] = o.placed
		}
		o.last[x], o.colour[x] = o.placed, seat
		o.todo[x]--
	}
	o.placed++
	return u
}

func (o *orderer) unplace(p pair, u undo) {
	o.placed--
	for i, x := range [2]int{p.a, p.b} {
		o.last[x], o.runStart[x], o.colour[x] = u.last[i], u.runStart[i], u.colour[i]
		o.todo[x]++
	}
}

// round returns the order of the next round's games and leaves the orderer after it.
func (o *orderer) round() []pair {
	games := make([]pair, 0, o.n*(o.n-1))
	for a := range o.n {
		for b := range o.n {
			if a != b {
				games = append(games, pair{a, b})
			}
		}
		o.todo[a] = 2 * (o.n - 1)
	}
	order := make([]pair, 0, len(games))
	o.budget = searchBudget
	left := slices.Clone(games)
	if o.search(left, &order) {
		return order
	}
	// Too many dead ends: settle for the greedy order, which may give a player a longer run.
	order = order[:0]
	left = slices.Clone(games)
	for len(left) > 0 {
		i := o.next(left, -1, [5]int{})
		order = append(order, left[i])
		o.place(left[i])
		left[i] = left[len(left)-1]
		left = left[:len(left)-1]
	}
	return order
}

// search places the games of left, best candidate first, backtracking from dead ends. On
// success the orderer is left after the last game; on failure it is as it was.
func (o *orderer) search(left []pair, order *[]pair) bool {
	if len(left) == 0 {
		return true
	}
	prev, prevKey := -1, [5]int{}
	for {
		i := o.next(left, prev, prevKey)
		if i < 0 {
			return false
		}
		k := o.key(left[i])
		if k[0] == 0 || o.budget <= 0 {
			return false // every remaining candidate breaks maxRun too
		}
		o.budget--
		p := left[i]
		u := o.place(p)
		*order = append(*order, p)
		last := len(left) - 1
		left[i], left[last] = left[last], left[i]
		if o.search(left[:last], order) {
			return true
		}
		left[i], left[last] = left[last], left[i]
		*order = (*order)[:len(*order)-1]
		o.unplace(p, u)
		prev, prevKey = i, k
	}
}

// next returns the index of the best candidate in left that ranks after the candidate at
// index prev with key prevKey (all of them when prev is -1): keys descending, then indices
// ascending. It returns -1 when none is left.
func (o *orderer) next(left []pair, prev int, prevKey [5]int) int {
	best, bestKey := -1, [5]int{}
	for i, p := range left {
		k := o.key(p)
		if prev >= 0 {
			c := slices.Compare(k[:], prevKey[:])
			if c > 0 || c == 0 && i <= prev {
				continue
			}
		}
		if best < 0 || slices.Compare(k[:], bestKey[:]) > 0 {
			best, bestKey = i, k
		}
	}
	return best
}

// RoundRobinName is the round robin's name in tournament files.
const RoundRobinName = "round-robin"

func init() { Register(roundRobin{}) }

// roundRobin is the format of Rounds double round robins of the players (RoundRobin),
// every encounter with one opening (AssignOpenings).
type roundRobin struct{ Static }

func (roundRobin) Name() string                 { return RoundRobinName }
func (roundRobin) Defaults(s Settings) Settings { return s }

func (roundRobin) Check(s Settings) error {
	if err := checkRounds(s); err != nil {
		return err
	}
	if len(s.Seeds) > 0 {
		return fmt.Errorf("seeds: only a gauntlet has seeds")
	}
	return nil
}

func (roundRobin) Schedule(s Settings) ([]Pairing, error) {
	schedule, err := RoundRobin(s.Players, s.Rounds)
	if err != nil {
		return nil, err
	}
	return withOpenings(s, schedule), nil
}
