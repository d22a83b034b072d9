package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/players/hosting"
	"github.com/arenaref/arena/players/hosting/archive"
	"github.com/arenaref/arena/protocol"
)

const (
	// submitTimeout bounds a submission's request: the referee checks the archive first.
	submitTimeout = 30 * time.Second
	// runningWait is how long submit-engine waits, once the engine is built, to see it
	// start running (or fail to).
	runningWait = 20 * time.Second
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
		if data, err = checkEngineArchive(path); err != nil {
			return err
		}
	}

	// A request the server's permissions refuse is never answered: stop waiting at once.
	ctx, refuse := context.WithCancelCause(ctx)
	defer refuse(nil)
	opts = append([]nats.Option{nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if errors.Is(err, nats.ErrPermissionViolation) {
			refuse(err)
		}
	})}, opts...)
	nc, err := bus.Connect(*url, "arena-submit-engine", zerolog.Nop(), opts...)
	if err != nil {
		return auth.ExplainConnect(*url, err, cred)
	}
	defer nc.Close()
	explain := func(err error) error {
		switch cause := context.Cause(ctx); {
		case errors.Is(cause, nats.ErrPermissionViolation):
			return fmt.Errorf("the server does not let these credentials use %s's engine subjects (%v): a player submits its own engine only", player, cause)
		case errors.Is(err, nats.ErrNoResponders):
			return fmt.Errorf("no referee is running on %s (start one with: arena referee --nats %s --db FILE)", *url, *url)
		}
		return err
	}
	if *status {
		return explain(printEngineStatus(ctx, nc, player, stdout))
	}
	if limit := nc.MaxPayload(); int64(len(data))+hosting.ArchiveRoom > limit {
		return fmt.Errorf("the NATS server at %s takes messages of at most %d bytes (its max_payload), and %s is %d bytes: set max_payload: %d in the server's configuration (arena credentials export writes it)",
			*url, limit, path, len(data), protocol.MaxArchiveSize+hosting.ArchiveRoom)
	}
	events, err := nc.SubscribeSync(protocol.EngineEventSubject(player))
	if err != nil {
		return err
	}
	if err := nc.Flush(); err != nil {
		return explain(err)
	}
	msg := nats.NewMsg(protocol.EngineSubmitSubject(player))
	msg.Data = data
	if base := filepath.Base(path); protocol.CheckArchiveName(base) == nil {
		msg.Header.Set(protocol.HeaderArchiveName, base)
	}
	rctx, cancel := context.WithTimeout(ctx, submitTimeout)
	answer, err := nc.RequestMsgWithContext(rctx, msg)
	cancel()
	if err != nil {
		return explain(fmt.Errorf("submit to the referee on %s: %w", *url, err))
	}
	r, err := protocol.DecodeEngineReply(answer.Data)
	var re *protocol.ReplyError
	switch {
	case errors.As(err, &re):
		return fmt.Errorf("the referee refused %s: %s (%s)", path, re.Message, re.Code)
	case err != nil:
		return fmt.Errorf("the referee's answer: %w", err)
	case r.Type != protocol.TypeEngineSubmitted:
		return fmt.Errorf("the referee answered %s, not %s", r.Type, protocol.TypeEngineSubmitted)
	}
	fmt.Fprintf(stdout, "submitted %s: %s %s, %d bytes, sha256 %s\n", path, r.Name, r.Version, r.Size, r.SHA256)
	if *wait == 0 {
		return nil
	}
	return explain(waitForEngine(ctx, events, r.Name, r.Version, *wait, stdout))
}

