package workqueue

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// lookTimeout bounds each of the watcher's requests to the server.
const lookTimeout = 5 * time.Second

// queueState is what the owner sees of the jobs' consumer.
type queueState struct {
	err       error  // the stream or its consumer cannot be read, or is another's
	pending   uint64 // jobs no worker has taken yet
	inHand    int    // jobs taken and not acknowledged
	asking    int    // workers' requests for a job, waiting now
	delivered uint64 // jobs handed to workers so far, deliveries again included
}

// watch looks at the queue a few times per Config.Stall while a feed waits for outcomes,
// and sets each feed's problem (Problem) when its games make no progress.
func (o *Owner) watch(ctx context.Context) {
	t := time.NewTicker(max(min(o.cfg.Stall/4, 5*time.Second), 10*time.Millisecond))
	defer t.Stop()
	var delivered uint64
	moved := time.Now() // when a worker last took a job
	missing := map[*Feed]map[int]bool{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		feeds := o.waitingFeeds()
		if len(feeds) == 0 {
			moved, missing = time.Now(), map[*Feed]map[int]bool{}
			continue
		}
		st := o.look(ctx)
		if st.err == nil && st.delivered != delivered {
			delivered, moved = st.delivered, time.Now()
		}
		for _, f := range feeds {
			var gone map[int]bool
			gone, missing[f] = o.missing(ctx, f, missing[f])
			f.report(o.diagnose(f, st, time.Since(moved), gone))
		}
	}
}

// waitingFeeds are the feeds with jobs whose outcome has not come.
func (o *Owner) waitingFeeds() []*Feed {
	o.mu.Lock()
	defer o.mu.Unlock()
	var fs []*Feed
	for _, f := range o.feeds {
		f.mu.Lock()
		if len(f.waiting) > 0 {
			fs = append(fs, f)
		}
		f.mu.Unlock()
	}
	return fs
}

// look reads the jobs' consumer.
func (o *Owner) look(ctx context.Context) queueState {
	ctx, cancel := context.WithTimeout(ctx, lookTimeout)
	defer cancel()
	st, err := o.js.Stream(ctx, GamesStream)
	if err != nil {
		return queueState{err: fmt.Errorf("stream %s: %w", GamesStream, err)}
	}
	if owner := ownerOf(st.CachedInfo()); owner != o.cfg.Database {
		return queueState{err: fmt.Errorf("stream %s now belongs to database %q, not this one (%s): another owner took the queue over", GamesStream, owner, o.cfg.Database)}
	}
	c, err := st.Consumer(ctx, workersConsumer)
	if err != nil {
		return queueState{err: fmt.Errorf("the workers' consumer %q: %w", workersConsumer, err)}
	}
	info := c.CachedInfo()
	return queueState{
		pending: info.NumPending, inHand: info.NumAckPending, asking: info.NumWaiting,
		delivered: info.Delivered.Consumer,
	}
}

// missing returns the feed's jobs that are on neither stream, as a job nor as an outcome,
// now and at the previous look (before): those the server dropped or lost. A job between
// the two looks is found on one of them, and an outcome taken off the results stream has
// left f.waiting before, so a job missing twice is truly gone.
func (o *Owner) missing(ctx context.Context, f *Feed, before map[int]bool) (gone, now map[int]bool) {
	ctx, cancel := context.WithTimeout(ctx, lookTimeout)
	defer cancel()
	there := map[int]bool{}
	for _, s := range queueStreams {
		st, err := o.js.Stream(ctx, s.stream)
		if err != nil {
			return nil, nil
		}
		info, err := st.Info(ctx, jetstream.WithSubjectFilter(s.prefix+o.cfg.Database+"."+f.tournament+".*"))
		if err != nil {
			return nil, nil
		}
		for subject := range info.State.Subjects {
			if i, ok := indexOf(subject); ok {
				there[i] = true
			}
		}
	}
	now, gone = map[int]bool{}, map[int]bool{}
	f.mu.Lock()
	for i := range f.waiting {
		if !there[i] {
			now[i] = true
			if before[i] {
				gone[i] = true
			}
		}
	}
	f.mu.Unlock()
	return gone, now
}

// diagnose says why f's games make no progress, or "" when they do: an outcome came
// within Config.Stall, or a worker took a job within it (its games are being played).
func (o *Owner) diagnose(f *Feed, st queueState, still time.Duration, gone map[int]bool) string {
	f.mu.Lock()
	quiet, waiting := time.Since(f.last), len(f.waiting)
	f.mu.Unlock()
	stall := o.cfg.Stall
	switch {
	case quiet < stall:
		return ""
	case st.err != nil:
		return fmt.Sprintf("no outcome for %v, and the work queue cannot be read: %v", quiet.Round(time.Second), st.err)
	case len(gone) > 0:
		return fmt.Sprintf("%d of its %s put on the queue are on neither stream (games %v): the server dropped or lost them, and nobody plays them",
			len(gone), count(waiting, "game"), slices.Sorted(maps.Keys(gone)))
	case still < stall:
		return ""
	case st.pending > 0 && st.asking == 0 && st.inHand == 0:
		return fmt.Sprintf("%s on the queue, and no worker has asked for one for %v: no worker runs (start arena referee --worker, or give the owner --worker-games)",
			count(int(st.pending), "job"), still.Round(time.Second))
	case st.pending > 0:
		return fmt.Sprintf("%s on the queue, none taken for %v, with %s and %s in workers' hands: the consumer is stuck",
			count(int(st.pending), "job"), still.Round(time.Second), count(st.asking, "worker's request"), count(st.inHand, "job"))
	case st.asking == 0:
		return fmt.Sprintf("no outcome for %v, %s in workers' hands and no worker asking for more: the workers stopped, or all are busy with long games",
			quiet.Round(time.Second), count(st.inHand, "job"))
	}
	return ""
}

// count is n things: "1 job", "2 jobs".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// report sets the feed's problem, logging it when it begins, and again every Stall while
// it lasts (its text changes as its durations grow).
func (f *Feed) report(problem string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case problem == "" && f.problem != "":
		f.o.log.Info().Str("tournament", f.tournament).Msg("the work queue makes progress again")
	case problem == "":
	case f.problem == "" || time.Since(f.reported) >= f.o.cfg.Stall:
		f.o.log.Error().Str("tournament", f.tournament).Str("problem", problem).Msg("the work queue makes no progress")
		f.reported = time.Now()
	}
	f.problem = problem
}
