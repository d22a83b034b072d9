// Command arena runs Othello, checkers, give-away checkers and prisoner's dilemma
// tournaments between engines over NATS, judges every move, and records the games and
// ratings in SQLite.
//
// Usage:
//
//	arena tournament --game othello --players random,hp1,hp2 --rounds 2 --tc 100ms --db arena.db
//	arena tournament --resume ID --db arena.db
//	arena match A B --game othello --tc 100ms --sprt elo0=0,elo1=20
//	arena ratings --db FILE [--tournament ID] [--json]
//	arena games --db FILE; arena export --db FILE --format pgn|json|csv|ggf
//	arena referee --nats URL --db FILE       (daemon; then arena submit/status/cancel/players)
//	arena agents                             (the built-in agents, their games and settings)
//	arena player --nats URL --name NAME --agent hp1
//	arena engine --nats URL --name NAME [--protocol line|gtp|nboard] -- CMD ARGS...
//	arena check-engine [--protocol line|gtp|nboard] [--clock 10+0.1] -- CMD ARGS...
//	arena submit-engine --nats URL --credentials FILE [--wait 2m] ARCHIVE
//	arena host --nats URL --credentials FILE --dir DIR [--concurrency N]
//	arena credentials add NAME [--role player|spectator|admin|host|referee] [--nkey] --db FILE
//	arena credentials export --db FILE --out nats-server.conf
//	arena referee --listen 0.0.0.0:4222 --auth --db FILE  (embedded, secured server)
//	arena server [--listen 127.0.0.1:4222]
//	arena healthcheck --nats URL [--referee] [--timeout 2s]
//	arena train --method strategy-net --opponents hp1 --games 10000 --out weights.json
//	arena experience run --base gina.db --opponents mm5=minimax:depth=5 --games 400
//	arena openings --game othello --plies N
//	arena ipd simulate --trials N --random-params table1
//	arena solve --game capture FILE.sgf --target D4 [--strategy NAME] [--time 1s] | --problems FILE.tsv
//	arena perft --game othello|checkers|giveaway --depth N [--count leaves|exact]
//	arena capture-problems --out FILE [--games N] [--sizes 9,13,19] [--seed S] [--level L]
//	source <(arena completion bash)
//
// Run "arena help" or "arena COMMAND -h" (also "arena help COMMAND", "arena credentials add
// -h") for the flags of each command.
//
// This package holds only the commands' flags, their output (tables, JSON, progress bars)
// and the wiring of the bus, the store and the referee; what a tournament is and how it is
// played, recorded and rated lives in package organizer.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	_ "github.com/arenaref/arena/games/all"
	"github.com/arenaref/arena/internal/cli"
	_ "github.com/arenaref/arena/players/agents/all"
)

// version is the program's version, reported in hellos and by "arena version".
var version = "0.1.0-dev"

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"tournament", "run a tournament and print the standings", runTournament},
		{"match", "play a two-player match, optionally until an SPRT decides", runMatch},
		{"referee", "run the referee daemon: tournaments submitted over NATS, resumed after restarts", runReferee},
		{"submit", "send a tournament file to a referee daemon", runSubmit},
		{"status", "show a referee daemon's tournaments, or one with its standings", runStatus},
		{"cancel", "cancel a tournament on a referee daemon", runCancel},
		{"players", "list the players a referee daemon has heard from", runPlayers},
		{"ratings", "maximum-likelihood ratings with error bars, LOS matrix and crosstable from a database", runRatings},
		{"games", "list recorded games with how they ended", runGames},
		{"export", "write recorded games as PGN (Ordo, BayesElo), JSON, CSV or GGF", runExport},
		{"web", "serve the web view of a database: tournaments, standings, games move by move, live games with --nats", runWeb},
		{"agents", "list the built-in agents: the games each plays and what it does, with its settings", runAgents},
		{"player", "run a built-in agent as a player process", runPlayer},
		{"engine", "run an external engine program as a player (line protocol, GTP or NBoard)", runEngine},
		{"check-engine", "run an engine through test positions and report what a tournament would forfeit it for", runCheckEngine},
		{"submit-engine", "submit an engine archive (arena.toml inside) for a host to build and run as your player", runSubmitEngine},
		{"host", "build and run submitted engines as their players, each in a sandbox", runHost},
		{"credentials", "per-client credentials of a secured bus: add, list, remove, export (a nats-server configuration)", runCredentials},
		{"course", "a course competition: course init makes credentials, a ladder and the students' README from a roster (docs/course.md)", runCourse},
		{"server", "run a standalone NATS server (embedded nats-server)", runServer},
		{"healthcheck", "check that a NATS server (and with --referee, a referee daemon) answers; exit 0 or 1", runHealthcheck},
		{"ipd", "iterated prisoner's dilemma research tools: ipd simulate runs many in-process trials", runIPD},
		{"train", "train a learned-weight player for Othello, checkers or give-away checkers (TD, TDLeaf, strategy network, EVO, co-evolution); docs/learning.md", runTrain},
		{"experience", "experience-base (GINA) tools: experience run plays and learns in process, experience stats describes a base", runExperience},
		{"openings", "generate an opening set: every distinct position after N plies", runOpenings},
		{"capture-problems", "generate capture problems from GNU Go playing itself, labelled by its tactical reading", runCaptureProblems},
		{"solve", "solve capture problems of Go with iterative widening (one problem, or a set and the paper's tables)", runSolve},
		{"tune-checkers", "train minimax's checkers weights by TDLeaf(lambda) (tune-checkers train) and chart their matches by depth (tune-checkers chart); docs/chinook.md", runTuneCheckers},
		{"perft", "count the leaves of a game's move tree (rules check and speed test)", runPerft},
		{"completion", "print a shell completion script: arena completion bash", runCompletion},
		{"version", "print the version", runVersion},
	}
}

// commandNames lists the commands, in the order of commands().
func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena version", "", stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	_, err := fmt.Fprintln(stdout, "arena", version)
	return err
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command line and returns the process exit status: 0 on success, 2 for
// a usage error, 1 for any other failure. Every failure is one line on stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) >= 2 && args[0] == "help" {
		// "arena help tournament" is "arena tournament -h", "arena help ipd simulate" is
		// "arena ipd simulate -h".
		args = append(append([]string{}, args[1:]...), "-h")
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		printUsage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, args[1:], stdout, stderr)
		name := "arena " + c.name
		var in cli.InCommand
		if errors.As(err, &in) {
			name = in.Path
		}
		switch {
		case err == nil:
			return 0
		case errors.Is(err, cli.ErrHelp):
			return 0
		case errors.As(err, new(cli.UsageError)):
			fmt.Fprintf(stderr, "%s: %v (see '%s -h')\n", name, err, name)
			return 2
		default:
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return 1
		}
	}
	msg := fmt.Sprintf("arena: unknown command %q", args[0])
	if s := cli.DidYouMean(strings.TrimLeft(args[0], "-"), commandNames(), cli.Quoted); s != "" {
		msg += ";" + s
	}
	fmt.Fprintf(stderr, "%s (see 'arena help')\n", msg)
	return 2
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "arena: a tournament arena and referee for board games over NATS")
	fmt.Fprintln(w, "\nUsage: arena COMMAND [flags]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-13s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'arena COMMAND -h' or 'arena help COMMAND' for a command's flags;")
	fmt.Fprintln(w, "'source <(arena completion bash)' completes commands and flags in bash.")
}
