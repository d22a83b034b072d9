package bus

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/store"
)

// CredentialsPoll is how often a secured embedded server looks for credentials added or
// removed in its database (arena credentials add/remove while it runs).
const CredentialsPoll = 2 * time.Second

// Config says how a process reaches the bus: an external NATS server at URL, or one it
// embeds (Embed), secured with the database's credentials when Secure.
type Config struct {
	// URL is the external server's address when Embed is false ("" means nats.DefaultURL).
	URL string
	// Options are the external server's connection options: its credentials, if any.
	Options []nats.Option
	// Credentials is the file Options were read from, or nil; it explains a refused
	// connection (auth.ExplainConnect).
	Credentials *auth.File

	// Embed starts a NATS server in the process instead of connecting to URL.
	Embed bool
	// Listen is the embedded server's HOST:PORT, already checked (the host is bound as
	// BindHost says); "" listens on a free loopback port that only this process uses.
	Listen string
	// Secure requires every client of the embedded server to present a credential stored in
	// the database, with its role's permissions; the process's own clients get a key made
	// for this run alone. Credentials added or removed while it runs take effect within
	// CredentialsPoll.
	Secure bool
	// MaxPayload is the embedded server's largest message in bytes (0:
	// embedded.DefaultMaxPayload); MaxConnections its most clients at once (0: the server's
	// default).
	MaxPayload     int
	MaxConnections int
	// JetStreamDir, when set, enables JetStream on the embedded server with its store there
	// (the referee's work queue).
	JetStreamDir string
}

// CredentialStore is the part of the store a secured embedded server reads.
type CredentialStore interface {
	Credentials(ctx context.Context) ([]store.Credential, error)
}

// Bus is a process's way onto NATS: its connection, the lobby's own connection, and the
// embedded server it runs, if any.
type Bus struct {
	nc *nats.Conn
	// lobby is the referee lobby's own connection, so that a flood of hellos never queues
	// in front of the players' moves on nc.
	lobby *nats.Conn

	url  string        // where more clients of this process connect (built-in players)
	opts []nats.Option // the credentials those clients present

	srv         *embedded.Server // the embedded server, or nil
	db          CredentialStore  // a secured embedded server's credentials
	internal    store.Credential // this process's own identity on it
	fingerprint string           // of the credentials the server has now
	stopPoll    func()
}

// Open reaches the bus cfg describes and connects to it as name (and as name-lobby, the
// lobby's connection), starting and securing an embedded server first when cfg says so.
// db gives the credentials of a secured embedded server; it is not used otherwise. Close
// undoes Open.
func Open(ctx context.Context, cfg Config, name string, db CredentialStore, log zerolog.Logger) (*Bus, error) {
	if !cfg.Embed {
		nc, err := Connect(cfg.URL, name, log, cfg.Options...)
		if err != nil {
			return nil, auth.ExplainConnect(cfg.URL, err, cfg.Credentials)
		}
		b := &Bus{nc: nc, url: cfg.URL, opts: cfg.Options}
		if b.lobby, err = Connect(cfg.URL, name+"-lobby", log, cfg.Options...); err != nil {
			nc.Close()
			return nil, auth.ExplainConnect(cfg.URL, err, cfg.Credentials)
		}
		return b, nil
	}
	o := embedded.Options{MaxPayload: int32(cfg.MaxPayload), MaxConnections: cfg.MaxConnections, JetStreamDir: cfg.JetStreamDir}
	if cfg.Listen != "" {
		host, port, _ := net.SplitHostPort(cfg.Listen)
		o.Host = BindHost(host)
		o.Port, _ = strconv.Atoi(port)
	}
	b := &Bus{}
	if cfg.Secure {
		// The process's own clients (the referee, built-in players) connect with an nkey
		// made for this run alone and never stored.
		f, internal, err := auth.NewNkey("arena-internal", store.RoleReferee)
		if err != nil {
			return nil, err
		}
		if b.opts, err = f.Options(); err != nil {
			return nil, err
		}
		b.internal = internal
		b.db = db
		a, fp, err := b.loadAuth(ctx)
		if err != nil {
			return nil, err
		}
		o.Auth, b.fingerprint = a, fp
	}
	srv, err := embedded.Start(o)
	if err != nil {
		return nil, err
	}
	b.srv = srv
	b.url = srv.URL()
	log.Info().Str("url", b.url).Bool("auth", cfg.Secure).Msg("embedded NATS server started")
	if b.nc, err = Connect(b.url, name, log, b.opts...); err != nil {
		srv.Shutdown()
		return nil, err
	}
	if b.lobby, err = Connect(b.url, name+"-lobby", log, b.opts...); err != nil {
		b.nc.Close()
		srv.Shutdown()
		return nil, err
	}
	if cfg.Secure {
		pollCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
		done := make(chan struct{})
		go func() {
			defer close(done)
			b.pollCredentials(pollCtx, log)
		}()
		b.stopPoll = func() { stop(); <-done }
	}
	return b, nil
}

// Conn is the process's main connection.
func (b *Bus) Conn() *nats.Conn { return b.nc }

// Lobby is the connection the referee's lobby takes hellos on.
func (b *Bus) Lobby() *nats.Conn { return b.lobby }

// URL is where more clients of this process connect: the external server, or the
// embedded one.
func (b *Bus) URL() string { return b.url }

// Options are the connection options more clients of this process present (their
// credentials); the caller may append to the slice returned.
func (b *Bus) Options() []nats.Option { return slices.Clip(b.opts) }

// Connect connects another client of this process, as name, with the process's
// credentials and then extra.
func (b *Bus) Connect(name string, log zerolog.Logger, extra ...nats.Option) (*nats.Conn, error) {
	return Connect(b.url, name, log, append(b.Options(), extra...)...)
}

// Close drains the connections and stops the embedded server.
func (b *Bus) Close() {
	if b.stopPoll != nil {
		b.stopPoll()
	}
	_ = b.lobby.Drain()
	_ = b.nc.Drain()
	b.nc.Close()
	b.lobby.Close()
	if b.srv != nil {
		b.srv.Shutdown()
	}
}

// loadAuth reads the stored credentials and makes the server's users from them, with this
// process's own identity; fingerprint tells whether they changed since.
func (b *Bus) loadAuth(ctx context.Context) (a *embedded.Auth, fingerprint string, err error) {
	creds, err := b.db.Credentials(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("read credentials: %w", err)
	}
	var fp strings.Builder
	for _, c := range creds {
		fmt.Fprintf(&fp, "%s|%s|%s|%s\n", c.Name, c.Role, c.Kind, c.Public)
	}
	users, nks, err := auth.ServerUsers(append(creds, b.internal))
	if err != nil {
		return nil, "", err
	}
	return &embedded.Auth{Users: users, Nkeys: nks}, fp.String(), nil
}

// pollCredentials gives the server the stored credentials whenever they change, until ctx
// ends: a credential added while the referee runs works within CredentialsPoll, and a
// removed one is refused (its clients are disconnected) as quickly.
func (b *Bus) pollCredentials(ctx context.Context, log zerolog.Logger) {
	t := time.NewTicker(CredentialsPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		a, fp, err := b.loadAuth(ctx)
		if err != nil {
			log.Error().Err(err).Msg("credentials not reloaded")
			continue
		}
		if fp == b.fingerprint {
			continue
		}
		if err := b.srv.SetAuth(a); err != nil {
			log.Error().Err(err).Msg("credentials not reloaded")
			continue
		}
		b.fingerprint = fp
		log.Info().Int("users", len(a.Users)+len(a.Nkeys)-1).Msg("credentials reloaded")
	}
}
