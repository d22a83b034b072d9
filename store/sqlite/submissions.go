package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/arenaref/arena/internal/names"
	"github.com/arenaref/arena/store"
)

// submissionColumns are the columns of a submission without its archive, as
// scanSubmission reads them.
const submissionColumns = "name, version, created, updated, archive_name, size, sha256, manifest, state, log"

func scanSubmission(sc interface{ Scan(...any) error }, extra ...any) (store.Submission, error) {
	var s store.Submission
	var created, updated sql.NullString
	if err := sc.Scan(append([]any{&s.Name, &s.Version, &created, &updated, &s.ArchiveName, &s.Size, &s.SHA256, &s.Manifest, &s.State, &s.Log}, extra...)...); err != nil {
		return s, err
	}
	var err error
	if s.Created, err = parseTime(created); err == nil {
		s.Updated, err = parseTime(updated)
	}
	return s, err
}

func validSubmissionState(state string) bool {
	switch state {
	case store.SubmissionSubmitted, store.SubmissionBuilding, store.SubmissionBuildFailed, store.SubmissionBuilt,
		store.SubmissionRunning, store.SubmissionRunFailed, store.SubmissionStopped:
		return true
	}
	return false
}

// AddSubmission stores s as the next version of s.Name, in state submitted. It fails with
// store.ErrInvalid for an invalid name, an empty archive or an archive name over 255 bytes.
func (db *DB) AddSubmission(ctx context.Context, s store.Submission) (store.Submission, error) {
	switch {
	case !names.Valid(s.Name):
		return store.Submission{}, fmt.Errorf("add submission: %w: name %q", store.ErrInvalid, s.Name)
	case len(s.Archive) == 0:
		return store.Submission{}, fmt.Errorf("add submission of %s: %w: no archive", s.Name, store.ErrInvalid)
	case len(s.ArchiveName) > 255:
		return store.Submission{}, fmt.Errorf("add submission of %s: %w: archive name over 255 bytes", s.Name, store.ErrInvalid)
	}
	sum := sha256.Sum256(s.Archive)
	s.SHA256, s.Size, s.State, s.Log = hex.EncodeToString(sum[:]), int64(len(s.Archive)), store.SubmissionSubmitted, ""
	if s.Created.IsZero() {
		s.Created = db.now()
	}
	s.Updated = s.Created
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return store.Submission{}, fmt.Errorf("add submission of %s: %w", s.Name, err)
	}
	defer tx.Rollback()
	// The write transaction is immediate: no other version can be given out meanwhile.
	if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(version), 0) + 1 FROM engine_submissions WHERE name = ?", s.Name).Scan(&s.Version); err != nil {
		return store.Submission{}, fmt.Errorf("add submission of %s: %w", s.Name, err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO engine_submissions
		(name, version, created, updated, archive_name, size, sha256, manifest, state, log, archive)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.Name, s.Version, timeText(s.Created), timeText(s.Updated), s.ArchiveName, s.Size, s.SHA256, s.Manifest, s.State, s.Log, s.Archive)
	if err != nil {
		return store.Submission{}, fmt.Errorf("add submission of %s: %w", s.Name, err)
	}
	if err := tx.Commit(); err != nil {
		return store.Submission{}, fmt.Errorf("add submission of %s: %w", s.Name, err)
	}
	return s, nil
}

// Submission returns version of name's submissions with its archive, or an error wrapping
// store.ErrNotFound.
func (db *DB) Submission(ctx context.Context, name string, version int) (store.Submission, error) {
	var archive []byte
	row := db.r.QueryRowContext(ctx, "SELECT "+submissionColumns+", archive FROM engine_submissions WHERE name = ? AND version = ?", name, version)
	s, err := scanSubmission(row, &archive)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return store.Submission{}, fmt.Errorf("submission %s s%d: %w", name, version, store.ErrNotFound)
	case err != nil:
		return store.Submission{}, fmt.Errorf("submission %s s%d: %w", name, version, err)
	}
	s.Archive = archive
	return s, nil
}

// Submissions returns name's submissions (every player's when name is ""), newest first
// (in the order they were stored), without archives, at most limit of them when limit > 0.
func (db *DB) Submissions(ctx context.Context, name string, limit int) ([]store.Submission, error) {
	q, args := "SELECT "+submissionColumns+" FROM engine_submissions ORDER BY id DESC", []any{}
	if name != "" {
		q, args = "SELECT "+submissionColumns+" FROM engine_submissions WHERE name = ? ORDER BY version DESC", []any{name}
	}
	if limit > 0 {
		q, args = q+" LIMIT ?", append(args, limit)
	}
	return db.submissions(ctx, q, args)
}

func (db *DB) submissions(ctx context.Context, q string, args []any) ([]store.Submission, error) {
	var out []store.Submission
	err := each(ctx, db.r, q, args, func(rows *sql.Rows) error {
		s, err := scanSubmission(rows)
		if err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("submissions: %w", err)
	}
	return out, nil
}

// SetSubmissionState records a submission's state and log and stamps its update time.
func (db *DB) SetSubmissionState(ctx context.Context, name string, version int, state, log string) (store.Submission, error) {
	if !validSubmissionState(state) || len(log) > store.MaxSubmissionLog {
		return store.Submission{}, fmt.Errorf("submission %s s%d: %w: state %q, log of %d bytes", name, version, store.ErrInvalid, state, len(log))
	}
	row := db.w.QueryRowContext(ctx, "UPDATE engine_submissions SET state = ?, log = ?, updated = ? WHERE name = ? AND version = ? RETURNING "+submissionColumns,
		state, log, timeText(db.now()), name, version)
	s, err := scanSubmission(row)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return store.Submission{}, fmt.Errorf("submission %s s%d: %w", name, version, store.ErrNotFound)
	case err != nil:
		return store.Submission{}, fmt.Errorf("submission %s s%d: %w", name, version, err)
	}
	return s, nil
}

// PruneSubmissions deletes name's submissions but the newest keep (at least one) and the
// newest that has not failed, in one transaction, and returns the deleted versions,
// oldest first. SQLite reuses the pages they free.
func (db *DB) PruneSubmissions(ctx context.Context, name string, keep int) ([]int, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("prune submissions of %s: %w", name, err)
	}
	defer tx.Rollback()
	var versions []int
	err = each(ctx, tx, `SELECT version FROM engine_submissions WHERE name = ? AND version NOT IN (
			SELECT version FROM engine_submissions WHERE name = ? ORDER BY version DESC LIMIT ?)
		AND version IS NOT (
			SELECT max(version) FROM engine_submissions WHERE name = ? AND state NOT IN (?, ?))
		ORDER BY version`, []any{name, name, max(keep, 1), name, store.SubmissionBuildFailed, store.SubmissionRunFailed},
		func(rows *sql.Rows) error {
			var v int
			if err := rows.Scan(&v); err != nil {
				return err
			}
			versions = append(versions, v)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("prune submissions of %s: %w", name, err)
	}
	for _, v := range versions {
		if _, err := tx.ExecContext(ctx, "DELETE FROM engine_submissions WHERE name = ? AND version = ?", name, v); err != nil {
			return nil, fmt.Errorf("prune submissions of %s: %w", name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("prune submissions of %s: %w", name, err)
	}
	return versions, nil
}
