package sandbox

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/arenaref/arena/players/hosting/cgroup"
)

// MountPoint is where Config.Dir appears in the sandbox; it is also the program's working
// directory.
const MountPoint = "/engine"

// SourcePoint is where a build sees Config.Dir, read-only, while it works in a copy of it
// at MountPoint.
const SourcePoint = "/engine-source"

// The uids that Command chooses from for a caller running as root whose Config.UID is 0:
// UIDBase up to UIDBase+UIDCount-1, far above the uids of people and services.
const (
	UIDBase  = 200000
	UIDCount = 65536
)

var (
	// ErrNoBwrap is returned (wrapped) when bwrap is not installed.
	ErrNoBwrap = errors.New("sandbox: bwrap not found (Debian package bubblewrap)")
	// ErrNoSetpriv is returned (wrapped) to a caller running as root when setpriv, with
	// which the sandbox leaves uid 0, is not installed.
	ErrNoSetpriv = errors.New("sandbox: setpriv not found (Debian package util-linux)")
)

// Limits bound one sandboxed program (every process it starts included where the kernel
// allows). A zero field takes DefaultLimits' value; a negative one is an error. Each is a
// resource limit of every process of the sandbox (setrlimit, inherited by what it
// starts), except TmpSize.
type Limits struct {
	// CPU is the CPU time of each process (RLIMIT_CPU, whole seconds, rounded up). A
	// process that spends it gets SIGXCPU, and SIGKILL one second later. It counts over
	// the process's whole life: for an engine that plays game after game, the thinking
	// time of all of them.
	CPU time.Duration
	// Memory is the address space of each process, in bytes (RLIMIT_AS, in KiB, rounded
	// down): what it has mapped, not what it has touched. Past it, malloc returns NULL
	// and mmap fails.
	Memory int64
	// Procs is how many processes and threads the sandbox may hold at once, its own init
	// (bwrap's) included (RLIMIT_NPROC, counted in the sandbox's user namespace: see the
	// package documentation on uids). Past it, fork and thread creation fail (EAGAIN).
	Procs int
	// FileSize is the largest file a process may write, in bytes (RLIMIT_FSIZE, in
	// blocks of 512 bytes, rounded down). A write past it gets SIGXFSZ, which kills the
	// writer unless it catches or ignores it (then the write fails with EFBIG).
	FileSize int64
	// TmpSize is the size of each of the sandbox's two private tmpfs, /tmp and /dev/shm,
	// in bytes. Past it, writes fail with ENOSPC.
	TmpSize int64
	// BuildSize is the size of a build's scratch space, the tmpfs at /engine in which it
	// works, in bytes: past it, its writes fail with ENOSPC. It also bounds the result
	// that Build copies back into Config.Dir.
	BuildSize int64
}

// DefaultLimits returns limits under which engines written in C, Go, Python or sh, and the
// C compiler, run comfortably (docs/security.md has the measurements):
//
//   - CPU: 1 hour per process. It bounds a runaway process, not thinking: the referee's
//     clocks do that. An engine process plays all the games of its player, so the limit
//     must exceed its thinking time over a whole tournament.
//   - Memory: 2 GiB of address space per process. A static Go program reserves about
//     700 MiB before it allocates anything (go1.26 on amd64 does not start with 680 MiB),
//     which leaves it over 1 GiB of heap; cc -O2 of an engine needs under 64 MiB.
//   - Procs: 64 plus twice the number of CPUs. A Go program runs a thread per CPU (its
//     GOMAXPROCS) plus a few; a build of cc -O2 needs 5 (bwrap's init, the shell, cc
//     and its stages).
//   - FileSize: 64 MiB, far above an engine's binary.
//   - TmpSize: 128 MiB each for /tmp and /dev/shm, taken from the machine's memory as
//     they fill.
//   - BuildSize: 256 MiB for a build's /engine, from the machine's memory too: an
//     engine's sources and binaries take a few MiB (a Go build's cache goes to /tmp).
func DefaultLimits() Limits {
	return Limits{
		CPU:       time.Hour,
		Memory:    2 << 30,
		Procs:     64 + 2*runtime.NumCPU(),
		FileSize:  64 << 20,
		TmpSize:   128 << 20,
		BuildSize: 256 << 20,
	}
}

