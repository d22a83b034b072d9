package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/organizer/course"
	"github.com/arenaref/arena/store/sqlite"
	"github.com/arenaref/arena/tournament"
)

func courseSubcommands() []cli.Subcommand {
	return []cli.Subcommand{
		{Name: "init", Summary: "make a course from a roster: credentials for every student, the spectator, the host and the teacher, a ladder in the database, and the students' README", Run: courseInit},
		{Name: "entries", Summary: "list every player's ladder entries with their statuses and reasons, and its submitted engines with their states and log tails", Run: courseEntries},
		{Name: course.Disable, Summary: "stop a player's entry: it plays no more, and the player may not enter again until enabled", Run: courseAct(course.Disable)},
		{Name: course.Enable, Summary: "put a failed, disabled or removed entry back: it validates afresh, then plays", Run: courseAct(course.Enable)},
		{Name: course.Remove, Summary: "take a player's entry out of the ladder: its games count for nobody's rating", Run: courseAct(course.Remove)},
	}
}

// courseFlags are the flags of the teacher's commands: the database and the ladder.
func courseFlags(fs *cli.FlagSet) (dbPath *string, ladder *int64) {
	return fs.String("db", "", "the referee's SQLite database (required)"), fs.Int64("ladder", 0, "the ladder's id (default: the newest ladder)")
}

// openCourse opens the database at path and finds its ladder (course.FindLadder).
func openCourse(ctx context.Context, path string, ladder int64) (*sqlite.DB, int64, error) {
	db, err := openCredentialsDB(ctx, path, false)
	if err != nil {
		return nil, 0, err
	}
	id, err := course.FindLadder(ctx, db, ladder)
	if err != nil {
		db.Close() // and the caller uses neither
	}
	return db, id, err
}

// courseEntries lists the ladder's entries and engines: "arena course entries".
func courseEntries(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena course entries", "--db FILE [--ladder ID] [--tail N] [--json]", stderr)
	dbPath, ladder := courseFlags(fs)
	tail := fs.Int("tail", 5, "the last lines of each engine's log to print")
	asJSON := fs.Bool("json", false, "print the listing as JSON, logs whole")
	if err := fs.Parse(args); err != nil {
		return err
	}
	db, id, err := openCourse(ctx, *dbPath, *ladder)
	if err != nil {
		return err
	}
	defer db.Close()
	players, err := course.Players(ctx, db, id)
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(stdout, players)
	}
	return course.WritePlayers(stdout, players, *tail)
}

// courseAct is "arena course ACTION NAME" for course.Disable, Enable and Remove.
func courseAct(action string) func(context.Context, []string, io.Writer, io.Writer) error {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := cli.NewFlagSet("arena course "+action, "--db FILE [--ladder ID] [--reason TEXT] NAME", stderr)
		dbPath, ladder := courseFlags(fs)
		reason := fs.String("reason", "", "why, for the ladder page (default: that the teacher did it)")
		if err := fs.ParseArgs(fs.PositionalsLast(args), 1); err != nil {
			return err
		}
		db, id, err := openCourse(ctx, *dbPath, *ladder)
		if err != nil {
			return err
		}
		defer db.Close()
		e, err := course.Act(ctx, db, id, fs.Arg(0), action, *reason)
		if err != nil {
			return err
		}
		return course.WriteActed(stdout, e)
	}
}

func courseInit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena course init", "--roster students.csv --db FILE --deadline TIME|DURATION [flags]", stderr)
	spec := organizer.DefaultSpec()
	roster := fs.String("roster", "", "the roster: CSV, a student's player name first on each line, optionally a full name (required)")
	dbPath := fs.String("db", "", "the referee's SQLite database: it keeps the credentials and the ladder (required)")
	dir := fs.String("dir", "course", "where the course's files go (a new or empty directory)")
	busURL := fs.String("nats-url", "nats://localhost:4222", "the NATS URL students connect to, for their README (the referee's --listen address as they reach it)")
	webURL := fs.String("web-url", "http://localhost:8080/", "the web page's URL, for their README (the referee's --http address as they reach it)")
	gameName := fs.String("game", "othello", "the game, with options (othello:size=6)")
	tc := fs.String("tc", "1s", "time control: per move (1s) or a game clock (60+0.5)")
	deadline := fs.String("deadline", "", "when the ladder closes: a time (2026-12-18T17:00:00Z) or a duration from now (14d is not Go's; use 336h) (required)")
	concurrency := fs.Int("concurrency", 2, "games at once")
	validation := fs.Int("validation-games", organizer.DefaultValidationGames, "validation games a new version plays before it is rated")
	opponent := fs.String("validation-opponent", organizer.DefaultValidationOpponent, "the built-in agent validation games are played against")
	top := fs.Int("final-top", organizer.DefaultFinalTop, "how many of the top entries play the final phase")
	rounds := fs.Int("final-rounds", organizer.DefaultFinalRounds, "rounds of the final round-robin")
	fs.IntVar(&spec.TimeStrikes, "time-strikes", tournament.DefaultTimeStrikes, "validation games an entry may lose on time before it fails (CodinGame: 3)")
	fs.IntVar(&spec.GamesPerHour, "games-per-hour", tournament.DefaultGamesPerHour, "rated games each entrant may start in an hour: the ladder's pace")
	openings := fs.String("openings", "", "an openings file for the final phase (arena openings)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *roster == "":
		return cli.Usagef("--roster is required")
	case *dbPath == "":
		return cli.Usagef("--db is required: the referee's database, which keeps the credentials and the ladder")
	case *deadline == "":
		return cli.Usagef("--deadline is required: when the ladder closes")
	}
	f, err := os.Open(*roster)
	if err != nil {
		return cli.Usagef("--roster: %v", err)
	}
	students, err := course.ParseRoster(f)
	f.Close()
	if err != nil {
		return cli.UsageError{Msg: fmt.Sprintf("%s: %v", *roster, err)}
	}
	spec.Name = "course " + filepath.Base(filepath.Clean(*dir))
	spec.Game, spec.TimeControl, spec.Deadline, spec.Concurrency = *gameName, *tc, *deadline, *concurrency
	spec.ValidationGames, spec.ValidationOpponent, spec.FinalTop, spec.FinalRounds = *validation, *opponent, *top, *rounds
	var openingsText string
	if *openings != "" {
		b, err := os.ReadFile(*openings)
		if err != nil {
			return cli.Usagef("--openings: %v", err)
		}
		spec.Openings, openingsText = *openings, string(b)
	}
	db, err := openCredentialsDB(ctx, *dbPath, true)
	if err != nil {
		return err
	}
	defer db.Close()
	res, err := course.Init(ctx, course.Options{
		Students: students, Dir: *dir, Store: db, BusURL: *busURL, WebURL: *webURL, Ladder: spec, OpeningsText: openingsText,
	})
	if err != nil {
		return err
	}
	return res.WriteNext(stdout, len(students), *dbPath, *dir, *busURL, *webURL)
}
