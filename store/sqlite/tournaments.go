package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/arenaref/arena/store"
)

func validStatus(s string) bool {
	switch s {
	case store.StatusRunning, store.StatusFinished, store.StatusFailed, store.StatusCancelled:
		return true
	}
	return false
}

// configText is how a tournament's config is stored: {} for none, else the caller's JSON
// verbatim.
func configText(c []byte) (string, error) {
	if len(c) == 0 {
		return "{}", nil
	}
	if !json.Valid(c) {
		return "", errors.New("config is not valid JSON")
	}
	return string(c), nil
}

// checkOpening rejects an opening with an empty move, which could never be replayed.
func checkOpening(moves []string) error {
	for i, m := range moves {
		if m == "" {
			return fmt.Errorf("opening move %d is empty", i+1)
		}
	}
	return nil
}

func checkSchedule(schedule []store.ScheduledGame) error {
	seen := make(map[int]bool, len(schedule))
	for i, sg := range schedule {
		switch {
		case sg.Index < 1:
			return fmt.Errorf("scheduled game %d: index %d, want 1 or more", i+1, sg.Index)
		case seen[sg.Index]:
			return fmt.Errorf("scheduled game %d: index %d is scheduled twice", i+1, sg.Index)
		case sg.Round < 0:
			return fmt.Errorf("scheduled game %d: negative round %d", sg.Index, sg.Round)
		case len(sg.Players) == 0:
			return fmt.Errorf("scheduled game %d: no players", sg.Index)
		case sg.OpeningIndex < 0:
			return fmt.Errorf("scheduled game %d: negative opening index %d", sg.Index, sg.OpeningIndex)
		}
		seen[sg.Index] = true
		for seat, p := range sg.Players {
			if p == "" {
				return fmt.Errorf("scheduled game %d: seat %d has no player", sg.Index, seat)
			}
		}
		if err := checkOpening(sg.Opening); err != nil {
			return fmt.Errorf("scheduled game %d: %v", sg.Index, err)
		}
	}
	return nil
}

// CreateTournament records t with its config and schedule in one transaction and returns
// its id. An empty Status means running and a zero Created means now; t.ID, t.Played and
// t.Total are ignored. It fails with store.ErrInvalid, writing nothing, for a config that is
// not JSON or a schedule with an index below 1 or repeated, or a game without players.
func (db *DB) CreateTournament(ctx context.Context, t store.Tournament) (int64, error) {
	if t.Status == "" {
		t.Status = store.StatusRunning
	}
	if t.Created.IsZero() {
		t.Created = db.now()
	}
	invalid := func(format string, args ...any) (int64, error) {
		return 0, fmt.Errorf("create tournament: %w: %s", store.ErrInvalid, fmt.Sprintf(format, args...))
	}
	switch {
	case t.Game == "":
		return invalid("no game")
	case t.Rounds < 0:
		return invalid("%d rounds", t.Rounds)
	case !validStatus(t.Status):
		return invalid("unknown status %q", t.Status)
	}
	for i, p := range t.Players {
		if p == "" {
			return invalid("player %d has no name", i)
		}
	}
	config, err := configText(t.Config)
	if err != nil {
		return invalid("%v", err)
	}
	if err := checkSchedule(t.Schedule); err != nil {
		return invalid("%v", err)
	}
	id, err := db.createTournament(ctx, &t, config)
	if err != nil {
		return 0, fmt.Errorf("create tournament: %w", err)
	}
	return id, nil
}

