package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store/sqlite"
	"github.com/arenaref/arena/web"
)

// runWeb serves the web view of a database: tournaments, standings, games move by move,
// and, with --nats, the games in progress live.
func runWeb(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("web", "--db FILE [--nats URL] [--listen HOST:PORT]", stderr)
	dbPath := fs.String("db", "arena.db", "the database to show (read only; a running referee daemon may share it)")
	natsURL := fs.String("nats", "", "NATS server URL to follow games in progress from (default: no live updates)")
	creds := fs.String("credentials", "", "credentials file for a secured NATS server (a spectator's: arena credentials add NAME --role spectator)")
	listen := fs.String("listen", "127.0.0.1:8080", "HOST:PORT to serve the web view on")
	insecure := fs.Bool("insecure-listen", false, "serve on an address other than loopback, without any authentication")
	logLevel := fs.String("log-level", "info", "trace, debug, info, warn, error or disabled")
	if err := fs.parse(args); err != nil {
		return err
	}
	log, err := newLogger(stderr, *logLevel)
	if err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(*listen)
	if err != nil {
		return usagef("--listen %q: want HOST:PORT, such as 127.0.0.1:8080", *listen)
	}
	if !loopbackHost(host) && !*insecure {
		return usagef("--listen %s would show every tournament, game and player name to anyone on the network, with no authentication: use a loopback address such as 127.0.0.1 (behind a proxy that authenticates), or --insecure-listen to serve it anyway", *listen)
	}
	if *creds != "" && *natsURL == "" {
		return usagef("--credentials needs --nats")
	}
	// sqlite.Open creates a missing file; a web view of a database that is not there is
	// a mistake in the path.
	if _, err := os.Stat(*dbPath); err != nil {
		return usagef("--db: %v", err)
	}
	db, err := sqlite.Open(ctx, *dbPath)
	if err != nil {
		return fmt.Errorf("--db: %w", err)
	}
	defer db.Close()
	var nc *nats.Conn
	if *natsURL != "" {
		opts, _, err := credentialOptions(*creds)
		if err != nil {
			return err
		}
		opts = append([]nats.Option{nats.Name("arena-web"), nats.MaxReconnects(-1)}, opts...)
		if nc, err = nats.Connect(*natsURL, opts...); err != nil {
			return fmt.Errorf("--nats %s: %w", *natsURL, err)
		}
		defer nc.Close()
	}
	standings := func(ctx context.Context, id int64) ([]protocol.StandingsRow, error) {
		return organizer.Standings(ctx, db, id)
	}
	srv, err := web.New(web.Config{Store: db, NATS: nc, Standings: standings, Log: log})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", net.JoinHostPort(bindHost(host), portOf(*listen)))
	if err != nil {
		return fmt.Errorf("--listen: %w", err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "web view of %s on http://%s/ (Ctrl-C to stop)\n", *dbPath, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Live streams never end by themselves: close them, then give requests a moment.
	srv.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

func portOf(addr string) string {
	_, p, _ := net.SplitHostPort(addr)
	return p
}
