package gnugo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DebianPath is where Debian's gnugo package installs the program, a directory not on
// every $PATH.
const DebianPath = "/usr/games/gnugo"

// Errors of the engine's life.
var (
	// ErrNotFound: there is no GNU Go program to start.
	ErrNotFound = errors.New("gnugo: program not found (install Debian's gnugo package, or set ARENA_GNUGO to its path)")
	// ErrClosed: the engine was closed, or broke earlier (the first error says why).
	ErrClosed = errors.New("gnugo: engine closed")
)

// quitGrace is how long Close waits for GNU Go to answer quit and exit before killing it.
const quitGrace = 2 * time.Second

// Find returns the GNU Go program to run: $ARENA_GNUGO when set (which must exist), else
// gnugo on $PATH, else DebianPath. It wraps ErrNotFound when there is none.
func Find() (string, error) {
	if p := os.Getenv("ARENA_GNUGO"); p != "" {
		return lookPath(p, "ARENA_GNUGO=")
	}
	if p, err := exec.LookPath("gnugo"); err == nil {
		return p, nil
	}
	return lookPath(DebianPath, "")
}

func lookPath(p, what string) (string, error) {
	path, err := exec.LookPath(p)
	if err != nil {
		return "", fmt.Errorf("%w: %s%s: %v", ErrNotFound, what, p, err)
	}
	return path, nil
}

// Config says how to start GNU Go.
type Config struct {
	// Program is the path of the program; "" finds it (Find).
	Program string
	// Level is --level, GNU Go's strength, which sets both how much it reads before a
	// move and how deep its tactical reading goes; 0 leaves GNU Go's default, 10.
	Level int
	// Seed is --seed, the seed of GNU Go's random choices among moves of equal value; 0
	// leaves it to GNU Go, which then seeds from the clock.
	Seed uint32
	// Args are further flags ("--chinese-rules", "--never-resign").
	Args []string
}

// Engine is a running GNU Go. Its methods may be called from several goroutines; GTP
// commands are sent one at a time.
type Engine struct {
	program string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	replies chan replyOrError
	exited  chan struct{} // closed once the process has been waited for
	stop    chan struct{} // closed when the engine breaks or closes: the reader leaves
	stderr  *tail

	mu     sync.Mutex
	nextID int
	broken error // non-nil once the engine cannot be used: why
}

type replyOrError struct {
	rep reply
	err error
}

// Start runs GNU Go in GTP mode and checks that it answers. ctx bounds only the start
// (the program's life ends with Close, not with ctx).
func Start(ctx context.Context, cfg Config) (*Engine, error) {
	program := cfg.Program
	var err error
	if program == "" {
		program, err = Find()
	} else {
		program, err = lookPath(program, "")
	}
	if err != nil {
		return nil, err
	}
	args := []string{"--mode", "gtp", "--quiet"}
	if cfg.Level != 0 {
		args = append(args, "--level", strconv.Itoa(cfg.Level))
	}
	if cfg.Seed != 0 {
		args = append(args, "--seed", strconv.FormatUint(uint64(cfg.Seed), 10))
	}
	args = append(args, cfg.Args...)
	cmd := exec.Command(program, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("gnugo: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("gnugo: %w", err)
	}
	e := &Engine{
		program: program,
		cmd:     cmd,
		stdin:   stdin,
		replies: make(chan replyOrError, 1),
		exited:  make(chan struct{}),
		stop:    make(chan struct{}),
		stderr:  &tail{max: 4 << 10},
	}
	cmd.Stderr = e.stderr
	cmd.WaitDelay = quitGrace // a child that keeps stderr open must not hold Wait
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("gnugo: start %s: %w", program, err)
	}
	go e.readReplies(bufio.NewReader(stdout))
	go func() {
		cmd.Wait()
		close(e.exited)
	}()
	if _, err := e.Command(ctx, "protocol_version"); err != nil {
		e.Close()
		return nil, fmt.Errorf("gnugo: %s %s does not speak GTP: %w", program, strings.Join(args, " "), err)
	}
	return e, nil
}

