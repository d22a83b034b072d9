package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/arenaref/arena/players/hosting/archive"
)

// LogLimit is how much of a build's output Build returns: the last LogLimit bytes.
const LogLimit = 64 << 10

// ErrTimeout is returned (wrapped) by Build when the build ran out of wall time and was
// killed.
var ErrTimeout = errors.New("sandbox: wall time limit reached")

// ExitError is how a sandboxed program that failed ended: its exit status as bwrap passes
// it on, which, as a shell's, is 128+N when signal N killed the program.
type ExitError struct {
	Code int
}

// Signal returns the signal that a status above 128 stands for (SIGXCPU for the CPU
// limit, SIGXFSZ for the file size limit, SIGKILL...), or 0. A program that exits with
// such a status by itself is indistinguishable.
func (e *ExitError) Signal() syscall.Signal {
	if e.Code > 128 && e.Code < 128+65 {
		return syscall.Signal(e.Code - 128)
	}
	return 0
}

func (e *ExitError) Error() string {
	if s := e.Signal(); s != 0 {
		return fmt.Sprintf("sandbox: exit status %d (128+%d: %v)", e.Code, int(s), s)
	}
	return fmt.Sprintf("sandbox: exit status %d", e.Code)
}

// Build runs the shell command line shell (sh -c shell) in a sandbox of cfg, with
// nothing on its standard input, in a scratch copy of cfg.Dir, and copies what the build
// leaves there back into cfg.Dir if it succeeds.
//
// The build works in a tmpfs of cfg.Limits.BuildSize bytes at /engine (MountPoint), into
// which the sandbox first copies cfg.Dir (mounted read-only at SourcePoint): whatever it
// writes there, it cannot fill the disk that holds cfg.Dir, and its writes past
// BuildSize fail with ENOSPC. Once the build's shell exits with status 0, everything it
// left running is killed and the sandbox packs /engine into a tar.gz for Build, which
// unpacks it as a submitted archive is unpacked (package archive): at most BuildSize
// bytes in all, nothing but regular files and directories (a link, a FIFO or a device
// fails the build, ErrRefused). The result replaces cfg.Dir, which must be in a
// directory the caller may write (Build makes the result there first), and is handed to
// the sandbox's uid (Prepare). cfg.Writable is ignored.
//
// Build kills the build, everything it started included, when wall has passed or ctx
// ends, whichever comes first; wall must be positive. log is the end of the build's
// standard output and error, interleaved as written, and of bwrap's own complaints: its
// last LogLimit bytes. err is nil when the build exited with status 0 and its result
// was copied back; otherwise it says how the build ended: an *ExitError (errors.As) with
// its status, ErrTimeout (errors.Is), ctx's error, or why its result was refused.
func Build(ctx context.Context, cfg Config, shell string, wall time.Duration) (log []byte, err error) {
	if wall <= 0 {
		return nil, fmt.Errorf("sandbox: Build needs a positive wall time limit, not %v", wall)
	}
	cfg.Writable, cfg.scratch = false, true
	lim, err := cfg.Limits.resolve()
	if err != nil {
		return nil, err
	}
	argv, err := Command(cfg, []string{"/bin/sh", "-c", buildScript, buildName, shell})
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	// The result, read as it comes: a little over BuildSize at most, as gzip may make
	// incompressible data slightly larger.
	maxResult := lim.BuildSize + lim.BuildSize/64 + 64<<10
	result := make(chan []byte, 1)
	go func() {
		defer r.Close()
		b, _ := io.ReadAll(io.LimitReader(r, maxResult+1))
		_, _ = io.Copy(io.Discard, r)
		result <- b
	}()
	log, err = run(ctx, argv, nil, wall, w)
	w.Close()
	var data []byte
	select {
	case data = <-result:
	case <-time.After(time.Second): // a writer left holding the pipe: give up on it
		r.Close()
		data = <-result
	}
	if err != nil {
		return log, err
	}
	if int64(len(data)) > maxResult {
		return log, fmt.Errorf("%w: the build's result is more than %d bytes packed", archive.ErrRefused, maxResult)
	}
	dir, err := checkDir(cfg.Dir)
	if err != nil {
		return log, err
	}
	if err := replace(dir, data, lim); err != nil {
		return log, err
	}
	return log, Prepare(dir, cfg.UID)
}

