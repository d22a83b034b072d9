package archive

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// OpenRegular opens the file at path for reading as a file of an engine's directory must
// be opened, since the engine's build may have put anything there: without following a
// link (O_NOFOLLOW) and without blocking (O_NONBLOCK: a FIFO or a device would wait
// forever for a writer that never comes), and only if it is a regular file. Anything else
// is refused with an error wrapping ErrRefused that says what it is.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		// A link fails with ELOOP, a socket with ENXIO: say what it is.
		if fi, lerr := os.Lstat(path); lerr == nil && !fi.Mode().IsRegular() {
			return nil, refused("%s is %s, not a regular file", filepath.Base(path), kind(fi.Mode()))
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, refused("%s is %s, not a regular file", filepath.Base(path), kind(fi.Mode()))
	}
	return f, nil
}

// CheckDir refuses an engine's directory that holds anything but regular files and
// directories, as a build may leave: a link of any kind (symbolic links are refused
// wherever they point, as in archives), a FIFO, a socket or a device. The error wraps
// ErrRefused and names the first such entry and what it is.
func CheckDir(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if t := d.Type(); t != 0 && !t.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			return refused("%s is %s: an engine's directory holds only regular files and directories", rel, kind(t))
		}
		return nil
	})
}

// kind names a file's type for an error.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "a special file"
}
