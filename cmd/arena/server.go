package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"strconv"

	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/internal/cli"
)

// defaultServerListen is where arena server listens without --listen: this machine only.
const defaultServerListen = "127.0.0.1:4222"

func runServer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena server", "[--listen HOST:PORT] [--insecure-listen]", stderr)
	listen := fs.String("listen", defaultServerListen, "HOST:PORT to listen on (port 0: a free port); an address other than loopback needs --insecure-listen, since this server has no credentials")
	insecure := fs.Bool("insecure-listen", false, "let --listen serve an address other than loopback: anyone who reaches it can read and answer every player's turns")
	host := fs.String("host", "127.0.0.1", "deprecated: use --listen HOST:PORT")
	port := fs.Int("port", 4222, "deprecated: use --listen HOST:PORT")
	verbose := fs.Bool("v", false, "log the server's own messages to stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	explicit := explicitFlags(fs)
	addr, note, err := serverAddress(*listen, *host, *port, explicit["listen"], explicit["host"] || explicit["port"])
	if err != nil {
		return err
	}
	if note != "" {
		fmt.Fprintln(stderr, "arena server: "+note)
	}
	if err := checkListen("--listen", addr, false, *insecure, "arena referee --auth (or a nats-server set up by arena credentials export)"); err != nil {
		return err
	}
	h, p, _ := net.SplitHostPort(addr)
	pn, _ := strconv.Atoi(p)
	srv, err := embedded.Start(embedded.Options{Host: bus.BindHost(h), Port: pn, Logging: *verbose})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "NATS server listening on %s (Ctrl-C to stop)\n", srv.URL())
	<-ctx.Done()
	srv.Shutdown()
	return nil
}

// serverAddress settles where arena server listens: --listen, or the deprecated --host and
// --port (each defaulting as before) when either was given (byHostPort). It returns a note
// for the user when the deprecated flags were used.
func serverAddress(listen, host string, port int, byListen, byHostPort bool) (addr, note string, err error) {
	switch {
	case byListen && byHostPort:
		return "", "", cli.Usagef("--listen and the deprecated --host/--port do not go together: use --listen HOST:PORT")
	case byHostPort:
		if port < 0 || port > 65535 {
			return "", "", cli.Usagef("--port %d: want 0-65535", port)
		}
		addr = net.JoinHostPort(host, strconv.Itoa(port))
		note = fmt.Sprintf("--host and --port are deprecated: use --listen %s", addr)
	default:
		addr = listen
	}
	_, p, err := net.SplitHostPort(addr)
	if n, perr := strconv.Atoi(p); err != nil || perr != nil || n < 0 || n > 65535 {
		return "", "", cli.Usagef("--listen %q: want HOST:PORT, such as 127.0.0.1:4222", addr)
	}
	return addr, note, nil
}
