package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// member is one entry of a test archive.
type member struct {
	name string
	body string
	mode int64 // permission bits; 0 means 0644 for a file
	kind byte  // a tar type flag; 0 is a regular file
	link string
	size int64 // a declared size other than len(body), for tar; 0 means len(body)
}

const manifest = "protocol = \"line\"\nrun = \"./engine\"\n"

func tarGz(t testing.TB, ms ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, m := range ms {
		h := &tar.Header{Name: m.name, Mode: m.mode, Typeflag: m.kind, Linkname: m.link, Size: int64(len(m.body)), Format: tar.FormatPAX}
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
		}
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if h.Typeflag != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			if _, err := tw.Write([]byte(m.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zipOf(t testing.TB, ms ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range ms {
		h := &zip.FileHeader{Name: m.name, Method: zip.Deflate}
		mode := fs.FileMode(m.mode)
		if mode == 0 {
			mode = 0o644
		}
		switch m.kind {
		case tar.TypeDir:
			mode |= fs.ModeDir
		case tar.TypeSymlink:
			mode |= fs.ModeSymlink
		case tar.TypeChar:
			mode |= fs.ModeDevice | fs.ModeCharDevice
		case tar.TypeFifo:
			mode |= fs.ModeNamedPipe
		}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		body := m.body
		if m.kind == tar.TypeSymlink {
			body = m.link
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestUnpack(t *testing.T) {
	ms := []member{
		{name: "./", kind: tar.TypeDir, mode: 0o755},
		{name: "./arena.toml", body: manifest},
		{name: "./src/", kind: tar.TypeDir, mode: 0o700},
		{name: "./src/engine.c", body: "int main(void) { return 0; }\n"},
		{name: "./run.sh", body: "#!/bin/sh\n", mode: 0o4775},
		{name: "deep/er/file.txt", body: "x"},
		{name: "empty", body: ""},
	}
	for format, data := range map[string][]byte{"tar.gz": tarGz(t, ms...), "zip": zipOf(t, ms[1:]...)} {
		t.Run(format, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "s1")
			st, err := Unpack(data, dir, DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			if st.Files != 5 || st.Bytes != int64(len(manifest)+len("int main(void) { return 0; }\n")+len("#!/bin/sh\n")+1) {
				t.Errorf("stats %+v", st)
			}
			want := map[string]fs.FileMode{
				"arena.toml": 0o644, "src": fs.ModeDir | 0o755, "src/engine.c": 0o644, "run.sh": 0o755,
				"deep": fs.ModeDir | 0o755, "deep/er": fs.ModeDir | 0o755, "deep/er/file.txt": 0o644, "empty": 0o644,
			}
			got := map[string]fs.FileMode{}
			err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
				if err != nil || path == dir {
					return err
				}
				info, err := d.Info()
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(dir, path)
				got[filepath.ToSlash(rel)] = info.Mode()
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for name, mode := range want {
				if got[name] != mode {
					t.Errorf("%s: mode %v, want %v", name, got[name], mode)
				}
			}
			if len(got) != len(want) {
				t.Errorf("unpacked %v", got)
			}
			m, err := ReadManifest(dir)
			if err != nil || m.Protocol != "line" || len(m.Argv) != 1 || m.Argv[0] != "./engine" {
				t.Errorf("manifest %+v, %v", m, err)
			}
			text, ist, err := Inspect(data, DefaultLimits)
			if err != nil || string(text) != manifest || ist != st {
				t.Errorf("Inspect: %q %+v %v", text, ist, err)
			}
		})
	}
}

func TestUnpackRefuses(t *testing.T) {
	ok := member{name: "arena.toml", body: manifest}
	small := Limits{MaxArchive: 1 << 20, MaxTotal: 100, MaxFile: 60, MaxFiles: 4, MaxName: 40}
	tests := []struct {
		name  string
		ms    []member
		lim   *Limits
		want  string
		noZip bool // the case cannot be written as a zip
	}{
		{"absolute path", []member{ok, {name: "/etc/passwd", body: "x"}}, nil, "absolute path", false},
		{"dot-dot", []member{ok, {name: "../escape", body: "x"}}, nil, `".." component`, false},
		{"dot-dot inside", []member{ok, {name: "a/../../escape", body: "x"}}, nil, `".." component`, false},
		{"dot component", []member{ok, {name: "a/./b", body: "x"}}, nil, `"." component`, false},
		{"empty component", []member{ok, {name: "a//b", body: "x"}}, nil, "empty", false},
		{"backslash", []member{ok, {name: `a\..\b`, body: "x"}}, nil, "backslash", false},
		{"control character", []member{ok, {name: "a\nb", body: "x"}}, nil, "control character", false},
		{"invalid UTF-8", []member{ok, {name: "a\xffb", body: "x"}}, nil, "UTF-8", false},
		{"symlink", []member{ok, {name: "link", kind: tar.TypeSymlink, link: "/etc/passwd"}}, nil, "symbolic link", false},
		{"symlink in a directory", []member{ok, {name: "d/", kind: tar.TypeDir}, {name: "d/l", kind: tar.TypeSymlink, link: "../../x"}}, nil, "symbolic link", false},
		{"hard link", []member{ok, {name: "link", kind: tar.TypeLink, link: "arena.toml"}}, nil, "hard link", true},
		{"device", []member{ok, {name: "null", kind: tar.TypeChar}}, nil, "device", false},
		{"fifo", []member{ok, {name: "pipe", kind: tar.TypeFifo}}, nil, "FIFO", false},
		{"twice", []member{ok, {name: "a", body: "1"}, {name: "a", body: "2"}}, nil, "appears twice", false},
		{"manifest twice", []member{ok, {name: "./arena.toml", body: manifest}}, nil, "appears twice", false},
		{"file as a directory", []member{ok, {name: "a", body: "1"}, {name: "a/b", body: "2"}}, nil, "which is a file", false},
		{"directory as a file", []member{ok, {name: "a/b", body: "1"}, {name: "a", body: "2"}}, nil, "a file and a directory", false},
		{"too many files", []member{ok, {name: "a"}, {name: "b"}, {name: "c"}, {name: "d"}}, &small, "more than 4 files", false},
		{"a file too large", []member{ok, {name: "big", body: strings.Repeat("x", 61)}}, &small, "more than the limit of 60", false},
		{"too much in all", []member{ok, {name: "a", body: strings.Repeat("x", 50)}, {name: "b", body: strings.Repeat("x", 50)}}, &small, "more than the limit of 100 bytes in all", false},
		{"a long name", []member{ok, {name: strings.Repeat("n", 41), body: "x"}}, &small, "more than 40", false},
		{"no manifest", []member{{name: "engine.c", body: "x"}}, nil, "no arena.toml at the archive's root: it says how", false},
		{"manifest one level down", []member{{name: "bot/", kind: tar.TypeDir}, {name: "bot/arena.toml", body: manifest}}, nil, "but bot/arena.toml: make the archive from inside bot", false},
		{"manifest is a directory", []member{{name: "arena.toml/", kind: tar.TypeDir}, {name: "arena.toml/x", body: "1"}}, nil, "no arena.toml", false},
	}
	for _, tt := range tests {
		lim := DefaultLimits
		if tt.lim != nil {
			lim = *tt.lim
		}
		formats := map[string][]byte{"tar.gz": tarGz(t, tt.ms...)}
		if !tt.noZip {
			formats["zip"] = zipOf(t, tt.ms...)
		}
		for format, data := range formats {
			t.Run(tt.name+"/"+format, func(t *testing.T) {
				checkRefused(t, data, lim, tt.want)
			})
		}
	}
	t.Run("not an archive", func(t *testing.T) {
		checkRefused(t, []byte("int main(void) {}"), DefaultLimits, "not a .tar.gz or .zip archive")
	})
	t.Run("a plain tar", func(t *testing.T) {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		_ = tw.WriteHeader(&tar.Header{Name: "arena.toml", Size: int64(len(manifest)), Mode: 0o644})
		_, _ = tw.Write([]byte(manifest))
		_ = tw.Close()
		checkRefused(t, buf.Bytes(), DefaultLimits, "not a .tar.gz or .zip archive")
	})
	t.Run("truncated", func(t *testing.T) {
		data := tarGz(t, ok, member{name: "engine.c", body: strings.Repeat("int x;\n", 1000)})
		checkRefused(t, data[:len(data)/2], DefaultLimits, "damaged")
	})
	t.Run("archive too large", func(t *testing.T) {
		data := tarGz(t, ok)
		lim := DefaultLimits
		lim.MaxArchive = int64(len(data) - 1)
		checkRefused(t, data, lim, "more than the limit of")
	})
	t.Run("a bomb", func(t *testing.T) {
		// 100 MiB of zeros compress to about 100 KiB: refused once 16 MiB are read.
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		tw := tar.NewWriter(zw)
		_ = tw.WriteHeader(&tar.Header{Name: "zeros", Size: 100 << 20, Mode: 0o644})
		zero := make([]byte, 1<<20)
		for range 100 {
			_, _ = tw.Write(zero)
		}
		_ = tw.Close()
		_ = zw.Close()
		checkRefused(t, buf.Bytes(), DefaultLimits, "for one file")
	})
}

// checkRefused checks that Inspect and Unpack refuse data with the same error, which
// contains want and wraps ErrRefused, and that Unpack leaves nothing behind.
func checkRefused(t *testing.T, data []byte, lim Limits, want string) {
	t.Helper()
	_, _, ierr := Inspect(data, lim)
	dir := filepath.Join(t.TempDir(), "s1")
	_, uerr := Unpack(data, dir, lim)
	if !errors.Is(ierr, ErrRefused) || !strings.Contains(ierr.Error(), want) {
		t.Fatalf("Inspect: %v, want a refusal saying %q", ierr, want)
	}
	if uerr == nil || uerr.Error() != ierr.Error() {
		t.Fatalf("Unpack: %v\nInspect: %v", uerr, ierr)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Unpack left %s behind: %v", dir, err)
	}
}

func TestUnpackIntoExisting(t *testing.T) {
	dir := t.TempDir()
	if _, err := Unpack(tarGz(t, member{name: "arena.toml", body: manifest}), dir, DefaultLimits); err == nil || errors.Is(err, ErrRefused) {
		t.Fatalf("Unpack into an existing directory: %v", err)
	}
}

// FuzzUnpack feeds arbitrary bytes to Inspect and Unpack: they never panic, they agree,
// and whatever Unpack accepts is a tree of plain files and directories inside its
// directory, as Inspect counted it.
func FuzzUnpack(f *testing.F) {
	ok := member{name: "arena.toml", body: manifest}
	for _, ms := range [][]member{
		{ok},
		{ok, {name: "src/", kind: tar.TypeDir}, {name: "src/a.c", body: "int a;", mode: 0o755}},
		{ok, {name: "../x", body: "x"}},
		{ok, {name: "l", kind: tar.TypeSymlink, link: "/"}},
		{ok, {name: "a", body: "1"}, {name: "a/b", body: "2"}},
		{{name: "bot/arena.toml", body: manifest}},
	} {
		f.Add(tarGz(f, ms...))
		f.Add(zipOf(f, ms...))
	}
	f.Add([]byte{})
	f.Add([]byte{0x1f, 0x8b})
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	lim := Limits{MaxArchive: 1 << 20, MaxTotal: 1 << 16, MaxFile: 1 << 15, MaxFiles: 64, MaxName: 200}
	f.Fuzz(func(t *testing.T, data []byte) {
		text, ist, ierr := Inspect(data, lim)
		dir := filepath.Join(t.TempDir(), "u")
		ust, uerr := Unpack(data, dir, lim)
		if (ierr == nil) != (uerr == nil) || ierr != nil && ierr.Error() != uerr.Error() {
			t.Fatalf("Inspect: %v\nUnpack: %v", ierr, uerr)
		}
		if ierr != nil {
			if !errors.Is(ierr, ErrRefused) {
				t.Fatalf("an error that is no refusal: %v", ierr)
			}
			return
		}
		if ist != ust {
			t.Fatalf("stats: Inspect %+v, Unpack %+v", ist, ust)
		}
		var files int
		var size int64
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !strings.HasPrefix(path, dir) {
				t.Fatalf("%s is outside %s", path, dir)
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			switch {
			case info.Mode().IsRegular():
				files++
				size += info.Size()
			case info.IsDir():
			default:
				t.Fatalf("%s is neither a file nor a directory: %v", path, info.Mode())
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if files != ust.Files || size != ust.Bytes || size > lim.MaxTotal {
			t.Fatalf("%d files of %d bytes on disk, stats %+v", files, size, ust)
		}
		if got, err := os.ReadFile(filepath.Join(dir, ManifestName)); err != nil || !bytes.Equal(got, text) {
			t.Fatalf("the manifest on disk %q (%v), Inspect read %q", got, err, text)
		}
	})
}
