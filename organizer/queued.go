package organizer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/referee/workqueue"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/tournament"
)

// QueueExecutor plays the games on the referee workers that share the work queue of q:
// it puts them on the queue and takes their outcomes back.
func QueueExecutor(q *workqueue.Owner, log zerolog.Logger) Executor { return queueExecutor{q, log} }

type queueExecutor struct {
	q   *workqueue.Owner
	log zerolog.Logger
}

// Problem is why the tournament's games make no progress on the queue, or "".
func (x queueExecutor) Problem(id string) string { return x.q.Problem(id) }

func (x queueExecutor) Open(id string) (Session, error) {
	feed, err := x.q.Open(id)
	if err != nil {
		return nil, err
	}
	s := &queueSession{
		feed: feed, id: id, log: x.log.With().Str("tournament", id).Logger(),
		ended: make(chan Ended, maxBatch), closed: make(chan struct{}), mine: map[int]bool{},
	}
	s.wg.Add(1)
	go s.read()
	return s, nil
}

// queueSession is a tournament's end of the work queue.
type queueSession struct {
	feed *workqueue.Feed
	id   string
	log  zerolog.Logger

	ended  chan Ended
	closed chan struct{}
	once   sync.Once
	wg     sync.WaitGroup

	mu   sync.Mutex
	mine map[int]bool // games this session put on the queue, outcome not yet in
}

// read hands the feed's outcomes on as Ends. An outcome taken and not handed on when the
// session closes is given back to the queue, for the next session.
func (s *queueSession) read() {
	defer s.wg.Done()
	for {
		select {
		case dlv := <-s.feed.Outcomes():
			select {
			case s.ended <- s.endOf(dlv):
			case <-s.closed:
				dlv.Release()
				return
			}
		case <-s.closed:
			return
		}
	}
}

// endOf is the End of an outcome.
func (s *queueSession) endOf(dlv workqueue.Delivery) Ended {
	s.mu.Lock()
	ours := s.mine[dlv.Job.Index]
	delete(s.mine, dlv.Job.Index)
	s.mu.Unlock()
	e := Ended{
		Index: dlv.Job.Index, GameID: dlv.Job.GameID(), Players: dlv.Job.Players, Tag: dlv.Job.Tag, Result: dlv.Result,
		Ours: ours, failure: dlv.Error, worker: dlv.Worker, ack: dlv.Ack, release: dlv.Release,
	}
	if dlv.Error != "" {
		e.Err = fmt.Errorf("%w: %s", referee.ErrInvalidMatch, dlv.Error)
	}
	return e
}

func (s *queueSession) Start(ctx context.Context, index int, m referee.Match, tag []byte) error {
	s.mu.Lock()
	s.mine[index] = true
	s.mu.Unlock()
	return s.feed.Put(ctx, workqueue.JobOf(s.id, index, m, tag))
}

func (s *queueSession) Ended() <-chan Ended { return s.ended }

func (s *queueSession) Reserved(ctx context.Context) (int, error) { return s.feed.Reserved(ctx) }

func (s *queueSession) Close() {
	s.once.Do(func() {
		close(s.closed)
		s.wg.Wait()
		for {
			select {
			case e := <-s.ended:
				e.release()
				continue
			default:
			}
			break
		}
		s.feed.Close()
	})
}

// maxBatch is the most outcomes a session holds, and records in one transaction.
const maxBatch = 256

// Play puts the schedule's games on the queue, up to t.Concurrency at a time, and records
// their outcomes as they come, also those of games an earlier run put there: the outcomes
// at hand together, in one transaction, before it acknowledges them.
func (s *queueSession) Play(ctx context.Context, t referee.Tournament, record RecordFunc, other func(context.Context, Ended) error) error {
	pairings := map[int]tournament.Pairing{}
	var todo []tournament.Pairing
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
	log := s.log
	log.Info().Int("games", len(todo)).Int("concurrency", conc).Msg("tournament start on the work queue")
	recordCtx := context.WithoutCancel(ctx)

	// The outcomes at hand: those to record, and every one to acknowledge after that.
	var played []Played
	var done []Ended
	flush := func() error {
		if len(played) > 0 {
			if err := record(recordCtx, played); err != nil && !errors.Is(err, store.ErrDuplicate) {
				return err // not acknowledged: delivered again to the next run
			}
		}
		var wg sync.WaitGroup
		for _, e := range done {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := e.Ack(recordCtx); err != nil {
					// Delivered again later, and then found recorded.
					log.Warn().Err(err).Str("game_id", e.GameID).Msg("acknowledging an outcome")
				}
			}()
			delete(pending, e.Index)
			delete(put, e.Index)
		}
		wg.Wait()
		played, done = played[:0], done[:0]
		return nil
	}
	// take sorts out one outcome; it returns an error that ends the run.
	take := func(e Ended) error {
		i := e.Index
		p, inSchedule := pairings[i]
		switch {
		case !inSchedule && other != nil:
			if err := other(recordCtx, e); err != nil {
				return err
			}
			return e.Ack(recordCtx)
		case !pending[i]:
			// Recorded already (this is a second outcome of a game, or one of a game
			// that is no longer in the schedule): nothing to do.
			log.Info().Str("game_id", e.GameID).Msg("an outcome of a game recorded already; dropped")
		case !slices.Equal(e.Players, p.Players):
			log.Error().Str("game_id", e.GameID).Strs("players", e.Players).Msg("an outcome for other players than the schedule's; dropped")
			return nil // not acknowledged: the job's true outcome may still come
		case e.failure != "":
			return fmt.Errorf("%w: game %d: %s (worker %s)", referee.ErrInvalidTournament, i, e.failure, e.worker)
		case slices.ContainsFunc(done, func(d Ended) bool { return d.Index == i }):
			log.Info().Str("game_id", e.GameID).Msg("a second outcome of a game at hand; dropped")
		default:
			played = append(played, Played{p, e.Result})
		}
		done = append(done, e)
		return nil
	}

	drain, stopping, next := t.Drain, false, 0
	for {
		for !stopping && len(put) < conc && next < len(todo) {
			p := todo[next]
			next++
			if !pending[p.Index] {
				continue // its outcome came in already, from an earlier run's job
			}
			if err := s.feed.Put(ctx, workqueue.JobOf(t.ID, p.Index, t.Match(p), nil)); err != nil {
				return err
			}
			put[p.Index] = true
		}
		if len(put) == 0 && (stopping || next == len(todo)) {
			break
		}
		select {
		case e := <-s.ended:
			err := take(e)
			for n := 1; err == nil && n < maxBatch; n++ {
				select {
				case e := <-s.ended:
					err = take(e)
					continue
				default:
				}
				break
			}
			// What was taken before an error is recorded all the same.
			if ferr := flush(); ferr != nil {
				return ferr
			} else if err != nil {
				return err
			}
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
