//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/proctag"
	"github.com/arenaref/arena/players/engine"
)

// Each test here runs a hostile program in a sandbox and checks that the sandbox holds it
// and that the machine is none the worse: the test itself goes on working, and nothing
// carrying the test's tag is left running.

// noneLeft fails the test if any process carrying tag is still running shortly after.
func noneLeft(t *testing.T, tag string) {
	t.Helper()
	left, err := proctag.WaitGone(tag, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Errorf("still running after the sandbox ended: %v", left)
	}
}

// TestForkBomb: a fork bomb is held at Limits.Procs processes, the machine can still start
// processes meanwhile, and the bomb is killed whole when the sandbox ends.
func TestForkBomb(t *testing.T) {
	requireBwrap(t)
	const procs = 16
	tests := []struct {
		name string
		argv func(tag string) []string
		// sticks: the bomb stays at its limit and runs until the wall time limit. The
		// shell's dies out instead, within milliseconds, since a dash that fails to fork
		// exits; its first shell then sleeps until the wall time limit, or exits at once
		// if the bomb made its own fork fail.
		sticks bool
	}{
		{"sh", func(tag string) []string {
			// A function named b, not ":", which dash, being POSIX, keeps as its builtin.
			return []string{"/bin/sh", "-c", "b() { b | b & }; b; sleep 5", tag}
		}, false},
		{"C", func(tag string) []string { return []string{"./forkbomb", tag} }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, dir := newDir(t)
			compileC(t, "forkbomb", dir)
			prepare(t, dir)
			tag := proctag.Track(t, "sandbox-forkbomb")
			cfg := Config{Dir: dir, Limits: Limits{Procs: procs, CPU: 5 * time.Second}}
			type result struct {
				out string
				err error
			}
			argv, err := Command(cfg, tt.argv(tag))
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan result, 1)
			go func() {
				out, err := run(context.Background(), argv, nil, 1500*time.Millisecond)
				done <- result{string(out), err}
			}()
			most, forks := 0, 0
			var res result
		watch:
			for {
				select {
				case res = <-done:
					break watch
				case <-time.After(20 * time.Millisecond):
				}
				found, err := proctag.Find(tag)
				if err != nil {
					t.Fatal(err)
				}
				most = max(most, len(found))
				// The machine still starts processes (this test runs as another user).
				if err := exec.Command("/bin/true").Run(); err != nil {
					t.Errorf("the machine cannot start a process during the bomb: %v", err)
				}
				forks++
			}
			var exit *ExitError
			if !errors.Is(res.err, ErrTimeout) && (tt.sticks || !errors.As(res.err, &exit) || exit.Code != 2) {
				t.Errorf("the bomb ended with %v, want the wall time limit", res.err)
			}
			if !tt.sticks && !strings.Contains(res.out, "Cannot fork") {
				t.Errorf("the shell never failed to fork; output:\n%.500s", res.out)
			}
			// The sandbox's processes, bwrap's init among them, plus bwrap outside: one
			// scan of /proc is not one instant, so a few that died and were replaced
			// meanwhile may count too.
			if most > procs+4 {
				t.Errorf("up to %d processes of the bomb at once, with a limit of %d", most, procs)
			}
			if tt.sticks && most < procs {
				t.Errorf("at most %d processes of the bomb seen at once: it never reached its limit of %d", most, procs)
			}
			t.Logf("at most %d processes of the bomb seen at once (limit %d); the machine started %d processes meanwhile; %v", most, procs, forks, res.err)
			noneLeft(t, tag)
		})
	}
}

// TestProcsPerSandbox: the process limit counts the processes of one sandbox, not of its
// uid: two sandboxes with the same uid, side by side, each start Procs-2 processes
// (bwrap's init and the program itself take two). This is what makes a uid shared by
// two sandboxes harmless (Linux 5.14 and later count RLIMIT_NPROC per user namespace).
func TestProcsPerSandbox(t *testing.T) {
	requireBwrap(t)
	if os.Geteuid() != 0 {
		t.Skip("only root can give two sandboxes the same uid on purpose")
	}
	tag := proctag.Track(t, "sandbox-procs")
	const procs = 10
	outs := make(chan string, 2)
	for range 2 {
		_, dir := newDir(t)
		compileC(t, "forkcount", dir)
		if err := Prepare(dir, UIDBase+1); err != nil {
			t.Fatal(err)
		}
		argv, err := Command(Config{Dir: dir, UID: UIDBase + 1, Limits: Limits{Procs: procs}}, []string{"./forkcount", "100", tag})
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			out, err := run(context.Background(), argv, nil, 10*time.Second)
			outs <- fmt.Sprint(strings.TrimSpace(string(out)), " ", err)
		}()
	}
	for range 2 {
		if got, want := <-outs, fmt.Sprintf("forked %d: Resource temporarily unavailable <nil>", procs-2); got != want {
			t.Errorf("forkcount in one of two sandboxes: %q, want %q", got, want)
		}
	}
	noneLeft(t, tag)
}

