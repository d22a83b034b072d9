package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/store/sqlite"
)

// runWeb serves the web view of a database: tournaments, standings, games move by move,
// and, with --nats, the games in progress live.
func runWeb(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena web", "--db FILE [--nats URL] [--listen HOST:PORT]", stderr)
	dbPath := fs.String("db", "arena.db", "the database to show (read only; a running referee daemon may share it)")
	natsURL := fs.String("nats", "", "NATS server URL to follow games in progress from (default: no live updates)")
	creds := fs.String("credentials", "", "credentials file for a secured NATS server (a spectator's: arena credentials add NAME --role spectator)")
	listen := fs.String("listen", "127.0.0.1:8080", "HOST:PORT to serve the web view on")
	insecure := fs.Bool("insecure-listen", false, "serve on an address other than loopback, without any authentication")
	logLevel := fs.String("log-level", "info", "trace, debug, info, warn, error or disabled")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log, err := cli.NewLogger(stderr, *logLevel)
	if err != nil {
		return err
	}
	if err := checkWebListen("--listen", *listen, *insecure, "--insecure-listen"); err != nil {
		return err
	}
	if *creds != "" && *natsURL == "" {
		return cli.Usagef("--credentials needs --nats")
	}
	// sqlite.Open creates a missing file; a web view of a database that is not there is
	// a mistake in the path.
	if _, err := os.Stat(*dbPath); err != nil {
		return cli.Usagef("--db: %v", err)
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
		if nc, err = bus.Connect(*natsURL, "arena-web", log, opts...); err != nil {
			return fmt.Errorf("--nats: %w", err)
		}
		defer nc.Close()
	}
	v, err := startWebView(*listen, db, nc, log, "--listen")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "web view of %s on %s (Ctrl-C to stop)\n", *dbPath, v.URL())
	select {
	case err := <-v.Err():
		v.Close()
		return err
	case <-ctx.Done():
	}
	return v.Close()
}
