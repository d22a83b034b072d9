package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/players/hosting"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/referee/workqueue"
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
	fs := cli.NewFlagSet("arena referee", "--nats URL --db FILE [flags]", stderr)
	var bf busFlags
	bf.register(fs, "nats://127.0.0.1:4222", "NATS server URL")
	var hf httpFlags
	hf.register(fs)
	dbPath := fs.String("db", "arena.db", "SQLite database file")
	grace := fs.Duration("grace", 30*time.Second, "on shutdown, how long running games may take to finish before they are parked")
	heartbeat := fs.Duration("heartbeat", 5*time.Second, "how often players repeat their hello")
	keep := fs.Int("keep-engines", hosting.DefaultKeepVersions, "how many of a player's newest submitted engines to keep (and the one a host runs)")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn, error")
	var wf workFlags
	wf.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	log, err := cli.NewLogger(stderr, *logLevel)
	if err != nil {
		return err
	}
	if *grace < 0 || *heartbeat < 50*time.Millisecond {
		return cli.Usagef("--grace must not be negative, and --heartbeat at least 50ms")
	}
	if err := bf.check(explicitFlags(fs)); err != nil {
		return err
	}
	if err := hf.check(); err != nil {
		return err
	}
	if err := wf.check(explicitFlags(fs), &bf); err != nil {
		return err
	}
	if wf.worker {
		return runWorker(ctx, &bf, &wf, *grace, *heartbeat, stdout, log)
	}
	if wf.queue && bf.embedded() {
		bf.jetStreamDir = *dbPath + ".jetstream"
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
	nc := b.Conn()
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
	var queue *workqueue.Owner
	if wf.queue {
		id, err := db.ID(ctx)
		if err != nil {
			return err
		}
		qc := workqueue.Config{Database: id, TakeOver: wf.takeOver, Replicas: wf.replicas, AckWait: wf.ackWait, Stall: wf.stall}
		if queue, err = workqueue.NewOwner(runCtx, nc, qc, log); err != nil {
			return err
		}
		defer queue.Close()
	}
	d := organizer.New(organizer.Config{Store: db, Referee: ref, NATSURL: b.URL(), NATSOptions: b.Options(), Version: version, Queue: queue, Log: log})
	defer d.Close()
	dm := organizer.NewDaemon(d, *heartbeat)
	stopView, err := hf.start(b, db, log, func(line string) { fmt.Fprintln(stderr, line) })
	if err != nil {
		return err
	}
	defer stopView()

	running, err := db.Tournaments(ctx, store.StatusRunning)
	if err != nil {
		return err
	}
	for _, t := range running {
		log.Info().Int64("tournament", t.ID).Int("played", t.Played).Int("total", t.Total).Msg("resuming tournament")
		dm.Start(t.ID)
	}
	stopAPI, err := dm.Serve(runCtx, nc)
	if err != nil {
		return err
	}
	// Submitted engines (arena submit-engine, arena host).
	stopEngines, err := hosting.ServeBus(runCtx, b, hosting.EnginesConfig{Store: db, Log: log, KeepVersions: *keep})
	if err != nil {
		return err
	}
	defer stopEngines()
	stopWorker, failed := func(time.Duration) {}, (<-chan error)(nil)
	if wf.queue && wf.games > 0 {
		stopWorker, failed = startWorker(runCtx, nc, ref, &wf, log)
	}
	fmt.Fprintf(stdout, "arena referee ready on %s, database %s (tournaments resumed: %d)\n", nc.ConnectedUrl(), *dbPath, len(running))
	log.Info().Str("nats", nc.ConnectedUrl()).Str("db", *dbPath).Msg("referee ready")

	var runErr error
	select {
	case <-ctx.Done():
	case runErr = <-failed:
	}
	log.Info().Dur("grace", *grace).Msg("shutting down: no new games; running games may finish")
	stopAPI()
	dm.Shutdown(*grace)
	stopWorker(*grace)
	stopRun()
	_ = nc.Drain()
	log.Info().Msg("referee stopped")
	return runErr
}
