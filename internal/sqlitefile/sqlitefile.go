// Package sqlitefile prepares the files SQLite databases live in, for the packages that
// keep one (the store, the experience base): a database file is created by Arena, not
// behind its back by SQLite, so that errors carry the operating system's reason and a
// failed open removes only what it created.
package sqlitefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Prepare makes sure path names a regular file SQLite can open for writing, creating it
// empty, readable and writable by its owner only (0600), if need be (SQLite treats an
// empty file as an empty database), and reports whether it did.
func Prepare(path string) (created bool, err error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil:
		if !fi.Mode().IsRegular() {
			return false, fmt.Errorf("%s is not a regular file", path)
		}
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return false, err
		}
		return false, f.Close()
	case !errors.Is(err, fs.ErrNotExist):
		return false, err
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil {
		return false, err
	} else if !fi.IsDir() {
		return false, fmt.Errorf("%s is not a directory", dir)
	}
	// The owner's alone: it holds credentials' hashes, submitted engines and their logs.
	// SQLite gives its -wal and -shm files the same mode.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return Prepare(path) // created by someone else in the meantime
	}
	if err != nil {
		return false, err
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return false, err
	}
	return true, nil
}

// Remove removes a database file and the journal files SQLite keeps beside it: what a
// failed open that created the file must not leave behind.
func Remove(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(path + suffix)
	}
}

// URIPath escapes the characters that mean something in a SQLite URI filename.
func URIPath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(p))
}
