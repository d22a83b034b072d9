package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/arenaref/arena/store"
)

// Plies counts the plies of a move list in the store's order, where a simultaneous ply
// appears once per seat: what the games.plies column holds.
func Plies(moves []store.Move) int {
	n, last := 0, -1
	for _, m := range moves {
		if m.Ply != last {
			n++
			last = m.Ply
		}
	}
	return n
}

// Game returns the game with the given id, with its moves by ply and its rating changes,
// or an error wrapping store.ErrNotFound.
func (db *DB) Game(ctx context.Context, id int64) (store.Game, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return store.Game{}, fmt.Errorf("game %d: %w", id, err)
	}
	defer tx.Rollback()
	games, err := readGames(ctx, tx, "g.id = ?", []any{id}, "g.id")
	if err != nil {
		return store.Game{}, fmt.Errorf("game %d: %w", id, err)
	}
	if len(games) == 0 {
		return store.Game{}, fmt.Errorf("game %d: %w", id, store.ErrNotFound)
	}
	return games[0], nil
}

// GameSummaries returns the games of tournament tournamentID by Index, without moves or
// rating changes, or an error wrapping store.ErrNotFound for an unknown tournament.
func (db *DB) GameSummaries(ctx context.Context, tournamentID int64) ([]store.GameSummary, error) {
	tx, err := db.beginTournamentRead(ctx, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("game summaries of tournament %d: %w", tournamentID, err)
	}
	defer tx.Rollback()
	games, err := readSummaries(ctx, tx, "g.tournament_id = ?", []any{tournamentID}, "g.idx", false)
	if err != nil {
		return nil, fmt.Errorf("game summaries of tournament %d: %w", tournamentID, err)
	}
	return games, nil
}

// LastGameSummaries returns the n games of tournament tournamentID with the highest
// Index, by Index, as GameSummaries does; the index on (tournament_id, idx) finds them
// without reading the others.
func (db *DB) LastGameSummaries(ctx context.Context, tournamentID int64, n int) ([]store.GameSummary, error) {
	if n < 1 {
		return nil, fmt.Errorf("last %d game summaries of tournament %d: want at least one", n, tournamentID)
	}
	tx, err := db.beginTournamentRead(ctx, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("game summaries of tournament %d: %w", tournamentID, err)
	}
	defer tx.Rollback()
	games, err := readSummaries(ctx, tx, `g.id IN (SELECT id FROM games WHERE tournament_id = ? ORDER BY idx DESC LIMIT ?)`,
		[]any{tournamentID, n}, "g.idx", false)
	if err != nil {
		return nil, fmt.Errorf("game summaries of tournament %d: %w", tournamentID, err)
	}
	return games, nil
}

// PlayerGames returns the games the named player sat in, oldest (lowest id) first, with
// their rating changes but without moves. An unknown player has none.
func (db *DB) PlayerGames(ctx context.Context, name string) ([]store.GameSummary, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("games of player %q: %w", name, err)
	}
	defer tx.Rollback()
	games, err := readSummaries(ctx, tx, `g.id IN (SELECT s.game_id FROM game_seats s
		JOIN players p ON p.id = s.player_id WHERE p.name = ?)`, []any{name}, "g.id", true)
	if err != nil {
		return nil, fmt.Errorf("games of player %q: %w", name, err)
	}
	return games, nil
}

// TournamentInfo returns tournament id like Tournament but without its schedule, which
// for a long tournament is most of the reading.
func (db *DB) TournamentInfo(ctx context.Context, id int64) (store.Tournament, error) {
	t, err := scanTournament(db.r.QueryRowContext(ctx,
		"SELECT "+tournamentColumns+" FROM tournaments t WHERE t.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.Tournament{}, fmt.Errorf("tournament %d: %w", id, err)
	}
	return t, nil
}

// readSummaries reads the games g for which where holds, ordered by order, with their
// seats and, when ratings is set, their rating changes.
func readSummaries(ctx context.Context, tx *sql.Tx, where string, args []any, order string, ratings bool) ([]store.GameSummary, error) {
	var games []store.GameSummary
	at := make(map[int64]int)
	err := each(ctx, tx, `SELECT g.id, g.tournament_id, g.idx, g.round, g.game, g.result, g.reason, g.returns,
		g.plies + json_array_length(g.opening), g.started, g.ended
		FROM games g WHERE `+where+` ORDER BY `+order, args,
		func(rows *sql.Rows) error {
			var g store.GameSummary
			var returns string
			var started, ended sql.NullString
			if err := rows.Scan(&g.ID, &g.TournamentID, &g.Index, &g.Round, &g.Game, &g.Result, &g.Reason,
				&returns, &g.Plies, &started, &ended); err != nil {
				return err
			}
			if returns != "[]" {
				if err := json.Unmarshal([]byte(returns), &g.Returns); err != nil {
					return fmt.Errorf("game %d: returns: %w", g.ID, err)
				}
			}
			var err error
			if g.Started, err = parseTime(started); err != nil {
				return err
			}
			if g.Ended, err = parseTime(ended); err != nil {
				return err
			}
			at[g.ID] = len(games)
			games = append(games, g)
			return nil
		})
	if err != nil || len(games) == 0 {
		return games, err
	}
	err = eachSeat(ctx, tx, where, args, func(id int64, name string, score float64) {
		g := &games[at[id]]
		g.Players = append(g.Players, name)
		g.Scores = append(g.Scores, score)
	})
	if err != nil || !ratings {
		return games, err
	}
	err = eachRating(ctx, tx, where, args, func(id int64, rc store.RatingChange) {
		g := &games[at[id]]
		g.Ratings = append(g.Ratings, rc)
	})
	return games, err
}
