package bus

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/auth"
)

// Probe connects to the NATS server at url as name, with opts (the credentials cred, nil
// without), and times a round trip, all within timeout and ctx: a health check. It does
// not reconnect, so that it reports the state it finds rather than waiting it out, and its
// errors say what did not answer. The caller closes the connection.
func Probe(ctx context.Context, url, name string, timeout time.Duration, cred *auth.File, opts ...nats.Option) (_ *nats.Conn, rtt time.Duration, _ error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	dialer := &probeDialer{d: net.Dialer{Timeout: timeout}}
	nc, err := nats.Connect(url, append([]nats.Option{nats.Name(name), nats.Timeout(timeout), nats.NoReconnect(), nats.SetCustomDialer(dialer)}, opts...)...)
	if err != nil {
		if explained := auth.ExplainConnect(url, err, cred); explained != err {
			return nil, 0, explained
		}
		if errors.Is(err, nats.ErrNoServers) && dialer.err != nil {
			err = dialer.err // "connection refused" or "no such host" says more
		}
		return nil, 0, fmt.Errorf("NATS at %s does not answer: %w", url, err)
	}
	start := time.Now()
	if err := nc.FlushWithContext(ctx); err != nil {
		nc.Close()
		return nil, 0, fmt.Errorf("NATS at %s: no round trip within %v: %w", url, timeout, err)
	}
	return nc, time.Since(start), nil
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