// checkEngineArchive reads an archive and checks it as its host will: it unpacks it into a
// temporary directory and reads its manifest there.
func checkEngineArchive(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, cli.UsageError{Msg: err.Error()}
	}
	if st.Size() > protocol.MaxArchiveSize {
		return nil, fmt.Errorf("%s is %d bytes, more than the limit of %d (8 MiB): leave out what the build makes, and data the engine does not need", path, st.Size(), protocol.MaxArchiveSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "arena-submit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "engine")
	if _, err := archive.Unpack(data, dir, archive.DefaultLimits); err != nil {
		return nil, refusedArchive(path, err)
	}
	m, err := archive.ReadManifest(dir, engine.Names())
	if err == nil {
		err = hosting.CheckEngineManifest(m)
	}
	if err != nil {
		return nil, refusedArchive(path, err)
	}
	return data, nil
}

func refusedArchive(path string, err error) error {
	return fmt.Errorf("%s is refused: %s", path, strings.TrimPrefix(err.Error(), archive.ErrRefused.Error()+": "))
}

// waitForEngine prints the states of one submission as they come, until it is running or
// failed, or built and not started within runningWait, or wait has passed.
func waitForEngine(ctx context.Context, events *nats.Subscription, name, version string, wait time.Duration, stdout io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	last := protocol.EngineSubmitted
	var built time.Time
	for {
		m, err := nextEvent(ctx, events, built)
		switch {
		case err == nil:
		case !built.IsZero() && ctx.Err() == nil:
			return nil // built, and the host has not started it (a newer version may have come)
		case errors.Is(context.Cause(ctx), context.DeadlineExceeded):
			return fmt.Errorf("still %s after %v: is a host running? (arena host); arena submit-engine --status shows how it goes on", last, wait)
		default:
			return err
		}
		ev, err := protocol.DecodeEngineEvent(m.Data)
		if err != nil || ev.Version != version {
			continue
		}
		last = ev.State
		switch ev.State {
		case protocol.EngineBuildFailed, protocol.EngineRunFailed:
			what := strings.ReplaceAll(ev.State, "_", " ")
			fmt.Fprintf(stdout, "%s %s: %s:\n%s", name, version, what, ev.Log)
			if ev.Log != "" && !strings.HasSuffix(ev.Log, "\n") {
				fmt.Fprintln(stdout)
			}
			return fmt.Errorf("%s %s: %s", name, version, what)
		case protocol.EngineBuilt:
			built = time.Now()
		}
		fmt.Fprintf(stdout, "%s %s: %s\n", name, version, ev.State)
		if ev.State == protocol.EngineRunning {
			return nil
		}
	}
}

// nextEvent waits for the next state, until ctx ends, or runningWait after built.
func nextEvent(ctx context.Context, events *nats.Subscription, built time.Time) (*nats.Msg, error) {
	if !built.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, built.Add(runningWait))
		defer cancel()
	}
	return events.NextMsgWithContext(ctx)
}

// printEngineStatus prints a player's submissions, newest first, with the log of the
// newest.
func printEngineStatus(ctx context.Context, nc *nats.Conn, player string, stdout io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, organizer.APITimeout)
	defer cancel()
	m, err := nc.RequestWithContext(ctx, protocol.EngineStatusSubject(player), protocol.Encode(protocol.EngineRequest{V: protocol.Version, Type: protocol.TypeEngineStatus}))
	if err != nil {
		return fmt.Errorf("ask the referee: %w", err)
	}
	r, err := protocol.DecodeEngineReply(m.Data)
	if err != nil {
		return fmt.Errorf("the referee's answer: %w", err)
	}
	if len(r.Submissions) == 0 {
		fmt.Fprintf(stdout, "%s has submitted no engine\n", player)
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "VERSION\tSTATE\tARCHIVE\tSIZE\tSUBMITTED\tUPDATED")
	for _, s := range r.Submissions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", s.Version, s.State, s.Archive, s.Size, s.Created, s.Updated)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if s := r.Submissions[0]; s.Log != "" {
		fmt.Fprintf(stdout, "\n%s's log:\n%s", s.Version, s.Log)
		if !strings.HasSuffix(s.Log, "\n") {
			fmt.Fprintln(stdout)
		}
	}
	return nil
}
