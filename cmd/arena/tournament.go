package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/organizer/report"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

func runTournament(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := organizer.DefaultSpec()
	var playersFlag, seedsFlag, dbPath, logLevel, file string
	var bf busFlags
	var asJSON bool
	var resume int64
	fs := cli.NewFlagSet("arena tournament", "--players A,B,... [flags] | --config FILE | --resume ID", stderr)
	fs.StringVar(&s.Game, "game", s.Game, "game to play, with options (e.g. othello)")
	fs.StringVar(&playersFlag, "players", "", "comma-separated players: built-in agents ("+strings.Join(agent.Names(), ", ")+"; arena agents describes them), NAME=AGENT:key=value for an agent with settings (d4=minimax:depth=4), engines started here as NAME=engine:cmd=COMMAND[:proto=gtp] (mine=engine:cmd=python3 mine.py; docs/engines.md), or with --nats, names of external players")
	fs.StringVar(&s.Format, "format", s.Format, "round-robin, or gauntlet (the --seeds play everyone else)")
	fs.StringVar(&seedsFlag, "seeds", "", "gauntlet: comma-separated players who meet all the others")
	fs.IntVar(&s.Rounds, "rounds", s.Rounds, "rounds; in each, every pairing plays each colour once")
	fs.StringVar(&s.TimeControl, "tc", s.TimeControl, "time control: per move (100ms, 2s) or a game clock (60+0.5, 40/60; a number alone is a clock in seconds)")
	fs.Var(cli.TextFlag{V: &s.Margin}, "margin", "transport margin added to every deadline")
	fs.IntVar(&s.MaxPlies, "max-plies", 0, "adjudicate a game as a draw after this many plies (0: no limit)")
	fs.StringVar(&s.Openings, "openings", "", "file of openings, one per line as moves; each is played twice, colours swapped")
	fs.StringVar(&s.OpeningOrder, "opening-order", s.OpeningOrder, "sequential or random (by --seed)")
	fs.IntVar(&s.Concurrency, "concurrency", s.Concurrency, "games played at once (more than the cores: a warning, since clock-bound built-in players may lose on time)")
	fs.Int64Var(&s.Seed, "seed", 0, "seed for the agents' random choices and the opening order (0: from the clock)")
	fs.Var(cli.TextFlag{V: &s.Wait}, "wait", "how long the tournament waits at its start for players that connect over the bus before it fails (0: 10s), and a game for an absent player before forfeiting it")
	fs.Float64Var(&s.EloK, "elo-k", s.EloK, "Elo K-factor")
	fs.StringVar(&file, "config", "", "read the tournament from a TOML file instead of flags")
	fs.Int64Var(&resume, "resume", 0, "play the missing games of tournament ID in --db, with its own settings")
	fs.StringVar(&dbPath, "db", "arena.db", "SQLite database file for games, moves and ratings")
	fs.BoolVar(&asJSON, "json", false, "print the standings as one JSON document")
	bf.register(fs, "", "NATS server URL (default: start an embedded server on 127.0.0.1)")
	var hf httpFlags
	hf.register(fs)
	fs.StringVar(&logLevel, "log-level", "warn", "log level: debug, info, warn, error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	// On a terminal the log goes through the progress line, which keeps the bar below it.
	live := cli.NewLiveLine(stderr)
	log, err := cli.NewLiveLogger(stderr, live, logLevel)
	if err != nil {
		return err
	}
	// Flags that describe a tournament do not mix with --config or --resume.
	var describing []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "config", "resume", "db", "json", "log-level":
		default:
			if slices.Contains(busFlagNames, f.Name) || slices.Contains(httpFlagNames, f.Name) {
				return
			}
			describing = append(describing, "--"+f.Name)
		}
	})
	if err := bf.check(explicitFlags(fs)); err != nil {
		return err
	}
	if err := hf.check(); err != nil {
		return err
	}
	var openingsText string
	switch {
	case resume != 0 && file != "":
		return cli.Usagef("--resume and --config do not go together")
	case resume < 0:
		return cli.Usagef("--resume takes a tournament id, got %d", resume)
	case (resume != 0 || file != "") && len(describing) > 0:
		return cli.Usagef("%s cannot be combined with --config or --resume: the tournament brings its own settings", strings.Join(describing, ", "))
	case file != "":
		if s, _, openingsText, err = organizer.ReadSpecFile(file); err != nil {
			return cli.Usagef("--config: %v", err)
		}
	case resume == 0:
		if s.Players, s.Agents, err = agent.ParseList(playersFlag); err != nil {
			return cli.Usagef("--players: %v", err)
		}
		s.Seeds = cli.SplitList(seedsFlag)
		if s.Openings != "" {
			b, err := os.ReadFile(s.Openings)
			if err != nil {
				return cli.Usagef("--openings: %v", err)
			}
			openingsText = string(b)
		}
	}
	if resume == 0 {
		// Check everything before touching the database or the network, so a mistake
		// costs nothing and leaves nothing behind.
		if s.Seed == 0 {
			s.Seed = time.Now().UnixNano() & 0x7fffffff
		}
		if _, err := s.CompileOn(organizer.Host{External: bf.external(), Programs: true}, openingsText); err != nil {
			if file != "" {
				return cli.Usagef("%s: %v", file, err)
			}
			return asFlagError(err)
		}
	} else if _, err := os.Stat(dbPath); err != nil {
		return cli.Usagef("--resume: %v", err)
	}

	d, db, closeAll, err := openDirector(ctx, &bf, &hf, dbPath, log, stderr)
	if err != nil {
		return err
	}
	defer closeAll()
	if resume != 0 {
		t, err := organizer.FindTournament(ctx, db, resume, dbPath)
		if err != nil {
			return fmt.Errorf("--resume: %w", err)
		}
		if s, err = organizer.StoredSpec(t); err != nil {
			return err
		}
	}
	release, err := d.Ready(ctx, s) // engines started, external players here: or nothing is recorded
	if err != nil {
		return err
	}
	defer release()
	id := resume
	if id == 0 {
		if id, _, err = d.Create(ctx, s, openingsText, bf.external()); err != nil {
			return err
		}
	}
	t, err := db.Tournament(ctx, id)
	if err != nil {
		return err
	}

	warnSpec(stderr, s)
	board := cli.NewScoreboard()
	if t.Played > 0 {
		played, err := db.Games(ctx, id)
		if err != nil {
			return err
		}
		for _, g := range played {
			board.Add(g.Players, g.Scores)
		}
	}
	started := time.Now()
	progress := cli.NewProgress(stderr, live, t.Total, t.Played, board)
	runErr := d.Run(ctx, id, nil, func(done, total int, res referee.Result) {
		progress.GameDone(done, total, cli.Game{Players: res.Players, Scores: res.Scores, Result: res.Result, Reason: res.Reason})
	})
	progress.Finish()
	status, err := d.Finish(ctx, id, runErr)
	if err != nil && runErr == nil {
		runErr = err
	}
	if t, err = db.Tournament(context.WithoutCancel(ctx), id); err != nil {
		return err
	}
	if status == store.StatusCancelled {
		return fmt.Errorf("interrupted: tournament %d cancelled after %d of %d games; those games are kept in %s (arena tournament --resume %d --db %s plays the rest)", id, t.Played, t.Total, dbPath, id, dbPath)
	}
	if runErr != nil {
		return fmt.Errorf("tournament %d failed after %d of %d games (kept in %s): %w", id, t.Played, t.Total, dbPath, runErr)
	}
	rows, err := d.Standings(ctx, id)
	if err != nil {
		return err
	}
	if asJSON {
		return report.WriteStandingsJSON(stdout, t, time.Since(started), rows)
	}
	if err := report.WriteStandingsTable(stdout, t, time.Since(started), rows); err != nil {
		return err
	}
	return report.WriteOverload(stdout, d.Overload(id))
}

