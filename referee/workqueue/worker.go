package workqueue

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/referee"
)

// WorkerConfig is what a worker plays with.
type WorkerConfig struct {
	Queue   Config
	Referee *referee.Referee // plays the games; its lobby must be started for jobs that wait for players
	Games   int              // how many games it plays at once; 0 means 1
	Name    string           // for the log and the outcomes
	Log     zerolog.Logger
}

// fetchWait is how long one fetch waits for a job before the worker looks at its context.
const fetchWait = time.Second

// RunWorker takes jobs from the queue and plays them, up to cfg.Games at once, until ctx
// ends (the games being played are then aborted, and their jobs delivered again to another
// worker) or drain is closed (no new job is taken and the games being played finish). It
// returns nil after a drain or when ctx ends.
func RunWorker(ctx context.Context, nc *nats.Conn, drain <-chan struct{}, cfg WorkerConfig) error {
	if cfg.Referee == nil {
		return errors.New("workqueue: worker without a referee")
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("workqueue: %w", err)
	}
	if err := ensure(ctx, js, cfg.Queue); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	ackWait := cfg.Queue.AckWait
	if ackWait == 0 {
		ackWait = DefaultAckWait
	}
	w := &worker{js: js, cfg: cfg, ackWait: ackWait, log: cfg.Log.With().Str("worker", cfg.Name).Logger()}
	cons, err := js.Consumer(ctx, GamesStream, workersConsumer)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("workqueue: %w", err)
	}
	slots := make(chan struct{}, max(cfg.Games, 1))
	var wg sync.WaitGroup
	defer wg.Wait()
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
			if !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, jetstream.ErrNoMessages) {
				w.log.Debug().Err(err).Msg("fetching a job")
				// The server may be down or electing a leader; do not spin.
				select {
				case <-time.After(fetchWait / 4):
				case <-ctx.Done():
				}
			}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			w.play(ctx, m)
		}()
	}
}

type worker struct {
	js      jetstream.JetStream
	cfg     WorkerConfig
	ackWait time.Duration
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
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.ackWait)
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
		t := time.NewTicker(w.ackWait / 3)
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
// delivered again to another worker), and returns when the worker has. An error that
// stops the worker early is logged.
func StartWorker(ctx context.Context, nc *nats.Conn, cfg WorkerConfig) (stop func(grace time.Duration)) {
	playCtx, abort := context.WithCancel(ctx)
	drain := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := RunWorker(playCtx, nc, drain, cfg); err != nil {
			cfg.Log.Error().Err(err).Msg("work queue worker stopped")
		}
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
	}
}
