package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/arenaref/arena/protocol"
)

// ErrRefused is wrapped by every error about an archive's content: what the person who
// made the archive must change (as opposed to a failure to write the files).
var ErrRefused = errors.New("archive: refused")

// ManifestName is the manifest's file name, at the archive's root.
const ManifestName = "arena.toml"

// Limits bound what an archive may hold.
type Limits struct {
	MaxArchive int64 // the archive itself, compressed, in bytes
	MaxTotal   int64 // every file unpacked, in bytes
	MaxFile    int64 // one file unpacked, in bytes
	MaxFiles   int   // entries: files and directories
	MaxName    int   // an entry's path, in bytes
	// NoManifest accepts an archive without arena.toml at its root: a build's result
	// (package sandbox), not a submission.
	NoManifest bool
}

// DefaultLimits are the limits of submitted engines.
var DefaultLimits = Limits{
	MaxArchive: protocol.MaxArchiveSize,
	MaxTotal:   64 << 20,
	MaxFile:    16 << 20,
	MaxFiles:   2000,
	MaxName:    1024,
}

// maxComponent is the longest component of an entry's path, as most file systems allow.
const maxComponent = 255

// maxManifest is the largest arena.toml.
const maxManifest = 64 << 10

// Stats describe an archive's content.
type Stats struct {
	Files int   // regular files
	Dirs  int   // directories listed in the archive
	Bytes int64 // the files' size, unpacked
}

// refused returns an error wrapping ErrRefused.
func refused(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrRefused, fmt.Sprintf(format, args...))
}

// entry is one member of an archive, its name already checked and cleaned.
type entry struct {
	name string // slash-separated, relative, clean
	dir  bool
	exec bool      // the archive gives it an execute bit
	data io.Reader // a file's content
	size int64     // the size the archive declares, -1 when unknown
}

// walk checks every entry of an archive in turn and hands each to visit, which must read
// a file's data through the reader it is given: walk counts the bytes as they are read,
// and refuses a file or an archive over the limits.
func walk(data []byte, lim Limits, visit func(e entry) error) (Stats, error) {
	var st Stats
	if int64(len(data)) > lim.MaxArchive {
		return st, refused("the archive is %d bytes, more than the limit of %d", len(data), lim.MaxArchive)
	}
	w := &walker{lim: lim, visit: visit, files: map[string]bool{}, dirs: map[string]bool{}}
	var err error
	switch {
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		err = w.tarGz(data)
	case bytes.HasPrefix(data, []byte("PK\x03\x04")), bytes.HasPrefix(data, []byte("PK\x05\x06")):
		err = w.zip(data)
	default:
		err = refused("not a .tar.gz or .zip archive")
	}
	if err != nil {
		return w.st, err
	}
	if !w.files[ManifestName] && !lim.NoManifest {
		return w.st, w.noManifest()
	}
	return w.st, nil
}

type walker struct {
	lim   Limits
	visit func(entry) error
	st    Stats
	files map[string]bool // regular files seen, by name
	dirs  map[string]bool // directories, listed or implied by a file's path
	n     int             // entries seen
}

func (w *walker) tarGz(data []byte) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return refused("not a .tar.gz archive: %v", err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return refused("a damaged .tar.gz archive: %v", err)
		}
		var dir bool
		switch h.Typeflag {
		case tar.TypeReg: // tar.Reader.Next reads an old-style TypeRegA as TypeReg or TypeDir
		case tar.TypeDir:
			dir = true
		case tar.TypeSymlink:
			return refused("%q is a symbolic link (to %q): links are refused; put the file itself in the archive", h.Name, h.Linkname)
		case tar.TypeLink:
			return refused("%q is a hard link (to %q): links are refused; put the file itself in the archive", h.Name, h.Linkname)
		case tar.TypeChar, tar.TypeBlock:
			return refused("%q is a device: only files and directories are allowed", h.Name)
		case tar.TypeFifo:
			return refused("%q is a FIFO: only files and directories are allowed", h.Name)
		default:
			return refused("%q is an entry of type %q: only files and directories are allowed", h.Name, string(rune(h.Typeflag)))
		}
		if err := w.entry(h.Name, dir, h.Mode&0o111 != 0, tr, h.Size); err != nil {
			return err
		}
	}
}