// resolve fills zero fields with DefaultLimits' and refuses negative ones.
func (l Limits) resolve() (Limits, error) {
	d := DefaultLimits()
	if l.CPU < 0 || l.Memory < 0 || l.Procs < 0 || l.FileSize < 0 || l.TmpSize < 0 || l.BuildSize < 0 {
		return l, fmt.Errorf("sandbox: negative limit in %+v", l)
	}
	if l.CPU == 0 {
		l.CPU = d.CPU
	}
	if l.Memory == 0 {
		l.Memory = d.Memory
	}
	if l.Procs == 0 {
		l.Procs = d.Procs
	}
	if l.FileSize == 0 {
		l.FileSize = d.FileSize
	}
	if l.TmpSize == 0 {
		l.TmpSize = d.TmpSize
	}
	if l.BuildSize == 0 {
		l.BuildSize = d.BuildSize
	}
	return l, nil
}

// wrapper is the /bin/sh script that sets the limits inside the sandbox and then runs the
// program, its arguments ("$@"). Its $0, which the shell puts in front of its own error
// messages, is wrapperName. The soft CPU limit comes first: a hard limit below the soft
// one (unlimited until then) is refused.
func (l Limits) wrapper() string {
	cpu := int64((l.CPU + time.Second - 1) / time.Second)
	return fmt.Sprintf("echo 1000 >/proc/self/oom_score_adj 2>/dev/null; "+
		"ulimit -St %d && ulimit -Ht %d && ulimit -v %d && ulimit -f %d && ulimit -p %d && ulimit -c 0 || "+
		"{ echo \"$0: cannot set the limits\" >&2; exit 125; }; exec \"$@\"",
		cpu, cpu+1, max(l.Memory>>10, 1), max(l.FileSize>>9, 1), l.Procs)
}

const wrapperName = "arena-sandbox"

// Config is one sandbox.
type Config struct {
	// Dir holds the engine's own files. It is mounted at /engine (MountPoint), the
	// program's working directory. It must exist, and the sandbox's uid must be able to
	// reach it (Prepare).
	Dir string
	// Writable lets the program write Dir in place; a running engine may not. Build does
	// not use it: a build writes a scratch copy of Dir (see Build).
	Writable bool
	// Limits bound the program; zero fields take DefaultLimits' values.
	Limits Limits
	// UID is the uid the sandbox runs as when the caller runs as root; 0 chooses one from
	// Dir (DirUID). A caller that is not root cannot switch: the sandbox runs as the
	// caller, and UID must be 0 or the caller's own.
	UID int
	// Env is added to the program's environment, as KEY=VALUE, after (and over) PATH,
	// HOME=/tmp, TMPDIR=/tmp and LANG=C.UTF-8.
	Env []string
	// Cgroup, when set, is the cgroup the sandbox runs in: Command's command line joins
	// it before it starts anything (cgroup.Group.Wrap). See package cgroup.
	Cgroup *cgroup.Group

	// scratch (Build) mounts Dir read-only at SourcePoint and a tmpfs of Limits.BuildSize
	// at MountPoint, instead of Dir at MountPoint.
	scratch bool
}

// DirUID returns the uid that a sandbox of dir runs as when the caller is root and the
// Config's UID is 0: one of UIDCount uids from UIDBase, from a hash of dir's absolute
// path, links resolved. Two directories may draw the same uid (with a hundred engines, the odds are
// about 7%); docs/security.md says why that weakens nothing on kernels since 5.14.
func DirUID(dir string) int {
	h := fnv.New32a()
	h.Write([]byte(canonical(dir)))
	return UIDBase + int(h.Sum32()%UIDCount)
}

// canonical returns dir's absolute path with links resolved, as far as it can.
func canonical(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Clean(dir)
}

// sandboxUID returns the uid the sandbox of dir runs as, and whether the caller must
// switch to it (it is root).
func sandboxUID(want int, dir string) (uid int, switchTo bool, err error) {
	if os.Geteuid() != 0 {
		if want != 0 && want != os.Geteuid() {
			return 0, false, fmt.Errorf("sandbox: uid %d asked for, but only root can switch uids (running as %d)", want, os.Geteuid())
		}
		return os.Geteuid(), false, nil
	}
	switch {
	case want == 0:
		return DirUID(dir), true, nil
	case want < 0 || want > 1<<32-2:
		return 0, false, fmt.Errorf("sandbox: invalid uid %d", want)
	}
	return want, true, nil
}