// readReplies passes GNU Go's replies to Command until its output ends or is not GTP.
func (e *Engine) readReplies(r *bufio.Reader) {
	for {
		rep, err := readReply(r)
		select {
		case e.replies <- replyOrError{rep, err}:
		case <-e.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// CommandError is GNU Go's refusal of a command: its "? message" reply.
type CommandError struct {
	Command string // the command as sent, without its id
	Message string // GNU Go's text, such as "illegal move"
}

func (e *CommandError) Error() string {
	return fmt.Sprintf("gnugo: %s: %s", e.Command, e.Message)
}

// Command sends one GTP command (its words joined by spaces) and returns the text of
// the reply. A refusal is a *CommandError and leaves the engine usable. When ctx ends
// first, or the reply is not GTP, or GNU Go dies, the engine is killed: the error says
// why, and so does every later command.
func (e *Engine) Command(ctx context.Context, words ...string) (string, error) {
	line := strings.Join(words, " ")
	if line == "" || strings.ContainsFunc(line, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return "", fmt.Errorf("gnugo: command %q: empty or with control characters", line)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.broken != nil {
		return "", fmt.Errorf("gnugo: %s: %w", line, e.broken)
	}
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("gnugo: %s: %w", line, err)
	}
	e.nextID++
	id := e.nextID
	if _, err := fmt.Fprintf(e.stdin, "%d %s\n", id, line); err != nil {
		return "", e.breakWith(line, fmt.Errorf("send: %w", e.exitReason(err)))
	}
	select {
	case <-ctx.Done():
		return "", e.breakWith(line, fmt.Errorf("no answer: %w", ctx.Err()))
	case r := <-e.replies:
		if r.err != nil {
			if errors.Is(r.err, io.EOF) || errors.Is(r.err, io.ErrUnexpectedEOF) {
				r.err = e.exitReason(r.err)
			}
			return "", e.breakWith(line, r.err)
		}
		if r.rep.id != id {
			return "", e.breakWith(line, fmt.Errorf("%w: reply to command %d, want %d", ErrProtocol, r.rep.id, id))
		}
		if !r.rep.ok {
			return "", &CommandError{Command: line, Message: r.rep.text}
		}
		return r.rep.text, nil
	}
}

// breakWith marks the engine unusable for reason, kills the program, and returns the
// error of the command that broke it. e.mu is held.
func (e *Engine) breakWith(line string, reason error) error {
	e.broken = fmt.Errorf("%w: %w", ErrClosed, reason)
	e.kill()
	return fmt.Errorf("gnugo: %s: %w", line, reason)
}

// exitReason explains an end of GNU Go's output: the program exited, with what it said
// on stderr.
func (e *Engine) exitReason(err error) error {
	select {
	case <-e.exited:
	case <-time.After(quitGrace):
		return err
	}
	state := e.cmd.ProcessState
	if msg := strings.TrimSpace(e.stderr.String()); msg != "" {
		return fmt.Errorf("%s exited (%s): %s", e.program, state, clip(msg))
	}
	return fmt.Errorf("%s exited (%s)", e.program, state)
}

func (e *Engine) kill() {
	close(e.stop)
	e.stdin.Close()
	if e.cmd.Process != nil {
		e.cmd.Process.Kill()
	}
	<-e.exited
}

// Close asks GNU Go to quit, kills it if it has not exited within a grace period, and
// waits for it. It may be called more than once.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.broken != nil {
		return nil
	}
	e.broken = ErrClosed
	defer close(e.stop)
	ctx, cancel := context.WithTimeout(context.Background(), quitGrace)
	defer cancel()
	e.nextID++
	_, err := fmt.Fprintf(e.stdin, "%d quit\n", e.nextID)
	if err == nil {
		select {
		case <-e.replies:
		case <-ctx.Done():
		}
	}
	e.stdin.Close()
	select {
	case <-e.exited:
		return nil
	case <-ctx.Done():
		e.cmd.Process.Kill()
		<-e.exited
		return fmt.Errorf("gnugo: did not quit within %s; killed", quitGrace)
	}
}

// tail keeps the last max bytes written to it: the end of GNU Go's stderr, for errors.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = bytes.Clone(t.buf[len(t.buf)-t.max:])
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
