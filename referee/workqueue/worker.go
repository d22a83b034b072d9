package workqueue

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/referee"
)

// WorkerConfig is what a worker plays with.
type WorkerConfig struct {
	Referee *referee.Referee // plays the games; its lobby must be started for jobs that wait for players
	Games   int              // how many games it plays at once; 0 means 1
	Name    string           // for the log and the outcomes
	Log     zerolog.Logger
}

// fetchWait is how long one fetch waits for a job before the worker looks at its context.
const fetchWait = time.Second

// awaitLogEvery is how often a worker waiting for the owner's streams says so again.
const awaitLogEvery = 30 * time.Second

// RunWorker takes jobs from the queue and plays them, up to cfg.Games at once, until ctx
// ends (the games being played are then aborted, and their jobs delivered again to another
// worker) or drain is closed (no new job is taken and the games being played finish). It
// returns nil after a drain or when ctx ends.
//
// A worker never makes or changes the streams: until the owner has made them (Setup), and
// whenever they are gone, it waits for them, saying so in its log.
func RunWorker(ctx context.Context, nc *nats.Conn, drain <-chan struct{}, cfg WorkerConfig) error {
	if cfg.Referee == nil {
		return errors.New("workqueue: worker without a referee")
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("workqueue: %w", err)
	}
	w := &worker{js: js, cfg: cfg, log: cfg.Log.With().Str("worker", cfg.Name).Logger()}
	cons, ok := w.await(ctx, drain)
	if !ok {
		return nil
	}
	slots := make(chan struct{}, max(cfg.Games, 1))
	var wg sync.WaitGroup
	defer wg.Wait()
	failures := 0
	for {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return nil
		case <-drain:
			return nil
		}
		m, err := cons.Next(jetstream.FetchMaxWait(fetchWait))
		if err != nil {
			<-slots
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, nats.ErrTimeout) || errors.Is(err, jetstream.ErrNoMessages) {
				failures = 0
				continue
			}
			w.log.Debug().Err(err).Msg("fetching a job")
			// The server may be down or electing a leader: do not spin. After a few
			// failures in a row, look for the consumer again (it may have been made again).
			if failures++; failures >= 3 {
				if cons, ok = w.await(ctx, drain); !ok {
					return nil
				}
				failures = 0
				continue
			}
			select {
			case <-time.After(fetchWait / 4):
			case <-ctx.Done():
			}
			continue
		}
		failures = 0
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			w.play(ctx, m)
		}()
	}
}

// await waits until the owner's streams and the workers' consumer are there, and returns
// the consumer; false when ctx ends or drain closes first.
func (w *worker) await(ctx context.Context, drain <-chan struct{}) (jetstream.Consumer, bool) {
	var said time.Time
	for {
		cons, err := w.lookUp(ctx)
		if err == nil {
			if !said.IsZero() {
				w.log.Info().Msg("the work queue is there: taking jobs")
			}
			return cons, true
		}
		if time.Since(said) >= awaitLogEvery {
			w.log.Warn().Err(err).Msg("waiting for the work queue: its owner (arena referee --work-queue) makes its streams, workers never do")
			said = time.Now()
		}
		select {
		case <-ctx.Done():
			return nil, false
		case <-drain:
			return nil, false
		case <-time.After(fetchWait):
		}
	}
}

// lookUp finds the owner's streams and the workers' consumer, and takes the owner's
// AckWait from it.
func (w *worker) lookUp(ctx context.Context) (jetstream.Consumer, error) {
	ctx, cancel := context.WithTimeout(ctx, lookTimeout)
	defer cancel()
	for _, name := range []string{ResultsStream, GamesStream} {
		st, err := w.js.Stream(ctx, name)
		if err != nil {
			return nil, fmt.Errorf("stream %s: %w", name, err)
		}
		if ownerOf(st.CachedInfo()) == "" {
			return nil, fmt.Errorf("stream %s has no owner's mark: made by an older arena, and its owner has not started yet", name)
		}
	}
	cons, err := w.js.Consumer(ctx, GamesStream, workersConsumer)
	if err != nil {
		return nil, fmt.Errorf("consumer %s: %w", workersConsumer, err)
	}
	w.ackWait.Store(int64(cons.CachedInfo().Config.AckWait))
	return cons, nil
}

