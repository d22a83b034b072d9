package bus

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/store/sqlite"
)

// OpenWithStore opens and locks the database at dbPath (exclusively for a referee daemon,
// shared for a tournament command) and reaches the bus cfg describes as name. A server
// secured from the database needs the database first; otherwise the bus comes first, so
// that a bus that cannot be reached leaves no database file behind. closeBoth undoes both.
func OpenWithStore(ctx context.Context, cfg Config, name, dbPath string, exclusive bool, log zerolog.Logger) (_ *Bus, _ *sqlite.DB, _ func(), err error) {
	var b *Bus
	var db *sqlite.DB
	var unlock func()
	closeBoth := func() {
		if b != nil {
			b.Close()
		}
		if unlock != nil {
			unlock()
		}
		if db != nil {
			db.Close()
		}
	}
	defer func() {
		if err != nil {
			closeBoth()
		}
	}()
	openDB := func() error {
		d, err := sqlite.Open(ctx, dbPath)
		if err != nil {
			return fmt.Errorf("--db: %w", err)
		}
		db = d
		u, err := lockDB(dbPath, exclusive)
		if err != nil {
			return err
		}
		unlock = u
		return nil
	}
	if cfg.Secure {
		if err := openDB(); err != nil {
			return nil, nil, nil, err
		}
	}
	// A nil *sqlite.DB must not become a non-nil CredentialStore: Open reads it only when
	// Secure, and then db is open.
	var creds CredentialStore
	if db != nil {
		creds = db
	}
	opened, err := Open(ctx, cfg, name, creds, log)
	if err != nil {
		return nil, nil, nil, err
	}
	b = opened
	if !cfg.Secure {
		if err := openDB(); err != nil {
			return nil, nil, nil, err
		}
	}
	return b, db, closeBoth, nil
}

// lockDB takes an advisory lock on the database file, so that two referees never play the
// same tournaments from one database: the referee daemon takes it exclusively, tournament
// commands share it. flock is independent of SQLite's own locks. The returned function
// releases it.
func lockDB(path string, exclusive bool) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if exclusive {
				return nil, fmt.Errorf("%s is in use by another arena (a referee daemon or a tournament); one referee daemon per database", path)
			}
			return nil, fmt.Errorf("%s is in use by a referee daemon; submit the tournament to it (arena submit) or use another database", path)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
