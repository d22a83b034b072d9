// Package archivetest writes engine archives for tests: .tar.gz and .zip files of any
// content, the bad ones included (links, devices, paths that climb out).
package archivetest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
	"testing"
)

// Member is one entry of a test archive.
type Member struct {
	Name string
	Body string
	Mode int64 // permission bits; 0 means 0644
	Kind byte  // a tar type flag (tar.TypeDir, tar.TypeSymlink, ...); 0 is a regular file
	Link string
}

// TarGz writes a gzip-compressed tar of the members, in order.
func TarGz(t testing.TB, ms ...Member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, m := range ms {
		h := &tar.Header{Name: m.Name, Mode: m.Mode, Typeflag: m.Kind, Linkname: m.Link, Size: int64(len(m.Body)), Format: tar.FormatPAX}
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
			if _, err := tw.Write([]byte(m.Body)); err != nil {
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

// Zip writes a zip of the members, in order; a link's target is its content, as zip
// tools write it.
func Zip(t testing.TB, ms ...Member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range ms {
		h := &zip.FileHeader{Name: m.Name, Method: zip.Deflate}
		mode := fs.FileMode(m.Mode)
		if mode == 0 {
			mode = 0o644
		}
		switch m.Kind {
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
		body := m.Body
		if m.Kind == tar.TypeSymlink {
			body = m.Link
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

// Manifest is a manifest's text.
func Manifest(protocol, build, run string) string {
	s := "protocol = \"" + protocol + "\"\n"
	if build != "" {
		s += "build = '" + build + "'\n"
	}
	return s + "run = '" + run + "'\n"
}

// CEngine is a .tar.gz of Arena's example C engine (examples/c/engine.c, read from path)
// with a manifest that builds it with cc and runs it; an extra line of C, when not empty,
// is appended to the source (a syntax error, say).
func CEngine(t testing.TB, path, extra string) []byte {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return TarGz(t,
		Member{Name: "arena.toml", Body: Manifest("line", "cc -std=c99 -O2 -o engine engine.c", "./engine") + "game = \"othello\"\n"},
		Member{Name: "engine.c", Body: string(src) + extra},
	)
}
