package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/internal/natsembed"
	"github.com/arenaref/arena/players/player"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// credentialsPoll is how often a secured embedded server looks for credentials added or
// removed in its database (arena credentials add/remove while it runs).
const credentialsPoll = 2 * time.Second

// busFlags say how a referee process reaches the bus: an external NATS server (--nats, with
// --credentials when it is secured), or an embedded one (--listen, or the default of the
// tournament commands), secured with the database's credentials under --auth.
type busFlags struct {
	url            string
	credentials    string
	listen         string
	auth           bool
	insecureListen bool
	maxPayload     int
	maxConnections int
	maxPlayers     int
	helloRate      float64
	// jetStreamDir, when set, enables JetStream on an embedded server, with its store there
	// (arena referee --work-queue).
	jetStreamDir string
	// embedByDefault: with neither --nats nor --listen, start an embedded server on a free
	// loopback port (tournament, match) instead of dialling url's default (referee).
	embedByDefault bool
}

func (b *busFlags) register(fs *flagSet, defaultURL, urlHelp string) {
	b.embedByDefault = defaultURL == ""
	fs.StringVar(&b.url, "nats", defaultURL, urlHelp)
	fs.StringVar(&b.credentials, "credentials", "", "credentials file for a secured --nats server (arena credentials add)")
	fs.StringVar(&b.listen, "listen", "", "start an embedded NATS server on HOST:PORT that outside players can reach (instead of --nats)")
	fs.BoolVar(&b.auth, "auth", false, "secure the embedded server: every client needs credentials from --db (arena credentials add), with its role's permissions")
	fs.BoolVar(&b.insecureListen, "insecure-listen", false, "let --listen serve an address other than loopback without --auth: anyone who reaches it can read and answer every player's turns")
	fs.IntVar(&b.maxPayload, "max-payload", natsembed.DefaultMaxPayload, "embedded server: the largest message it accepts, in bytes (submitted engines need 8454144)")
	fs.IntVar(&b.maxConnections, "max-connections", 1024, "embedded server: the most clients connected at once")
	fs.IntVar(&b.maxPlayers, "max-players", 1024, "the most player names the referee's lobby admits; hellos from more are refused")
	fs.Float64Var(&b.helloRate, "hello-rate", 5, "hellos per second the lobby takes from one player (bursts of 20); more are dropped")
}

// busFlagNames are the flags register adds.
var busFlagNames = []string{"nats", "credentials", "listen", "auth", "insecure-listen", "max-payload", "max-connections", "max-players", "hello-rate"}

// external reports whether players from outside the process can join: over an external
// server, or an embedded one listening on --listen.
func (b *busFlags) external() bool { return !b.embedded() || b.listen != "" }

// refereeConfig is the referee's configuration on bs.
func (b *busFlags) refereeConfig(bs *bus, log zerolog.Logger) referee.Config {
	return referee.Config{Conn: bs.nc, LobbyConn: bs.lobby, Log: log, ID: "arena-referee", MaxPlayers: b.maxPlayers, HelloRate: b.helloRate}
}

// check validates the flags; explicit lists the flags given on the command line.
func (b *busFlags) check(explicit map[string]bool) error {
	if b.listen != "" && explicit["nats"] {
		return usagef("--nats and --listen do not go together: connect to a server, or start one")
	}
	if b.listen != "" {
		_, port, err := net.SplitHostPort(b.listen)
		if p, perr := strconv.Atoi(port); err != nil || perr != nil || p < 0 || p > 65535 {
			return usagef("--listen %q: want HOST:PORT, such as 0.0.0.0:4222", b.listen)
		}
	}
	if err := checkListen("--listen", b.listen, b.auth, b.insecureListen, "--auth (arena credentials add)"); err != nil {
		return err
	}
	if b.insecureListen && b.listen == "" {
		return usagef("--insecure-listen goes with --listen")
	}
	if b.auth && !b.embedded() {
		return usagef("--auth secures an embedded server (--listen); a server you run yourself is secured with its own configuration (arena credentials export), and this command connects to it with --credentials")
	}
	if b.credentials != "" && b.embedded() {
		return usagef("--credentials is for connecting to a --nats server; the embedded server's own clients need none")
	}
	if b.maxPayload < 1024 || b.maxPayload > 64<<20 {
		return usagef("--max-payload %d: want 1024 to %d bytes", b.maxPayload, 64<<20)
	}
	if b.maxPlayers < 1 || b.helloRate <= 0 {
		return usagef("--max-players and --hello-rate must be positive")
	}
	if b.maxConnections < 1 {
		return usagef("--max-connections %d: want at least 1", b.maxConnections)
	}
	return nil
}

// embedded reports whether the process starts its own NATS server.
func (b *busFlags) embedded() bool { return b.listen != "" || (b.embedByDefault && b.url == "") }

