package experience

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// fileLock is an exclusive flock on a lock file beside the base. The lock is on a file of
// its own, not on the database: closing any descriptor of a file drops the POSIX locks
// SQLite holds on it, so a failed second attempt from this process must never open the
// database file itself.
type fileLock struct {
	f    *os.File
	path string
}

// lockFile takes the lock at path without waiting, creating the file if need be. It
// returns an error wrapping ErrInUse when someone else holds it.
func lockFile(path string) (*fileLock, error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, ErrInUse
			}
			return nil, fmt.Errorf("flock %s: %w", path, err)
		}
		// The holder before us removes the file on release, possibly after we opened it:
		// a lock on a file no longer at path guards nothing, so start again.
		held, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		now, err := os.Stat(path)
		if err == nil && os.SameFile(held, now) {
			return &fileLock{f: f, path: path}, nil
		}
		f.Close()
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
}

// release removes the lock file, then unlocks it. Removing while still holding it is what
// makes the check in lockFile sound.
func (l *fileLock) release() {
	os.Remove(l.path)
	l.f.Close()
}