// checkDir returns dir's canonical path, or why it cannot be a sandbox's directory.
func checkDir(dir string) (string, error) {
	if dir == "" {
		return "", errors.New("sandbox: no directory (Config.Dir)")
	}
	abs := canonical(dir)
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("sandbox: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("sandbox: %s is not a directory", abs)
	}
	return abs, nil
}

// Command returns the command line that runs argv in the sandbox cfg describes: env -i
// with the program's environment, then, when the caller runs as root, setpriv switching
// to the sandbox's uid, then bwrap, its options, "--", and the limits' wrapper with argv.
// argv[0] is looked up in the sandbox's PATH, or relative to /engine when it holds a
// slash ("./engine").
//
// The command line behaves as the program would on standard input, output and error, and
// exits with its status (128+N when a signal N killed it, as bwrap reports it). It is
// made to be started by players/engine, which makes it the init of a pid namespace of
// its own and kills its process group when done; it is safe started otherwise too, since
// the sandbox dies with the process that started it and takes everything it started
// with it.
func Command(cfg Config, argv []string) ([]string, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("sandbox: no command to run")
	}
	dir, err := checkDir(cfg.Dir)
	if err != nil {
		return nil, err
	}
	lim, err := cfg.Limits.resolve()
	if err != nil {
		return nil, err
	}
	env, err := environment(cfg.Env)
	if err != nil {
		return nil, err
	}
	uid, switchTo, err := sandboxUID(cfg.UID, dir)
	if err != nil {
		return nil, err
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoBwrap, err)
	}
	// bwrap's own processes, the sandbox's init among them, keep the environment bwrap
	// starts with, which any process of the sandbox reads in /proc/1/environ: env -i
	// starts setpriv and bwrap with the program's environment, nothing of the caller's,
	// whoever starts the command line and with whatever environment.
	envProg, err := exec.LookPath("env")
	if err != nil {
		return nil, fmt.Errorf("sandbox: env (coreutils) not found: %w", err)
	}
	cmd := append([]string{envProg, "-i", "--"}, env...)
	if switchTo {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNoSetpriv, err)
		}
		u := strconv.Itoa(uid)
		// Real, effective and saved ids all change, and the supplementary groups go:
		// nothing of root is left to regain.
		cmd = append(cmd, setpriv, "--reuid="+u, "--regid="+u, "--clear-groups", "--")
	}
	cmd = append(cmd, bwrap)
	cmd = append(cmd, bwrapOptions(dir, cfg.Writable, cfg.scratch, lim)...)
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		cmd = append(cmd, "--setenv", k, v)
	}
	cmd = append(cmd, "--", "/bin/sh", "-c", lim.wrapper(), wrapperName)
	cmd = append(cmd, argv...)
	if cfg.Cgroup != nil {
		cmd = cfg.Cgroup.Wrap(cmd)
	}
	return cmd, nil
}

// etcFiles are the files of /etc a sandbox sees, where the system has them: the dynamic
// linker's configuration, the user and group names, the name service's configuration,
// and the alternatives through which Debian names programs such as cc.
var etcFiles = []string{
	"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
	"/etc/passwd", "/etc/group", "/etc/nsswitch.conf",
	"/etc/alternatives",
}

// bwrapOptions returns bwrap's options for a sandbox of dir, mounted at MountPoint
// (writable or not), or for a build's scratch space (see Config.scratch). The order
// matters: the tmpfs go on /dev before it is made read-only, and the root is made
// read-only last, once everything is mounted on it.
func bwrapOptions(dir string, writable, scratch bool, lim Limits) []string {
	args := []string{
		"--die-with-parent",
		// Every namespace; --unshare-user as well, which --unshare-all only tries, so
		// that --disable-userns can forbid further user namespaces inside.
		"--unshare-all", "--unshare-user", "--disable-userns",
		"--new-session",
		"--hostname", "sandbox",
		"--ro-bind", "/usr", "/usr",
	}
	// /bin, /lib... are links into /usr on a merged-/usr system, directories elsewhere.
	for _, name := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		fi, err := os.Lstat(name)
		switch {
		case err != nil:
		case fi.Mode()&fs.ModeSymlink != 0:
			if target, err := os.Readlink(name); err == nil {
				args = append(args, "--symlink", target, name)
			}
		case fi.IsDir():
			args = append(args, "--ro-bind", name, name)
		}
	}
	for _, f := range etcFiles {
		args = append(args, "--ro-bind-try", f, f)
	}
	size := strconv.FormatInt(lim.TmpSize, 10)
	engine := []string{"--ro-bind", dir, MountPoint}
	switch {
	case scratch:
		engine = []string{"--ro-bind", dir, SourcePoint, "--size", strconv.FormatInt(lim.BuildSize, 10), "--tmpfs", MountPoint}
	case writable:
		engine[0] = "--bind"
	}
	args = append(args,
		"--proc", "/proc",
		"--dev", "/dev",
		// Without a size a tmpfs may take half the machine's memory: /dev/shm is one on
		// bwrap's /dev, and the root and /dev are tmpfs too, hence read-only below.
		"--size", size, "--tmpfs", "/dev/shm",
		"--size", size, "--tmpfs", "/tmp")
	args = append(args, engine...)
	return append(args,
		"--remount-ro", "/dev",
		"--remount-ro", "/",
		"--chdir", MountPoint,
		"--clearenv",
	)
}

