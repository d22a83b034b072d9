package main

import (
	"context"
	"fmt"
	"io"

	"github.com/arenaref/arena/internal/natsembed"
)

func runServer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("server", "[--host HOST] [--port PORT]", stderr)
	host := fs.String("host", "127.0.0.1", "address to listen on")
	port := fs.Int("port", 4222, "port to listen on (0: a free port)")
	verbose := fs.Bool("v", false, "log the server's own messages to stderr")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *port < 0 || *port > 65535 {
		return usagef("--port %d: want 0-65535", *port)
	}
	srv, err := natsembed.Start(natsembed.Options{Host: *host, Port: *port, Logging: *verbose})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "NATS server listening on %s (Ctrl-C to stop)\n", srv.URL())
	<-ctx.Done()
	srv.Shutdown()
	return nil
}
