package archive

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	at "github.com/arenaref/arena/players/hosting/archive/archivetest"
)

const manifest = "protocol = \"line\"\nrun = \"./engine\"\n"

func TestUnpack(t *testing.T) {
	ms := []at.Member{
		{Name: "./", Kind: tar.TypeDir, Mode: 0o755},
		{Name: "./arena.toml", Body: manifest},
		{Name: "./src/", Kind: tar.TypeDir, Mode: 0o700},
		{Name: "./src/engine.c", Body: "int main(void) { return 0; }\n"},
		{Name: "./run.sh", Body: "#!/bin/sh\n", Mode: 0o4775},
		{Name: "deep/er/file.txt", Body: "x"},
		{Name: "empty", Body: ""},
	}
	for format, data := range map[string][]byte{"tar.gz": at.TarGz(t, ms...), "zip": at.Zip(t, ms[1:]...)} {
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
			m, err := ReadManifest(dir, protocols)
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
	ok := at.Member{Name: "arena.toml", Body: manifest}
	small := Limits{MaxArchive: 1 << 20, MaxTotal: 100, MaxFile: 60, MaxFiles: 4, MaxName: 40}
	tests := []struct {
		name  string
		ms    []at.Member
		lim   *Limits
		want  string
		noZip bool // the case cannot be written as a zip
	}{
		{"absolute path", []at.Member{ok, {Name: "/etc/passwd", Body: "x"}}, nil, "absolute path", false},
		{"dot-dot", []at.Member{ok, {Name: "../escape", Body: "x"}}, nil, `".." component`, false},
		{"dot-dot inside", []at.Member{ok, {Name: "a/../../escape", Body: "x"}}, nil, `".." component`, false},
		{"dot component", []at.Member{ok, {Name: "a/./b", Body: "x"}}, nil, `"." component`, false},
		{"empty component", []at.Member{ok, {Name: "a//b", Body: "x"}}, nil, "empty", false},
		{"backslash", []at.Member{ok, {Name: `a\..\b`, Body: "x"}}, nil, "backslash", false},
		{"control character", []at.Member{ok, {Name: "a\nb", Body: "x"}}, nil, "control character", false},
		{"invalid UTF-8", []at.Member{ok, {Name: "a\xffb", Body: "x"}}, nil, "UTF-8", false},
		{"symlink", []at.Member{ok, {Name: "link", Kind: tar.TypeSymlink, Link: "/etc/passwd"}}, nil, "symbolic link", false},
		{"symlink in a directory", []at.Member{ok, {Name: "d/", Kind: tar.TypeDir}, {Name: "d/l", Kind: tar.TypeSymlink, Link: "../../x"}}, nil, "symbolic link", false},
		{"hard link", []at.Member{ok, {Name: "link", Kind: tar.TypeLink, Link: "arena.toml"}}, nil, "hard link", true},
		{"device", []at.Member{ok, {Name: "null", Kind: tar.TypeChar}}, nil, "device", false},
		{"fifo", []at.Member{ok, {Name: "pipe", Kind: tar.TypeFifo}}, nil, "FIFO", false},
		{"twice", []at.Member{ok, {Name: "a", Body: "1"}, {Name: "a", Body: "2"}}, nil, "appears twice", false},
		{"manifest twice", []at.Member{ok, {Name: "./arena.toml", Body: manifest}}, nil, "appears twice", false},
		{"file as a directory", []at.Member{ok, {Name: "a", Body: "1"}, {Name: "a/b", Body: "2"}}, nil, "which is a file", false},
		{"directory as a file", []at.Member{ok, {Name: "a/b", Body: "1"}, {Name: "a", Body: "2"}}, nil, "a file and a directory", false},
		{"too many files", []at.Member{ok, {Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}}, &small, "more than 4 files", false},
		{"a file too large", []at.Member{ok, {Name: "big", Body: strings.Repeat("x", 61)}}, &small, "more than the limit of 60", false},
		{"too much in all", []at.Member{ok, {Name: "a", Body: strings.Repeat("x", 50)}, {Name: "b", Body: strings.Repeat("x", 50)}}, &small, "more than the limit of 100 bytes in all", false},
		{"a long name", []at.Member{ok, {Name: strings.Repeat("n", 41), Body: "x"}}, &small, "more than 40", false},
		{"no manifest", []at.Member{{Name: "engine.c", Body: "x"}}, nil, "no arena.toml at the archive's root: it says how", false},
		{"manifest one level down", []at.Member{{Name: "bot/", Kind: tar.TypeDir}, {Name: "bot/arena.toml", Body: manifest}}, nil, "but bot/arena.toml: make the archive from inside bot", false},
		{"manifest is a directory", []at.Member{{Name: "arena.toml/", Kind: tar.TypeDir}, {Name: "arena.toml/x", Body: "1"}}, nil, "no arena.toml", false},
	}
	for _, tt := range tests {
		lim := DefaultLimits
		if tt.lim != nil {
			lim = *tt.lim
		}
		formats := map[string][]byte{"tar.gz": at.TarGz(t, tt.ms...)}
		if !tt.noZip {
			formats["zip"] = at.Zip(t, tt.ms...)
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
		data := at.TarGz(t, ok, at.Member{Name: "engine.c", Body: strings.Repeat("int x;\n", 1000)})
		checkRefused(t, data[:len(data)/2], DefaultLimits, "damaged")
	})
	t.Run("archive too large", func(t *testing.T) {
		data := at.TarGz(t, ok)
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
	if _, err := Unpack(at.TarGz(t, at.Member{Name: "arena.toml", Body: manifest}), dir, DefaultLimits); err == nil || errors.Is(err, ErrRefused) {
		t.Fatalf("Unpack into an existing directory: %v", err)
	}
}

// FuzzUnpack feeds arbitrary bytes to Inspect and Unpack: they never panic, they agree,
// and whatever Unpack accepts is a tree of plain files and directories inside its
// directory, as Inspect counted it.
func FuzzUnpack(f *testing.F) {
	ok := at.Member{Name: "arena.toml", Body: manifest}
	for _, ms := range [][]at.Member{
		{ok},
		{ok, {Name: "src/", Kind: tar.TypeDir}, {Name: "src/a.c", Body: "int a;", Mode: 0o755}},
		{ok, {Name: "../x", Body: "x"}},
		{ok, {Name: "l", Kind: tar.TypeSymlink, Link: "/"}},
		{ok, {Name: "a", Body: "1"}, {Name: "a/b", Body: "2"}},
		{{Name: "bot/arena.toml", Body: manifest}},
	} {
		f.Add(at.TarGz(f, ms...))
		f.Add(at.Zip(f, ms...))
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
