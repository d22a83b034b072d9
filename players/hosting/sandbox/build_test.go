//go:build linux

package sandbox

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/proctag"
	"github.com/arenaref/arena/players/hosting/archive"
)

// fill writes files of 1 MiB into the build's directory, up to 3 GiB, until a write
// fails, and says how many it wrote; then it exits with the status given.
func fill(status string) string {
	return `i=0; while [ $i -lt 3072 ] && head -c 1048576 /dev/zero >f$i 2>/dev/null; do i=$((i+1)); done; echo "wrote $i MiB"; exit ` + status
}

// TestBuildScratch: a build works in a scratch space of Limits.BuildSize, not in its
// directory: one that writes 3 GiB is stopped at the cap, and the directory receives
// only what a build that succeeds leaves, within the cap, and only regular files and
// directories. A build past its wall time is killed, with what it started.
func TestBuildScratch(t *testing.T) {
	requireBwrap(t)
	const buildSize = 8 << 20
	tests := []struct {
		name    string
		shell   string // $0 is the test's tag
		wall    time.Duration
		wantErr func(error) bool
		wantLog string   // in the log
		files   []string // the directory's files afterwards
	}{
		{"fills and fails", fill("1"), 20 * time.Second, exitCode(1), "wrote 7 MiB", []string{"engine.txt"}},
		{"fills and succeeds", fill("0"), 20 * time.Second, noError, "wrote 7 MiB",
			[]string{"engine.txt", "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7"}},
		{"one big file", "head -c 3221225472 /dev/zero >big; echo \"status $?\"; exit 1", 20 * time.Second, exitCode(1),
			"No space left on device", []string{"engine.txt"}},
		{"builds", "echo built >engine && mkdir -p out/bin && echo x >out/bin/y", 20 * time.Second, noError, "",
			[]string{"engine", "engine.txt", "out", "out/bin", "out/bin/y"}},
		{"removes its sources", "rm engine.txt && echo built >engine", 20 * time.Second, noError, "", []string{"engine"}},
		{"leaves a FIFO", "mkfifo arena.toml", 20 * time.Second, refusedErr, "", []string{"engine.txt"}},
		{"leaves a link out", "ln -s /etc/passwd arena.toml", 20 * time.Second, refusedErr, "", []string{"engine.txt"}},
		{"writes on after", "(sleep 1; echo late >late) & echo built >engine", 20 * time.Second, noError, "",
			[]string{"engine", "engine.txt"}},
		{"sleeps past its wall time", `sh -c "sleep 60; :" "$0"`, time.Second, func(err error) bool { return errors.Is(err, ErrTimeout) }, "",
			[]string{"engine.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, dir := mineDir(t)
			tag := proctag.Track(t, "sandbox-build")
			cfg := Config{Dir: dir, Limits: Limits{BuildSize: buildSize, FileSize: 4 << 30}}
			began := time.Now()
			// The tag is the build shell's $0, through sh -c "$1" in buildScript.
			log, err := Build(context.Background(), cfg, `exec /bin/sh -c '`+tt.shell+`' `+tag, tt.wall)
			took := time.Since(began)
			if !tt.wantErr(err) {
				t.Errorf("Build: %v; log:\n%.2000s", err, log)
			}
			if !strings.Contains(string(log), tt.wantLog) {
				t.Errorf("log lacks %q:\n%.2000s", tt.wantLog, log)
			}
			if got := tree(t, dir); strings.Join(got, " ") != strings.Join(tt.files, " ") {
				t.Errorf("the directory holds %q, want %q", got, tt.files)
			}
			if size := du(t, base); size > buildSize+1<<20 {
				t.Errorf("the directory takes %d bytes, over the build's cap of %d", size, buildSize)
			}
			noneLeft(t, tag)
			t.Logf("%v in %v", err, took.Round(time.Millisecond))
		})
	}
}

func noError(err error) bool    { return err == nil }
func refusedErr(err error) bool { return errors.Is(err, archive.ErrRefused) }
func exitCode(code int) func(error) bool {
	return func(err error) bool {
		var e *ExitError
		return errors.As(err, &e) && e.Code == code
	}
}

// tree lists the files and directories under dir, slash-separated, in lexical order.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// du is the size of the regular files under dir.
func du(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			fi, ierr := d.Info()
			if ierr == nil {
				n += fi.Size()
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