// openDirector opens and locks the database, reaches the bus (starting the embedded server
// when the flags say so, secured with the database's credentials under --auth), starts
// the referee's lobby and, with --http, the web view, whose address it writes on stderr.
// closeAll undoes it all.
func openDirector(ctx context.Context, bf *busFlags, hf *httpFlags, dbPath string, log zerolog.Logger, stderr io.Writer) (_ *organizer.Director, _ *sqlite.DB, _ func(), err error) {
	var undo []func()
	closeAll := func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	defer func() {
		if err != nil {
			closeAll()
		}
	}()
	b, db, closeBoth, err := openBusAndDB(ctx, bf, dbPath, false, log)
	if err != nil {
		return nil, nil, nil, err
	}
	undo = append(undo, closeBoth)
	ref, err := referee.New(bf.refereeConfig(b, log))
	if err != nil {
		return nil, nil, nil, err
	}
	if err := ref.StartLobby(ctx, 5*time.Second); err != nil {
		return nil, nil, nil, fmt.Errorf("start lobby: %w", err)
	}
	d := organizer.New(organizer.Config{Store: db, Referee: ref, NATSURL: b.URL(), NATSOptions: b.Options(), Version: version, Log: log, Programs: true})
	undo = append(undo, d.Close)
	stopView, err := hf.start(b, db, log, func(line string) { fmt.Fprintln(stderr, line) })
	if err != nil {
		return nil, nil, nil, err
	}
	undo = append(undo, stopView)
	return d, db, closeAll, nil
}