func (w *walker) zip(data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return refused("a damaged .zip archive: %v", err)
	}
	for _, f := range zr.File {
		mode := f.Mode()
		var dir bool
		switch {
		case mode.IsRegular():
		case mode.IsDir():
			dir = true
		case mode&fs.ModeSymlink != 0:
			return refused("%q is a symbolic link: links are refused; put the file itself in the archive", f.Name)
		case mode&(fs.ModeDevice|fs.ModeCharDevice) != 0:
			return refused("%q is a device: only files and directories are allowed", f.Name)
		case mode&fs.ModeNamedPipe != 0:
			return refused("%q is a FIFO: only files and directories are allowed", f.Name)
		default:
			return refused("%q is a special file (%v): only files and directories are allowed", f.Name, mode.Type())
		}
		if err := w.zipEntry(f, dir, mode&0o111 != 0); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) zipEntry(f *zip.File, dir, exec bool) error {
	size := int64(-1)
	if f.UncompressedSize64 <= 1<<62 {
		size = int64(f.UncompressedSize64)
	}
	if dir {
		return w.entry(f.Name, true, exec, nil, 0)
	}
	// Names are checked before anything is decompressed.
	if _, err := w.cleanName(f.Name); err != nil {
		return err
	}
	rc, err := f.Open()
	if err != nil {
		return refused("%q: %v", f.Name, err)
	}
	defer rc.Close()
	return w.entry(f.Name, false, exec, rc, size)
}

