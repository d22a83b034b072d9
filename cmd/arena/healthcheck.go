package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
)

// runHealthcheck is `arena healthcheck`: a probe for container health checks and service
// managers. It exits 0 when the NATS server answers a round trip within --timeout and,
// with --referee, a referee daemon answers its API too; otherwise it exits 1 with one line
// saying what did not answer.
//
// The referee is asked for its players, the cheapest request it serves: an answer means
// its API subscriptions are live on a working connection, which a bare NATS check cannot
// tell.
func runHealthcheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena healthcheck", "[--nats URL] [--referee] [--timeout 2s]", stderr)
	url := fs.String("nats", "nats://127.0.0.1:4222", "NATS server URL")
	withReferee := fs.Bool("referee", false, "also check that a referee daemon answers its API on that server")
	timeout := fs.Duration("timeout", 2*time.Second, "how long the whole check may take")
	credPath := fs.String("credentials", "", "credentials file for a secured server (with --referee, an admin's or the referee's)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *timeout <= 0 {
		return cli.Usagef("--timeout %v: want a positive duration", *timeout)
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()

	credOpts, cred, err := credentialOptions(*credPath)
	if err != nil {
		return err
	}
	nc, rtt, err := bus.Probe(ctx, *url, "arena-healthcheck", *timeout, cred, credOpts...)
	if err != nil {
		return err
	}
	defer nc.Close()
	if !*withReferee {
		fmt.Fprintf(stdout, "ok: NATS at %s (round trip %v)\n", *url, humantime.Round(rtt))
		return nil
	}
	reply, err := organizer.Ask(ctx, nc, *url, protocol.SubjectAPIPlayers, protocol.APIRequest{V: protocol.Version, Type: protocol.TypeAPIPlayers})
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("the referee on %s did not answer within %v", *url, *timeout)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "ok: NATS at %s (round trip %v), referee answering (%d players heard from)\n",
		*url, humantime.Round(rtt), len(reply.Players))
	return nil
}
