package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/arenaref/arena/store"
)

// EnsurePlayer adds p, or updates the agent and version of the player with p's name.
func (db *DB) EnsurePlayer(ctx context.Context, p store.Player) error {
	if p.Name == "" {
		return fmt.Errorf("ensure player: %w: empty name", store.ErrInvalid)
	}
	now := timeText(db.now())
	_, err := db.w.ExecContext(ctx, `INSERT INTO players (name, agent, version, created, updated)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET agent = excluded.agent, version = excluded.version, updated = excluded.updated`,
		p.Name, p.Agent, p.Version, now, now)
	if err != nil {
		return fmt.Errorf("ensure player %q: %w", p.Name, err)
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func validResult(r string) bool {
	switch r {
	case store.ResultFirstWins, store.ResultSecondWins, store.ResultDraw, store.ResultNone:
		return true
	}
	return false
}

// checkGame validates g before anything is written. Everything that needs the database
// (the tournament and the players exist, the game is new) is checked in RecordGame's
// transaction.
func checkGame(g *store.Game) error {
	n := len(g.Players)
	switch {
	case g.TournamentID <= 0:
		return fmt.Errorf("tournament id %d", g.TournamentID)
	case g.Index < 0 || g.Round < 0:
		return fmt.Errorf("negative index %d or round %d", g.Index, g.Round)
	case g.Game == "":
		return errors.New("no game type")
	case n == 0:
		return errors.New("no players")
	case len(g.Scores) != n:
		return fmt.Errorf("%d players but %d scores", n, len(g.Scores))
	case len(g.Returns) != 0 && len(g.Returns) != n:
		return fmt.Errorf("%d players but %d returns", n, len(g.Returns))
	case !validResult(g.Result):
		return fmt.Errorf("result %q is not 1-0, 0-1, 1/2-1/2 or *", g.Result)
	case g.Reason == "":
		return errors.New("no reason")
	case !g.Started.IsZero() && !g.Ended.IsZero() && g.Ended.Before(g.Started):
		return errors.New("ended before it started")
	}
	seated := make(map[string]bool, n)
	for seat, p := range g.Players {
		if p == "" {
			return fmt.Errorf("seat %d has no player", seat)
		}
		seated[p] = true
		if s := g.Scores[seat]; !(s >= 0 && s <= 1) {
			return fmt.Errorf("seat %d: score %v is not between 0 and 1", seat, s)
		}
	}
	if err := checkOpening(g.Opening); err != nil {
		return err
	}
	if err := checkLadderTag(g); err != nil {
		return err
	}
	for seat, r := range g.Returns {
		if !finite(r) {
			return fmt.Errorf("seat %d: return %v", seat, r)
		}
	}
	// Moves come in order of ply and, within a ply (a simultaneous turn), of seat.
	lastPly, lastSeat := -1, -1
	for i, m := range g.Moves {
		switch {
		case m.Ply < lastPly || m.Ply == lastPly && m.Seat <= lastSeat:
			return fmt.Errorf("move %d: ply %d seat %d does not follow ply %d seat %d", i, m.Ply, m.Seat, lastPly, lastSeat)
		case m.Seat < 0 || m.Seat >= n:
			return fmt.Errorf("move %d: seat %d of %d", i, m.Seat, n)
		case m.Move == "":
			return fmt.Errorf("move %d: empty", i)
		case m.Elapsed < 0 || m.Depth < 0 || m.Nodes < 0:
			return fmt.Errorf("move %d: negative time, depth or nodes", i)
		case !finite(m.Score):
			return fmt.Errorf("move %d: score %v", i, m.Score)
		}
		lastPly, lastSeat = m.Ply, m.Seat
	}
	for _, rc := range g.Ratings {
		if !seated[rc.Player] {
			return fmt.Errorf("rating change for %q, who did not play", rc.Player)
		}
		if !finite(rc.Before) || !finite(rc.After) {
			return fmt.Errorf("rating change for %q: %v -> %v", rc.Player, rc.Before, rc.After)
		}
	}
	return nil
}

// RecordGame writes g, its seats, moves and rating changes in one transaction and returns
// the new game's id. It fails, writing nothing, if the input is invalid (store.ErrInvalid),
// the tournament or a player is unknown (store.ErrNotFound) or the tournament already has
// a game at g.Index (store.ErrDuplicate). In a tournament with a schedule, g.Index must be
// scheduled and g.Players must be the scheduled players, seat by seat (store.ErrInvalid).
// g.ID is ignored.
func (db *DB) RecordGame(ctx context.Context, g store.Game) (int64, error) {
	ids, err := db.RecordGames(ctx, []store.Game{g})
	if err != nil {
		return 0, err
	}
	return ids[0], nil
}

// RecordGames writes games, as RecordGame writes one, in one transaction, and returns
// their ids in order: all are written or, if any of them fails RecordGame's checks (two of
// them at the same tournament and index included), none. The error names the first game
// that failed.
func (db *DB) RecordGames(ctx context.Context, games []store.Game) ([]int64, error) {
	games = slices.Clone(games) // checked and written as they are now
	for i := range games {
		if err := checkGame(&games[i]); err != nil {
			return nil, fmt.Errorf("record game %d of tournament %d: %w: %v", games[i].Index, games[i].TournamentID, store.ErrInvalid, err)
		}
	}
	if len(games) == 0 {
		return nil, nil
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("record games: %w", err)
	}
	defer tx.Rollback()
	ids := make([]int64, len(games))
	for i := range games {
		g := &games[i]
		if ids[i], err = insertGame(ctx, tx, g); err != nil {
			var se sqlite3.Error
			if errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique {
				err = fmt.Errorf("%w: %v", store.ErrDuplicate, err)
			}
			return nil, fmt.Errorf("record game %d of tournament %d: %w", g.Index, g.TournamentID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("record games: %w", err)
	}
	return ids, nil
}

// insertGame writes g, checked, in tx.
func insertGame(ctx context.Context, tx *sql.Tx, g *store.Game) (int64, error) {
	returns, err := json.Marshal(nonNil(g.Returns))
	if err != nil {
		return 0, err
	}
	opening, err := json.Marshal(nonNil(g.Opening))
	if err != nil {
		return 0, err
	}

	var existing int64
	err = tx.QueryRowContext(ctx, `SELECT coalesce((SELECT id FROM games WHERE tournament_id = ?1 AND idx = ?2), 0)
		FROM tournaments WHERE id = ?1`, g.TournamentID, g.Index).Scan(&existing)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, fmt.Errorf("tournament %d: %w", g.TournamentID, store.ErrNotFound)
	case err != nil:
		return 0, err
	case existing != 0:
		return 0, fmt.Errorf("%w: the tournament's game %d is game id %d", store.ErrDuplicate, g.Index, existing)
	}
	if err := checkScheduled(ctx, tx, g); err != nil {
		return 0, err
	}

	ids := make(map[string]int64, len(g.Players))
	for _, p := range g.Players {
		if _, ok := ids[p]; ok {
			continue
		}
		var id int64
		err := tx.QueryRowContext(ctx, "SELECT id FROM players WHERE name = ?", p).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("player %q: %w (EnsurePlayer it first)", p, store.ErrNotFound)
		} else if err != nil {
			return 0, err
		}
		ids[p] = id
	}

	res, err := tx.ExecContext(ctx, `INSERT INTO games (tournament_id, idx, round, game, result, reason,
		detail, returns, start_position, final_position, started, ended, opening, late_ms, plies)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.TournamentID, g.Index, g.Round, g.Game, g.Result, g.Reason, g.Detail, string(returns),
		g.StartPosition, g.FinalPosition, timeText(g.Started), timeText(g.Ended), string(opening), lateMS(g.Late),
		Plies(g.Moves))
	if err != nil {
		return 0, err
	}
	gameID, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	for seat, p := range g.Players {
		if _, err := tx.ExecContext(ctx, "INSERT INTO game_seats (game_id, seat, player_id, score) VALUES (?, ?, ?, ?)",
			gameID, seat, ids[p], g.Scores[seat]); err != nil {
			return 0, fmt.Errorf("seat %d: %w", seat, err)
		}
	}
	if err := insertMoves(ctx, tx, gameID, g.Moves); err != nil {
		return 0, err
	}
	if err := insertLadderTag(ctx, tx, gameID, g); err != nil {
		return 0, err
	}
	for _, rc := range g.Ratings {
		if _, err := tx.ExecContext(ctx, `INSERT INTO ratings (game_id, player_id, game_type, before, after)
			VALUES (?, ?, ?, ?, ?)`, gameID, ids[rc.Player], g.Game, rc.Before, rc.After); err != nil {
			return 0, fmt.Errorf("rating of %q: %w", rc.Player, err)
		}
	}
	return gameID, nil
}

func insertMoves(ctx context.Context, tx *sql.Tx, gameID int64, moves []store.Move) error {
	if len(moves) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO moves (game_id, ply, seat, move, elapsed_us, depth, nodes, score, pv, note)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, m := range moves {
		pv := ""
		if len(m.PV) > 0 {
			b, err := json.Marshal(m.PV)
			if err != nil {
				return err
			}
			pv = string(b)
		}
		if _, err := stmt.ExecContext(ctx, gameID, m.Ply, m.Seat, m.Move, m.Elapsed.Microseconds(),
			m.Depth, m.Nodes, m.Score, pv, m.Note); err != nil {
			return fmt.Errorf("move at ply %d: %w", m.Ply, err)
		}
	}
	return nil
}

// Games returns the games of tournament tournamentID by Index, each with its moves by ply
// and its rating changes, read in one transaction so they are consistent with each other.
func (db *DB) Games(ctx context.Context, tournamentID int64) ([]store.Game, error) {
	games, err := db.games(ctx, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("games of tournament %d: %w", tournamentID, err)
	}
	return games, nil
}

func (db *DB) games(ctx context.Context, tid int64) ([]store.Game, error) {
	tx, err := db.beginTournamentRead(ctx, tid)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return readGames(ctx, tx, "g.tournament_id = ?", []any{tid}, "g.idx")
}

// readGames reads the games g for which where holds, ordered by order, each with its
// seats, moves and rating changes.
func readGames(ctx context.Context, tx *sql.Tx, where string, args []any, order string) ([]store.Game, error) {
	var games []store.Game
	at := make(map[int64]int)
	err := each(ctx, tx, `SELECT g.id, g.tournament_id, g.idx, g.round, g.game, g.result, g.reason, g.detail,
		g.returns, g.start_position, g.final_position, g.started, g.ended, g.opening, g.late_ms
		FROM games g WHERE `+where+` ORDER BY `+order, args,
		func(rows *sql.Rows) error {
			var g store.Game
			var returns, opening string
			var started, ended sql.NullString
			var late sql.NullFloat64
			if err := rows.Scan(&g.ID, &g.TournamentID, &g.Index, &g.Round, &g.Game, &g.Result, &g.Reason, &g.Detail, &returns,
				&g.StartPosition, &g.FinalPosition, &started, &ended, &opening, &late); err != nil {
				return err
			}
			if late.Valid {
				g.Late = time.Duration(math.Round(late.Float64 * float64(time.Millisecond)))
			}
			if err := json.Unmarshal([]byte(returns), &g.Returns); err != nil {
				return fmt.Errorf("game %d: returns: %w", g.ID, err)
			}
			if len(g.Returns) == 0 {
				g.Returns = nil
			}
			if err := json.Unmarshal([]byte(opening), &g.Opening); err != nil {
				return fmt.Errorf("game %d: opening: %w", g.ID, err)
			}
			if len(g.Opening) == 0 {
				g.Opening = nil
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
	if err != nil {
		return nil, err
	}

	err = each(ctx, tx, `SELECT m.game_id, m.ply, m.seat, m.move, m.elapsed_us, m.depth, m.nodes, m.score, m.pv, m.note
		FROM moves m JOIN games g ON g.id = m.game_id
		WHERE `+where+` ORDER BY m.game_id, m.ply, m.seat`, args,
		func(rows *sql.Rows) error {
			var id, us int64
			var m store.Move
			var pv string
			if err := rows.Scan(&id, &m.Ply, &m.Seat, &m.Move, &us, &m.Depth, &m.Nodes, &m.Score, &pv, &m.Note); err != nil {
				return err
			}
			m.Elapsed = time.Duration(us) * time.Microsecond
			if pv != "" {
				if err := json.Unmarshal([]byte(pv), &m.PV); err != nil {
					return fmt.Errorf("game %d ply %d: pv: %w", id, m.Ply, err)
				}
			}
			g := &games[at[id]]
			g.Moves = append(g.Moves, m)
			return nil
		})
	if err != nil {
		return nil, err
	}

	err = eachRating(ctx, tx, where, args, func(id int64, rc store.RatingChange) {
		g := &games[at[id]]
		g.Ratings = append(g.Ratings, rc)
	})
	if err != nil {
		return nil, err
	}
	return games, nil
}

// CurrentRatings returns the latest rating of every player with a rated game of type game.
func (db *DB) CurrentRatings(ctx context.Context, game string) (map[string]float64, error) {
	out := make(map[string]float64)
	// SQLite takes the bare columns of an aggregate query with max() from the row that
	// holds the maximum, so this is each player's latest row.
	err := each(ctx, db.r, `SELECT p.name, r.after, max(r.id) FROM ratings r
		JOIN players p ON p.id = r.player_id
		WHERE r.game_type = ? GROUP BY r.player_id`, []any{game},
		func(rows *sql.Rows) error {
			var name string
			var after float64
			var id int64
			if err := rows.Scan(&name, &after, &id); err != nil {
				return err
			}
			out[name] = after
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("current ratings for %q: %w", game, err)
	}
	return out, nil
}

// RatingHistory returns the rating changes of tournament tournamentID in the order they
// were recorded, which is the order they were applied: each player's Before is its
// previous After. When games are played one at a time this is also the order of Index.
func (db *DB) RatingHistory(ctx context.Context, tournamentID int64) ([]store.RatingChange, error) {
	hist, err := db.ratingHistory(ctx, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("rating history of tournament %d: %w", tournamentID, err)
	}
	return hist, nil
}

func (db *DB) ratingHistory(ctx context.Context, tid int64) ([]store.RatingChange, error) {
	tx, err := db.beginTournamentRead(ctx, tid)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var hist []store.RatingChange
	err = each(ctx, tx, `SELECT p.name, r.before, r.after FROM ratings r
		JOIN games g ON g.id = r.game_id JOIN players p ON p.id = r.player_id
		WHERE g.tournament_id = ? ORDER BY r.id`, []any{tid},
		func(rows *sql.Rows) error {
			var rc store.RatingChange
			if err := rows.Scan(&rc.Player, &rc.Before, &rc.After); err != nil {
				return err
			}
			hist = append(hist, rc)
			return nil
		})
	return hist, err
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// beginTournamentRead starts a read-only transaction and checks in it that tournament tid
// exists (store.ErrNotFound otherwise), so that what the caller reads next is consistent
// with that answer.
func (db *DB) beginTournamentRead(ctx context.Context, tid int64) (*sql.Tx, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	if err := tournamentExists(ctx, tx, tid); err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	return tx, nil
}

func tournamentExists(ctx context.Context, q querier, id int64) error {
	var n int
	if err := q.QueryRowContext(ctx, "SELECT count(*) FROM tournaments WHERE id = ?", id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// each runs query and calls fn for every row, closing the rows before it returns.
func each(ctx context.Context, q querier, query string, args []any, fn func(*sql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// nonNil keeps a nil slice from being stored as JSON null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// lateMS is a forfeit's lateness as the late_ms column holds it: NULL when there is none.
func lateMS(d time.Duration) any {
	if d <= 0 {
		return nil
	}
	return float64(d) / float64(time.Millisecond)
}

// eachSeat calls add with the seats of the games g that where selects (args fill its
// placeholders), in game and seat order: a game's players and scores, read for several
// games in one query.
func eachSeat(ctx context.Context, tx *sql.Tx, where string, args []any, add func(gameID int64, player string, score float64)) error {
	return each(ctx, tx, `SELECT s.game_id, p.name, s.score FROM game_seats s
		JOIN games g ON g.id = s.game_id JOIN players p ON p.id = s.player_id
		WHERE `+where+` ORDER BY s.game_id, s.seat`, args,
		func(rows *sql.Rows) error {
			var id int64
			var name string
			var score float64
			if err := rows.Scan(&id, &name, &score); err != nil {
				return err
			}
			add(id, name, score)
			return nil
		})
}

// eachRating calls add with the rating changes of the games g that where selects, in the
// order they were recorded.
func eachRating(ctx context.Context, tx *sql.Tx, where string, args []any, add func(gameID int64, rc store.RatingChange)) error {
	return each(ctx, tx, `SELECT r.game_id, p.name, r.before, r.after FROM ratings r
		JOIN games g ON g.id = r.game_id JOIN players p ON p.id = r.player_id
		WHERE `+where+` ORDER BY r.id`, args,
		func(rows *sql.Rows) error {
			var id int64
			var rc store.RatingChange
			if err := rows.Scan(&id, &rc.Player, &rc.Before, &rc.After); err != nil {
				return err
			}
			add(id, rc)
			return nil
		})
}