// open reaches the bus: it connects as name, starting and securing an embedded server first
// when the flags say so. db gives the credentials of a secured embedded server.
func (b *busFlags) open(ctx context.Context, name string, db credentialStore, log zerolog.Logger) (*bus, error) {
	if !b.embedded() {
		opts, f, err := credentialOptions(b.credentials)
		if err != nil {
			return nil, err
		}
		nc, err := player.Connect(b.url, name, log, opts...)
		if err != nil {
			return nil, auth.ExplainConnect(b.url, err, f)
		}
		bs := &bus{nc: nc, url: b.url, opts: opts}
		if bs.lobby, err = player.Connect(b.url, name+"-lobby", log, opts...); err != nil {
			nc.Close()
			return nil, auth.ExplainConnect(b.url, err, f)
		}
		return bs, nil
	}
	o := natsembed.Options{MaxPayload: int32(b.maxPayload), MaxConnections: b.maxConnections, JetStreamDir: b.jetStreamDir}
	if b.listen != "" {
		host, port, _ := net.SplitHostPort(b.listen)
		o.Host = bindHost(host)
		o.Port, _ = strconv.Atoi(port)
	}
	bs := &bus{}
	if b.auth {
		// The process's own clients (the referee, built-in players) connect with an nkey
		// made for this run alone and never stored.
		f, internal, err := auth.NewNkey("arena-internal", store.RoleReferee)
		if err != nil {
			return nil, err
		}
		if bs.opts, err = f.Options(); err != nil {
			return nil, err
		}
		bs.internal = internal
		bs.db = db
		a, fp, err := bs.loadAuth(ctx)
		if err != nil {
			return nil, err
		}
		o.Auth, bs.fingerprint = a, fp
	}
	srv, err := natsembed.Start(o)
	if err != nil {
		return nil, err
	}
	bs.srv = srv
	bs.url = srv.URL()
	log.Info().Str("url", bs.url).Bool("auth", b.auth).Msg("embedded NATS server started")
	if bs.nc, err = player.Connect(bs.url, name, log, bs.opts...); err != nil {
		srv.Shutdown()
		return nil, err
	}
	if bs.lobby, err = player.Connect(bs.url, name+"-lobby", log, bs.opts...); err != nil {
		bs.nc.Close()
		srv.Shutdown()
		return nil, err
	}
	if b.auth {
		pollCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
		done := make(chan struct{})
		go func() {
			defer close(done)
			bs.pollCredentials(pollCtx, log)
		}()
		bs.stopPoll = func() { stop(); <-done }
	}
	return bs, nil
}

// credentialStore is the part of the store a secured embedded server reads.
type credentialStore interface {
	Credentials(ctx context.Context) ([]store.Credential, error)
}

// bus is a process's way onto NATS.
type bus struct {
	nc *nats.Conn
	// lobby is the referee lobby's own connection, so that a flood of hellos never queues
	// in front of the players' moves on nc.
	lobby *nats.Conn

	url  string        // where more clients of this process connect (built-in players)
	opts []nats.Option // the credentials those clients present

	srv         *natsembed.Server // the embedded server, or nil
	db          credentialStore   // a secured embedded server's credentials
	internal    store.Credential  // this process's own identity on it
	fingerprint string            // of the credentials the server has now
	stopPoll    func()
}

// close drains the connection and stops the embedded server.
func (b *bus) close() {
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
func (b *bus) loadAuth(ctx context.Context) (a *natsembed.Auth, fingerprint string, err error) {
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
	return &natsembed.Auth{Users: users, Nkeys: nks}, fp.String(), nil
}

// pollCredentials gives the server the stored credentials whenever they change, until ctx
// ends: a credential added while the referee runs works within credentialsPoll, and a
// removed one is refused (its clients are disconnected) as quickly.
func (b *bus) pollCredentials(ctx context.Context, log zerolog.Logger) {
	t := time.NewTicker(credentialsPoll)
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

// credentialOptions reads a credentials file into connection options; no path, no options.
func credentialOptions(path string) ([]nats.Option, *auth.File, error) {
	if path == "" {
		return nil, nil, nil
	}
	f, err := auth.ReadFile(path)
	if err != nil {
		return nil, nil, usageError{"--" + err.Error()}
	}
	opts, err := f.Options()
	if err != nil {
		return nil, nil, usageError{"--credentials " + path + ": " + err.Error()}
	}
	return opts, &f, nil
}

// explicitFlags lists the flags given on the command line.
func explicitFlags(fs *flagSet) map[string]bool {
	m := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { m[f.Name] = true })
	return m
}

// playerIdentity reads a player's credentials file, if any, and settles its name: --name,
// or else the credentials' name. A player credential is good for its own name only, since
// the server lets it use no other player's subjects.
func playerIdentity(path, name string) ([]nats.Option, *auth.File, string, error) {
	opts, f, err := credentialOptions(path)
	if err != nil || f == nil {
		return opts, f, name, err
	}
	if name == "" {
		name = f.Name
	}
	if f.Role == store.RolePlayer && name != f.Name {
		return nil, nil, "", usagef("--name %s: the credentials in %s are player %s's, and the server lets them play as %s only", name, path, f.Name, f.Name)
	}
	return opts, f, name, nil
}

// openBusAndDB opens and locks the database (exclusively for a referee daemon) and reaches
// the bus as the referee. A server secured from the database needs the database first;
// otherwise the bus comes first, so that a bus that cannot be reached leaves no database
// file behind. closeBoth undoes both.
func openBusAndDB(ctx context.Context, bf *busFlags, dbPath string, exclusive bool, log zerolog.Logger) (_ *bus, _ *sqlite.DB, _ func(), err error) {
	var b *bus
	var db *sqlite.DB
	var unlock func()
	closeBoth := func() {
		if b != nil {
			b.close()
		}
		if unlock != nil {
			unlock()
		}
		if db != nil {
			db.Close()
		}
	}
	defer func() {
		if err != nil {
			closeBoth()
		}
	}()
	openDB := func() error {
		d, err := sqlite.Open(ctx, dbPath)
		if err != nil {
			return fmt.Errorf("--db: %w", err)
		}
		db = d
		u, err := lockDB(dbPath, exclusive)
		if err != nil {
			return err
		}
		unlock = u
		return nil
	}
	if bf.auth {
		if err := openDB(); err != nil {
			return nil, nil, nil, err
		}
	}
	opened, err := bf.open(ctx, "arena-referee", db, log)
	if err != nil {
		return nil, nil, nil, err
	}
	b = opened
	if !bf.auth {
		if err := openDB(); err != nil {
			return nil, nil, nil, err
		}
	}
	return b, db, closeBoth, nil
}