type worker struct {
	js      jetstream.JetStream
	cfg     WorkerConfig
	ackWait atomic.Int64 // the consumer's, a time.Duration
	log     zerolog.Logger
}

// play plays one job and answers it: an outcome then an acknowledgement, or a request to
// deliver it again.
func (w *worker) play(ctx context.Context, m jetstream.Msg) {
	j, err := DecodeJob(m.Data())
	if err == nil && m.Subject() != j.Subject() {
		err = fmt.Errorf("%w: job of game %s on %s", ErrBadMessage, j.GameID(), m.Subject())
	}
	if err != nil {
		w.log.Error().Err(err).Str("subject", m.Subject()).Msg("dropping a job that cannot be read")
		_ = m.Term()
		return
	}
	log := w.log.With().Str("game_id", j.GameID()).Logger()
	// A job delivered again whose outcome is stored already: its worker died between the
	// two. Do not play it twice.
	results, err := w.js.Stream(ctx, ResultsStream)
	if err == nil {
		_, err = results.GetLastMsgForSubject(ctx, j.ResultSubject())
	}
	if err == nil {
		log.Info().Msg("the game's outcome is stored already; acknowledging its job")
		_ = m.DoubleAck(ctx)
		return
	} else if !errNotFound(err) {
		log.Warn().Err(err).Msg("cannot look for a stored outcome; the job is delivered again")
		_ = m.NakWithDelay(time.Second)
		return
	}
	out := Outcome{V: j.V, Job: j, Worker: w.cfg.Name}
	if match, err := j.Match(); err != nil {
		out.Error = err.Error() // no worker could play it: tell the owner why
	} else if out.Result, err = w.playKeepingJob(ctx, m, match); errors.Is(err, referee.ErrInvalidMatch) {
		out.Error = err.Error()
	} else if err != nil {
		// Aborted (this worker stops) or voided (its connection dropped): another try.
		log.Info().Err(err).Msg("game not finished here; its job is delivered again")
		_ = m.Nak()
		return
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Duration(w.ackWait.Load()))
	defer cancel()
	if err := publish(pctx, w.js, j.ResultSubject(), out.Encode(), log); err != nil {
		log.Warn().Err(err).Msg("cannot store the outcome; the job is delivered again")
		_ = m.Nak()
		return
	}
	if err := m.DoubleAck(pctx); err != nil {
		log.Warn().Err(err).Msg("acknowledging the job failed; it will be found answered when delivered again")
	}
}

// playKeepingJob plays the match, telling the queue every third of AckWait that the job is
// still in hand.
func (w *worker) playKeepingJob(ctx context.Context, m jetstream.Msg, match referee.Match) (referee.Result, error) {
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		t := time.NewTicker(time.Duration(w.ackWait.Load()) / 3)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				_ = m.InProgress()
			case <-stop:
				return
			}
		}
	}()
	return w.cfg.Referee.Play(ctx, match)
}

// StartWorker runs RunWorker in the background until stop: stop takes no new job, lets
// the games being played finish within grace, then aborts the rest (their jobs are
// delivered again to another worker), and returns when the worker has. failed delivers
// the error of a worker that stopped by itself (it is then closed): its process should
// exit with it rather than stay up without playing.
func StartWorker(ctx context.Context, nc *nats.Conn, cfg WorkerConfig) (stop func(grace time.Duration), failed <-chan error) {
	playCtx, abort := context.WithCancel(ctx)
	drain := make(chan struct{})
	done := make(chan struct{})
	fail := make(chan error, 1)
	go func() {
		defer close(done)
		err := RunWorker(playCtx, nc, drain, cfg)
		if err == nil && playCtx.Err() == nil && !isClosed(drain) {
			err = errors.New("workqueue: the worker stopped taking jobs")
		}
		if err != nil {
			cfg.Log.Error().Err(err).Msg("work queue worker stopped")
			fail <- err
		}
		close(fail)
	}()
	return func(grace time.Duration) {
		close(drain)
		select {
		case <-done:
		case <-time.After(grace):
			abort()
			<-done
		}
		abort()
	}, fail
}

// isClosed tells whether c is closed.
func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