// cleanName checks an entry's name and returns it cleaned: without a leading "./" and a
// trailing "/". The archive's root itself ("./") comes back as "".
func (w *walker) cleanName(raw string) (string, error) {
	switch {
	case !utf8.ValidString(raw):
		return "", refused("the entry name %q is not valid UTF-8", raw)
	case strings.ContainsFunc(raw, func(r rune) bool { return r < ' ' || r == 0x7f }):
		return "", refused("the entry name %q has a control character", raw)
	case strings.Contains(raw, `\`):
		return "", refused("the entry name %q has a backslash: write paths with /", raw)
	case strings.HasPrefix(raw, "/"):
		return "", refused("%q is an absolute path: entries must be relative to the archive's root", raw)
	case len(raw) > w.lim.MaxName:
		return "", refused("the entry name %.40q... is %d bytes, more than %d", raw, len(raw), w.lim.MaxName)
	}
	name := raw
	for strings.HasPrefix(name, "./") {
		name = name[2:]
	}
	name = strings.TrimSuffix(name, "/")
	if name == "" || name == "." {
		return "", nil
	}
	for _, c := range strings.Split(name, "/") {
		switch {
		case c == "..":
			return "", refused("%q has a \"..\" component: entries must stay inside the archive's root", raw)
		case c == "" || c == ".":
			return "", refused("%q has an empty or \".\" component", raw)
		case len(c) > maxComponent:
			return "", refused("%q has a component longer than %d bytes", raw, maxComponent)
		}
	}
	return name, nil
}

// entry checks one entry and hands it to visit, counting its bytes.
func (w *walker) entry(raw string, dir, exec bool, data io.Reader, size int64) error {
	name, err := w.cleanName(raw)
	if err != nil {
		return err
	}
	if name == "" {
		if !dir {
			return refused("%q is a file without a name", raw)
		}
		return nil // the root directory
	}
	if w.n++; w.n > w.lim.MaxFiles {
		return refused("more than %d files and directories", w.lim.MaxFiles)
	}
	// Every directory above the entry must be one, or become one.
	for i := strings.IndexByte(name, '/'); i >= 0; i = next(name, i) {
		parent := name[:i]
		if w.files[parent] {
			return refused("%q is under %q, which is a file", raw, parent)
		}
		w.dirs[parent] = true
	}
	switch {
	case w.files[name]:
		return refused("%q appears twice", raw)
	case dir:
		if !w.dirs[name] {
			w.st.Dirs++
		}
		w.dirs[name] = true
		return w.visit(entry{name: name, dir: true})
	case w.dirs[name]:
		return refused("%q is a file and a directory", raw)
	}
	if size > w.lim.MaxFile {
		return refused("%q is %d bytes, more than the limit of %d for one file", raw, size, w.lim.MaxFile)
	}
	w.files[name] = true
	w.st.Files++
	remaining := w.lim.MaxTotal - w.st.Bytes
	fileBound := w.lim.MaxFile <= remaining // which limit a file too long meets first
	c := &counter{r: data, left: min(w.lim.MaxFile, remaining)}
	err = w.visit(entry{name: name, exec: exec, data: c, size: size})
	if err == nil {
		_, err = io.Copy(io.Discard, c) // a visitor that stopped early still counts the rest
	}
	w.st.Bytes += c.n
	switch {
	case c.over && fileBound:
		return refused("%q is more than the limit of %d bytes for one file", raw, w.lim.MaxFile)
	case c.over:
		return refused("the files unpack to more than the limit of %d bytes in all", w.lim.MaxTotal)
	case c.readErr != nil:
		return refused("%q cannot be read from the archive: %v", raw, c.readErr)
	}
	return err
}

// next returns the index of the next '/' in name after i, or -1.
func next(name string, i int) int {
	j := strings.IndexByte(name[i+1:], '/')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

var errOver = errors.New("over the limit")

// counter reads at most left bytes of r, and fails with errOver past them.
type counter struct {
	r       io.Reader
	left    int64
	n       int64
	over    bool
	readErr error // an error of the archive itself
}

func (c *counter) Read(p []byte) (int, error) {
	if c.over {
		return 0, errOver
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	if int64(n) > c.left {
		c.over = true
		c.n += c.left
		c.left = 0
		return 0, errOver
	}
	c.n += int64(n)
	c.left -= int64(n)
	if err != nil && err != io.EOF {
		c.readErr = err
	}
	return n, err
}

// noManifest explains a missing arena.toml, pointing at one a directory down.
func (w *walker) noManifest() error {
	for name := range w.files {
		if dir, base, ok := strings.Cut(name, "/"); ok && base == ManifestName {
			return refused("no %s at the archive's root, but %s: make the archive from inside %s (cd %s && tar czf ../engine.tar.gz .)", ManifestName, name, dir, dir)
		}
	}
	return refused("no %s at the archive's root: it says how to build and run the engine (see docs/hosting.md)", ManifestName)
}

// Inspect checks an archive as Unpack would, without writing anything, and returns its
// manifest's text.
func Inspect(data []byte, lim Limits) (manifest []byte, st Stats, err error) {
	st, err = walk(data, lim, func(e entry) error {
		if e.name != ManifestName || e.dir {
			return nil
		}
		manifest, err = readManifest(e.data)
		return err
	})
	if err != nil {
		return nil, st, err
	}
	return manifest, st, nil
}

func readManifest(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxManifest+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxManifest {
		return nil, refused("%s is more than %d bytes", ManifestName, maxManifest)
	}
	return b, nil
}

// Unpack checks an archive and writes its files into dir, which it creates readable by
// its owner only (0700; its parent must exist, and dir must not). On any error it removes
// dir again.
func Unpack(data []byte, dir string, lim Limits) (st Stats, err error) {
	if err := os.Mkdir(dir, 0o700); err != nil {
		return st, fmt.Errorf("unpack: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(dir)
		}
	}()
	return walk(data, lim, func(e entry) error {
		path := filepath.Join(dir, filepath.FromSlash(e.name))
		if err := mkdirs(dir, e.name); err != nil {
			return err
		}
		if e.dir {
			if err := os.Mkdir(path, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("unpack: %w", err)
			}
			return nil
		}
		mode := os.FileMode(0o644)
		if e.exec {
			mode = 0o755
		}
		// O_EXCL: nothing of the archive, nor anything else, is written through.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err != nil {
			return fmt.Errorf("unpack: %w", err)
		}
		_, err = io.Copy(f, e.data)
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("unpack: %w", cerr)
		}
		return err
	})
}

// mkdirs makes the directories above name (slash-separated, relative to dir).
func mkdirs(dir, name string) error {
	parent, _ := filepath.Split(filepath.FromSlash(name))
	if parent == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(dir, parent), 0o755); err != nil {
		return fmt.Errorf("unpack: %w", err)
	}
	return nil
}