func (db *DB) createTournament(ctx context.Context, t *store.Tournament, config string) (int64, error) {
	roster, err := json.Marshal(nonNil(t.Players))
	if err != nil {
		return 0, err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO tournaments
		(game, format, time_control, rounds, seed, players, status, created, finished, config)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		t.Game, t.Format, t.TimeControl, t.Rounds, t.Seed, string(roster), t.Status,
		timeText(t.Created), timeText(t.Finished), config)
	if err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	if len(t.Schedule) > 0 {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO schedule
			(tournament_id, idx, round, players, opening, opening_index) VALUES (?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return 0, err
		}
		defer stmt.Close()
		for _, sg := range t.Schedule {
			players, err := json.Marshal(sg.Players)
			if err != nil {
				return 0, err
			}
			opening, err := json.Marshal(nonNil(sg.Opening))
			if err != nil {
				return 0, err
			}
			if _, err := stmt.ExecContext(ctx, id, sg.Index, sg.Round, string(players), string(opening),
				sg.OpeningIndex); err != nil {
				return 0, fmt.Errorf("scheduled game %d: %w", sg.Index, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return id, nil
}

// FinishTournament sets the final status of tournament id (finished, failed or cancelled)
// and stamps it with the current time. Finishing it again overwrites both.
func (db *DB) FinishTournament(ctx context.Context, id int64, status string) error {
	if !validStatus(status) || status == store.StatusRunning {
		return fmt.Errorf("finish tournament %d: %w: status %q is not finished, failed or cancelled",
			id, store.ErrInvalid, status)
	}
	return db.setStatus(ctx, "finish tournament", id, status)
}

// SetTournamentStatus sets the status of tournament id. Finished, failed and cancelled stamp
// it with the current time, as FinishTournament does; running clears the finishing time, so
// a stopped tournament that is resumed reads as running again.
func (db *DB) SetTournamentStatus(ctx context.Context, id int64, status string) error {
	if !validStatus(status) {
		return fmt.Errorf("set status of tournament %d: %w: unknown status %q", id, store.ErrInvalid, status)
	}
	return db.setStatus(ctx, "set status of tournament", id, status)
}

func (db *DB) setStatus(ctx context.Context, op string, id int64, status string) error {
	var finished any // NULL for running
	if status != store.StatusRunning {
		finished = timeText(db.now())
	}
	res, err := db.w.ExecContext(ctx, "UPDATE tournaments SET status = ?, finished = ? WHERE id = ?",
		status, finished, id)
	if err != nil {
		return fmt.Errorf("%s %d: %w", op, id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("%s %d: %w", op, id, err)
	} else if n == 0 {
		return fmt.Errorf("%s %d: %w", op, id, store.ErrNotFound)
	}
	return nil
}

// tournamentColumns are the columns scanTournament reads, from tournaments aliased t.
const tournamentColumns = `t.id, t.game, t.format, t.time_control, t.rounds, t.seed, t.players,
	t.status, t.created, t.finished, t.config,
	(SELECT count(*) FROM games g WHERE g.tournament_id = t.id),
	(SELECT count(*) FROM schedule s WHERE s.tournament_id = t.id)`

type scanner interface{ Scan(dest ...any) error }

func scanTournament(row scanner) (store.Tournament, error) {
	var t store.Tournament
	var roster, config string
	var created, finished sql.NullString
	err := row.Scan(&t.ID, &t.Game, &t.Format, &t.TimeControl, &t.Rounds, &t.Seed, &roster,
		&t.Status, &created, &finished, &config, &t.Played, &t.Total)
	if err != nil {
		return t, err
	}
	if err := json.Unmarshal([]byte(roster), &t.Players); err != nil {
		return t, fmt.Errorf("tournament %d: roster: %w", t.ID, err)
	}
	if len(t.Players) == 0 {
		t.Players = nil
	}
	if t.Created, err = parseTime(created); err != nil {
		return t, err
	}
	if t.Finished, err = parseTime(finished); err != nil {
		return t, err
	}
	t.Config = []byte(config)
	return t, nil
}

// Tournament returns tournament id with its config, schedule (by Index) and counts, read
// in one transaction, or an error wrapping store.ErrNotFound.
func (db *DB) Tournament(ctx context.Context, id int64) (store.Tournament, error) {
	t, err := db.tournament(ctx, id)
	if err != nil {
		return store.Tournament{}, fmt.Errorf("tournament %d: %w", id, err)
	}
	return t, nil
}

func (db *DB) tournament(ctx context.Context, id int64) (store.Tournament, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return store.Tournament{}, err
	}
	defer tx.Rollback()
	t, err := scanTournament(tx.QueryRowContext(ctx,
		"SELECT "+tournamentColumns+" FROM tournaments t WHERE t.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Tournament{}, store.ErrNotFound
	}
	if err != nil {
		return store.Tournament{}, err
	}
	t.Schedule, err = scheduled(ctx, tx, `SELECT idx, round, players, opening, opening_index
		FROM schedule WHERE tournament_id = ? ORDER BY idx`, id)
	if err != nil {
		return store.Tournament{}, err
	}
	return t, nil
}

// Tournaments returns every tournament (status "") or those with the given status, newest
// first (by Created, then by id). Each has its Config, Played and Total; Schedule is left
// nil to keep a listing cheap, and Tournament reads it.
func (db *DB) Tournaments(ctx context.Context, status string) ([]store.Tournament, error) {
	if status != "" && !validStatus(status) {
		return nil, fmt.Errorf("tournaments: %w: unknown status %q", store.ErrInvalid, status)
	}
	var out []store.Tournament
	err := each(ctx, db.r, "SELECT "+tournamentColumns+` FROM tournaments t
		WHERE ?1 = '' OR t.status = ?1 ORDER BY t.created DESC, t.id DESC`, []any{status},
		func(rows *sql.Rows) error {
			t, err := scanTournament(rows)
			if err != nil {
				return err
			}
			out = append(out, t)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("tournaments: %w", err)
	}
	return out, nil
}

// Pending returns the games of tournament tournamentID's schedule that have no recorded
// game at their Index, by Index: after a crash or a stop, exactly the games still to play.
// A tournament without a schedule has none.
func (db *DB) Pending(ctx context.Context, tournamentID int64) ([]store.ScheduledGame, error) {
	pending, err := db.pending(ctx, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("pending games of tournament %d: %w", tournamentID, err)
	}
	return pending, nil
}

func (db *DB) pending(ctx context.Context, tid int64) ([]store.ScheduledGame, error) {
	tx, err := db.beginTournamentRead(ctx, tid)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return scheduled(ctx, tx, `SELECT s.idx, s.round, s.players, s.opening, s.opening_index
		FROM schedule s WHERE s.tournament_id = ?1 AND NOT EXISTS
			(SELECT 1 FROM games g WHERE g.tournament_id = ?1 AND g.idx = s.idx)
		ORDER BY s.idx`, tid)
}

// scheduled runs a query for schedule rows (idx, round, players, opening, opening_index).
func scheduled(ctx context.Context, q querier, query string, args ...any) ([]store.ScheduledGame, error) {
	var out []store.ScheduledGame
	err := each(ctx, q, query, args, func(rows *sql.Rows) error {
		var sg store.ScheduledGame
		var players, opening string
		if err := rows.Scan(&sg.Index, &sg.Round, &players, &opening, &sg.OpeningIndex); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(players), &sg.Players); err != nil {
			return fmt.Errorf("scheduled game %d: players: %w", sg.Index, err)
		}
		if err := json.Unmarshal([]byte(opening), &sg.Opening); err != nil {
			return fmt.Errorf("scheduled game %d: opening: %w", sg.Index, err)
		}
		if len(sg.Opening) == 0 {
			sg.Opening = nil
		}
		out = append(out, sg)
		return nil
	})
	return out, err
}

// checkScheduled makes sure a game recorded under a scheduled index has the scheduled
// players, seat by seat, and that a tournament with a schedule records no game outside
// it, so a resumed tournament cannot file a game under the wrong pairing. A tournament
// without a schedule (made before schedules were kept) accepts any index.
func checkScheduled(ctx context.Context, tx *sql.Tx, g *store.Game) error {
	var players sql.NullString
	var hasSchedule bool
	err := tx.QueryRowContext(ctx, `SELECT
		(SELECT players FROM schedule WHERE tournament_id = ?1 AND idx = ?2),
		EXISTS (SELECT 1 FROM schedule WHERE tournament_id = ?1)`, g.TournamentID, g.Index).
		Scan(&players, &hasSchedule)
	if err != nil {
		return err
	}
	if !players.Valid {
		if hasSchedule {
			return fmt.Errorf("%w: game %d is not in the tournament's schedule", store.ErrInvalid, g.Index)
		}
		return nil
	}
	var want []string
	if err := json.Unmarshal([]byte(players.String), &want); err != nil {
		return fmt.Errorf("scheduled game %d: players: %w", g.Index, err)
	}
	if !slices.Equal(want, g.Players) {
		return fmt.Errorf("%w: game %d is scheduled for %q, not %q", store.ErrInvalid, g.Index, want, g.Players)
	}
	return nil
}
