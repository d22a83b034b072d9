package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"
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

// Build runs the shell command line shell (sh -c shell) in a sandbox of cfg in which it
// may write cfg.Dir (cfg.Writable is taken as true), with nothing on its standard input.
// It kills the build, everything it started included, when wall has passed or ctx ends,
// whichever comes first; wall must be positive. log is the end of the build's standard
// output and error, interleaved as written, and of bwrap's own complaints: its last
// LogLimit bytes. err is nil when the build exited with status 0; otherwise it says how
// the build ended: an *ExitError (errors.As) with its status, ErrTimeout (errors.Is), or
// ctx's error.
func Build(ctx context.Context, cfg Config, shell string, wall time.Duration) (log []byte, err error) {
	if wall <= 0 {
		return nil, fmt.Errorf("sandbox: Build needs a positive wall time limit, not %v", wall)
	}
	cfg.Writable = true
	argv, err := Command(cfg, []string{"/bin/sh", "-c", shell})
	if err != nil {
		return nil, err
	}
	return run(ctx, argv, nil, wall)
}

// run runs argv, a sandbox's command line, with stdin (nil: nothing) on its standard input
// until it exits, wall passes, or ctx ends, and returns the end of its output (standard
// output and error together) and how it ended, as Build does. It kills the command's
// process group: bwrap, and with it (--die-with-parent, and its pid namespace) the
// sandbox, whatever the program started.
func run(ctx context.Context, argv []string, stdin io.Reader, wall time.Duration) ([]byte, error) {
	wctx, cancel := context.WithTimeout(ctx, wall)
	defer cancel()
	out := &tail{max: LogLimit}
	var (
		cmd *exec.Cmd
		err error
	)
	for _, attr := range startAttrs() {
		cmd = exec.CommandContext(wctx, argv[0], argv[1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, out, out
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
		return out.bytes(), fmt.Errorf("sandbox: stopped: %w", ctx.Err())
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
