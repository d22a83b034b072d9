package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/arenaref/arena/bus"
)

// Listening is the web view served over HTTP on a TCP address, until Close.
type Listening struct {
	srv  *Server
	hs   *http.Server
	ln   net.Listener
	errc chan error
}

// Listen serves the web view of cfg on addr, HOST:PORT, the host bound as bus.BindHost
// binds it (checked beforehand, with bus.LoopbackHost, when it should stay on this
// machine). addrFlag names the address's flag in the error of a listener that fails.
func Listen(addr string, cfg Config, addrFlag string) (*Listening, error) {
	srv, err := New(cfg)
	if err != nil {
		return nil, err
	}
	host, port, _ := net.SplitHostPort(addr)
	ln, err := net.Listen("tcp", net.JoinHostPort(bus.BindHost(host), port))
	if err != nil {
		srv.Close()
		return nil, fmt.Errorf("%s: %w", addrFlag, err)
	}
	l := &Listening{srv: srv, ln: ln, errc: make(chan error, 1),
		hs: &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}}
	go func() {
		if err := l.hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			l.errc <- err
		}
	}()
	return l, nil
}

// URL is where the view is served: its page of tournaments.
func (l *Listening) URL() string { return "http://" + l.ln.Addr().String() + "/" }

// Err delivers the error that stopped the HTTP server before Close, if one does.
func (l *Listening) Err() <-chan error { return l.errc }

// Close ends the live streams (they never end by themselves), then gives requests a
// moment to finish.
func (l *Listening) Close() error {
	l.srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := l.hs.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
