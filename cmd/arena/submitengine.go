package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/players/hosting"
	"github.com/arenaref/arena/protocol"
)

// runSubmitEngine is `arena submit-engine ARCHIVE`: it checks an engine archive as the
// host will, submits it to the referee as the player's next version, and waits for a host
// to build and run it, printing each state and, on a failure, the log's tail.
func runSubmitEngine(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena submit-engine", "[--nats URL] --credentials FILE [--wait 2m] ARCHIVE\n       arena submit-engine [--nats URL] --credentials FILE --status", stderr)
	url := fs.String("nats", "nats://127.0.0.1:4222", "NATS server URL of the referee")
	credPath := fs.String("credentials", "", "the player's credentials file (arena credentials add NAME)")
	name := fs.String("name", "", "player name, on a server without credentials (the credentials give it otherwise)")
	wait := fs.Duration("wait", 2*time.Minute, "how long to wait for the engine to be built and run; 0 does not wait")
	status := fs.Bool("status", false, "print the player's submissions and their states instead of submitting")
	if err := fs.ParseArgs(fs.PositionalsLast(args), -1); err != nil {
		return err
	}
	switch {
	case *status && fs.NArg() > 0:
		return cli.Usagef("--status takes no archive")
	case !*status && fs.NArg() != 1:
		return cli.Usagef("want the archive to submit (a .tar.gz or .zip with arena.toml at its root)")
	}
	opts, cred, player, err := playerIdentity(*credPath, *name)
	if err != nil {
		return err
	}
	switch {
	case player == "":
		return cli.Usagef("--credentials (or --name, on a server without credentials) is required: whose engine is it?")
	case !protocol.ValidName(player):
		return cli.Usagef("--name %q: want 1-64 of A-Z a-z 0-9 - _", player)
	case *wait < 0:
		return cli.Usagef("--wait must not be negative")
	}
	var data []byte
	path := fs.Arg(0)
	if !*status {
		if _, err := os.Stat(path); err != nil {
			return cli.UsageError{Msg: err.Error()}
		}
		if data, err = hosting.ReadArchive(path); err != nil {
			return err
		}
	}
	sub, err := hosting.NewSubmitter(*url, player, opts, cred)
	if err != nil {
		return err
	}
	defer sub.Close()
	if *status {
		subs, err := sub.Status(ctx)
		if err != nil {
			return err
		}
		return hosting.WriteStatus(stdout, player, subs)
	}
	r, err := sub.Submit(ctx, path, data)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "submitted %s: %s %s, %d bytes, sha256 %s\n", path, r.Name, r.Version, r.Size, r.SHA256)
	if *wait == 0 {
		return nil
	}
	return sub.Wait(ctx, r.Name, r.Version, *wait, func(ev protocol.EngineEvent) { hosting.WriteEvent(stdout, r.Name, r.Version, ev) })
}
