package main

import (
	"context"
	"flag"
	"net"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store/sqlite"
)

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

func (b *busFlags) register(fs *cli.FlagSet, defaultURL, urlHelp string) {
	b.embedByDefault = defaultURL == ""
	fs.StringVar(&b.url, "nats", defaultURL, urlHelp)
	fs.StringVar(&b.credentials, "credentials", "", "credentials file for a secured --nats server (arena credentials add)")
	fs.StringVar(&b.listen, "listen", "", "start an embedded NATS server on HOST:PORT that outside players can reach (instead of --nats)")
	fs.BoolVar(&b.auth, "auth", false, "secure the embedded server: every client needs credentials from --db (arena credentials add), with its role's permissions")
	fs.BoolVar(&b.insecureListen, "insecure-listen", false, "let --listen serve an address other than loopback without --auth: anyone who reaches it can read and answer every player's turns")
	fs.IntVar(&b.maxPayload, "max-payload", embedded.DefaultMaxPayload, "embedded server: the largest message it accepts, in bytes (submitted engines need 8454144)")
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
func (b *busFlags) refereeConfig(bs *bus.Bus, log zerolog.Logger) referee.Config {
	return referee.Config{Conn: bs.Conn(), LobbyConn: bs.Lobby(), Log: log, ID: "arena-referee", MaxPlayers: b.maxPlayers, HelloRate: b.helloRate}
}

// check validates the flags; explicit lists the flags given on the command line.
func (b *busFlags) check(explicit map[string]bool) error {
	if b.listen != "" && explicit["nats"] {
		return cli.Usagef("--nats and --listen do not go together: connect to a server, or start one")
	}
	if b.listen != "" {
		_, port, err := net.SplitHostPort(b.listen)
		if p, perr := strconv.Atoi(port); err != nil || perr != nil || p < 0 || p > 65535 {
			return cli.Usagef("--listen %q: want HOST:PORT, such as 0.0.0.0:4222", b.listen)
		}
	}
	if err := checkListen("--listen", b.listen, b.auth, b.insecureListen, "--auth (arena credentials add)"); err != nil {
		return err
	}
	if b.insecureListen && b.listen == "" {
		return cli.Usagef("--insecure-listen goes with --listen")
	}
	if b.auth && !b.embedded() {
		return cli.Usagef("--auth secures an embedded server (--listen); a server you run yourself is secured with its own configuration (arena credentials export), and this command connects to it with --credentials")
	}
	if b.credentials != "" && b.embedded() {
		return cli.Usagef("--credentials is for connecting to a --nats server; the embedded server's own clients need none")
	}
	if b.maxPayload < 1024 || b.maxPayload > 64<<20 {
		return cli.Usagef("--max-payload %d: want 1024 to %d bytes", b.maxPayload, 64<<20)
	}
	if b.maxPlayers < 1 || b.helloRate <= 0 {
		return cli.Usagef("--max-players and --hello-rate must be positive")
	}
	if b.maxConnections < 1 {
		return cli.Usagef("--max-connections %d: want at least 1", b.maxConnections)
	}
	return nil
}

// embedded reports whether the process starts its own NATS server.
func (b *busFlags) embedded() bool { return b.listen != "" || (b.embedByDefault && b.url == "") }

// config is the bus the flags describe; opts and f are the --credentials of an external
// server.
func (b *busFlags) config(opts []nats.Option, f *auth.File) bus.Config {
	return bus.Config{
		URL: b.url, Options: opts, Credentials: f,
		Embed: b.embedded(), Listen: b.listen, Secure: b.auth,
		MaxPayload: b.maxPayload, MaxConnections: b.maxConnections, JetStreamDir: b.jetStreamDir,
	}
}

// open reaches the bus: it connects as name, starting and securing an embedded server first
// when the flags say so. db gives the credentials of a secured embedded server.
func (b *busFlags) open(ctx context.Context, name string, db bus.CredentialStore, log zerolog.Logger) (*bus.Bus, error) {
	opts, f, err := b.credentialOptions()
	if err != nil {
		return nil, err
	}
	return bus.Open(ctx, b.config(opts, f), name, db, log)
}

// credentialOptions reads --credentials for an external server; the embedded server's own
// clients need none.
func (b *busFlags) credentialOptions() ([]nats.Option, *auth.File, error) {
	if b.embedded() {
		return nil, nil, nil
	}
	return credentialOptions(b.credentials)
}

// credentialOptions reads --credentials (auth.ReadOptions); its errors name the flag.
func credentialOptions(path string) ([]nats.Option, *auth.File, error) {
	opts, f, err := auth.ReadOptions(path)
	if err != nil {
		return nil, nil, cli.UsageError{Msg: "--" + err.Error()}
	}
	return opts, f, nil
}

// explicitFlags lists the flags given on the command line.
func explicitFlags(fs *cli.FlagSet) map[string]bool {
	m := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { m[f.Name] = true })
	return m
}

// playerIdentity reads a player's credentials file, if any, and settles its name: --name,
// or else the credentials' name (auth.File.PlayerName).
func playerIdentity(path, name string) ([]nats.Option, *auth.File, string, error) {
	opts, f, err := credentialOptions(path)
	if err != nil || f == nil {
		return opts, f, name, err
	}
	name, ok := f.PlayerName(name)
	if !ok {
		return nil, nil, "", cli.Usagef("--name %s: the credentials in %s are player %s's, and the server lets them play as %s only", name, path, f.Name, f.Name)
	}
	return opts, f, name, nil
}

// openBusAndDB opens and locks the database (exclusively for a referee daemon) and reaches
// the bus as the referee (bus.OpenWithStore).
func openBusAndDB(ctx context.Context, bf *busFlags, dbPath string, exclusive bool, log zerolog.Logger) (*bus.Bus, *sqlite.DB, func(), error) {
	opts, f, err := bf.credentialOptions()
	if err != nil {
		return nil, nil, nil, err
	}
	return bus.OpenWithStore(ctx, bf.config(opts, f), "arena-referee", dbPath, exclusive, log)
}
