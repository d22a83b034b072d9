package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/organizer/report"
	"github.com/arenaref/arena/protocol"
)

// clientFlags say where the referee daemon is, and the credentials to reach it with.
type clientFlags struct{ url, credentials *string }

func newClientFlags(fs *cli.FlagSet) clientFlags {
	return clientFlags{
		url:         fs.String("nats", "nats://127.0.0.1:4222", "NATS server URL of the referee"),
		credentials: fs.String("credentials", "", "credentials file (an admin's, arena credentials add NAME --role admin) for a secured server"),
	}
}

// callReferee sends one API request to the referee daemon cf names.
func callReferee(ctx context.Context, cf clientFlags, subject string, req protocol.APIRequest) (protocol.APIReply, error) {
	opts, f, err := credentialOptions(*cf.credentials)
	if err != nil {
		return protocol.APIReply{}, err
	}
	return organizer.Client{URL: *cf.url, Options: opts, Credentials: f}.Call(ctx, subject, req)
}

// runSubmit is `arena submit FILE`: send a tournament file to a referee daemon.
func runSubmit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena submit", "[--nats URL] [--sprt elo0=0,elo1=5] FILE", stderr)
	cf := newClientFlags(fs)
	sprt := fs.String("sprt", "", "make the tournament a match of its two players that stops when a sequential probability ratio test decides: elo0=E0,elo1=E1[,alpha=0.05,beta=0.05,model=logistic|normalized] (the first player's Elo over the second's)")
	if err := fs.ParseArgs(args, 1); err != nil {
		return err
	}
	if *sprt != "" {
		if _, err := organizer.ParseSPRT(*sprt); err != nil {
			return cli.Usagef("--sprt: %v", err)
		}
	}
	path := fs.Arg(0)
	s, text, openings, err := organizer.ReadSpecFile(path)
	if err != nil {
		return cli.UsageError{Msg: err.Error()}
	}
	reply, err := callReferee(ctx, cf, protocol.SubjectAPICreate, protocol.APIRequest{
		V: protocol.Version, Type: protocol.TypeAPICreate, Config: text, Source: path, Openings: openings, SPRT: *sprt,
	})
	if err != nil {
		return err
	}
	name := s.Name
	if name != "" {
		name = " (" + name + ")"
	}
	fmt.Fprintf(stdout, "tournament %d%s created: %d games\n", reply.Tournament, name, reply.Games)
	return nil
}

// runStatus is `arena status [ID]`: the referee's tournaments, or one with its standings.
func runStatus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena status", "[--nats URL] [--json] [ID]", stderr)
	cf := newClientFlags(fs)
	asJSON := fs.Bool("json", false, "print the answer as JSON")
	if err := fs.ParseArgs(args, -1); err != nil {
		return err
	}
	var id int64
	switch fs.NArg() {
	case 0:
	case 1:
		var err error
		if id, err = strconv.ParseInt(fs.Arg(0), 10, 64); err != nil || id < 1 {
			return cli.Usagef("%q is not a tournament id", fs.Arg(0))
		}
	default:
		return cli.Usagef("at most one tournament id")
	}
	reply, err := callReferee(ctx, cf, protocol.SubjectAPIStatus, protocol.APIRequest{V: protocol.Version, Type: protocol.TypeAPIStatus, Tournament: id})
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(stdout, reply.Tournaments)
	}
	if err := report.WriteTournaments(stdout, reply.Tournaments); err != nil || len(reply.Tournaments) == 0 {
		return err
	}
	if id != 0 && len(reply.Tournaments[0].Rows) > 0 {
		fmt.Fprintln(stdout)
		return report.WriteStandings(stdout, reply.Tournaments[0].Rows)
	}
	return nil
}

// runCancel is `arena cancel ID`.
func runCancel(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena cancel", "[--nats URL] ID", stderr)
	cf := newClientFlags(fs)
	if err := fs.ParseArgs(args, 1); err != nil {
		return err
	}
	id, err := strconv.ParseInt(fs.Arg(0), 10, 64)
	if err != nil || id < 1 {
		return cli.Usagef("%q is not a tournament id", fs.Arg(0))
	}
	if _, err := callReferee(ctx, cf, protocol.SubjectAPICancel, protocol.APIRequest{V: protocol.Version, Type: protocol.TypeAPICancel, Tournament: id}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "tournament %d cancelled\n", id)
	return nil
}

// runPlayers is `arena players`: the players the referee has heard from.
func runPlayers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena players", "[--nats URL] [--json]", stderr)
	cf := newClientFlags(fs)
	asJSON := fs.Bool("json", false, "print the answer as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	reply, err := callReferee(ctx, cf, protocol.SubjectAPIPlayers, protocol.APIRequest{V: protocol.Version, Type: protocol.TypeAPIPlayers})
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(stdout, reply.Players)
	}
	return report.WritePlayers(stdout, reply.Players)
}