// TestMemoryHog: a program that allocates and touches memory without end gets no more
// than Limits.Memory.
func TestMemoryHog(t *testing.T) {
	requireBwrap(t)
	_, dir := newDir(t)
	compileC(t, "memhog", dir)
	prepare(t, dir)
	tag := proctag.Track(t, "sandbox-memhog")
	const limit = 64 // MiB
	out, err := inSandbox(t, context.Background(), Config{Dir: dir, Limits: Limits{Memory: limit << 20}}, []string{"./memhog", "1024", tag}, 10*time.Second)
	if err != nil {
		t.Fatalf("memhog: %v\n%s", err, out)
	}
	var got int
	if _, err := fmt.Sscanf(out, "malloc failed after %d MiB", &got); err != nil {
		t.Fatalf("memhog said %q", out)
	}
	if got >= limit || got < limit/2 {
		t.Errorf("memhog got %d MiB under a limit of %d MiB", got, limit)
	}
	t.Logf("memhog: %s", strings.TrimSpace(out))
	noneLeft(t, tag)
}

// TestDiskFiller: writes stop at Limits.FileSize for a file and at Limits.TmpSize for
// /tmp and /dev/shm; a running engine cannot write /engine, nor anything but those two,
// and nothing it writes reaches the host's disk.
func TestDiskFiller(t *testing.T) {
	requireBwrap(t)
	const (
		fileSize = 1 << 20
		tmpSize  = 3 << 20
	)
	lim := Limits{FileSize: fileSize, TmpSize: tmpSize}
	tests := []struct {
		name     string
		writable bool
		sh       string
		want     []string // the lines the script must print
	}{
		{"file past FileSize", false,
			`head -c 2097152 /dev/zero >/tmp/big; echo "status $?"; wc -c </tmp/big`,
			[]string{"status 153", "1048576"}}, // 153 = 128+SIGXFSZ
		{"file past FileSize, SIGXFSZ ignored", false,
			`trap '' XFSZ; head -c 2097152 /dev/zero >/tmp/big; echo "status $?"; wc -c </tmp/big`,
			[]string{"status 1", "1048576"}}, // head: EFBIG
		// 3 MiB hold six files of half a MiB, but for the page the tag's file takes in /tmp.
		{"/tmp past TmpSize", false, fillScript("/tmp"), []string{"full after 5 files", "tmpfs 3072"}},
		{"/dev/shm past TmpSize", false, fillScript("/dev/shm"), []string{"full after 6 files", "tmpfs 3072"}},
		{"read-only elsewhere", false,
			`for f in /engine/x /x /dev/x /usr/x /etc/x /proc/x /bin/x; do echo x 2>/dev/null >$f && echo "wrote $f"; done; echo done`,
			[]string{"done"}},
		{"/engine in a build, past FileSize", true,
			`head -c 2097152 /dev/zero >/engine/big; echo "status $?"; wc -c </engine/big`,
			[]string{"status 153", "1048576"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, dir := mineDir(t)
			tag := proctag.Track(t, "sandbox-disk")
			// First a file named after the tag in /tmp, which must not reach the host's;
			// the shell's complaints are left out.
			out, err := script(t, Config{Dir: dir, Writable: tt.writable, Limits: lim}, tag, "exec 2>/dev/null; echo x >/tmp/$0; "+tt.sh)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got := lines(out); !slices.Equal(got, tt.want) {
				t.Errorf("the script said %q, want %q", got, tt.want)
			}
			if _, err := os.Stat(filepath.Join(os.TempDir(), tag)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the sandbox's /tmp/%s is on the host: %v", tag, err)
			}
			want := []string{"engine.txt"}
			if tt.writable {
				want = []string{"big", "engine.txt"}
			}
			if got := listDir(t, dir); !slices.Equal(got, want) {
				t.Errorf("the host's engine directory holds %q, want %q", got, want)
			}
			noneLeft(t, tag)
		})
	}
}

