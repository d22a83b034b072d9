package workqueue

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/protocol"
)

// Config is how the owner makes the streams and consumers; workers take them as they are.
type Config struct {
	// Database is the id of the owner's database (store/sqlite's DB.ID). The streams are
	// marked with it, and every job and outcome carries it in its subject and message id,
	// so that two databases never meet each other's messages on one bus.
	Database string
	// TakeOver lets the owner take streams marked with another database's id: their
	// messages (that database's queued games and unrecorded outcomes) are dropped.
	TakeOver bool
	// Replicas is how many servers of a cluster keep each stream; 0 means 1. With 3, the
	// queue survives the loss of one server.
	Replicas int
	// AckWait is how long a job or an outcome may stay unacknowledged before it is
	// delivered again; 0 means DefaultAckWait. Workers extend it while they play, so it
	// bounds how long a dead worker's game waits to be replayed, not how long a game lasts.
	AckWait time.Duration
	// Stall is how long the owner lets its jobs wait with no worker taking one and no
	// outcome coming back before it reports the queue stalled (Owner.Problem); 0 means
	// three AckWaits.
	Stall time.Duration
}

// withDefaults is c with its zero values replaced.
func (c Config) withDefaults() Config {
	if c.Replicas == 0 {
		c.Replicas = 1
	}
	if c.AckWait == 0 {
		c.AckWait = DefaultAckWait
	}
	if c.Stall == 0 {
		c.Stall = 3 * c.AckWait
	}
	return c
}

// DefaultAckWait is Config.AckWait when it is zero.
const DefaultAckWait = 30 * time.Second

// redeliverOrphan is how soon an outcome that no feed wants yet is offered again.
const redeliverOrphan = time.Second

// ErrOtherDatabase is returned by NewOwner when the streams on the bus belong to another
// database and Config.TakeOver is not set.
var ErrOtherDatabase = errors.New("workqueue: the work queue on this bus belongs to another database")

// ownerMark is the start of a stream's description; the owner's database id follows.
const ownerMark = "arena work queue of database "

// ownerOf is the database id a stream is marked with, or "" for none.
func ownerOf(info *jetstream.StreamInfo) string {
	id, ok := strings.CutPrefix(info.Config.Description, ownerMark)
	if !ok {
		return ""
	}
	return id
}

// queueStreams are the two streams with their subjects' prefix and consumer.
var queueStreams = []struct{ stream, prefix, consumer string }{
	{GamesStream, GamesPrefix, workersConsumer},
	{ResultsStream, ResultsPrefix, recorderConsumer},
}

// Setup makes the two streams and their consumers, marked as cfg.Database's, or updates
// them to cfg. Only the owner calls it: workers wait for the streams (RunWorker), so that
// replicas and limits are always the owner's whichever starts first. Streams marked with
// another database are refused with ErrOtherDatabase, or, with cfg.TakeOver, deleted and
// made again; unmarked empty streams (left by an older arena) are made again.
func Setup(ctx context.Context, js jetstream.JetStream, cfg Config, log zerolog.Logger) error {
	cfg = cfg.withDefaults()
	if !protocol.ValidName(cfg.Database) {
		return fmt.Errorf("workqueue: the owner's database id %q is not a valid name", cfg.Database)
	}
	for _, s := range queueStreams {
		want := jetstream.StreamConfig{
			Name: s.stream, Description: ownerMark + cfg.Database, Subjects: []string{s.prefix + ">"},
			Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Replicas: cfg.Replicas,
			MaxMsgSize: maxMessage, Discard: jetstream.DiscardNew, MaxMsgsPerSubject: 1, DiscardNewPerSubject: true,
		}
		st, err := js.Stream(ctx, s.stream)
		switch {
		case errors.Is(err, jetstream.ErrStreamNotFound):
			_, err = js.CreateStream(ctx, want)
		case err != nil:
		case ownerOf(st.CachedInfo()) == cfg.Database:
			err = update(ctx, js, st.CachedInfo(), want, log)
		default:
			err = takeOver(ctx, js, st.CachedInfo(), want, cfg, log)
		}
		if errors.Is(err, ErrOtherDatabase) {
			return err
		} else if err != nil {
			return fmt.Errorf("workqueue: stream %s: %w", s.stream, err)
		}
		err = whileStreamSettles(ctx, func() error {
			_, err := js.CreateOrUpdateConsumer(ctx, s.stream, jetstream.ConsumerConfig{
				Durable: s.consumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: cfg.AckWait,
				MaxDeliver: -1, MaxAckPending: 100_000, Replicas: cfg.Replicas,
			})
			return err
		})
		if err != nil {
			return fmt.Errorf("workqueue: consumer %s: %w", s.consumer, err)
		}
	}
	return nil
}

// streamSettles bounds how long a stream just made may be reported missing.
const streamSettles = 30 * time.Second

