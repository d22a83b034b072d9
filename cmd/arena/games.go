package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/organizer/report"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/export"
	"github.com/arenaref/arena/store/sqlite"
)

// runGames lists recorded games with how they ended.
func runGames(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena games", "--db FILE [--tournament ID] [--game GAME] [--reason CODE]", stderr)
	dbPath := fs.String("db", "arena.db", "the database")
	tid := fs.Int64("tournament", 0, "one tournament's games (default: all)")
	gameName := fs.String("game", "", "only games of this game")
	reason := fs.String("reason", "", "only games that ended for this reason (normal, time_forfeit, illegal_move, ...)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	games, err := openGames(ctx, *dbPath, *tid, *gameName)
	if err != nil {
		return err
	}
	return report.WriteGames(stdout, games, *reason)
}

// runExport writes recorded games in a format other tools read.
func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena export", "--db FILE --format pgn|json|csv|ggf [--tournament ID] [--game GAME] [--out FILE]", stderr)
	dbPath := fs.String("db", "arena.db", "the database")
	format := fs.String("format", export.FormatPGN, "pgn (Ordo, BayesElo; checkers and giveaway games as PDN, the first mover Black), json, csv, or ggf (Othello games)")
	tid := fs.Int64("tournament", 0, "one tournament's games (default: all)")
	gameName := fs.String("game", "", "only games of this game")
	out := fs.String("out", "", "write to FILE instead of standard output")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if !slices.Contains(export.Formats, *format) {
		return cli.Usagef("--format %q: want pgn, json, csv or ggf", *format)
	}
	games, err := openGames(ctx, *dbPath, *tid, *gameName)
	if err != nil {
		return err
	}
	w := stdout
	var f *os.File
	if *out != "" {
		if f, err = os.Create(*out); err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriter(w)
	if err := export.Write(bw, *format, games, export.Meta{Event: export.EventName(*tid, *gameName), Site: "arena"}); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if f != nil {
		return f.Close()
	}
	return nil
}

// openGames reads games from a database that must exist: one tournament's, or all of them
// (of one game, if given), in tournament order.
func openGames(ctx context.Context, dbPath string, tid int64, gameName string) ([]store.Game, error) {
	db, err := openExistingDB(ctx, dbPath)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if tid != 0 {
		if _, err := organizer.FindTournament(ctx, db, tid, dbPath); err != nil {
			return nil, fmt.Errorf("--tournament: %w", err)
		}
		return db.Games(ctx, tid)
	}
	return organizer.AllGames(ctx, db, gameName)
}

// openExistingDB opens the database of --db of a command that reads one: it must exist.
func openExistingDB(ctx context.Context, path string) (*sqlite.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, cli.Usagef("--db: %v", err)
	}
	return sqlite.Open(ctx, path)
}