// environment returns the program's environment: the base, then extra, which must be
// KEY=VALUE pairs.
func environment(extra []string) ([]string, error) {
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp", "TMPDIR=/tmp", "LANG=C.UTF-8"}
	for _, kv := range extra {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return nil, fmt.Errorf("sandbox: environment entry %q is not KEY=VALUE", kv)
		}
	}
	return append(env, extra...), nil
}

// Prepare hands dir to the uid its sandboxes run as (uid, or DirUID(dir) when uid is 0),
// for a caller running as root: it makes dir and everything in it owned by that uid and
// its group (links themselves, never what they point to), so that a build may write there
// and an engine read, and checks that the uid can reach dir through its parents, which
// need search permission for others (mode o+x, as 0711 or 0755 give). Call it after
// unpacking a submission and before Build or Command, never while a sandbox of dir runs:
// it walks the tree as it finds it, and a build could swap a directory for a link under
// its feet. For a caller that is not root there is nothing to hand over: the sandbox runs
// as the caller, and uid must be 0 or the caller's.
func Prepare(dir string, uid int) error {
	abs, err := checkDir(dir)
	if err != nil {
		return err
	}
	uid, switchTo, err := sandboxUID(uid, abs)
	if err != nil || !switchTo {
		return err
	}
	err = filepath.WalkDir(abs, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
	if err != nil {
		return fmt.Errorf("sandbox: prepare %s: %w", abs, err)
	}
	return reachable(abs, uid)
}

// reachable checks that uid, with no group but its own (as setpriv leaves it), has search
// permission on each directory above dir, by the permission bits (ACLs are not read).
func reachable(dir string, uid int) error {
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return nil
		}
		perm := fi.Mode().Perm()
		var bit fs.FileMode = 0o001
		switch {
		case int(st.Uid) == uid:
			bit = 0o100
		case int(st.Gid) == uid:
			bit = 0o010
		}
		if perm&bit == 0 {
			return fmt.Errorf("sandbox: uid %d cannot reach %s: %s has mode %v and owner %d:%d (give it o+x)", uid, dir, p, perm, st.Uid, st.Gid)
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// Available reports whether sandboxes work here: nil when bwrap (and, for a caller
// running as root, setpriv) is installed and a sandbox runs /bin/true, else an error
// saying what is missing or what bwrap said (typically that the kernel refuses
// unprivileged user namespaces).
func Available() error {
	if runtime.GOOS != "linux" {
		return fmt.Errorf("sandbox: bubblewrap sandboxes need Linux, not %s", runtime.GOOS)
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		return fmt.Errorf("%w: %v", ErrNoBwrap, err)
	}
	if os.Geteuid() == 0 {
		if _, err := exec.LookPath("setpriv"); err != nil {
			return fmt.Errorf("%w: %v", ErrNoSetpriv, err)
		}
	}
	dir, err := os.MkdirTemp("", "arena-sandbox-probe-")
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	argv, err := Command(Config{Dir: dir}, []string{"/bin/true"})
	if err != nil {
		return err
	}
	const probeTime = 10 * time.Second
	if log, err := run(context.Background(), argv, nil, probeTime); err != nil {
		return fmt.Errorf("sandbox: bwrap cannot make a sandbox here (%v): %s", err, strings.TrimSpace(string(log)))
	}
	return nil
}
