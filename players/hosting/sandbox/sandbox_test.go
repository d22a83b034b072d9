//go:build linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCommandLine checks the command line Command builds, without running it.
func TestCommandLine(t *testing.T) {
	_, dir := newDir(t)
	tests := []struct {
		name     string
		writable bool
		bind     string
	}{
		{"run", false, "--ro-bind"},
		{"build", true, "--bind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Dir: dir, Writable: tt.writable, Env: []string{"GOMAXPROCS=1", "HOME=/engine"},
				Limits: Limits{CPU: 1500 * time.Millisecond, Memory: 64 << 20, Procs: 9, FileSize: 1 << 20, TmpSize: 2 << 20}}
			argv, err := Command(cfg, []string{"./engine", "--flag"})
			if err != nil {
				t.Fatal(err)
			}
			env := []string{"-i", "--", "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp", "TMPDIR=/tmp", "LANG=C.UTF-8", "GOMAXPROCS=1", "HOME=/engine"}
			if filepath.Base(argv[0]) != "env" || !slices.Equal(argv[1:len(env)+1], env) {
				t.Fatalf("argv starts %q, want env %q", argv[:min(len(argv), len(env)+1)], env)
			}
			argv = argv[len(env)+1:]
			if os.Geteuid() == 0 {
				u := strconv.Itoa(DirUID(dir))
				if want := []string{"--reuid=" + u, "--regid=" + u, "--clear-groups", "--"}; filepath.Base(argv[0]) != "setpriv" || !slices.Equal(argv[1:5], want) {
					t.Errorf("argv starts %q, want setpriv %q", argv[:5], want)
				}
				argv = argv[5:]
			}
			if filepath.Base(argv[0]) != "bwrap" {
				t.Fatalf("argv[0] = %q, want bwrap", argv[0])
			}
			joined := strings.Join(argv, " ")
			for _, want := range []string{
				"--die-with-parent", "--unshare-all", "--disable-userns", "--new-session",
				"--ro-bind /usr /usr", "--proc /proc", "--dev /dev",
				"--size 2097152 --tmpfs /tmp", "--size 2097152 --tmpfs /dev/shm",
				tt.bind + " " + dir + " /engine", "--remount-ro /dev", "--remount-ro /",
				"--chdir /engine", "--clearenv", "--setenv HOME /tmp", "--setenv GOMAXPROCS 1",
			} {
				if !strings.Contains(joined, want) {
					t.Errorf("command line lacks %q:\n%s", want, joined)
				}
			}
			// Config.Env comes after the defaults, so that it wins.
			if strings.Index(joined, "--setenv HOME /engine") < strings.Index(joined, "--setenv HOME /tmp") {
				t.Errorf("Env is not set after the defaults:\n%s", joined)
			}
			sep := slices.Index(argv, "--")
			if sep < 0 {
				t.Fatalf("no -- in %q", argv)
			}
			tail := argv[sep+1:]
			if len(tail) != 6 || tail[0] != "/bin/sh" || tail[1] != "-c" || tail[3] != wrapperName || tail[4] != "./engine" || tail[5] != "--flag" {
				t.Fatalf("after --: %q", tail)
			}
			for _, want := range []string{"ulimit -St 2 ", "ulimit -Ht 3 ", "ulimit -v 65536 ", "ulimit -f 2048 ", "ulimit -p 9 ", "ulimit -c 0 ", `exec "$@"`} {
				if !strings.Contains(tail[2], want) {
					t.Errorf("wrapper lacks %q: %s", want, tail[2])
				}
			}
		})
	}
}

func TestCommandErrors(t *testing.T) {
	_, dir := newDir(t)
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  Config
		argv []string
		want string
	}{
		{"no command", Config{Dir: dir}, nil, "no command"},
		{"no dir", Config{}, []string{"x"}, "no directory"},
		{"missing dir", Config{Dir: filepath.Join(dir, "nope")}, []string{"x"}, "no such file"},
		{"file for dir", Config{Dir: file}, []string{"x"}, "not a directory"},
		{"negative limit", Config{Dir: dir, Limits: Limits{Memory: -1}}, []string{"x"}, "negative limit"},
		{"bad env", Config{Dir: dir, Env: []string{"NOEQUALS"}}, []string{"x"}, "not KEY=VALUE"},
		{"empty env key", Config{Dir: dir, Env: []string{"=x"}}, []string{"x"}, "not KEY=VALUE"},
		{"negative uid", Config{Dir: dir, UID: -5}, []string{"x"}, "uid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Command(tt.cfg, tt.argv)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Command = %v, want an error with %q", err, tt.want)
			}
		})
	}
}