// buildScript is what Build runs in its sandbox, after the limits' wrapper, with $1 the
// build's shell command and the result's pipe on descriptor 3, which the build does not
// get. kill -KILL -1 kills every process of the sandbox but bwrap's init and the script
// itself: nothing the build left running writes /engine while tar reads it. A build
// could still write descriptor 3 itself (through /proc); what it writes there is no
// more than any archive a student submits, and is unpacked with the same care.
const buildScript = `cp -a ` + SourcePoint + `/. ` + MountPoint + `/ || { echo "$0: cannot copy the sources into the build's space" >&2; exit 125; }
/bin/sh -c "$1" 3>&-
status=$?
kill -KILL -1 2>/dev/null
[ $status -eq 0 ] || exit $status
tar -C ` + MountPoint + ` -czf - . >&3 || { echo "$0: cannot pack the build's result" >&2; exit 125; }`

const buildName = "arena-build"

// replace puts the build's result, data (a tar.gz), in dir's place: it unpacks it beside
// dir first, with BuildSize for its limit, then swaps the two.
func replace(dir string, data []byte, lim Limits) error {
	next := dir + ".build"
	if err := os.RemoveAll(next); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	alim := archive.Limits{MaxArchive: int64(len(data)), MaxTotal: lim.BuildSize, MaxFile: lim.BuildSize, MaxFiles: maxResultFiles, MaxName: 1024, NoManifest: true}
	if _, err := archive.Unpack(data, next, alim); err != nil {
		if errors.Is(err, archive.ErrRefused) {
			return fmt.Errorf("the build's result is refused: %w", err)
		}
		return fmt.Errorf("sandbox: the build's result: %w", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	if err := os.Rename(next, dir); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	return nil
}

// maxResultFiles is how many files and directories a build's result may hold.
const maxResultFiles = 20000

// run runs argv, a sandbox's command line, with stdin (nil: nothing) on its standard input
// and extra on its descriptors from 3, until it exits, wall passes, or ctx ends, and returns the end of its output (standard
// output and error together) and how it ended, as Build does. It kills the command's
// process group: bwrap, and with it (--die-with-parent, and its pid namespace) the
// sandbox, whatever the program started.
func run(ctx context.Context, argv []string, stdin io.Reader, wall time.Duration, extra ...*os.File) ([]byte, error) {
	wctx, cancel := context.WithTimeout(ctx, wall)
	defer cancel()
	out := &tail{max: LogLimit}
	var (
		cmd *exec.Cmd
		err error
	)
	for _, attr := range startAttrs() {
		cmd = exec.CommandContext(wctx, argv[0], argv[1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.ExtraFiles = stdin, out, out, extra
		cmd.SysProcAttr = attr
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		// Should anything still hold the output open once bwrap is gone, stop reading.
		cmd.WaitDelay = time.Second
		if err = cmd.Start(); err == nil {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox: start %s: %w", argv[0], err)
	}
	err = cmd.Wait()
	// The group is killed in any case: nothing of it may outlive run, even where bwrap
	// exited before what it left behind was gone.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.bytes(), nil
	case ctx.Err() != nil:
		// The cause says why (the host's "the build took longer than ..."), or is ctx.Err().
		return out.bytes(), fmt.Errorf("sandbox: stopped: %w", context.Cause(ctx))
	case wctx.Err() != nil:
		return out.bytes(), fmt.Errorf("%w (%v); killed", ErrTimeout, wall)
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return out.bytes(), &ExitError{Code: exit.ExitCode()}
	}
	return out.bytes(), fmt.Errorf("sandbox: %w", err)
}

// tail is an io.Writer that keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.max { // trim now and then, not at every write
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.buf[max(0, len(t.buf)-t.max):]...)
}
