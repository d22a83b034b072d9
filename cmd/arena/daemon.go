package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
)

// runReferee is `arena referee`: a long-running referee that takes tournaments over its
// NATS API (arena submit), plays them, and survives restarts: at start it resumes every
// tournament still running, playing exactly the games not yet recorded.
//
// Shutdown: the first SIGINT or SIGTERM stops new games from starting and lets running
// games finish within --grace; games still running then are parked (abandoned unrecorded,
// to be replayed from their start at the next start), and the tournaments stay "running".
// A second signal exits at once; SQLite's atomic commits keep the database whole.
func runReferee(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("referee", "--nats URL --db FILE [flags]", stderr)
	var bf busFlags
	bf.register(fs, "nats://127.0.0.1:4222", "NATS server URL")
	dbPath := fs.String("db", "arena.db", "SQLite database file")
	grace := fs.Duration("grace", 30*time.Second, "on shutdown, how long running games may take to finish before they are parked")
	heartbeat := fs.Duration("heartbeat", 5*time.Second, "how often players repeat their hello")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn, error")
	if err := fs.parse(args); err != nil {
		return err
	}
	log, err := newLogger(stderr, *logLevel)
	if err != nil {
		return err
	}
	if *grace < 0 || *heartbeat < 50*time.Millisecond {
		return usagef("--grace must not be negative, and --heartbeat at least 50ms")
	}
	if err := bf.check(explicitFlags(fs)); err != nil {
		return err
	}

	// The second signal ends the process at once; the first one (also delivered to ctx by
	// main) starts the orderly shutdown below.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		<-sigs
		<-sigs
		fmt.Fprintln(stderr, "arena referee: second signal, exiting now; unfinished games are replayed at the next start")
		os.Exit(130)
	}()

	b, db, closeBoth, err := openBusAndDB(ctx, &bf, *dbPath, true, log)
	if err != nil {
		return err
	}
	defer closeBoth()
	nc := b.nc
	// Each tournament brings its own transport margin (its file's margin).
	ref, err := referee.New(bf.refereeConfig(b, log))
	if err != nil {
		return err
	}
	// The lobby and the tournaments outlive ctx: they stop in order during shutdown.
	runCtx, stopRun := context.WithCancel(context.WithoutCancel(ctx))
	defer stopRun()
	if err := ref.StartLobby(runCtx, *heartbeat); err != nil {
		return fmt.Errorf("start lobby: %w", err)
	}
	dm := &daemon{db: db, ref: ref, d: organizer.New(organizer.Config{Store: db, Referee: ref, NATSURL: b.url, NATSOptions: b.opts, Version: version, Log: log}), log: log, heartbeat: *heartbeat, active: map[int64]*activeTournament{}}
	defer dm.d.Close()

	running, err := db.Tournaments(ctx, store.StatusRunning)
	if err != nil {
		return err
	}
	for _, t := range running {
		log.Info().Int64("tournament", t.ID).Int("played", t.Played).Int("total", t.Total).Msg("resuming tournament")
		dm.start(t.ID)
	}
	var subs []*nats.Subscription
	for subject, handle := range map[string]func(context.Context, protocol.APIRequest) protocol.APIReply{
		protocol.SubjectAPICreate:  dm.create,
		protocol.SubjectAPIStatus:  dm.status,
		protocol.SubjectAPICancel:  dm.cancel,
		protocol.SubjectAPIPlayers: dm.players,
	} {
		sub, err := nc.Subscribe(subject, dm.serve(runCtx, subject, handle))
		if err != nil {
			return fmt.Errorf("subscribe %s: %w", subject, err)
		}
		subs = append(subs, sub)
	}
	if err := nc.Flush(); err != nil {
		return fmt.Errorf("nats: %w", err)
	}
	fmt.Fprintf(stdout, "arena referee ready on %s, database %s (tournaments resumed: %d)\n", nc.ConnectedUrl(), *dbPath, len(running))
	log.Info().Str("nats", nc.ConnectedUrl()).Str("db", *dbPath).Msg("referee ready")

	<-ctx.Done()
	log.Info().Dur("grace", *grace).Msg("shutting down: no new games; running games may finish")
	for _, sub := range subs {
		_ = sub.Unsubscribe()
	}
	dm.shutdown(*grace)
	stopRun()
	_ = nc.Drain()
	log.Info().Msg("referee stopped")
	return nil
}

