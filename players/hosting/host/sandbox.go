package host

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// Sandbox runs the programs of submitted engines, each confined to its own directory.
type Sandbox interface {
	// Command wraps argv (run in dir, read-only) into the argv to execute.
	Command(dir string, argv []string) ([]string, error)
	// Build runs the shell command in dir (writable) and returns the output's tail.
	Build(ctx context.Context, dir, shell string) (log []byte, err error)
}

// maxBuildOutput is how much of a build's output Unsandboxed keeps: its tail.
const maxBuildOutput = 64 << 10

// Unsandboxed is a Sandbox that confines nothing: builds and engines run as plain
// processes of the host's user, with its rights and its view of the file system. It is
// for tests, and for a host whose every engine is trusted (arena host --no-sandbox).
type Unsandboxed struct{}

var _ Sandbox = Unsandboxed{}

// Command returns argv with a relative program path (./engine) made absolute in dir; a
// bare name (python3) is looked up in PATH when it runs.
func (Unsandboxed) Command(dir string, argv []string) ([]string, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("no command")
	}
	out := append([]string(nil), argv...)
	if strings.Contains(out[0], "/") && !filepath.IsAbs(out[0]) {
		out[0] = filepath.Join(dir, out[0])
	}
	return out, nil
}

// Build runs shell with sh -c in dir, in a process group of its own that is killed when
// ctx ends or the shell exits, and returns the tail of its output (standard output and
// error together).
func (Unsandboxed) Build(ctx context.Context, dir, shell string) ([]byte, error) {
	out := &tail{max: maxBuildOutput}
	cmd := exec.Command("sh", "-c", shell)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		err = fmt.Errorf("stopped: %w", context.Cause(ctx))
	}
	// Whatever the build left running goes with it.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return out.bytes(), err
}

// tail keeps the last max bytes written to it. It is safe for concurrent use.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// line appends one line (a line of an engine's standard error).
func (t *tail) line(s string) { _, _ = t.Write([]byte(s + "\n")) }

func (t *tail) bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.buf...)
}
