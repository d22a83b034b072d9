package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/arenaref/arena/internal/names"
	"github.com/arenaref/arena/store"
)

var _ store.Ladders = (*DB)(nil)

func validEntryStatus(s string) bool {
	switch s {
	case store.EntryValidating, store.EntryActive, store.EntryFailed, store.EntryRetired, store.EntryDisabled, store.EntryRemoved:
		return true
	}
	return false
}

// AddLadderEntry adds an entry to a ladder and returns its id.
func (db *DB) AddLadderEntry(ctx context.Context, e store.LadderEntry) (int64, error) {
	switch {
	case !names.Valid(e.Player):
		return 0, fmt.Errorf("add ladder entry: %w: player %q", store.ErrInvalid, e.Player)
	case len(e.Version) > 64:
		return 0, fmt.Errorf("add ladder entry: %w: version of %d bytes", store.ErrInvalid, len(e.Version))
	case e.Status == "":
		e.Status = store.EntryValidating
	}
	if !validEntryStatus(e.Status) {
		return 0, fmt.Errorf("add ladder entry: %w: status %q", store.ErrInvalid, e.Status)
	}
	now := time.Now()
	if e.Joined.IsZero() {
		e.Joined = now
	}
	if e.Updated.IsZero() {
		e.Updated = e.Joined
	}
	if err := tournamentExists(ctx, db.w, e.Tournament); err != nil {
		return 0, fmt.Errorf("add ladder entry: %w", err)
	}
	res, err := db.w.ExecContext(ctx, `INSERT INTO ladder_entries (tournament_id, player, version, status, reason, joined, updated)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, e.Tournament, e.Player, e.Version, e.Status, e.Reason, timeText(e.Joined), timeText(e.Updated))
	if err != nil {
		var se sqlite3.Error
		if errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique {
			return 0, fmt.Errorf("add ladder entry %s %s: %w", e.Player, e.Version, store.ErrDuplicate)
		}
		return 0, fmt.Errorf("add ladder entry: %w", err)
	}
	return res.LastInsertId()
}

// SetLadderEntry sets an entry's status and reason.
func (db *DB) SetLadderEntry(ctx context.Context, id int64, status, reason string) error {
	if !validEntryStatus(status) {
		return fmt.Errorf("set ladder entry %d: %w: status %q", id, store.ErrInvalid, status)
	}
	res, err := db.w.ExecContext(ctx, `UPDATE ladder_entries SET status = ?, reason = ?, updated = ? WHERE id = ?`,
		status, reason, timeText(time.Now()), id)
	if err != nil {
		return fmt.Errorf("set ladder entry %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return fmt.Errorf("ladder entry %d: %w", id, store.ErrNotFound)
	}
	return nil
}

// LadderEntries returns a ladder's entries by id.
func (db *DB) LadderEntries(ctx context.Context, tournamentID int64) ([]store.LadderEntry, error) {
	var out []store.LadderEntry
	err := each(ctx, db.r, `SELECT id, tournament_id, player, version, status, reason, joined, updated
		FROM ladder_entries WHERE tournament_id = ? ORDER BY id`, []any{tournamentID},
		func(rows *sql.Rows) error {
			var e store.LadderEntry
			var joined, updated sql.NullString
			if err := rows.Scan(&e.ID, &e.Tournament, &e.Player, &e.Version, &e.Status, &e.Reason, &joined, &updated); err != nil {
				return err
			}
			var err error
			if e.Joined, err = parseTime(joined); err != nil {
				return err
			}
			if e.Updated, err = parseTime(updated); err != nil {
				return err
			}
			out = append(out, e)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("entries of ladder %d: %w", tournamentID, err)
	}
	return out, nil
}

// LadderGames returns a ladder's tagged games without moves, by game id, with the
// players and scores by seat.
func (db *DB) LadderGames(ctx context.Context, tournamentID int64) ([]store.LadderGame, error) {
	tx, err := db.beginTournamentRead(ctx, tournamentID)
	if err != nil {
		return nil, fmt.Errorf("games of ladder %d: %w", tournamentID, err)
	}
	defer tx.Rollback()
	sums, err := readSummaries(ctx, tx, `g.id IN (SELECT game_id FROM ladder_games WHERE tournament_id = ?)`,
		[]any{tournamentID}, "g.id", false)
	if err != nil {
		return nil, fmt.Errorf("games of ladder %d: %w", tournamentID, err)
	}
	tags := make(map[int64]store.LadderTag, len(sums))
	err = each(ctx, tx, `SELECT game_id, phase, entries FROM ladder_games WHERE tournament_id = ?`, []any{tournamentID},
		func(rows *sql.Rows) error {
			var id int64
			var tag store.LadderTag
			var entries string
			if err := rows.Scan(&id, &tag.Phase, &entries); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(entries), &tag.Entries); err != nil {
				return fmt.Errorf("game %d: entries: %w", id, err)
			}
			tags[id] = tag
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("games of ladder %d: %w", tournamentID, err)
	}
	out := make([]store.LadderGame, len(sums))
	for i, g := range sums {
		out[i] = store.LadderGame{GameSummary: g, LadderTag: tags[g.ID]}
	}
	return out, nil
}

// SetLadderState stores a ladder's phase and data.
func (db *DB) SetLadderState(ctx context.Context, st store.LadderState) error {
	switch st.Phase {
	case store.LadderOpen, store.LadderFinal, store.LadderFinished:
	default:
		return fmt.Errorf("set ladder state: %w: phase %q", store.ErrInvalid, st.Phase)
	}
	data := string(st.Data)
	if data == "" {
		data = "{}"
	}
	if !json.Valid([]byte(data)) {
		return fmt.Errorf("set ladder state: %w: data is not JSON", store.ErrInvalid)
	}
	if err := tournamentExists(ctx, db.w, st.Tournament); err != nil {
		return fmt.Errorf("set ladder state: %w", err)
	}
	_, err := db.w.ExecContext(ctx, `INSERT INTO ladder_state (tournament_id, phase, data, updated) VALUES (?, ?, ?, ?)
		ON CONFLICT (tournament_id) DO UPDATE SET phase = excluded.phase, data = excluded.data, updated = excluded.updated`,
		st.Tournament, st.Phase, data, timeText(time.Now()))
	if err != nil {
		return fmt.Errorf("set ladder state of %d: %w", st.Tournament, err)
	}
	return nil
}

// LadderState returns a ladder's state.
func (db *DB) LadderState(ctx context.Context, tournamentID int64) (store.LadderState, error) {
	st := store.LadderState{Tournament: tournamentID, Phase: store.LadderOpen, Data: []byte("{}")}
	if err := tournamentExists(ctx, db.r, tournamentID); err != nil {
		return st, fmt.Errorf("ladder state: %w", err)
	}
	var data string
	var updated sql.NullString
	err := db.r.QueryRowContext(ctx, `SELECT phase, data, updated FROM ladder_state WHERE tournament_id = ?`, tournamentID).
		Scan(&st.Phase, &data, &updated)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return st, nil
	case err != nil:
		return st, fmt.Errorf("ladder state of %d: %w", tournamentID, err)
	}
	st.Data = []byte(data)
	st.Updated, err = parseTime(updated)
	return st, err
}

// checkLadderTag checks a game's ladder tag against its seats.
func checkLadderTag(g *store.Game) error {
	if g.Ladder == nil {
		return nil
	}
	switch g.Ladder.Phase {
	case store.PhaseValidation, store.PhaseLadder, store.PhaseFinal:
	default:
		return fmt.Errorf("ladder phase %q", g.Ladder.Phase)
	}
	if len(g.Ladder.Entries) != len(g.Players) {
		return fmt.Errorf("%d players but %d ladder entries", len(g.Players), len(g.Ladder.Entries))
	}
	return nil
}

// insertLadderTag writes a game's ladder tag in the game's transaction; every entry must
// be one of the game's tournament and play under the player of its seat, except 0, a seat
// that is no entry (the ladder's validation opponent).
func insertLadderTag(ctx context.Context, tx *sql.Tx, gameID int64, g *store.Game) error {
	if g.Ladder == nil {
		return nil
	}
	for seat, id := range g.Ladder.Entries {
		if id == 0 {
			continue
		}
		var player string
		err := tx.QueryRowContext(ctx, `SELECT player FROM ladder_entries WHERE id = ? AND tournament_id = ?`, id, g.TournamentID).Scan(&player)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("seat %d: ladder entry %d of tournament %d: %w", seat, id, g.TournamentID, store.ErrNotFound)
		case err != nil:
			return err
		case player != g.Players[seat]:
			return fmt.Errorf("seat %d: ladder entry %d is %s's, not %s's: %w", seat, id, player, g.Players[seat], store.ErrInvalid)
		}
	}
	entries, err := json.Marshal(g.Ladder.Entries)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO ladder_games (game_id, tournament_id, phase, entries) VALUES (?, ?, ?, ?)`,
		gameID, g.TournamentID, g.Ladder.Phase, string(entries))
	return err
}