// fillScript writes files of half a MiB into dir until one fails, then says after how
// many, and how full the tmpfs is (KiB).
func fillScript(dir string) string {
	return `i=0; while [ $i -lt 100 ] && head -c 524288 /dev/zero >` + dir + `/f$i; do i=$((i+1)); done; ` +
		`echo "full after $i files"; df -k ` + dir + ` | awk 'NR==2 {print $1, $3}'`
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestNetwork: a sandboxed program reaches neither a listener on the host's loopback nor
// the Internet, while the host reaches the listener.
func TestNetwork(t *testing.T) {
	requireBwrap(t)
	dir := emptyDir(t)
	tag := proctag.Track(t, "sandbox-net")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan string, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			line, _ := bufio.NewReader(c).ReadString('\n')
			accepted <- strings.TrimSpace(line)
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	sh := `for hp in 127.0.0.1/` + port + ` 1.1.1.1/53; do ` +
		`if timeout 3 bash -c "echo sandbox >/dev/tcp/$hp" 2>/dev/null; then echo "reached $hp"; else echo "failed $hp"; fi; done; ` +
		`awk 'NR>2 {print $1}' /proc/net/dev`
	out, err := script(t, Config{Dir: dir}, tag, sh)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"failed 127.0.0.1/" + port, "failed 1.1.1.1/53"} {
		if !slices.Contains(lines(out), want) {
			t.Errorf("the sandbox said %q, want a line %q", lines(out), want)
		}
	}
	if strings.Contains(out, "reached") {
		t.Errorf("the sandbox reached the network:\n%s", out)
	}
	if ifaces := lines(out)[2:]; !slices.Equal(ifaces, []string{"lo:"}) {
		t.Errorf("the sandbox's network interfaces: %q, want only lo", ifaces)
	}
	// The listener works: the host reaches it.
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(c, "host")
	c.Close()
	ln.Close()
	var got []string
	for line := range accepted {
		got = append(got, line)
	}
	if !slices.Equal(got, []string{"host"}) {
		t.Errorf("the listener heard from %q, want only the host", got)
	}
	noneLeft(t, tag)
}

