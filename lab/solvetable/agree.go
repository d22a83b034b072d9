package solvetable

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arenaref/arena/games/atarigo"
	"github.com/arenaref/arena/lab/captureset"
	"github.com/arenaref/arena/lab/gnugo"
	"github.com/arenaref/arena/players/ai/widening"
)

// Why a problem is left out of the agreed set: how our deep search and GNU Go's
// reading disagreed about it.
const (
	// DisagreeLost: our search proves that the side to move fails (within what its game
	// definition functions see), where GNU Go says it succeeds.
	DisagreeLost = "our search says the side to move fails"
	// DisagreeUnknown: our search did not settle the problem within the deep limit.
	DisagreeUnknown = "our search did not settle it in time"
	// DisagreeNoThreat: a defence problem where our search sees no threat to the target
	// at all (it would survive a pass), where GNU Go says it would be captured.
	DisagreeNoThreat = "our search sees no threat to save it from"
	// DisagreeMove: our search's winning move does not work by GNU Go's reading.
	DisagreeMove = "GNU Go's reading refutes our search's move"
)

// Agreement is the outcome of Agree: the problems both readings agree on, and the rest
// with the reason each was left out.
type Agreement struct {
	Kept      []captureset.Problem
	Left      map[string][]string // reason -> problem ids
	OtherMove int                 // kept problems where our move differs from GNU Go's
	Elapsed   time.Duration
}

// Agree labels every problem with a deep search of our own (o, typically strategy 1, the
// widest selective search, with a long limit) and keeps those where it agrees with GNU
// Go's label: the side to move succeeds, and our winning move works by GNU Go's reading
// (v checks it). Problems are kept in their order and with their ids.
func Agree(ctx context.Context, problems []Problem, o widening.Options, v *captureset.Verifier, progress func(done, total int)) (Agreement, error) {
	start := time.Now()
	a := Agreement{Left: map[string][]string{}}
	leave := func(why, id string) { a.Left[why] = append(a.Left[why], id) }
	for i, p := range problems {
		res, err := widening.Solve(ctx, p.Input, o)
		if err != nil {
			return a, fmt.Errorf("problem %s: %w", p.ID, err)
		}
		if err := ctx.Err(); err != nil {
			return a, err
		}
		switch {
		case res.Verdict == widening.Lost:
			leave(DisagreeLost, p.ID)
		case res.Verdict == widening.Unknown:
			leave(DisagreeUnknown, p.ID)
		case res.Move < 0:
			leave(DisagreeNoThreat, p.ID)
		default:
			col, row := atarigo.Coords(atarigo.Point(res.Move), p.Input.Size)
			move := gnugo.Point{Col: col, Row: row}
			verdict, err := v.Check(ctx, p.Problem, move)
			if err != nil {
				return a, fmt.Errorf("problem %s: %w", p.ID, err)
			}
			if verdict != captureset.Works {
				leave(DisagreeMove, p.ID)
				break
			}
			if move != p.Move {
				a.OtherMove++
			}
			a.Kept = append(a.Kept, p.Problem)
		}
		if progress != nil {
			progress(i+1, len(problems))
		}
	}
	a.Elapsed = time.Since(start)
	return a, nil
}

// Summary writes what Agree kept and left out, and why, for the file's header and the
// docs.
func (a Agreement) Summary(w io.Writer, total int) {
	fmt.Fprintf(w, "kept %d of %d problems where our deep search agrees with GNU Go (%d of them with another working move than GNU Go's)\n", len(a.Kept), total, a.OtherMove)
	for _, why := range []string{DisagreeLost, DisagreeUnknown, DisagreeNoThreat, DisagreeMove} {
		if ids := a.Left[why]; len(ids) > 0 {
			fmt.Fprintf(w, "left out %d: %s: %s\n", len(ids), why, strings.Join(ids, " "))
		}
	}
}
