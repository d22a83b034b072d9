package embedded

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/arenaref/arena/protocol"
)

// DefaultMaxPayload is the embedded server's largest message unless Options say otherwise:
// a submitted engine's archive (protocol.MaxArchiveSize, 8 MiB) with room for its headers.
// nats-server's own default, 1 MiB, would refuse most archives.
const DefaultMaxPayload = protocol.MaxArchiveSize + 64<<10

// Options configure an embedded server. The zero value listens on 127.0.0.1 on a random
// free port.
type Options struct {
	Host string // default 127.0.0.1
	Port int    // 0 picks a free port
	// MaxPayload is the largest message the server accepts, in bytes; 0 means
	// DefaultMaxPayload.
	MaxPayload int32
	// MaxConnections is the most clients connected at once; 0 keeps the server's default.
	MaxConnections int
	// Auth, when not nil, requires every client to present one of its credentials: the
	// server refuses anonymous connections. SetAuth replaces it on a running server.
	Auth *Auth
	// Logging sends the server's own log to stderr.
	Logging bool
	// JetStreamDir, when set, enables JetStream with its file store in that directory (the
	// work queue of referee workers, referee/workqueue).
	JetStreamDir string
}

// Auth is the users of a secured server, with their permissions (see package auth).
type Auth struct {
	Users []*server.User
	Nkeys []*server.NkeyUser
}

// Server is a running embedded NATS server.
type Server struct {
	srv  *server.Server
	opts *server.Options // as started, for reloads
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
	if o.MaxPayload == 0 {
		o.MaxPayload = DefaultMaxPayload
	}
	opts := &server.Options{
		Host:       o.Host,
		Port:       port,
		NoSigs:     true,
		NoLog:      !o.Logging,
		MaxPayload: o.MaxPayload,
		MaxConn:    o.MaxConnections,
	}
	if o.JetStreamDir != "" {
		opts.JetStream, opts.StoreDir = true, o.JetStreamDir
	}
	if o.Auth != nil {
		setAuth(opts, o.Auth)
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
	return &Server{srv: srv, opts: opts.Clone()}, nil
}

func setAuth(opts *server.Options, a *Auth) {
	opts.Users, opts.Nkeys = a.Users, a.Nkeys
	if len(opts.Users) == 0 && len(opts.Nkeys) == 0 {
		// No one may connect, rather than everyone: a server with an empty user list
		// would fall back to no authentication.
		opts.Authorization = "arena-nobody-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	} else {
		opts.Authorization = ""
	}
}

// SetAuth replaces the users of a server started with Auth, at once: new users can connect,
// and clients of users that are gone, or whose permissions changed, are disconnected or
// given the new permissions. It is an error on a server started without Auth.
func (s *Server) SetAuth(a *Auth) error {
	if s.opts.Users == nil && s.opts.Nkeys == nil && s.opts.Authorization == "" {
		return fmt.Errorf("nats server: started without authentication")
	}
	opts := s.opts.Clone()
	setAuth(opts, a)
	if err := s.srv.ReloadOptions(opts); err != nil {
		return fmt.Errorf("nats server: reload users: %w", err)
	}
	s.opts = opts
	return nil
}

// URL is the nats:// URL clients connect to.
func (s *Server) URL() string { return s.srv.ClientURL() }

// Shutdown stops the server and waits for it to finish.
func (s *Server) Shutdown() {
	s.srv.Shutdown()
	s.srv.WaitForShutdown()
}
