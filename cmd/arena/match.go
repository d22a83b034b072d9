package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/organizer/report"
	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/referee"
)

// runMatch plays a two-player match, colours alternating, until an SPRT decides or the
// games run out. The games are recorded as a tournament, like any other.
func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := organizer.DefaultSpec()
	var sprtFlag, dbPath, logLevel, openings string
	var bf busFlags
	var maxGames int
	fs := cli.NewFlagSet("arena match", "A B --game othello --tc 100ms [--sprt elo0=0,elo1=5] [--games N] [flags]; A or B may be NAME=AGENT:key=value, or an engine NAME=engine:cmd=COMMAND", stderr)
	fs.StringVar(&s.Game, "game", s.Game, "game to play, with options")
	fs.StringVar(&s.TimeControl, "tc", s.TimeControl, "time control: per move (100ms) or a game clock (60+0.5; a number alone is a clock in seconds)")
	fs.StringVar(&sprtFlag, "sprt", "", "stop when a sequential probability ratio test decides: elo0=E0,elo1=E1[,alpha=0.05,beta=0.05,model=logistic|normalized] (A's Elo over B)")
	fs.IntVar(&maxGames, "games", 1000, "most games to play, in pairs with colours swapped: an odd number is rounded up (and said so); with --openings, each pair plays the next opening until they run out")
	fs.StringVar(&openings, "openings", "", "file of openings, one per line as moves; each is played twice, colours swapped")
	fs.IntVar(&s.Concurrency, "concurrency", 1, "games played at once (more than the cores: a warning, since clock-bound built-in players may lose on time)")
	fs.Int64Var(&s.Seed, "seed", 0, "seed for the agents' random choices (0: from the clock)")
	fs.Var(cli.TextFlag{V: &s.Margin}, "margin", "transport margin added to every deadline")
	fs.Var(cli.TextFlag{V: &s.Wait}, "wait", "how long the tournament waits at its start for players that connect over the bus before it fails (0: 10s), and a game for an absent player before forfeiting it")
	fs.StringVar(&dbPath, "db", "arena.db", "SQLite database file the games are recorded in")
	bf.register(fs, "", "NATS server URL (default: an embedded server)")
	var hf httpFlags
	hf.register(fs)
	fs.StringVar(&logLevel, "log-level", "warn", "log level")
	// The players may come anywhere (arena match A B --tc ..., arena match A --tc ... B).
	if err := fs.ParseArgs(args, 2); err != nil {
		return err
	}
	if err := bf.check(explicitFlags(fs)); err != nil {
		return err
	}
	if err := hf.check(); err != nil {
		return err
	}
	if maxGames < 2 {
		return cli.Usagef("--games must be at least 2")
	}
	var test *ratings.SPRT
	if sprtFlag != "" {
		t, err := organizer.ParseSPRT(sprtFlag)
		if err != nil {
			return cli.Usagef("--sprt: %v", err)
		}
		test = &t
	}
	s.SPRT = test // recorded with the match, for the web view's graph of the test
	var err error
	if s.Players, s.Agents, err = agent.ParseSpecs([]string{fs.Arg(0), fs.Arg(1)}); err != nil {
		return cli.Usagef("players: %v", err)
	}
	var openingsText string
	nOpenings := 0
	if openings != "" {
		b, err := os.ReadFile(openings)
		if err != nil {
			return cli.Usagef("--openings: %v", err)
		}
		openingsText, s.Openings = string(b), openings
		// A file that does not parse is reported by compile below, with its line.
		if g, err := game.Lookup(s.Game); err == nil {
			if ops, err := opening.Parse(strings.NewReader(openingsText), g); err == nil {
				nOpenings = len(ops)
			}
		}
	}
	// The note, when not "", tells the user that the match plays another number of games
	// than asked; without --games, a match that the openings cut short is no surprise.
	var gamesNote string
	var cut bool
	switch s.Rounds, cut = organizer.MatchRounds(maxGames, nOpenings); {
	case cut && explicitFlags(fs)["games"]:
		gamesNote = fmt.Sprintf("--games %d: the openings file has %d openings, each played with both colours: %d games", maxGames, nOpenings, 2*nOpenings)
	case !cut && maxGames%2 == 1:
		gamesNote = fmt.Sprintf("--games %d rounded up to %d so that each player has each colour equally often", maxGames, maxGames+1)
	}
	if s.Seed == 0 {
		s.Seed = time.Now().UnixNano() & 0x7fffffff
	}
	if _, err := s.CompileOn(organizer.Host{External: bf.external(), Programs: true}, openingsText); err != nil {
		return asFlagError(err)
	}
	// On a terminal the log goes through the progress line, which keeps the bar below it.
	live := cli.NewLiveLine(stderr)
	log, err := cli.NewLiveLogger(stderr, live, logLevel)
	if err != nil {
		return err
	}
	d, _, closeAll, err := openDirector(ctx, &bf, &hf, dbPath, log, stderr)
	if err != nil {
		return err
	}
	defer closeAll()
	release, err := d.Ready(ctx, s)
	if err != nil {
		return err
	}
	defer release()
	id, scheduled, err := d.Create(ctx, s, openingsText, bf.external())
	if err != nil {
		return err
	}
	if gamesNote != "" {
		fmt.Fprintln(stderr, "arena match: "+gamesNote)
	}
	warnSpec(stderr, s)
	started := time.Now()
	ms, decision, runErr := d.RunMatch(ctx, id, nil, func(_, _ int, _ referee.Result, score organizer.MatchScore, _ ratings.Decision) {
		w, dr, l := score.Wins, score.Draws, score.Losses
		line := fmt.Sprintf("%s v %s: %d games, +%d =%d -%d", s.Players[0], s.Players[1], w+dr+l, w, dr, l)
		if test != nil {
			lo, hi := test.Bounds()
			line += fmt.Sprintf(", LLR %.2f [%.2f, %.2f]", test.LLR(w, dr, l), lo, hi)
		}
		if n := w + dr + l; live != nil {
			live.Set(cli.BarText("games", n, scheduled, 0, time.Since(started)) + "  " + line)
		} else if n%50 == 0 {
			fmt.Fprintln(stderr, line)
		}
	})
	if live != nil {
		live.Clear()
	}
	if _, err := d.Finish(ctx, id, runErr); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil {
		return fmt.Errorf("match (tournament %d in %s): %w", id, dbPath, runErr)
	}
	if err := report.WriteMatch(stdout, report.Match{A: s.Players[0], B: s.Players[1], Score: ms, Elapsed: time.Since(started), Test: test, Decision: decision}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "recorded as tournament %d in %s\n", id, dbPath)
	return nil
}
