package workqueue

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"
)

// Config is how the streams and consumers are made.
type Config struct {
	// Replicas is how many servers of a cluster keep each stream; 0 means 1. With 3, the
	// queue survives the loss of one server.
	Replicas int
	// AckWait is how long a job or an outcome may stay unacknowledged before it is
	// delivered again; 0 means DefaultAckWait. Workers extend it while they play, so it
	// bounds how long a dead worker's game waits to be replayed, not how long a game lasts.
	AckWait time.Duration
}

// DefaultAckWait is Config.AckWait when it is zero.
const DefaultAckWait = 30 * time.Second

// redeliverOrphan is how soon an outcome that no feed wants yet is offered again.
const redeliverOrphan = time.Second

// Setup makes the two streams and their consumers, or updates them to cfg. The owner
// calls it; workers call ensure, so that either may start first, and a worker's settings
// never change the owner's (its replicas, say).
func Setup(ctx context.Context, js jetstream.JetStream, cfg Config) error {
	if cfg.Replicas == 0 {
		cfg.Replicas = 1
	}
	if cfg.AckWait == 0 {
		cfg.AckWait = DefaultAckWait
	}
	for _, s := range []struct{ stream, prefix, consumer string }{
		{GamesStream, GamesPrefix, workersConsumer},
		{ResultsStream, ResultsPrefix, recorderConsumer},
	} {
		_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
			Name: s.stream, Subjects: []string{s.prefix + ">"}, Retention: jetstream.WorkQueuePolicy,
			Storage: jetstream.FileStorage, Replicas: cfg.Replicas, MaxMsgSize: maxMessage,
			Discard: jetstream.DiscardNew, MaxMsgsPerSubject: 1, DiscardNewPerSubject: true,
		})
		if err != nil {
			return fmt.Errorf("workqueue: stream %s: %w", s.stream, err)
		}
		_, err = js.CreateOrUpdateConsumer(ctx, s.stream, jetstream.ConsumerConfig{
			Durable: s.consumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: cfg.AckWait,
			MaxDeliver: -1, MaxAckPending: 100_000, Replicas: cfg.Replicas,
		})
		if err != nil {
			return fmt.Errorf("workqueue: consumer %s: %w", s.consumer, err)
		}
	}
	return nil
}

// ensure is Setup when the streams are missing, and nothing when they are there.
func ensure(ctx context.Context, js jetstream.JetStream, cfg Config) error {
	_, errGames := js.Stream(ctx, GamesStream)
	_, errResults := js.Stream(ctx, ResultsStream)
	if errGames == nil && errResults == nil {
		return nil
	}
	return Setup(ctx, js, cfg)
}

// alreadyThere tells whether a publish was refused because the subject already holds a
// message (DiscardNewPerSubject).
func alreadyThere(err error) bool {
	return err != nil && strings.Contains(err.Error(), "maximum messages per subject exceeded")
}

// Owner is the owner's end of the queue: it puts jobs on it and hands each outcome to the
// Feed of its tournament.
type Owner struct {
	js   jetstream.JetStream
	log  zerolog.Logger
	stop func()

	mu    sync.Mutex
	feeds map[string]*Feed
}

// NewOwner sets the queue up and starts reading outcomes. Close stops it.
func NewOwner(ctx context.Context, nc *nats.Conn, cfg Config, log zerolog.Logger) (*Owner, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("workqueue: %w", err)
	}
	if err := Setup(ctx, js, cfg); err != nil {
		return nil, err
	}
	cons, err := js.Consumer(ctx, ResultsStream, recorderConsumer)
	if err != nil {
		return nil, fmt.Errorf("workqueue: %w", err)
	}
	o := &Owner{js: js, log: log.With().Str("component", "workqueue").Logger(), feeds: map[string]*Feed{}}
	cc, err := cons.Consume(o.outcome, jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
		o.log.Debug().Err(err).Msg("reading outcomes")
	}))
	if err != nil {
		return nil, fmt.Errorf("workqueue: read outcomes: %w", err)
	}
	o.stop = func() { cc.Stop(); <-cc.Closed() }
	return o, nil
}

// Close stops reading outcomes; those not acknowledged are delivered again to the next
// owner.
func (o *Owner) Close() { o.stop() }

