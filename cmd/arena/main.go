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
//	arena game check FILE.star               (a game written in Starlark; docs/games.md)
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
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	_ "github.com/arenaref/arena/games/all"
	"github.com/arenaref/arena/internal/cli"
	_ "github.com/arenaref/arena/players/agents/all"
	_ "github.com/arenaref/arena/players/engine/engineagent" // the engine agent: not an agent package, since it starts programs
)

// version is the program's version, reported in hellos and by "arena version".
var version = "0.1.0-dev"

// commands are arena's commands, in the order its help lists them.
func commands() []cli.Subcommand {
	return []cli.Subcommand{
		{Name: "tournament", Summary: "run a tournament and print the standings", Run: runTournament},
		{Name: "match", Summary: "play a two-player match, optionally until an SPRT decides", Run: runMatch},
		{Name: "referee", Summary: "run the referee daemon: tournaments submitted over NATS, resumed after restarts", Run: runReferee},
		{Name: "submit", Summary: "send a tournament file to a referee daemon", Run: runSubmit},
		{Name: "status", Summary: "show a referee daemon's tournaments, or one with its standings", Run: runStatus},
		{Name: "cancel", Summary: "cancel a tournament on a referee daemon", Run: runCancel},
		{Name: "players", Summary: "list the players a referee daemon has heard from", Run: runPlayers},
		{Name: "ratings", Summary: "maximum-likelihood ratings with error bars, LOS matrix and crosstable from a database", Run: runRatings},
		{Name: "games", Summary: "list recorded games with how they ended", Run: runGames},
		{Name: "export", Summary: "write recorded games as PGN (Ordo, BayesElo), JSON, CSV or GGF", Run: runExport},
		{Name: "web", Summary: "serve the web view of a database: tournaments, standings, games move by move, live games with --nats", Run: runWeb},
		{Name: "agents", Summary: "list the built-in agents: the games each plays and what it does, with its settings", Run: runAgents},
		{Name: "player", Summary: "run a built-in agent as a player process", Run: runPlayer},
		{Name: "engine", Summary: "run an external engine program as a player (line protocol, GTP or NBoard)", Run: runEngine},
		{Name: "check-engine", Summary: "run an engine through test positions and report what a tournament would forfeit it for", Run: runCheckEngine},
		{Name: "submit-engine", Summary: "submit an engine archive (arena.toml inside) for a host to build and run as your player", Run: runSubmitEngine},
		{Name: "host", Summary: "build and run submitted engines as their players, each in a sandbox", Run: runHost},
		{Name: "credentials", Summary: "per-client credentials of a secured bus: add, list, remove, export (a nats-server configuration)", Subcommands: credentialsSubcommands()},
		{Name: "course", Summary: "a course competition: course init makes credentials, a ladder and the students' README from a roster (docs/course.md)", Subcommands: courseSubcommands()},
		{Name: "server", Summary: "run a standalone NATS server (embedded nats-server)", Run: runServer},
		{Name: "healthcheck", Summary: "check that a NATS server (and with --referee, a referee daemon) answers; exit 0 or 1", Run: runHealthcheck},
		{Name: "ipd", Summary: "iterated prisoner's dilemma research tools: ipd simulate runs many in-process trials", Subcommands: ipdSubcommands()},
		{Name: "train", Summary: "train a learned-weight player for Othello, checkers or give-away checkers (TD, TDLeaf, strategy network, EVO, co-evolution); docs/learning.md", Run: runTrain},
		{Name: "experience", Summary: "experience-base (GINA) tools: experience run plays and learns in process, experience stats describes a base", Subcommands: experienceSubcommands()},
		{Name: "game", Summary: "game tools: game check runs the conformance suite, perft and a speed test on a game file (docs/games.md)", Subcommands: gameSubcommands()},
		{Name: "openings", Summary: "generate an opening set: every distinct position after N plies", Run: runOpenings},
		{Name: "capture-problems", Summary: "generate capture problems from GNU Go playing itself, labelled by its tactical reading", Run: runCaptureProblems},
		{Name: "solve", Summary: "solve capture problems of Go with iterative widening (one problem, or a set and the paper's tables)", Run: runSolve},
		{Name: "tune-checkers", Summary: "train minimax's checkers weights by TDLeaf(lambda) (tune-checkers train) and chart their matches by depth (tune-checkers chart); docs/chinook.md", Subcommands: tuneCheckersSubcommands()},
		{Name: "perft", Summary: "count the leaves of a game's move tree (rules check and speed test)", Run: runPerft},
		{Name: "completion", Summary: "print a shell completion script: arena completion bash", Run: runCompletion},
		{Name: "version", Summary: "print the version", Run: runVersion},
	}
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

// program is arena's command line: its commands, and the lines of its help.
func program() cli.Program {
	return cli.Program{
		Name: "arena", Summary: "a tournament arena and referee for board games over NATS", Commands: commands(),
		Footer: "Run 'arena COMMAND -h' or 'arena help COMMAND' for a command's flags;\n'source <(arena completion bash)' completes commands and flags in bash.",
	}
}

// run executes one command line and returns the process exit status (cli.Program.Run).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return program().Run(ctx, args, stdout, stderr)
}
