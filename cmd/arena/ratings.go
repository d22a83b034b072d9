package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/organizer/report"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

func runRatings(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("arena ratings", "--db FILE [--tournament ID] [--game GAME] [--json]", stderr)
	dbPath := fs.String("db", "arena.db", "the database")
	tid := fs.Int64("tournament", 0, "rate one tournament (default: every tournament of --game)")
	gameName := fs.String("game", "", "rate the games of this game (needed when the database holds several)")
	anchor := fs.String("anchor", "", "fix this player's rating at 1500 instead of the pool's average")
	firstMove := fs.Bool("first-move", false, "also fit a first-move advantage")
	sims := fs.Int("simulations", 0, "error bars from this many simulated tournaments instead of the information matrix")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	db, err := openExistingDB(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	games, label, err := loadGames(ctx, db, *tid, *gameName)
	if err != nil {
		return err
	}
	t, err := organizer.RateGames(games, nil, organizer.RateOptions{Anchor: *anchor, FirstMove: *firstMove, Simulations: *sims})
	if errors.Is(err, organizer.ErrNoAnchor) {
		return fmt.Errorf("--%w", err)
	}
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(stdout, t)
	}
	fmt.Fprintf(stdout, "%s: %d games, draws %.1f%%", label, t.Games, 100*t.DrawRatio)
	if *firstMove {
		fmt.Fprintf(stdout, ", first-move advantage %+.1f ± %.1f Elo", t.FirstMove, t.FirstMoveError)
	}
	fmt.Fprintf(stdout, "\nmaximum-likelihood ratings (logistic, %s); ± is 95%%, from the %s\n\n", t.Footing(), t.ErrorMethod)
	return report.WriteRatingTable(stdout, t)
}

// loadGames reads the games to rate: one tournament's, or every tournament's of a game.
func loadGames(ctx context.Context, db *sqlite.DB, tid int64, gameName string) ([]store.Game, string, error) {
	if tid != 0 {
		t, err := organizer.FindTournament(ctx, db, tid, db.Path())
		if err != nil {
			return nil, "", fmt.Errorf("--tournament: %w", err)
		}
		games, err := db.Games(ctx, tid)
		return games, fmt.Sprintf("tournament %d (%s)", tid, t.Game), err
	}
	games, label, err := organizer.RatedGames(ctx, db, gameName)
	var several *organizer.SeveralGamesError
	if errors.As(err, &several) {
		return nil, "", cli.Usagef("the database holds games of %s: choose one with --game", strings.Join(several.Games, ", "))
	}
	return games, label, err
}