// outcome hands an outcome to its tournament's feed, or leaves it for later.
func (o *Owner) outcome(m jetstream.Msg) {
	out, err := DecodeOutcome(m.Data())
	if err != nil {
		o.log.Error().Err(err).Str("subject", m.Subject()).Msg("dropping an outcome that cannot be read")
		_ = m.Term()
		return
	}
	if m.Subject() != out.Job.ResultSubject() {
		o.log.Error().Str("subject", m.Subject()).Str("game", out.Job.GameID()).Msg("dropping an outcome on another game's subject")
		_ = m.Term()
		return
	}
	o.mu.Lock()
	f := o.feeds[out.Job.Tournament]
	o.mu.Unlock()
	if f == nil {
		// The owner has not (yet) resumed this tournament.
		_ = m.NakWithDelay(redeliverOrphan)
		return
	}
	select {
	case f.c <- Delivery{Outcome: out, msg: m}:
	case <-f.closed:
		_ = m.NakWithDelay(redeliverOrphan)
	}
}

// Open returns the feed of a tournament's outcomes, including those of games put on the
// queue by an earlier run of the owner. A tournament has one feed at a time.
func (o *Owner) Open(tournament string) (*Feed, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.feeds[tournament] != nil {
		return nil, fmt.Errorf("workqueue: tournament %s already has a feed", tournament)
	}
	f := &Feed{o: o, tournament: tournament, c: make(chan Delivery), closed: make(chan struct{})}
	o.feeds[tournament] = f
	return f, nil
}

// Feed is one tournament's end of the queue.
type Feed struct {
	o          *Owner
	tournament string
	c          chan Delivery
	closed     chan struct{}
	once       sync.Once
}

// Delivery is an outcome for the owner, to acknowledge once recorded.
type Delivery struct {
	Outcome
	msg jetstream.Msg
}

// Ack tells the queue that the outcome is recorded: it is not delivered again.
func (d Delivery) Ack(ctx context.Context) error { return d.msg.DoubleAck(ctx) }

// Release gives an outcome back unrecorded, as a feed that closes gives back those it was
// not asked for: it is delivered again, to the tournament's next feed.
func (d Delivery) Release() { _ = d.msg.NakWithDelay(redeliverOrphan) }

// Outcomes delivers the tournament's outcomes, one at a time.
func (f *Feed) Outcomes() <-chan Delivery { return f.c }

// Put puts a job on the queue. A job already there (queued or being played) is left as it
// is, and its outcome will come all the same.
func (f *Feed) Put(ctx context.Context, j Job) error {
	if j.Tournament != f.tournament {
		return fmt.Errorf("workqueue: job of tournament %s on the feed of %s", j.Tournament, f.tournament)
	}
	return publish(ctx, f.o.js, j.Subject(), j.Encode(), f.o.log)
}

// retryEvery is how soon a publish that got no answer is tried again.
const retryEvery = 500 * time.Millisecond

// publish stores a message, trying again until ctx ends while the server does not answer
// (a stream electing a leader, a server of the cluster going down). A subject that holds
// its message already counts as stored.
func publish(ctx context.Context, js jetstream.JetStream, subject string, data []byte, log zerolog.Logger) error {
	for {
		_, err := js.Publish(ctx, subject, data, jetstream.WithMsgID(subject))
		if err == nil || alreadyThere(err) {
			return nil
		}
		var apiErr *jetstream.APIError
		if errors.As(err, &apiErr) && !strings.Contains(apiErr.Description, "leader") {
			return fmt.Errorf("workqueue: publish on %s: %w", subject, err)
		}
		log.Warn().Err(err).Str("subject", subject).Msg("publishing on the work queue; trying again")
		select {
		case <-ctx.Done():
			return fmt.Errorf("workqueue: publish on %s: %w", subject, err)
		case <-time.After(retryEvery):
		}
	}
}

// Reserved is the highest game index of the tournament that is on the queue, as a job or
// as an outcome not yet recorded (0 when none is).
func (f *Feed) Reserved(ctx context.Context) (int, error) {
	most := 0
	for _, s := range []struct{ stream, prefix string }{{GamesStream, GamesPrefix}, {ResultsStream, ResultsPrefix}} {
		st, err := f.o.js.Stream(ctx, s.stream)
		if err != nil {
			return 0, fmt.Errorf("workqueue: %w", err)
		}
		info, err := st.Info(ctx, jetstream.WithSubjectFilter(s.prefix+f.tournament+".*"))
		if err != nil {
			return 0, fmt.Errorf("workqueue: %w", err)
		}
		for subject := range info.State.Subjects {
			if _, i, ok := indexOf(subject); ok {
				most = max(most, i)
			}
		}
	}
	return most, nil
}

// Close gives the tournament's feed up; outcomes not taken are delivered to the next one.
func (f *Feed) Close() {
	f.once.Do(func() {
		close(f.closed)
		f.o.mu.Lock()
		delete(f.o.feeds, f.tournament)
		f.o.mu.Unlock()
	})
}

// errNotFound tells whether a message lookup found nothing.
func errNotFound(err error) bool { return errors.Is(err, jetstream.ErrMsgNotFound) }