// whileStreamSettles runs op again while it fails because the stream is not found, for up
// to streamSettles. In a cluster a stream just deleted and made again (take-over, a change
// of replicas) can be unknown for a moment to the server that places a consumer: CI saw
// "stream not found" from the consumer made right after a take-over.
func whileStreamSettles(ctx context.Context, op func() error) error {
	deadline := time.Now().Add(streamSettles)
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		err := op()
		if !streamMissing(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// streamMissing tells whether err says the stream does not exist, as a typed error or as
// the server's API error.
func streamMissing(err error) bool {
	var api *jetstream.APIError
	return errors.Is(err, jetstream.ErrStreamNotFound) || errors.As(err, &api) && api.ErrorCode == jetstream.JSErrCodeStreamNotFound
}

// update brings one of the owner's streams to want. A change of replicas is made by
// deleting the stream and making it again, with the messages it held put back: a
// work-queue stream whose replicas changed in place kept every message acknowledged after
// the change, for good (nats-server 2.9.10; CI's chaos test saw all 48 jobs of a
// tournament stay). A job or outcome lost on the way (the owner dies in between) costs a
// replay, not a result: the owner puts every unrecorded game on the queue again.
func update(ctx context.Context, js jetstream.JetStream, info *jetstream.StreamInfo, want jetstream.StreamConfig, log zerolog.Logger) error {
	if from := info.Config.Replicas; from == want.Replicas {
		_, err := js.UpdateStream(ctx, want)
		return err
	}
	log.Warn().Str("stream", want.Name).Int("from", info.Config.Replicas).Int("to", want.Replicas).Uint64("messages", info.State.Msgs).Msg("changing the work queue's replicas")
	kept, err := messagesOf(ctx, js, want.Name)
	if err != nil {
		return fmt.Errorf("keeping its messages: %w", err)
	}
	return remake(ctx, js, want, kept, log)
}

// remake deletes stream want.Name, makes it again as want, and puts kept back on it.
func remake(ctx context.Context, js jetstream.JetStream, want jetstream.StreamConfig, kept []*jetstream.RawStreamMsg, log zerolog.Logger) error {
	if err := js.DeleteStream(ctx, want.Name); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
		return err
	}
	if _, err := js.CreateStream(ctx, want); err != nil {
		return err
	}
	for _, m := range kept {
		if err := whileStreamSettles(ctx, func() error { return publish(ctx, js, m.Subject, m.Data, log) }); err != nil {
			return fmt.Errorf("putting its messages back: %w", err)
		}
	}
	return nil
}

// messagesOf reads every message of stream name, one per subject (MaxMsgsPerSubject).
func messagesOf(ctx context.Context, js jetstream.JetStream, name string) ([]*jetstream.RawStreamMsg, error) {
	st, err := js.Stream(ctx, name)
	if err != nil {
		return nil, err
	}
	info, err := st.Info(ctx, jetstream.WithSubjectFilter(">"))
	if err != nil {
		return nil, err
	}
	var kept []*jetstream.RawStreamMsg
	for subject := range info.State.Subjects {
		m, err := st.GetLastMsgForSubject(ctx, subject)
		if errNotFound(err) {
			continue // taken and acknowledged meanwhile
		} else if err != nil {
			return nil, err
		}
		kept = append(kept, m)
	}
	slices.SortFunc(kept, func(a, b *jetstream.RawStreamMsg) int { return cmp.Compare(a.Sequence, b.Sequence) })
	return kept, nil
}

// takeOver replaces a stream that is not marked as cfg.Database's, when allowed.
func takeOver(ctx context.Context, js jetstream.JetStream, info *jetstream.StreamInfo, want jetstream.StreamConfig, cfg Config, log zerolog.Logger) error {
	other, msgs := ownerOf(info), info.State.Msgs
	if !cfg.TakeOver && (other != "" || msgs > 0) {
		whose := "database " + other
		if other == "" {
			whose = "an older arena, which did not mark it"
		}
		return fmt.Errorf("%w: stream %s holds %d messages of %s, and this database is %s (another owner on this bus, or an earlier database at this path); "+
			"start the owner with --take-over to drop them and take the work queue over", ErrOtherDatabase, info.Config.Name, msgs, whose, cfg.Database)
	}
	log.Warn().Str("stream", info.Config.Name).Str("from", other).Uint64("dropped", msgs).Msg("taking the work queue over from another database")
	return remake(ctx, js, want, nil, log)
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
	cfg  Config
	log  zerolog.Logger
	stop func()

	mu       sync.Mutex
	feeds    map[string]*Feed
	finished func(tournament string) bool
}

// DropFinished tells the owner which tournaments have all their games recorded: an
// outcome of one of them that comes when it has no feed (a second outcome of a game, or
// one whose acknowledgement an owner that died never sent) is acknowledged and dropped,
// instead of being kept on the queue for a feed that will never open.
func (o *Owner) DropFinished(finished func(tournament string) bool) {
	o.mu.Lock()
	o.finished = finished
	o.mu.Unlock()
}

// NewOwner sets the queue up (Setup) and starts reading outcomes, and watching that the
// queue makes progress (Problem). Close stops it.
func NewOwner(ctx context.Context, nc *nats.Conn, cfg Config, log zerolog.Logger) (*Owner, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("workqueue: %w", err)
	}
	cfg = cfg.withDefaults()
	log = log.With().Str("component", "workqueue").Logger()
	if err := Setup(ctx, js, cfg, log); err != nil {
		return nil, err
	}
	var cons jetstream.Consumer
	err = whileStreamSettles(ctx, func() (err error) {
		cons, err = js.Consumer(ctx, ResultsStream, recorderConsumer)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("workqueue: %w", err)
	}
	o := &Owner{js: js, cfg: cfg, log: log, feeds: map[string]*Feed{}}
	cc, err := cons.Consume(o.outcome, jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
		if errors.Is(err, jetstream.ErrConsumerDeleted) || errors.Is(err, jetstream.ErrConsumerNotFound) {
			o.log.Error().Err(err).Msg("reading outcomes: the recorder's consumer is gone (was the work queue taken over?)")
			return
		}
		o.log.Debug().Err(err).Msg("reading outcomes")
	}))
	if err != nil {
		return nil, fmt.Errorf("workqueue: read outcomes: %w", err)
	}
	watchCtx, stopWatch := context.WithCancel(context.WithoutCancel(ctx))
	watched := make(chan struct{})
	go func() { defer close(watched); o.watch(watchCtx) }()
	var once sync.Once
	o.stop = func() { once.Do(func() { stopWatch(); <-watched; cc.Stop(); <-cc.Closed() }) }
	return o, nil
}

