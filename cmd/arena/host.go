package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/players/hosting/cgroup"
	"github.com/arenaref/arena/players/hosting/host"
	"github.com/arenaref/arena/players/hosting/sandbox"
)

// runHost is `arena host`: it builds and runs submitted engines as their players, each in a
// sandbox (players/hosting/host). SIGINT and SIGTERM stop every engine and report them stopped.
func runHost(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena host", "--nats URL --credentials FILE --dir DIR [flags]", stderr)
	url := fs.String("nats", "nats://127.0.0.1:4222", "NATS server URL of the referee")
	credPath := fs.String("credentials", "", "credentials file of role host (arena credentials add NAME --role host), for a secured server")
	dir := fs.String("dir", "", "directory where engines are unpacked and built, DIR/NAME/sN (required)")
	concurrency := fs.Int("concurrency", 1, "builds at once")
	buildTimeout := fs.Duration("build-timeout", host.DefaultBuildTimeout, "time one build may take")
	buildSize := fs.Int64("build-size", sandbox.DefaultLimits().BuildSize>>20, "MiB a build may write: the size of its scratch space, a tmpfs, and of its result")
	buildHold := fs.Duration("build-slot-hold", host.DefaultBuildSlotHold, "time a build keeps its place among --concurrency before the next build may start beside it")
	noSandbox := fs.Bool("no-sandbox", false, "run builds and engines as plain processes of this user, unconfined: only for engines you trust")
	noCgroups := fs.Bool("no-cgroups", false, "run sandboxes without cgroups: limits per process only, so one engine can take the memory or CPU of all")
	var limits cgroup.Limits
	fs.Int64Var(&limits.Memory, "memory", cgroup.DefaultLimits().Memory>>20, "MiB each engine and each build may hold, with its children, shared memory and page cache (its cgroup's limit)")
	fs.Float64Var(&limits.CPU, "cpu", cgroup.DefaultLimits().CPU, "CPUs each engine and each build may use at once, however many threads it runs (its cgroup's quota)")
	ponder := fs.Bool("ponder", false, "let engines run between their turns, instead of freezing them")
	startTimeout := fs.Duration("start-timeout", engine.DefaultStartTimeout, "time an engine has to start and answer the handshake")
	grace := fs.Duration("grace", cli.DefaultGrace, "on the first SIGTERM or SIGINT: how long the games being played may take to finish before they are handed back to the referee")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn, error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *dir == "":
		return cli.Usagef("--dir is required: where engines are unpacked and built")
	case *concurrency < 1:
		return cli.Usagef("--concurrency %d: want at least 1", *concurrency)
	case *buildTimeout <= 0 || *startTimeout <= 0 || *buildSize <= 0 || limits.Memory <= 0 || limits.CPU <= 0:
		return cli.Usagef("--build-timeout, --build-size, --start-timeout, --memory and --cpu must be positive")
	}
	log, err := cli.NewLogger(stderr, *logLevel)
	if err != nil {
		return err
	}
	limits.Memory <<= 20
	sb, cg, err := host.Confinement{NoSandbox: *noSandbox, NoCgroups: *noCgroups, Limits: limits,
		Sandbox: sandbox.Host{BuildWall: *buildTimeout, Limits: sandbox.Limits{BuildSize: *buildSize << 20}}}.Open(stderr)
	if err != nil {
		return err
	}
	defer cg.Close()
	opts, cred, err := credentialOptions(*credPath)
	if err != nil {
		return err
	}
	name := "arena-host"
	if cred != nil {
		name = cred.Name
	}
	nc, err := bus.Connect(*url, name, log, opts...)
	if errors.Is(err, nats.ErrNoServers) {
		// The host may start before the server: it connects once the server is up.
		log.Warn().Str("nats", *url).Msg("no NATS server yet; connecting when it is up")
		nc, err = bus.Connect(*url, name, log, append(opts, nats.RetryOnFailedConnect(true))...)
	}
	if err != nil {
		return auth.ExplainConnect(*url, err, cred)
	}
	defer nc.Close()
	drain, hard := cli.GracefulStop(ctx, *grace)
	h, err := host.New(host.Config{
		Conn: nc, Dir: *dir, Sandbox: sb, Cgroups: cg, Ponder: *ponder, Concurrency: *concurrency, BuildTimeout: *buildTimeout, BuildSlotHold: *buildHold,
		Engine: engine.Options{StartTimeout: *startTimeout}, Drain: drain, Log: log,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "arena host ready on %s, directory %s\n", nc.ConnectedUrl(), *dir)
	err = h.Run(hard)
	if derr := nc.Drain(); derr != nil && !errors.Is(derr, context.Canceled) {
		log.Debug().Err(derr).Msg("drain")
	}
	// Drain closes in the background; wait a little for the last reports to leave.
	for deadline := time.Now().Add(2 * time.Second); !nc.IsClosed() && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	return err
}
