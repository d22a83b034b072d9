package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/auth"
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
	// No reconnects: a probe reports the state it finds rather than waiting it out.
	dialer := &probeDialer{d: net.Dialer{Timeout: *timeout}}
	nc, err := nats.Connect(*url, append([]nats.Option{nats.Name("arena-healthcheck"), nats.Timeout(*timeout), nats.NoReconnect(), nats.SetCustomDialer(dialer)}, credOpts...)...)
	if err != nil {
		if explained := auth.ExplainConnect(*url, err, cred); explained != err {
			return explained
		}
		if errors.Is(err, nats.ErrNoServers) && dialer.err != nil {
			err = dialer.err // "connection refused" or "no such host" says more
		}
		return fmt.Errorf("NATS at %s does not answer: %w", *url, err)
	}
	defer nc.Close()
	start := time.Now()
	if err := nc.FlushWithContext(ctx); err != nil {
		return fmt.Errorf("NATS at %s: no round trip within %v: %w", *url, *timeout, err)
	}
	rtt := time.Since(start)
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

// probeDialer keeps the last dial error, which nats.Connect reports only as "no servers
// available".
type probeDialer struct {
	d   net.Dialer
	err error
}

func (p *probeDialer) Dial(network, address string) (net.Conn, error) {
	c, err := p.d.Dial(network, address)
	if err != nil {
		p.err = err
	}
	return c, err
}