// Close stops reading outcomes; those not acknowledged are delivered again to the next
// owner. A second Close does nothing.
func (o *Owner) Close() { o.stop() }

// outcome hands an outcome to its tournament's feed, or leaves it for later.
func (o *Owner) outcome(m jetstream.Msg) {
	out, err := DecodeOutcome(m.Data())
	if err == nil && out.Job.Database != o.cfg.Database {
		err = fmt.Errorf("%w: an outcome of database %s", ErrBadMessage, out.Job.Database)
	}
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
	f, finished := o.feeds[out.Job.Tournament], o.finished
	o.mu.Unlock()
	if f == nil && finished != nil && finished(out.Job.Tournament) {
		o.log.Info().Str("game_id", out.Job.GameID()).Msg("an outcome of a tournament that is over; dropped")
		_ = m.DoubleAck(context.Background())
		return
	}
	if f == nil {
		// The owner has not (yet) resumed this tournament.
		_ = m.NakWithDelay(redeliverOrphan)
		return
	}
	select {
	case f.c <- Delivery{Outcome: out, msg: m}:
		f.arrived(out.Job.Index)
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
	f := &Feed{
		o: o, tournament: tournament, c: make(chan Delivery), closed: make(chan struct{}),
		waiting: map[int]bool{}, last: time.Now(),
	}
	o.feeds[tournament] = f
	return f, nil
}

// Problem is why the tournament's games make no progress on the queue, as the owner last
// saw it, or "" when they do (or it has no feed).
func (o *Owner) Problem(tournament string) string {
	o.mu.Lock()
	f := o.feeds[tournament]
	o.mu.Unlock()
	if f == nil {
		return ""
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.problem
}

// Feed is one tournament's end of the queue.
type Feed struct {
	o          *Owner
	tournament string
	c          chan Delivery
	closed     chan struct{}
	once       sync.Once

	mu       sync.Mutex
	waiting  map[int]bool // indices put by this feed, outcome not yet delivered
	last     time.Time    // when the last outcome came, or the feed opened
	problem  string       // why the queue makes no progress, or ""
	reported time.Time    // when problem was last logged
}

// arrived notes that the outcome of game index came.
func (f *Feed) arrived(index int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.waiting, index)
	f.last = time.Now()
	if f.problem != "" {
		f.o.log.Info().Str("tournament", f.tournament).Msg("the work queue makes progress again")
		f.problem = ""
	}
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
	j.Database = f.o.cfg.Database
	if err := publish(ctx, f.o.js, j.Subject(), j.Encode(), f.o.log); err != nil {
		return err
	}
	f.mu.Lock()
	f.waiting[j.Index] = true
	f.mu.Unlock()
	return nil
}

// retryEvery is how soon a publish that got no answer is tried again.
const retryEvery = 500 * time.Millisecond

// publish stores a message, trying again until ctx ends while the server does not answer
// (a stream electing a leader, a server of the cluster going down). A subject that holds
// its message already counts as stored.
func publish(ctx context.Context, js jetstream.JetStream, subject string, data []byte, log zerolog.Logger) error {
	for {
		// The subject names the database, the tournament and the game: as a message id it
		// lets the server drop a second copy, and never another database's message.
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
		info, err := st.Info(ctx, jetstream.WithSubjectFilter(s.prefix+f.o.cfg.Database+"."+f.tournament+".*"))
		if err != nil {
			return 0, fmt.Errorf("workqueue: %w", err)
		}
		for subject := range info.State.Subjects {
			if i, ok := indexOf(subject); ok {
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
