package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/export"
	"github.com/arenaref/arena/store/sqlite"
)

// runGames lists recorded games with how they ended.
func runGames(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("games", "--db FILE [--tournament ID] [--game GAME] [--reason CODE]", stderr)
	dbPath := fs.String("db", "arena.db", "the database")
	tid := fs.Int64("tournament", 0, "one tournament's games (default: all)")
	gameName := fs.String("game", "", "only games of this game")
	reason := fs.String("reason", "", "only games that ended for this reason (normal, time_forfeit, illegal_move, ...)")
	if err := fs.parse(args); err != nil {
		return err
	}
	games, err := openGames(ctx, *dbPath, *tid, *gameName)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTOURNAMENT\tROUND\tFIRST\tSECOND\tRESULT\tREASON\tPLIES\tDETAIL")
	for _, g := range games {
		if *reason != "" && g.Reason != *reason {
			continue
		}
		first, second := "", ""
		if len(g.Players) > 0 {
			first = g.Players[0]
		}
		if len(g.Players) > 1 {
			second = g.Players[1]
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\t%s\t%s\t%d\t%s\n", g.ID, g.TournamentID, g.Round, first, second, g.Result, g.Reason, len(g.Moves), g.Detail)
	}
	return tw.Flush()
}

// runExport writes recorded games in a format other tools read.
func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("export", "--db FILE --format pgn|json|csv|ggf [--tournament ID] [--game GAME] [--out FILE]", stderr)
	dbPath := fs.String("db", "arena.db", "the database")
	format := fs.String("format", export.FormatPGN, "pgn (Ordo, BayesElo; checkers and giveaway games as PDN, the first mover Black), json, csv, or ggf (Othello games)")
	tid := fs.Int64("tournament", 0, "one tournament's games (default: all)")
	gameName := fs.String("game", "", "only games of this game")
	out := fs.String("out", "", "write to FILE instead of standard output")
	if err := fs.parse(args); err != nil {
		return err
	}
	write := map[string]func(io.Writer, []store.Game) error{
		export.FormatJSON: export.WriteJSON,
		export.FormatCSV:  export.WriteCSV,
		export.FormatGGF:  export.WriteGGF,
	}
	if *format != export.FormatPGN && write[*format] == nil {
		return usagef("--format %q: want pgn, json, csv or ggf", *format)
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
	if *format == export.FormatPGN {
		err = export.WritePGN(bw, games, export.Meta{Event: eventName(*tid, *gameName), Site: "arena"})
	} else {
		err = write[*format](bw, games)
	}
	if err != nil {
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

func eventName(tid int64, gameName string) string {
	switch {
	case tid != 0:
		return fmt.Sprintf("Arena tournament %d", tid)
	case gameName != "":
		return "Arena " + gameName
	}
	return "Arena"
}

// openGames reads games from a database that must exist: one tournament's, or all of them
// (of one game, if given), in tournament order.
func openGames(ctx context.Context, dbPath string, tid int64, gameName string) ([]store.Game, error) {
	if _, err := os.Stat(dbPath); err != nil {
		return nil, usagef("--db: %v", err)
	}
	db, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if tid != 0 {
		if _, err := findTournament(ctx, db, tid, dbPath); err != nil {
			return nil, fmt.Errorf("--tournament: %w", err)
		}
		return db.Games(ctx, tid)
	}
	ts, err := db.Tournaments(ctx, "")
	if err != nil {
		return nil, err
	}
	var all []store.Game
	for _, t := range ts {
		if gameName != "" && !strings.EqualFold(t.Game, gameName) {
			continue
		}
		games, err := db.Games(ctx, t.ID)
		if err != nil {
			return nil, err
		}
		all = append(all, games...)
	}
	return all, nil
}

// findTournament reads tournament id from db, the file the user named dbPath. One that
// is not there is "no tournament 42 in arena.db", with the ids the file has.
func findTournament(ctx context.Context, db *sqlite.DB, id int64, dbPath string) (store.Tournament, error) {
	t, err := db.Tournament(ctx, id)
	if !errors.Is(err, store.ErrNotFound) {
		return t, err
	}
	ts, lerr := db.Tournaments(ctx, "")
	if lerr != nil {
		return t, fmt.Errorf("no tournament %d in %s", id, dbPath)
	}
	ids := make([]int64, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	slices.Sort(ids)
	switch {
	case len(ids) == 0:
		return t, fmt.Errorf("no tournament %d in %s, which has no tournaments", id, dbPath)
	case len(ids) == 1:
		return t, fmt.Errorf("no tournament %d in %s (it holds tournament %d)", id, dbPath, ids[0])
	case len(ids) > 10:
		return t, fmt.Errorf("no tournament %d in %s (it holds %d tournaments, %d to %d)", id, dbPath, len(ids), ids[0], ids[len(ids)-1])
	}
	list := make([]string, len(ids))
	for i, n := range ids {
		list[i] = strconv.FormatInt(n, 10)
	}
	return t, fmt.Errorf("no tournament %d in %s (it holds tournaments %s)", id, dbPath, strings.Join(list, ", "))
}