// daemon holds the tournaments a referee daemon is playing.
type daemon struct {
	d         *organizer.Director
	db        store.Store
	ref       *referee.Referee
	log       zerolog.Logger
	heartbeat time.Duration

	mu       sync.Mutex
	active   map[int64]*activeTournament
	stopping bool
}

type activeTournament struct {
	cancel    context.CancelFunc
	drain     chan struct{}
	done      chan struct{}
	cancelled bool // by the API: the status becomes cancelled, not parked
}

// start plays tournament id in the background.
func (dm *daemon) start(id int64) {
	ctx, cancel := context.WithCancel(context.Background())
	a := &activeTournament{cancel: cancel, drain: make(chan struct{}), done: make(chan struct{})}
	dm.mu.Lock()
	dm.active[id] = a
	dm.mu.Unlock()
	go func() {
		defer close(a.done)
		defer cancel()
		err := dm.d.Run(ctx, id, a.drain, func(done, total int, res referee.Result) {
			dm.log.Info().Int64("tournament", id).Int("done", done).Int("total", total).Str("game", res.GameID).
				Str("result", res.Result).Str("reason", res.Reason).Msg("game recorded")
		})
		dm.mu.Lock()
		delete(dm.active, id)
		stopping, cancelled := dm.stopping, a.cancelled
		dm.mu.Unlock()
		var status string
		switch {
		case err == nil:
			status = store.StatusFinished
		case cancelled:
			status = store.StatusCancelled
		case stopping && (errors.Is(err, referee.ErrDrained) || errors.Is(err, context.Canceled)):
			dm.log.Info().Int64("tournament", id).Msg("tournament parked; it resumes at the next start")
			return
		default:
			status = store.StatusFailed
		}
		if serr := dm.db.SetTournamentStatus(context.Background(), id, status); serr != nil {
			dm.log.Error().Err(serr).Int64("tournament", id).Msg("cannot store the tournament's status")
		}
		ev := dm.log.Info()
		if status == store.StatusFailed {
			ev = dm.log.Error().Err(err)
		}
		ev.Int64("tournament", id).Str("status", status).Msg("tournament ended")
	}()
}

// shutdown stops every tournament: no new games, grace for running ones, then park.
func (dm *daemon) shutdown(grace time.Duration) {
	dm.mu.Lock()
	dm.stopping = true
	all := make([]*activeTournament, 0, len(dm.active))
	for _, a := range dm.active {
		close(a.drain)
		all = append(all, a)
	}
	dm.mu.Unlock()
	deadline := time.After(grace)
	for _, a := range all {
		select {
		case <-a.done:
		case <-deadline:
			for _, b := range all {
				b.cancel()
			}
			<-a.done
		}
	}
}

// serve adapts an API handler to a NATS subscription: it decodes the request, checks its
// type against the subject, and always answers.
func (dm *daemon) serve(ctx context.Context, subject string, handle func(context.Context, protocol.APIRequest) protocol.APIReply) nats.MsgHandler {
	want := map[string]string{
		protocol.SubjectAPICreate: protocol.TypeAPICreate, protocol.SubjectAPIStatus: protocol.TypeAPIStatus,
		protocol.SubjectAPICancel: protocol.TypeAPICancel, protocol.SubjectAPIPlayers: protocol.TypeAPIPlayers,
	}[subject]
	return func(m *nats.Msg) {
		var reply protocol.APIReply
		if req, err := protocol.DecodeAPIRequest(m.Data, want); err != nil {
			reply = protocol.APIError(protocol.APIBadRequest, "%v", err)
		} else {
			reply = handle(ctx, req)
		}
		if err := m.Respond(protocol.Encode(reply)); err != nil {
			dm.log.Warn().Err(err).Str("subject", subject).Msg("cannot answer an API request")
		}
	}
}

