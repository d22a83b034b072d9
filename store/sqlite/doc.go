// Package sqlite is the SQLite implementation of store.Store, on github.com/mattn/go-sqlite3.
//
// # Connections
//
// A DB holds two pools on the same file. The writer pool has exactly one connection and
// begins every transaction with BEGIN IMMEDIATE, so writes from many goroutines queue in Go
// (database/sql hands the one connection out in turn) instead of racing for SQLite's write
// lock and failing with SQLITE_BUSY, and no transaction ever has to upgrade a read lock to
// a write lock half way through. The reader pool has a few connections with query_only set;
// in WAL mode readers see a consistent snapshot and neither wait for the writer nor hold it
// up, so a dashboard reading the tables does not slow the referee down. A single pool with
// SetMaxOpenConns(1) would also be correct, but would queue every read behind every write.
// Other processes (the CLI reading a live daemon's file) are covered by busy_timeout.
//
// Every connection runs with journal_mode=WAL, foreign_keys=on, synchronous=NORMAL (durable
// at every checkpoint, and never corrupt, which is the usual choice with WAL) and a
// busy_timeout of 5 seconds.
//
// # Files
//
// Open takes a file path (not a URI, and not ":memory:"; tests use t.TempDir()). It checks
// the path before SQLite sees it, so that a missing directory, a parent that is not a
// directory or a file it may not write fails at once with the operating system's reason,
// and it never leaves a file behind when opening fails: a file it created is removed again,
// with its -wal and -shm companions. A file that is not a SQLite database, or a SQLite
// database with tables that are not Arena's, is refused without being touched.
//
// # Schema and migrations
//
// The schema is a series of numbered SQL files embedded in the binary (migrations/0001_*.sql
// and on). Open applies those not yet applied, each in its own transaction together with
// its row in schema_migrations, so a crash leaves the database at a whole version. A database
// whose schema_migrations names a version this build does not know was written by a newer
// Arena; Open refuses it with an error wrapping ErrSchemaTooNew rather than guess.
//
// Times are stored as UTC text with microseconds ("2006-01-02T15:04:05.000000Z"): fixed
// width, so they sort as text, and readable in the sqlite3 shell. Move times are integer
// microseconds. Lists (a tournament's roster, a game's returns, a principal variation) are
// JSON arrays.
//
// A tournament's config is the caller's JSON, kept verbatim in tournaments.config. Its
// schedule is one row per game in the schedule table, written in the same transaction as
// the tournament; the games still to play (Pending) are the schedule rows with no row in
// games at the same idx, so the answer after a crash is read from the same commits that
// recorded the games. Tournaments made before migration 0002 have config {} and no schedule,
// and take games at any index as before.
//
// # Durability
//
// RecordGame (and RecordGames) returns after its transaction has committed to the WAL. With
// synchronous=NORMAL the commit is then in the operating system's hands: a process killed
// at any moment, even with SIGKILL in the middle of another game's transaction, loses no
// game whose RecordGame returned, and leaves no game in part (TestKillLosesNoCommittedGame
// kills a writer at random moments to check this). What NORMAL gives up is the last few
// commits before a power failure or an operating-system crash, until the next checkpoint
// syncs the WAL; the database is still consistent afterwards.
//
// A player's current rating for a game type is the after value of its latest row in
// ratings, latest by row id, which is the order in which the updates were recorded.
package sqlite
