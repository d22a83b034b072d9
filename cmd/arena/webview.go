package main

import (
	"context"
	"fmt"
	"net"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/web"
)

// checkWebListen refuses to serve the web view beyond this machine unless insecure (the
// user's explicit insecureFlag) says so: the view has no authentication, and shows every
// tournament, game and player name. flag names the address's flag in the error.
func checkWebListen(flag, addr string, insecure bool, insecureFlag string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return cli.Usagef("%s %q: want HOST:PORT, such as 127.0.0.1:8080", flag, addr)
	}
	if !bus.LoopbackHost(host) && !insecure {
		return cli.Usagef("%s %s would show every tournament, game and player name to anyone on the network, with no authentication: use a loopback address such as 127.0.0.1 (behind a proxy that authenticates), or %s to serve it anyway", flag, addr, insecureFlag)
	}
	return nil
}

// startWebView serves the web view of db on addr (checked by checkWebListen), following
// the games in progress on nc when it is not nil.
func startWebView(addr string, db store.Store, nc *nats.Conn, log zerolog.Logger, flag string) (*web.Listening, error) {
	standings := func(ctx context.Context, t store.Tournament, games []store.GameSummary) ([]protocol.StandingsRow, error) {
		return organizer.StandingsOf(ctx, db, t, games)
	}
	return web.Listen(addr, web.Config{Store: db, NATS: nc, Standings: standings, Log: log}, flag)
}

// httpFlags are --http and --insecure-http of the commands that can serve the web view
// of their own database while they run (tournament, match, referee).
type httpFlags struct {
	addr     string
	insecure bool
}

func (h *httpFlags) register(fs *cli.FlagSet) {
	fs.StringVar(&h.addr, "http", "", "also serve the live web view of --db on HOST:PORT (such as 127.0.0.1:8080) while this command runs")
	fs.BoolVar(&h.insecure, "insecure-http", false, "let --http serve an address other than loopback: the view has no authentication")
}

// httpFlagNames are the flags register adds.
var httpFlagNames = []string{"http", "insecure-http"}

func (h *httpFlags) check() error {
	if h.addr == "" {
		if h.insecure {
			return cli.Usagef("--insecure-http goes with --http")
		}
		return nil
	}
	return checkWebListen("--http", h.addr, h.insecure, "--insecure-http")
}

// start serves the web view of db when --http was given, with its own connection to the
// command's bus b for the live games, and says where on stderr; stop ends it. Without
// --http, stop does nothing.
func (h *httpFlags) start(b *bus.Bus, db store.Store, log zerolog.Logger, say func(string)) (stop func(), err error) {
	if h.addr == "" {
		return func() {}, nil
	}
	// Its own connection, so that a slow browser never holds up the referee's messages.
	nc, err := b.Connect("arena-web", log)
	if err != nil {
		return nil, fmt.Errorf("--http: connect to NATS: %w", err)
	}
	v, err := startWebView(h.addr, db, nc, log, "--http")
	if err != nil {
		nc.Close()
		return nil, err
	}
	say("web view: " + v.URL())
	return func() {
		if err := v.Close(); err != nil {
			log.Warn().Err(err).Msg("web view shutdown")
		}
		nc.Close()
	}, nil
}
