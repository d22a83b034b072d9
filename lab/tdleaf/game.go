package tdleaf

import (
	"fmt"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/agents/minimax"
	"github.com/arenaref/arena/players/ai/learn/td"
)

// record is what one learning side keeps of a game: a prediction and its gradient at
// each of its turns it learns from, and counts of the turns it does not.
type record struct {
	seat   game.Seat
	game   td.Game
	single int // turns with a single legal move
	cut    int // turns whose principal variation did not reach its leaf
}

// played is one game's outcome.
type played struct {
	final   *checkers.State
	plies   int
	records []*record // one per learning seat
}

// playGame plays one game of standard checkers: the opening's moves, then players[seat]
// for each seat. The seats in learn record their predictions at the leaves of their
// searches (TDLeaf), by their player's evaluation; the game's result closes each
// record. Turns with one legal move are played without a search and learned nothing
// from, as in Chinook.
func playGame(op opening.Opening, players [2]*player, learn []game.Seat, scale float64) (played, error) {
	s := checkers.New(checkers.Standard).Initial()
	for _, text := range op.Moves {
		m, err := s.ParseMove(text)
		if err == nil {
			err = s.Play(m)
		}
		if err != nil {
			return played{}, fmt.Errorf("tdleaf: opening %q: %w", op, err)
		}
	}
	out := played{}
	bySeat := [2]*record{}
	for _, seat := range learn {
		r := &record{seat: seat}
		bySeat[seat] = r
		out.records = append(out.records, r)
	}
	var legal []game.Move
	for {
		mover := s.ToMove()
		if mover == game.Terminal {
			break
		}
		legal = s.LegalMoves(mover, legal[:0])
		rec := bySeat[mover]
		if len(legal) == 1 {
			if rec != nil {
				rec.single++
			}
			if err := s.Play(legal[0]); err != nil {
				return played{}, err
			}
			out.plies++
			continue
		}
		p := players[mover]
		res, err := p.search(s)
		if err != nil {
			return played{}, err
		}
		if rec != nil {
			leaf, whole, err := p.leaf(s, res)
			if err != nil {
				return played{}, err
			}
			if whole {
				grad := make([]float64, minimax.CheckersTerms)
				rec.game.Values = append(rec.game.Values, predict(p.eval, leaf, mover, scale, grad))
				rec.game.Grads = append(rec.game.Grads, grad)
			} else {
				rec.cut++
			}
		}
		if err := s.Play(res.Move); err != nil {
			return played{}, fmt.Errorf("tdleaf: the search's move: %w", err)
		}
		out.plies++
	}
	for _, r := range out.records {
		r.game.Values = append(r.game.Values, resultValue(s, r.seat))
	}
	out.final = s
	return out, nil
}
