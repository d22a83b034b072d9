// Package natsembed runs a NATS server inside the process, from the nats-server/v2 package:
// the default bus of `arena tournament`, the server of `arena server`, and the server every
// test talks to, so that nothing needs a NATS installation.
package natsembed

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Options configure an embedded server. The zero value listens on 127.0.0.1 on a random
// free port.
type Options struct {
	Host string // default 127.0.0.1
	Port int    // 0 picks a free port
	// MaxPayload is the largest message the server accepts, in bytes; 0 keeps the server's
	// default (1 MiB).
	MaxPayload int32
	// Logging sends the server's own log to stderr.
	Logging bool
}

// Server is a running embedded NATS server.
type Server struct {
	srv *server.Server
}

// Start starts a server and waits until it accepts connections.
func Start(o Options) (*Server, error) {
	if o.Host == "" {
		o.Host = "127.0.0.1"
	}
	port := o.Port
	if port == 0 {
		port = server.RANDOM_PORT
	} else {
		// The server reports a busy port only in its log; probe first so the caller
		// gets a clear error at once instead of a timeout.
		l, err := net.Listen("tcp", net.JoinHostPort(o.Host, strconv.Itoa(port)))
		if err != nil {
			return nil, fmt.Errorf("nats server: %w", err)
		}
		l.Close()
	}
	opts := &server.Options{
		Host:       o.Host,
		Port:       port,
		NoSigs:     true,
		NoLog:      !o.Logging,
		MaxPayload: o.MaxPayload,
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("nats server: %w", err)
	}
	if o.Logging {
		srv.ConfigureLogger()
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("nats server: not ready on %s:%d after 10s (is the port in use?)", o.Host, o.Port)
	}
	return &Server{srv: srv}, nil
}

// URL is the nats:// URL clients connect to.
func (s *Server) URL() string { return s.srv.ClientURL() }

// Shutdown stops the server and waits for it to finish.
func (s *Server) Shutdown() {
	s.srv.Shutdown()
	s.srv.WaitForShutdown()
}

// WaitForShutdown blocks until the server has stopped.
func (s *Server) WaitForShutdown() { s.srv.WaitForShutdown() }
