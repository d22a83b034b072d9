package opening

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arenaref/arena/game"
)

// MaxPlies is the deepest Generate goes. Each ply is also bounded by MaxOpenings
// positions, which keeps the work bounded whatever the game.
const MaxPlies = 20

// Generate returns one opening for every distinct position of g reached after exactly
// plies plies from the initial position. Passes are moves and count as plies; a position
// where the game is over, at the last ply or earlier, is left out, since an opening must
// leave something to play.
//
// Positions are the same when their CanonicalKey is, for states that implement
// Canonicalizer, and when their String is otherwise. Each position is represented by the
// first move sequence reaching it in a depth-first walk that tries the legal moves in the
// order of their text (State.MoveString): the smallest sequence, move by move. The
// openings are sorted the same way, so the result depends only on the game's rules.
//
// It returns an error wrapping ErrLimit when plies is outside 1..MaxPlies or more than
// MaxOpenings positions turn up at some ply, ErrEmpty when no position lasts that long,
// and ErrUnsupported for a game with simultaneous moves.
//
// The walk goes ply by ply and keeps one position per key at each ply, which gives the
// same representatives as the full depth-first walk: the smallest sequence to a position
// extends the smallest sequence to one of its predecessors, and positions with equal keys
// have successors with equal keys. This keeps the cost proportional to the number of
// distinct positions rather than to the size of the game tree.
func Generate(g game.Game, plies int) ([]Opening, error) {
	if plies < 1 || plies > MaxPlies {
		return nil, because(ErrLimit, "opening: plies must be from 1 to %d, got %d", MaxPlies, plies)
	}
	// link is how a position was reached: its predecessor's index at the previous ply and
	// the move from there. Positions themselves are kept for the current ply only.
	type link struct {
		parent int
		move   string
	}
	var (
		frontier = []game.State{g.NewState()}
		links    [][]link // links[d][i] leads to position i at ply d+1
		buf      []game.Move
		texts    []string
		order    []int
	)
	for depth := 1; depth <= plies; depth++ {
		var (
			next     []game.State
			nextLink []link
			seen     = map[string]bool{}
		)
		// The frontier is in order of its sequences, and each position's moves are tried
		// in text order, so the first time a key turns up is by its smallest sequence.
		for i, s := range frontier {
			seat := s.ToMove()
			if seat == game.Simultaneous {
				return nil, because(ErrUnsupported, "opening: %s has simultaneous moves; openings need one seat to move at a time", g.Name())
			}
			buf = s.LegalMoves(seat, buf[:0])
			texts, order = texts[:0], order[:0]
			for j, m := range buf {
				texts = append(texts, s.MoveString(m))
				order = append(order, j)
			}
			slices.SortFunc(order, func(a, b int) int { return strings.Compare(texts[a], texts[b]) })
			for _, j := range order {
				c := s.Clone()
				if err := c.Play(buf[j]); err != nil {
					return nil, fmt.Errorf("opening: %s rejects its own legal move %s after %d plies: %w", g.Name(), texts[j], depth-1, err)
				}
				if c.IsTerminal() {
					continue
				}
				key := positionKey(c)
				if seen[key] {
					continue
				}
				if len(next) == MaxOpenings {
					return nil, because(ErrLimit, "opening: more than %d distinct positions of %s after %d plies", MaxOpenings, g.Name(), depth)
				}
				seen[key] = true
				next = append(next, c)
				nextLink = append(nextLink, link{parent: i, move: texts[j]})
			}
		}
		if len(next) == 0 {
			return nil, because(ErrEmpty, "opening: no position of %s lasts %d plies without the game ending", g.Name(), plies)
		}
		frontier = next
		links = append(links, nextLink)
	}

	openings := make([]Opening, len(frontier))
	for i := range frontier {
		moves := make([]string, plies)
		at := i
		for d := plies - 1; d >= 0; d-- {
			moves[d] = links[d][at].move
			at = links[d][at].parent
		}
		openings[i] = Opening{Moves: moves}
	}
	// Already in this order by construction; sorting states the contract outright.
	slices.SortStableFunc(openings, func(a, b Opening) int { return slices.Compare(a.Moves, b.Moves) })
	return openings, nil
}

// positionKey is what Generate tells positions apart by.
func positionKey(s game.State) string {
	if c, ok := s.(Canonicalizer); ok {
		return c.CanonicalKey()
	}
	return s.String()
}

// GeneratedHeader returns the header lines Write puts above a set made by Generate: what
// the set is and the arena command that makes it again (to stdout, or to FILE with --out).
// The command writes exactly these lines wherever its output goes, so a shipped set can be
// checked by regenerating it.
func GeneratedHeader(g game.Game, plies, count int) []string {
	folded := "distinct by their text form"
	if _, ok := g.NewState().(Canonicalizer); ok {
		folded = "folded by the symmetries of the board"
	}
	return []string{
		fmt.Sprintf("Openings for %s: the %d distinct positions after %d plies (passes count),", g.Name(), count, plies),
		folded + ", positions where the game is over left out.",
		"Each line is the first move sequence reaching its position in a depth-first walk",
		"over the legal moves in the order of their text; the lines are sorted.",
		fmt.Sprintf("Regenerate with: arena openings --game %s --plies %d --out FILE", g.Name(), plies),
	}
}
