package main

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

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
