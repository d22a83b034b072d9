package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

func credentialsSubcommands() []cli.Subcommand {
	return []cli.Subcommand{
		{Name: "add", Summary: "make a client's credentials: the secret goes to a file, the database keeps its hash or public key", Run: credentialsAdd},
		{Name: "list", Summary: "list the credentials in a database", Run: credentialsList},
		{Name: "remove", Summary: "remove a client's credentials", Run: credentialsRemove},
		{Name: "export", Summary: "write a nats-server configuration with the credentials and their permissions", Run: credentialsExport},
	}
}

// openCredentialsDB opens the database a referee keeps its credentials in. add creates it;
// the others want it to exist.
func openCredentialsDB(ctx context.Context, path string, create bool) (*sqlite.DB, error) {
	if err := requireDB(path); err != nil {
		return nil, err
	}
	if !create {
		if _, err := os.Stat(path); err != nil {
			return nil, cli.Usagef("--db: %v", err)
		}
	}
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("--db: %w", err)
	}
	return db, nil
}

func credentialsAdd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena credentials add", "NAME --db FILE [--role player|spectator|admin|host|referee] [--nkey] [--out FILE|-]", stderr)
	role := fs.String("role", store.RolePlayer, "what the client may do: "+strings.Join(auth.Roles, ", "))
	nkey := fs.Bool("nkey", false, "an nkey (a key pair; the store keeps the public key) instead of a password (the store keeps its bcrypt hash)")
	out := fs.String("out", "", "write the credentials file here (mode 0600); - for standard output. Without it the file goes to standard output only when that is not a terminal")
	dbPath := fs.String("db", "", "the referee's SQLite database, which keeps the credential (required)")
	if err := fs.ParseArgs(args, 1); err != nil {
		return err
	}
	name := fs.Arg(0)
	if err := auth.CheckName(name); err != nil {
		return cli.Usagef("%s", strings.TrimPrefix(err.Error(), "auth: "))
	}
	if err := auth.CheckRole(*role); err != nil {
		return cli.Usagef("--role: %s", strings.TrimPrefix(err.Error(), "auth: "))
	}
	if err := requireDB(*dbPath); err != nil {
		return err
	}
	// The secret is shown once: not on a terminal, where it would stay in the scrollback
	// (and over the shoulder), unless asked for with --out -.
	toStdout := *out == "-" || *out == ""
	if *out == "" && isTerminal(stdout) {
		return cli.Usagef("the secret would be printed on the terminal: write it to a file with --out FILE (mode 0600), or print it anyway with --out -")
	}
	f, c, err := auth.New(name, *role, *nkey)
	if err != nil {
		return cli.UsageError{Msg: err.Error()}
	}
	if !toStdout {
		if _, err := os.Stat(*out); err == nil {
			return cli.Usagef("--out %s exists; remove it first, or write elsewhere", *out)
		}
	}
	db, err := openCredentialsDB(ctx, *dbPath, true)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.AddCredential(ctx, c); err != nil {
		if errors.Is(err, store.ErrDuplicate) {
			return fmt.Errorf("%s already has credentials in %s (arena credentials remove %s, then add again, to replace them)", name, *dbPath, name)
		}
		return err
	}
	file := name + ".cred"
	if !toStdout {
		file = *out
	}
	hint := fmt.Sprintf("%s %s added to %s; a running referee with --auth accepts it within %v.", *role, name, *dbPath, bus.CredentialsPoll)
	if use := auth.RoleUse(*role, file); use != "" {
		hint += "\n" + use
	}
	if toStdout {
		if _, err := stdout.Write(f.Encode()); err != nil {
			return err
		}
		fmt.Fprintln(stderr, hint)
		return nil
	}
	if err := f.WriteFile(*out); err != nil {
		// The credential is stored but its secret is lost: take it back.
		_ = db.RemoveCredential(context.WithoutCancel(ctx), name)
		return fmt.Errorf("--out: %w (the credential was not kept)", err)
	}
	fmt.Fprintf(stdout, "wrote %s\n%s\n", *out, hint)
	return nil
}

// requireDB checks that --db was given: credentials go to the referee's database, and a
// default (the tournament command's arena.db) would put them where no referee looks.
func requireDB(path string) error {
	if path == "" {
		return cli.Usagef("--db is required: the referee's database, which keeps the credentials (the file arena referee --auth --db uses)")
	}
	return nil
}

// isTerminal reports whether w is a terminal. Tests replace it.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

func credentialsList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena credentials list", "--db FILE", stderr)
	dbPath := fs.String("db", "", "the referee's SQLite database (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	db, err := openCredentialsDB(ctx, *dbPath, false)
	if err != nil {
		return err
	}
	defer db.Close()
	creds, err := db.Credentials(ctx)
	if err != nil {
		return err
	}
	if len(creds) == 0 {
		fmt.Fprintf(stdout, "no credentials in %s (arena credentials add NAME)\n", *dbPath)
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tROLE\tKIND\tCREATED")
	for _, c := range creds {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.Name, c.Role, c.Kind, c.Created.UTC().Format(time.RFC3339))
	}
	return tw.Flush()
}

func credentialsRemove(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena credentials remove", "NAME --db FILE", stderr)
	dbPath := fs.String("db", "", "the referee's SQLite database (required)")
	if err := fs.ParseArgs(args, 1); err != nil {
		return err
	}
	db, err := openCredentialsDB(ctx, *dbPath, false)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.RemoveCredential(ctx, fs.Arg(0)); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no credentials for %s in %s", fs.Arg(0), *dbPath)
		}
		return err
	}
	fmt.Fprintf(stdout, "removed %s; a running referee with --auth refuses it within %v (an external server: export again and reload it)\n", fs.Arg(0), bus.CredentialsPoll)
	return nil
}

func credentialsExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena credentials export", "--db FILE [--out FILE] [--listen HOST:PORT] [--max-payload N] [--max-connections N]", stderr)
	dbPath := fs.String("db", "", "the referee's SQLite database (required)")
	out := fs.String("out", "", "write the configuration here instead of to standard output")
	listen := fs.String("listen", "", "add a listen line: the server's HOST:PORT")
	maxPayload := fs.Int("max-payload", embedded.DefaultMaxPayload, "the largest message the server accepts, in bytes (submitted engines need 8454144)")
	maxConns := fs.Int("max-connections", 1024, "the most clients connected at once")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *maxPayload < 1024 || *maxConns < 1 {
		return cli.Usagef("--max-payload must be at least 1024 and --max-connections at least 1")
	}
	db, err := openCredentialsDB(ctx, *dbPath, false)
	if err != nil {
		return err
	}
	defer db.Close()
	creds, err := db.Credentials(ctx)
	if err != nil {
		return err
	}
	referees := 0
	for _, c := range creds {
		if c.Role == store.RoleReferee {
			referees++
		}
	}
	if referees == 0 {
		fmt.Fprintln(stderr, "note: no referee credential yet; the referee could not connect (arena credentials add referee --role referee)")
	}
	var sb strings.Builder
	if err := auth.ExportConfig(&sb, creds, auth.Limits{MaxPayload: *maxPayload, MaxConnections: *maxConns}, *listen); err != nil {
		return err
	}
	if *out == "" {
		_, err := io.WriteString(stdout, sb.String())
		return err
	}
	// Hashes and public keys only, but no reason to show them to everyone.
	if err := os.WriteFile(*out, []byte(sb.String()), 0o600); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d users (run: nats-server -c %s)\n", *out, len(creds), *out)
	return nil
}