func (dm *daemon) create(ctx context.Context, req protocol.APIRequest) protocol.APIReply {
	source := req.Source
	if source == "" {
		source = "tournament"
	}
	s, err := organizer.ParseSpecFile(source, []byte(req.Config))
	if err != nil {
		return protocol.APIError(protocol.APIBadConfig, "%v", err)
	}
	if _, err := s.Compile(req.Openings, true); err != nil {
		return protocol.APIError(protocol.APIBadConfig, "%s: %v", source, err)
	}
	id, n, err := dm.d.Create(ctx, s, req.Openings, true)
	if err != nil {
		dm.log.Error().Err(err).Msg("cannot create a tournament")
		return protocol.APIError(protocol.APIInternal, "cannot store the tournament: %v", err)
	}
	dm.start(id)
	dm.log.Info().Int64("tournament", id).Int("games", n).Str("source", source).Msg("tournament created")
	if msg := concurrencyWarning(s.Concurrency, runtime.NumCPU()); msg != "" {
		dm.log.Warn().Int64("tournament", id).Msg(msg)
	}
	return protocol.APIReply{V: protocol.Version, Type: protocol.TypeAPIOK, Tournament: id, Games: n}
}

func (dm *daemon) status(ctx context.Context, req protocol.APIRequest) protocol.APIReply {
	var list []store.Tournament
	if req.Tournament != 0 {
		t, err := dm.db.Tournament(ctx, req.Tournament)
		if errors.Is(err, store.ErrNotFound) {
			return protocol.APIError(protocol.APINotFound, "no tournament %d", req.Tournament)
		}
		if err != nil {
			return protocol.APIError(protocol.APIInternal, "%v", err)
		}
		list = []store.Tournament{t}
	} else {
		var err error
		if list, err = dm.db.Tournaments(ctx, ""); err != nil {
			return protocol.APIError(protocol.APIInternal, "%v", err)
		}
	}
	reply := protocol.APIReply{V: protocol.Version, Type: protocol.TypeAPIOK}
	for _, t := range list {
		ts := organizer.TournamentStatus(t)
		if req.Tournament != 0 {
			rows, err := dm.d.Standings(ctx, t.ID)
			if err != nil {
				return protocol.APIError(protocol.APIInternal, "%v", err)
			}
			ts.Rows = rows
		}
		reply.Tournaments = append(reply.Tournaments, ts)
	}
	return reply
}

func (dm *daemon) cancel(ctx context.Context, req protocol.APIRequest) protocol.APIReply {
	if req.Tournament == 0 {
		return protocol.APIError(protocol.APIBadRequest, "cancel needs a tournament id")
	}
	dm.mu.Lock()
	a, ok := dm.active[req.Tournament]
	if ok {
		a.cancelled = true
	}
	dm.mu.Unlock()
	if ok {
		a.cancel()
		<-a.done
		return protocol.APIReply{V: protocol.Version, Type: protocol.TypeAPIOK, Tournament: req.Tournament}
	}
	t, err := dm.db.Tournament(ctx, req.Tournament)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return protocol.APIError(protocol.APINotFound, "no tournament %d", req.Tournament)
	case err != nil:
		return protocol.APIError(protocol.APIInternal, "%v", err)
	}
	return protocol.APIError(protocol.APINotRunning, "tournament %d is %s, not running", t.ID, t.Status)
}

func (dm *daemon) players(_ context.Context, _ protocol.APIRequest) protocol.APIReply {
	reply := protocol.APIReply{V: protocol.Version, Type: protocol.TypeAPIOK}
	for _, p := range dm.ref.Players() {
		reply.Players = append(reply.Players, protocol.PlayerStatus{
			Name: p.Name, Agent: p.Agent, Version: p.Version, Games: p.Games,
			LastSeen:  p.LastSeen.UTC().Format(time.RFC3339),
			Connected: time.Since(p.LastSeen) < 3*dm.heartbeat,
		})
	}
	return reply
}
