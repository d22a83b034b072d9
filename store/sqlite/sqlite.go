package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/arenaref/arena/internal/sqlitefile"
	"github.com/arenaref/arena/store"
)

// ErrSchemaTooNew is wrapped by the error Open returns for a database written by a newer
// version of Arena than this one.
var ErrSchemaTooNew = errors.New("sqlite: database schema is newer than this program")

// ErrNotArena is wrapped by the error Open returns for a SQLite database that another
// program made.
var ErrNotArena = errors.New("sqlite: not an Arena database")

var _ store.Store = (*DB)(nil)

// DB is a store.Store kept in one SQLite file. It is safe for concurrent use.
type DB struct {
	path string
	w    *sql.DB // one connection, BEGIN IMMEDIATE: all writes
	r    *sql.DB // query_only connections: all reads
	now  func() time.Time
}

const (
	readers       = 4
	busyTimeoutMS = 5000
	// stmtCache is how many prepared statements each connection keeps for reuse (the
	// driver's cache): recording a game runs the same few statements every time, and
	// preparing them afresh was a sixth of the owner's CPU on a work queue.
	stmtCache = 64
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations returns the embedded migrations in order, checking that they are numbered
// 1, 2, 3... with no gap or repeat.
func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		name := e.Name()
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must be NNNN_description.sql", name)
		}
		b, err := fs.ReadFile(migrationFiles, path.Join("migrations", name))
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d", m.name, i+1)
		}
	}
	return ms, nil
}

// Open opens the Arena database at path, creating it if it does not exist, and brings its
// schema up to date.
func Open(ctx context.Context, path string) (*DB, error) {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, fmt.Errorf("sqlite: open %q: %w: want a file path", path, store.ErrInvalid)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	created, err := sqlitefile.Prepare(abs)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db, err := open(ctx, abs)
	if err != nil {
		if created {
			sqlitefile.Remove(abs)
		}
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	return db, nil
}

func open(ctx context.Context, path string) (_ *DB, err error) {
	// mode=rw: the file exists by now, and SQLite must never create one behind our back.
	base := fmt.Sprintf("file:%s?mode=rw&_busy_timeout=%d&_foreign_keys=on&_synchronous=NORMAL&_stmt_cache_size=%d",
		sqlitefile.URIPath(path), busyTimeoutMS, stmtCache)
	db := &DB{path: path, now: time.Now}
	db.w, err = sql.Open("sqlite3", base+"&_journal_mode=WAL&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	db.w.SetMaxOpenConns(1)
	db.w.SetMaxIdleConns(1)
	db.w.SetConnMaxLifetime(0)
	db.w.SetConnMaxIdleTime(0)
	defer func() {
		if err != nil {
			db.closePools()
		}
	}()
	if err := db.w.PingContext(ctx); err != nil {
		return nil, explain(err)
	}
	var mode string
	if err := db.w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return nil, explain(err)
	}
	if !strings.EqualFold(mode, "wal") {
		return nil, fmt.Errorf("journal mode is %q, could not switch to WAL", mode)
	}
	if err := db.migrate(ctx); err != nil {
		return nil, err
	}
	db.r, err = sql.Open("sqlite3", base+"&_query_only=on")
	if err != nil {
		return nil, err
	}
	db.r.SetMaxOpenConns(readers)
	db.r.SetMaxIdleConns(readers)
	if err := db.r.PingContext(ctx); err != nil {
		return nil, explain(err)
	}
	return db, nil
}

// explain turns SQLite's terse "file is not a database" into something a user can act on.
func explain(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrNotADB:
			return fmt.Errorf("not a SQLite database (or an encrypted one): %w", err)
		case sqlite3.ErrCantOpen, sqlite3.ErrReadonly:
			// The file itself was checked; in WAL mode SQLite also creates the -wal and
			// -shm files next to it, which fails in a directory it may not write.
			return fmt.Errorf("%w (is the directory writable? SQLite keeps -wal and -shm files beside the database)", err)
		}
	}
	return err
}

// migrate applies the embedded migrations the database has not seen, each in its own
// transaction, after checking that the database is Arena's and not from a newer Arena.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	current, err := db.schemaVersion(ctx)
	if err != nil {
		return err
	}
	if current > len(ms) {
		return fmt.Errorf("%w: the database is at schema version %d, this build knows versions up to %d; use a newer arena",
			ErrSchemaTooNew, current, len(ms))
	}
	for _, m := range ms[current:] {
		if err := db.apply(ctx, m); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}

func (db *DB) schemaVersion(ctx context.Context) (int, error) {
	var tracked, tables int
	err := db.w.QueryRowContext(ctx, `SELECT
		count(*) FILTER (WHERE name = 'schema_migrations'),
		count(*) FILTER (WHERE name NOT LIKE 'sqlite_%')
		FROM sqlite_schema WHERE type = 'table'`).Scan(&tracked, &tables)
	if err != nil {
		return 0, explain(err)
	}
	if tracked == 0 {
		if tables > 0 {
			return 0, fmt.Errorf("%w: it has %d tables but no schema_migrations", ErrNotArena, tables)
		}
		if _, err := db.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version INTEGER PRIMARY KEY,
			name    TEXT NOT NULL,
			applied TEXT NOT NULL
		) STRICT`); err != nil {
			return 0, err
		}
	}
	var v int
	err = db.w.QueryRowContext(ctx, "SELECT coalesce(max(version), 0) FROM schema_migrations").Scan(&v)
	return v, err
}

func (db *DB) apply(ctx context.Context, m migration) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Another process may have applied it since we looked; the immediate transaction
	// makes this check and the migration one step.
	var done int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations WHERE version = ?", m.version).Scan(&done); err != nil {
		return err
	}
	if done > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)",
		m.version, m.name, timeText(db.now())); err != nil {
		return err
	}
	return tx.Commit()
}

// Close closes the database. Data written before Close is on disk when it returns.
func (db *DB) Close() error {
	// PRAGMA optimize is SQLite's recommended last act on a connection that wrote; it
	// refreshes query-planner statistics when they are stale and is cheap otherwise.
	_, _ = db.w.Exec("PRAGMA optimize")
	return db.closePools()
}

func (db *DB) closePools() error {
	var errs []error
	if db.r != nil {
		errs = append(errs, db.r.Close())
	}
	if db.w != nil {
		errs = append(errs, db.w.Close())
	}
	return errors.Join(errs...)
}

// ID returns the database's id: 16 hex digits, random, made with the database. A copy of
// the file keeps it; a database deleted and made again has a new one.
func (db *DB) ID(ctx context.Context) (string, error) {
	var id string
	if err := db.r.QueryRowContext(ctx, "SELECT id FROM database_id").Scan(&id); err != nil {
		return "", fmt.Errorf("sqlite: database id: %w", err)
	}
	return id, nil
}

// Path returns the absolute path of the database file.
func (db *DB) Path() string { return db.path }

// timeLayout is fixed width, so stored times sort as text.
const timeLayout = "2006-01-02T15:04:05.000000Z"

// timeText is how a time is stored: NULL for the zero time, else UTC text.
func timeText(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(timeLayout)
}

func parseTime(s sql.NullString) (time.Time, error) {
	if !s.Valid {
		return time.Time{}, nil
	}
	t, err := time.Parse(timeLayout, s.String)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", s.String, err)
	}
	return t, nil
}