func TestDirUID(t *testing.T) {
	a, b := DirUID("/srv/arena/engines/alice"), DirUID("/srv/arena/engines/bob")
	for _, u := range []int{a, b} {
		if u < UIDBase || u >= UIDBase+UIDCount {
			t.Errorf("DirUID = %d, outside [%d, %d)", u, UIDBase, UIDBase+UIDCount)
		}
	}
	if a == b {
		t.Errorf("alice and bob both get uid %d", a)
	}
	if c := DirUID("/srv/arena/engines/alice/../alice/"); c != a {
		t.Errorf("DirUID of the same directory spelt otherwise = %d, want %d", c, a)
	}
}

func TestLimitsDefaults(t *testing.T) {
	got, err := Limits{CPU: time.Second}.resolve()
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultLimits()
	want.CPU = time.Second
	if got != want {
		t.Errorf("resolve = %+v, want %+v", got, want)
	}
}

func TestTail(t *testing.T) {
	tl := &tail{max: 10}
	for _, s := range []string{"abc", "defghijklmnop", "q", strings.Repeat("r", 25), "stu"} {
		tl.Write([]byte(s))
	}
	if got := string(tl.bytes()); got != "rrrrrrrstu" {
		t.Errorf("tail = %q, want %q", got, "rrrrrrrstu")
	}
}

func TestExitError(t *testing.T) {
	tests := []struct {
		code int
		want string
	}{
		{3, "sandbox: exit status 3"},
		{152, "sandbox: exit status 152 (128+24: CPU time limit exceeded)"},
		{137, "sandbox: exit status 137 (128+9: killed)"},
		{255, "sandbox: exit status 255"},
	}
	for _, tt := range tests {
		if got := (&ExitError{tt.code}).Error(); got != tt.want {
			t.Errorf("ExitError{%d} = %q, want %q", tt.code, got, tt.want)
		}
	}
}

func TestAvailable(t *testing.T) {
	requireBwrap(t)
	// Without bwrap on PATH, Available and Command say so.
	t.Setenv("PATH", t.TempDir())
	if err := Available(); !errors.Is(err, ErrNoBwrap) {
		t.Errorf("Available without bwrap = %v, want ErrNoBwrap", err)
	}
	_, dir := newDir(t)
	if _, err := Command(Config{Dir: dir}, []string{"./engine"}); !errors.Is(err, ErrNoBwrap) {
		t.Errorf("Command without bwrap = %v, want ErrNoBwrap", err)
	}
}

// TestBuild: Build's output, statuses and its limit on the log.
func TestBuild(t *testing.T) {
	requireBwrap(t)
	dir := emptyDir(t)
	tests := []struct {
		name    string
		shell   string
		wantLog string // the log's end
		wantErr func(error) bool
	}{
		{"ok", "echo out; echo err >&2; echo built > result", "out\nerr\n", func(err error) bool { return err == nil }},
		{"status", "echo failing; exit 3", "failing\n", func(err error) bool {
			var e *ExitError
			return errors.As(err, &e) && e.Code == 3
		}},
		{"missing command", "no-such-compiler x.c", "not found\n", func(err error) bool {
			var e *ExitError
			return errors.As(err, &e) && e.Code == 127
		}},
		{"long log", "head -c 200000 /dev/zero | tr '\\0' x; echo; echo END", "x\nEND\n", func(err error) bool { return err == nil }},
		// The limits as the build sees them (DefaultLimits), and its OOM score.
		{"limits", "ulimit -t; ulimit -Ht; ulimit -v; ulimit -f; ulimit -p; ulimit -c; cat /proc/self/oom_score_adj",
			fmt.Sprintf("3600\n3601\n2097152\n131072\n%d\n0\n1000\n", DefaultLimits().Procs), func(err error) bool { return err == nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log, err := Build(context.Background(), Config{Dir: dir}, tt.shell, 20*time.Second)
			if !tt.wantErr(err) {
				t.Errorf("Build: unexpected error %v; log:\n%s", err, log)
			}
			if !strings.HasSuffix(string(log), tt.wantLog) {
				t.Errorf("log ends %q, want %q", log[max(0, len(log)-100):], tt.wantLog)
			}
			if len(log) > LogLimit {
				t.Errorf("log of %d bytes, more than LogLimit", len(log))
			}
		})
	}
	if data, err := os.ReadFile(filepath.Join(dir, "result")); err != nil || string(data) != "built\n" {
		t.Errorf("the build's file: %q, %v", data, err)
	}
	if _, err := Build(context.Background(), Config{Dir: dir}, "true", 0); err == nil {
		t.Error("Build with no wall time: no error")
	}
}
