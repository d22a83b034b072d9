package organizer

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/referee/workqueue"
	"github.com/arenaref/arena/store"
)

// runSchedule plays a tournament's schedule: on the Director's own referee, or, with a
// work queue, on the referee workers that share it. feed is the tournament's feed when the
// caller holds it already (a ladder's final phase), nil otherwise; other, when not nil,
// takes the outcomes of the tournament's games that are not in the schedule (a ladder's
// games of its open phase, put on the queue by an earlier run of the owner).
func (d *Director) runSchedule(ctx context.Context, t referee.Tournament, feed *workqueue.Feed, other func(context.Context, workqueue.Delivery) error, onResult func(context.Context, referee.Pairing, referee.Result) error) error {
	if d.queue == nil {
		return d.ref.RunTournament(ctx, t, onResult)
	}
	if feed == nil {
		f, err := d.queue.Open(t.ID)
		if err != nil {
			return err
		}
		defer f.Close()
		feed = f
	}
	pairings := map[int]referee.Pairing{}
	var todo []referee.Pairing
	for _, p := range t.Schedule {
		pairings[p.Index] = p
		if t.Skip == nil || !t.Skip(p.Index) {
			todo = append(todo, p)
		}
	}
	pending := make(map[int]bool, len(todo))
	for _, p := range todo {
		pending[p.Index] = true
	}
	put := map[int]bool{} // put on the queue by this run, outcome not yet in
	conc := max(t.Concurrency, 1)
	log := d.log.With().Str("tournament", t.ID).Logger()
	log.Info().Int("games", len(todo)).Int("concurrency", conc).Msg("tournament start on the work queue")
	recordCtx := context.WithoutCancel(ctx)
	drain, stopping, next := t.Drain, false, 0
	for {
		for !stopping && len(put) < conc && next < len(todo) {
			p := todo[next]
			next++
			if !pending[p.Index] {
				continue // its outcome came in already, from an earlier run's job
			}
			if err := feed.Put(ctx, workqueue.JobOf(t.ID, p.Index, t.Match(p), nil)); err != nil {
				return err
			}
			put[p.Index] = true
		}
		if len(put) == 0 && (stopping || next == len(todo)) {
			break
		}
		select {
		case dlv := <-feed.Outcomes():
			i := dlv.Job.Index
			p, inSchedule := pairings[i]
			switch {
			case !inSchedule && other != nil:
				if err := other(recordCtx, dlv); err != nil {
					return err
				}
				continue
			case !pending[i]:
				// Recorded already (this is a second outcome of a game, or one of a game
				// that is no longer in the schedule): nothing to do.
				log.Info().Str("game_id", dlv.Job.GameID()).Msg("an outcome of a game recorded already; dropped")
			case !slices.Equal(dlv.Job.Players, p.Players):
				log.Error().Str("game_id", dlv.Job.GameID()).Strs("players", dlv.Job.Players).Msg("an outcome for other players than the schedule's; dropped")
				continue // not acknowledged: the job's true outcome may still come
			case dlv.Error != "":
				return fmt.Errorf("%w: game %d: %s (worker %s)", referee.ErrInvalidTournament, i, dlv.Error, dlv.Worker)
			default:
				if err := onResult(recordCtx, p, dlv.Result); err != nil && !errors.Is(err, store.ErrDuplicate) {
					return err
				}
			}
			if err := dlv.Ack(recordCtx); err != nil {
				// Delivered again later, and then found recorded.
				log.Warn().Err(err).Str("game_id", dlv.Job.GameID()).Msg("acknowledging an outcome")
			}
			delete(pending, i)
			delete(put, i)
		case <-drain:
			drain, stopping = nil, true
		case <-ctx.Done():
			// The jobs stay on the queue: the workers finish them and the outcomes wait
			// for the owner's next run.
			return fmt.Errorf("tournament %s: %w", t.ID, ctx.Err())
		}
	}
	if stopping && len(pending) > 0 {
		return fmt.Errorf("tournament %s: %w", t.ID, referee.ErrDrained)
	}
	return nil
}