// TestReadOutside: the sandbox sees none of the host's files but its own directory and the
// system: not the files next to its directory, through links or otherwise, not this
// test's source, not the host's home or secrets.
func TestReadOutside(t *testing.T) {
	requireBwrap(t)
	base, dir := newDir(t)
	for _, f := range []string{"credentials", "arena.db"} {
		if err := os.WriteFile(filepath.Join(base, f), []byte("SECRET "+f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "engine.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Links a submission could carry: relative and absolute, to a neighbour and to /.
	for name, target := range map[string]string{
		"up":   "../credentials",
		"abs":  filepath.Join(base, "arena.db"),
		"root": "/",
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	prepare(t, dir)
	src, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tag := proctag.Track(t, "sandbox-read")
	absent := []string{
		base, filepath.Join(base, "credentials"), filepath.Join(base, "arena.db"), dir,
		src, filepath.Join(src, "sandbox.go"), "/root", "/home", "/work", "/var", "/srv",
		"/mnt", "/opt", "/run", "/sys", "/etc/shadow", "/etc/hostname", "/etc/ssh",
	}
	sh := `ls -A /engine; echo ---; ls -A /; echo ---; ` +
		`cat ../credentials up abs root/root/x /engine/../credentials 2>/dev/null; ` +
		`for p in "$@"; do [ -e "$p" ] && echo "visible $p"; done; echo end`
	cmd, err := Command(Config{Dir: dir}, append([]string{"/bin/sh", "-c", sh, tag}, absent...))
	if err != nil {
		t.Fatal(err)
	}
	outb, err := run(context.Background(), cmd, nil, 10*time.Second)
	out := string(outb)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	parts := strings.Split(out, "---\n")
	if len(parts) != 3 {
		t.Fatalf("output:\n%s", out)
	}
	if got, want := lines(parts[0]), []string{"abs", "engine.txt", "root", "up"}; !slices.Equal(got, want) {
		t.Errorf("/engine holds %q, want %q", got, want)
	}
	if got, want := lines(parts[1]), []string{"bin", "dev", "engine", "etc", "lib", "lib64", "proc", "sbin", "tmp", "usr"}; !slices.Equal(got, want) {
		t.Logf("/ holds %q (on this system %q was expected)", got, want)
	}
	for _, l := range lines(parts[1]) {
		if !slices.Contains([]string{"bin", "dev", "engine", "etc", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "tmp", "usr"}, l) {
			t.Errorf("the sandbox's / holds %q", l)
		}
	}
	if strings.Contains(out, "SECRET") {
		t.Errorf("the sandbox read a neighbour of its directory:\n%s", out)
	}
	if got := lines(parts[2]); !slices.Equal(got, []string{"end"}) {
		t.Errorf("visible in the sandbox: %q", got)
	}
	noneLeft(t, tag)
}

// stubborn is a program that never exits and ignores SIGTERM, and so does a child of it
// that left its session and process group.
const stubborn = `trap '' TERM; setsid /bin/sh -c 'trap "" TERM; while :; do sleep 1; done' "$0" & while :; do sleep 1; done`

// TestNeverExits: a program that never exits and ignores SIGTERM, with a child that left
// its session, ends with everything it started when its sandbox's context, wall time or
// engine ends, or its parent dies.
func TestNeverExits(t *testing.T) {
	requireBwrap(t)
	dir := emptyDir(t)
	tests := []struct {
		name string
		// end starts the sandbox's command line, waits until both stubborn processes run
		// (started), then ends it in its way, and returns once it has ended.
		end func(t *testing.T, argv []string, started func())
	}{
		{"context", func(t *testing.T, argv []string, started func()) {
			ctx, cancel := context.WithCancel(context.Background())
			go func() { started(); cancel() }()
			if _, err := run(ctx, argv, nil, time.Minute); !errors.Is(err, context.Canceled) {
				t.Errorf("run = %v, want context.Canceled", err)
			}
		}},
		{"wall time", func(t *testing.T, argv []string, started func()) {
			go started()
			if _, err := run(context.Background(), argv, nil, 1500*time.Millisecond); !errors.Is(err, ErrTimeout) {
				t.Errorf("run = %v, want ErrTimeout", err)
			}
		}},
		{"engine closed", func(t *testing.T, argv []string, started func()) {
			p, err := engine.Start(context.Background(), argv, engine.Options{QuitTimeout: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			started()
			if err := p.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			t.Logf("engine containment %v; %s", p.Containment(), p.Ending())
		}},
		{"parent killed", func(t *testing.T, argv []string, started func()) {
			enc, _ := json.Marshal(argv)
			helper := exec.Command(os.Args[0], "-test.run=^$")
			helper.Env = append(os.Environ(), helperEnv+"=parent", argvEnv+"="+string(enc))
			helper.Stderr = os.Stderr
			if err := helper.Start(); err != nil {
				t.Fatal(err)
			}
			started()
			helper.Process.Signal(syscall.SIGKILL)
			helper.Wait()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tag := proctag.Track(t, "sandbox-stubborn")
			argv, err := Command(Config{Dir: dir}, []string{"/bin/sh", "-c", stubborn, tag})
			if err != nil {
				t.Fatal(err)
			}
			started := func() {
				// Two shells, bwrap outside and bwrap's init inside.
				if found, _ := proctag.WaitFor(tag, 4, 5*time.Second); len(found) < 4 {
					t.Errorf("the stubborn program did not start: %v", found)
				}
			}
			began := time.Now()
			tt.end(t, argv, started)
			noneLeft(t, tag)
			t.Logf("ended within %v", time.Since(began).Round(time.Millisecond))
		})
	}
}

// TestCPULimit: a busy loop is killed once it has spent Limits.CPU.
func TestCPULimit(t *testing.T) {
	requireBwrap(t)
	dir := emptyDir(t)
	tag := proctag.Track(t, "sandbox-cpu")
	began := time.Now()
	out, err := script(t, Config{Dir: dir, Limits: Limits{CPU: time.Second}}, tag, "while :; do :; done")
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Signal() != syscall.SIGXCPU {
		t.Fatalf("the busy loop ended with %v, want SIGXCPU\n%s", err, out)
	}
	if took := time.Since(began); took > 8*time.Second {
		t.Errorf("the busy loop ran %v", took)
	}
	noneLeft(t, tag)
}
