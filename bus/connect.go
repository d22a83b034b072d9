package bus

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"
)

// ConnectTimeout is how long Connect waits for the server to take a connection: the dial
// and the handshake, in which a secured server checks a password's bcrypt hash. The
// client's default of two seconds is too short on a loaded machine.
const ConnectTimeout = 10 * time.Second

// Connect dials a NATS server for a long-lived client of the arena: a player, the referee,
// the web view, the engine service. The connection carries name (shown in the server's
// monitoring) and reconnects forever when the server goes away, logging each disconnect and
// reconnect; extra options are applied after these (credentials, TLS, or NoReconnect for a
// one-shot command). An empty url means nats.DefaultURL. The error names the url, which is
// the usual culprit.
func Connect(url, name string, log zerolog.Logger, extra ...nats.Option) (*nats.Conn, error) {
	if url == "" {
		url = nats.DefaultURL
	}
	opts := []nats.Option{
		nats.Name(name),
		nats.Timeout(ConnectTimeout),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(time.Second),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				log.Warn().Err(err).Msg("disconnected from nats; reconnecting")
			} else {
				log.Info().Msg("disconnected from nats")
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			log.Info().Str("url", nc.ConnectedUrlRedacted()).Msg("reconnected to nats")
		}),
		nats.ErrorHandler(errorLogger(log)),
	}
	for attempt := 1; ; attempt++ {
		nc, err := nats.Connect(url, append(opts, extra...)...)
		if err == nil {
			return nc, nil
		}
		if attempt < connectAttempts && strings.Contains(err.Error(), pingFirst) {
			log.Warn().Err(err).Int("attempt", attempt).Msg("the server's PING overtook its handshake; connecting again")
			continue
		}
		return nil, fmt.Errorf("connect to %s: %w", url, err)
	}
}

// connectAttempts is how often Connect tries a server whose PING overtakes the PONG that
// ends the client's handshake, which the NATS client reports as the error pingFirst. A
// busy server can do that (nats-io/nats-server#1174: its first PING to a new client, or
// one to measure the round trip, may be written before the handshake's PONG); seen on a
// loaded two-core machine, where it failed an arena command outright.
const connectAttempts = 3

// pingFirst is the NATS client's error for a handshake answered with a PING.
const pingFirst = "expected 'PONG', got 'PING'"

// slowConsumerLogEvery is how often at most a connection made by Connect logs that its
// subscriptions dropped messages. The NATS client reports a slow consumer each time a
// subscription's queue overflows after having had room, which under a flood can be at
// every message, and for every subscription the flood reaches: logging each report would
// make the log the bottleneck.
const slowConsumerLogEvery = 5 * time.Second

// errorLogger returns the NATS error handler of Connect: it logs every asynchronous error,
// except that slow consumer reports are logged at most once every slowConsumerLogEvery,
// with the number of reports left out since the last line.
func errorLogger(log zerolog.Logger) nats.ErrHandler {
	var (
		mu     sync.Mutex
		logged time.Time // the last slow consumer line
		quiet  int       // reports since
	)
	return func(_ *nats.Conn, sub *nats.Subscription, err error) {
		subject := ""
		if sub != nil {
			subject = sub.Subject
		}
		if !errors.Is(err, nats.ErrSlowConsumer) {
			ev := log.Error().Err(err)
			if sub != nil {
				ev = ev.Str("subject", subject)
			}
			ev.Msg("nats error")
			return
		}
		now := time.Now()
		mu.Lock()
		if !logged.IsZero() && now.Sub(logged) < slowConsumerLogEvery {
			quiet++
			mu.Unlock()
			return
		}
		n := quiet
		logged, quiet = now, 0
		mu.Unlock()
		log.Warn().Err(err).Str("subject", subject).Int("unlogged", n).Dur("every", slowConsumerLogEvery).
			Msg("nats: a subscription dropped messages (logged at most once per period)")
	}
}
