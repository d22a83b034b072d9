package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/referee/workqueue"
)

// workFlags are arena referee's flags for the JetStream work queue (referee/workqueue):
// an owner that puts its games there (--work-queue), and workers that play them (--worker).
type workFlags struct {
	queue, worker, takeOver bool
	games, replicas         int
	ackWait, stall          time.Duration
	name                    string
}

func (w *workFlags) register(fs *cli.FlagSet) {
	fs.BoolVar(&w.queue, "work-queue", false, "put the games on a JetStream work queue, played by every referee --worker on the bus (and by this process, see --worker-games); needs JetStream on the server")
	fs.BoolVar(&w.worker, "worker", false, "only play games from the work queue of a --work-queue referee on --nats: no database, no API")
	fs.IntVar(&w.games, "worker-games", 4, "how many games from the work queue this process plays at once (0: none, with --work-queue)")
	fs.IntVar(&w.replicas, "replicas", 1, "how many servers of a NATS cluster keep the work queue's streams (3 survives the loss of one)")
	fs.DurationVar(&w.ackWait, "ack-wait", workqueue.DefaultAckWait, "how long a job of a worker that went silent waits before another worker replays it")
	fs.DurationVar(&w.stall, "stall-after", 0, "report the work queue stalled (log and arena status) when its jobs wait this long with no worker taking one (default: 3 ack-waits)")
	fs.BoolVar(&w.takeOver, "take-over", false, "take over a work queue whose streams belong to another database, dropping its messages")
	fs.StringVar(&w.name, "worker-name", "", "this worker's name in logs and outcomes (default: host name and process id)")
}

func (w *workFlags) check(explicit map[string]bool, bf *busFlags) error {
	switch {
	case w.queue && w.worker:
		return cli.Usagef("--work-queue is for the referee that keeps the database, --worker for the ones that only play: one or the other")
	case w.worker && bf.embedded():
		return cli.Usagef("--worker plays the games of a referee on another server: give its --nats URL")
	case w.worker && (explicit["db"] || explicit["http"]):
		return cli.Usagef("--worker keeps no database and serves no page: leave out --db and --http")
	case w.games < 0 || (w.worker && w.games == 0):
		return cli.Usagef("--worker-games %d: want at least 1 (0 only with --work-queue)", w.games)
	case w.replicas < 1 || w.replicas > 5:
		return cli.Usagef("--replicas %d: want 1 to 5", w.replicas)
	case w.ackWait < time.Second || w.stall < 0:
		return cli.Usagef("--ack-wait %v: want at least 1s; --stall-after %v: want 0 or more", w.ackWait, w.stall)
	case !w.queue && (explicit["replicas"] || explicit["ack-wait"] || explicit["stall-after"] || explicit["take-over"]):
		return cli.Usagef("--replicas, --ack-wait, --stall-after and --take-over are the owner's (--work-queue): workers take them from its streams")
	case !w.queue && !w.worker && (explicit["worker-games"] || explicit["worker-name"]):
		return cli.Usagef("--worker-games and --worker-name go with --work-queue or --worker")
	}
	if w.name == "" {
		host, _ := os.Hostname()
		w.name = host + "-" + strconv.Itoa(os.Getpid())
	}
	return nil
}

// startWorker plays games from the work queue on ref until stop (workqueue.StartWorker).
func startWorker(ctx context.Context, nc *nats.Conn, ref *referee.Referee, wf *workFlags, log zerolog.Logger) (stop func(grace time.Duration), failed <-chan error) {
	return workqueue.StartWorker(ctx, nc, workqueue.WorkerConfig{Referee: ref, Games: wf.games, Name: wf.name, Log: log})
}

// runWorker is arena referee --worker: a referee that keeps no database and plays the
// games of the work queue until its first signal, then lets its games finish within grace.
func runWorker(ctx context.Context, bf *busFlags, wf *workFlags, grace, heartbeat time.Duration, stdout io.Writer, log zerolog.Logger) error {
	b, err := bf.open(ctx, "arena-worker", nil, log)
	if err != nil {
		return err
	}
	defer b.Close()
	ref, err := referee.New(bf.refereeConfig(b, log))
	if err != nil {
		return err
	}
	runCtx, stopRun := context.WithCancel(context.WithoutCancel(ctx))
	defer stopRun()
	if err := ref.StartLobby(runCtx, heartbeat); err != nil {
		return fmt.Errorf("start lobby: %w", err)
	}
	stop, failed := startWorker(runCtx, b.Conn(), ref, wf, log)
	fmt.Fprintf(stdout, "arena referee worker %s ready on %s, %d games at once\n", wf.name, b.Conn().ConnectedUrl(), wf.games)
	log.Info().Str("nats", b.Conn().ConnectedUrl()).Str("worker", wf.name).Msg("worker ready")
	select {
	case <-ctx.Done():
	case err := <-failed:
		return err
	}
	log.Info().Dur("grace", grace).Msg("shutting down: no new games; running games may finish")
	stop(grace)
	log.Info().Msg("worker stopped")
	return nil
}
