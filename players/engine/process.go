package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Defaults of Options.
const (
	DefaultStartTimeout   = 10 * time.Second
	DefaultQuitTimeout    = 2 * time.Second
	DefaultCommandTimeout = 5 * time.Second
	DefaultPingTimeout    = 500 * time.Millisecond
)

// MaxLineLen is the longest line, without its line ending, read from an engine. A longer
// line is an error for the Recv that meets it (ErrLineTooLong); the rest of it is skipped,
// so an engine cannot make the bridge hold unbounded output.
const MaxLineLen = 64 << 10

const (
	// lineQueue is how many lines of standard output are read ahead of Recv. Past it the
	// reader stops, the pipe fills, and an engine that floods its output is made to wait.
	lineQueue = 256
	// termGrace is how long an engine that ignored quit gets after SIGTERM before SIGKILL.
	termGrace = 500 * time.Millisecond
	// reapTimeout bounds the wait for the kernel to report a killed engine's exit.
	reapTimeout = 5 * time.Second
	// exitGrace is how long Recv waits, once standard output is closed, to learn the
	// engine's exit status.
	exitGrace = time.Second
	// readGrace bounds the wait for the end of the output once the engine is gone.
	readGrace = time.Second
	// quoteLen is how much of an overlong line Recv returns with ErrLineTooLong.
	quoteLen = 200
)

var (
	// ErrExited is returned by Recv and Send once the engine has gone. The wrapping error
	// says how it ended ("exit status 3", "signal: killed").
	ErrExited = errors.New("engine: the engine exited")
	// ErrLineTooLong is returned by Recv for a line of output longer than MaxLineLen; the
	// line returned with it is the line's beginning.
	ErrLineTooLong = fmt.Errorf("engine: a line of output longer than %d bytes", MaxLineLen)
)

// Options configure an engine process.
type Options struct {
	// StartTimeout bounds the handshake after the program starts (the Bridge's use of
	// Dialect.Start). Zero means DefaultStartTimeout (10s).
	StartTimeout time.Duration
	// QuitTimeout is how long Close waits for the engine to exit by itself once its input
	// is closed (and, for a Bridge, once it was told to quit) before the process group is
	// signalled. Zero means DefaultQuitTimeout (2s).
	QuitTimeout time.Duration
	// CommandTimeout bounds each command that is not a move (a Bridge's NewGame, GameOver
	// and Quit) and each write to the engine's input. Zero means DefaultCommandTimeout (5s).
	CommandTimeout time.Duration
	// PingTimeout is how long an engine whose turn went wrong (no answer in time, an
	// answer that is no legal move) has to give what it still owes and answer again
	// (Dialect.Settle) before a Bridge restarts it. Zero means DefaultPingTimeout (500ms).
	PingTimeout time.Duration
	// Stderr receives each line the engine writes to its standard error, without the line
	// ending (overlong lines are cut). It is called from one goroutine, in order, and
	// should return at once: the engine is never made to wait for it. Nil discards them;
	// a Bridge logs them within bounds as well (see StderrHead).
	Stderr func(line string)
	// Dir is the engine's working directory; empty means the caller's.
	Dir string
	// Env is the engine's environment, as in exec.Cmd; nil means the caller's.
	Env []string
}

func (o Options) withDefaults() Options {
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.QuitTimeout <= 0 {
		o.QuitTimeout = DefaultQuitTimeout
	}
	if o.CommandTimeout <= 0 {
		o.CommandTimeout = DefaultCommandTimeout
	}
	if o.PingTimeout <= 0 {
		o.PingTimeout = DefaultPingTimeout
	}
	return o
}

// Process is a running engine program: a LineConn over its standard input and output.
// The program leads a process group of its own and, on Linux where the system allows,
// a pid namespace (see Containment), so that whatever it started ends with it. Send and
// Recv may be called from different goroutines; Close from any.
type Process struct {
	cmd     *exec.Cmd
	pid     int
	contain Containment
	opts    Options

	stdin          *os.File
	stdout, stderr *os.File // the reading ends; the readers own them, Close may close them
	sendMu         sync.Mutex

	lines   chan lineItem  // standard output, closed at its end
	stop    chan struct{}  // closed by Close: the stdout reader stops waiting for Recv
	exited  chan struct{}  // closed once the program was reaped
	readers sync.WaitGroup // the goroutines reading standard output and error
	state   *os.ProcessState
	werr    error // from Wait, when it failed without a ProcessState

	closeOnce sync.Once
	closeErr  error
	ending    string // how Close ended the engine, for Ending
}

type lineItem struct {
	line string
	err  error
}

var _ LineConn = (*Process)(nil)

// Start starts the program argv[0] with the arguments argv[1:] (looked up in PATH as
// exec.Command does) with pipes for its standard streams, in a process group of its own
// and, on Linux where the system allows, a pid namespace of its own (see Containment).
// ctx only bounds the start: the process lives until Close, or until it exits.
func Start(ctx context.Context, argv []string, opts Options) (*Process, error) {
	return start(ctx, argv, opts, startAttempts())
}

// start is Start with the ways to start the program, the best first.
func start(ctx context.Context, argv []string, opts Options, attempts []attempt) (*Process, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("engine: no command to run")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()

	var pipes [3][2]*os.File // stdin, stdout, stderr; each {read end, write end}
	closeAll := func() {
		for _, p := range pipes {
			for _, f := range p {
				if f != nil {
					f.Close()
				}
			}
		}
	}
	for i := range pipes {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("engine: pipe: %w", err)
		}
		pipes[i] = [2]*os.File{r, w}
	}
	// A containment the system refuses fails the start before the program runs: the next
	// attempt starts it afresh. The last attempt's error is the one reported, so that a
	// program that cannot start at all is reported as before.
	var (
		cmd     *exec.Cmd
		contain Containment
		err     error
	)
	for _, a := range attempts {
		cmd, contain = exec.Command(argv[0], argv[1:]...), a.contain
		cmd.Dir, cmd.Env, cmd.SysProcAttr = opts.Dir, opts.Env, a.attr
		cmd.Stdin, cmd.Stdout, cmd.Stderr = pipes[0][0], pipes[1][1], pipes[2][1]
		if err = cmd.Start(); err == nil {
			break
		}
	}
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("engine: start %s: %w", argv[0], err)
	}
	// The child has its own copies; ours of its ends would keep the pipes open forever.
	pipes[0][0].Close()
	pipes[1][1].Close()
	pipes[2][1].Close()

	p := &Process{
		cmd:     cmd,
		pid:     cmd.Process.Pid,
		contain: contain,
		opts:    opts,
		stdin:   pipes[0][1],
		stdout:  pipes[1][0],
		stderr:  pipes[2][0],
		lines:   make(chan lineItem, lineQueue),
		stop:    make(chan struct{}),
		exited:  make(chan struct{}),
	}
	p.readers.Go(p.readStdout)
	p.readers.Go(p.readStderr)
	go p.wait()
	return p, nil
}

// Pid returns the engine's process id, which is also the id of its process group, as the
// caller sees them (in a pid namespace of its own the engine sees itself as pid 1).
func (p *Process) Pid() int { return p.pid }

// Containment returns how the engine's processes are held together: ContainPIDNamespace
// where the system allowed it, else ContainGroup (ContainNone without process groups).
func (p *Process) Containment() Containment { return p.contain }

// Exited is closed once the engine's main process has exited and been reaped.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// alive reports whether the engine's main process is still running.
func (p *Process) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// wait reaps the engine. Once its main process is gone, the engine is finished: whatever
// it left running is killed at once, which also closes the pipes those processes
// inherited, so that the readers see the end of the output. In a pid namespace the kernel
// has done that before the engine can be reaped; otherwise its process group is killed
// here.
func (p *Process) wait() {
	err := p.cmd.Wait()
	// The group id cannot have been reused yet if any member remains, since Linux does not
	// recycle a pid that still names a live group; if none does, this finds nothing.
	_ = killGroup(p.pid, syscall.SIGKILL)
	p.state = p.cmd.ProcessState
	if p.state == nil {
		p.werr = err
	}
	close(p.exited)
}

// exitError is ErrExited with how the engine ended.
type exitError struct{ how string }

func (e *exitError) Error() string {
	if e.how == "" {
		return ErrExited.Error()
	}
	return ErrExited.Error() + " (" + e.how + ")"
}

func (e *exitError) Is(target error) bool { return target == ErrExited }

// exitErr is ErrExited with how the engine ended. Call it only after exited is closed.
func (p *Process) exitErr() error {
	switch {
	case p.state != nil:
		return &exitError{p.state.String()}
	case p.werr != nil:
		return &exitError{p.werr.Error()}
	}
	return &exitError{}
}

// Send writes one line, which must not hold a line break, to the engine's input. A write
// the engine does not take within Options.CommandTimeout (its input pipe is full) fails.
func (p *Process) Send(line string) error {
	if strings.ContainsAny(line, "\r\n") {
		return fmt.Errorf("engine: cannot send %q: a line break inside a line", line)
	}
	p.sendMu.Lock()
	defer p.sendMu.Unlock()
	if !p.alive() {
		return p.exitErr()
	}
	_ = p.stdin.SetWriteDeadline(time.Now().Add(p.opts.CommandTimeout))
	_, err := io.WriteString(p.stdin, line+"\n")
	switch {
	case err == nil:
		return nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("engine: send %q: the engine has not read its input for %v", line, p.opts.CommandTimeout)
	case errors.Is(err, syscall.EPIPE), errors.Is(err, os.ErrClosed):
		// The engine closed its input, which it does by exiting (or is closed by Close).
		select {
		case <-p.exited:
			return fmt.Errorf("engine: send %q: %w", line, p.exitErr())
		case <-time.After(exitGrace):
			return fmt.Errorf("engine: send %q: %w", line, &exitError{"it closed its input"})
		}
	}
	return fmt.Errorf("engine: send %q: %w", line, err)
}

// Recv returns the engine's next line of output, without its line ending. Lines the engine
// wrote before exiting are still returned; after them Recv returns an error wrapping
// ErrExited. It returns ctx's error when ctx ends first, and ErrLineTooLong (with the
// line's beginning) for an overlong line.
func (p *Process) Recv(ctx context.Context) (string, error) {
	select {
	case it, ok := <-p.lines:
		if ok {
			return it.line, it.err
		}
	case <-ctx.Done():
		return "", ctx.Err()
	}
	// The output has ended: the engine exited, or closed its standard output.
	select {
	case <-p.exited:
		return "", p.exitErr()
	case <-ctx.Done():
		return "", ctx.Err()
	case <-time.After(exitGrace):
		return "", &exitError{"it closed its standard output"}
	}
}

// Close ends the engine: it closes the engine's input (a well-behaved engine exits at the
// end of its input, as after quit), waits up to Options.QuitTimeout for it to exit, then
// sends SIGTERM and, shortly after, SIGKILL to its whole process group, and reaps it. Every
// process of the group is gone when Close returns nil, and with ContainPIDNamespace every
// process the engine started, wherever it went. Close is safe to call more than once, and
// concurrently with Send and Recv, which then fail. Once it has returned, Options.Stderr
// is not called any more.
func (p *Process) Close() error {
	p.closeOnce.Do(func() { p.closeErr = p.shutdown() })
	return p.closeErr
}

// Ending says how Close ended the engine: by itself, by SIGTERM, or by SIGKILL after it
// ignored SIGTERM. It is empty until Close has returned.
func (p *Process) Ending() string {
	select {
	case <-p.stop:
		return p.ending
	default:
		return ""
	}
}

func (p *Process) shutdown() error {
	p.stdin.Close()
	quit := time.NewTimer(p.opts.QuitTimeout)
	defer quit.Stop()
	select {
	case <-p.exited:
		p.ending = "it exited by itself"
	case <-quit.C:
		_ = killGroup(p.pid, syscall.SIGTERM)
		p.ending = fmt.Sprintf("it was still running %v after quit and the end of its input, and SIGTERM ended it", p.opts.QuitTimeout)
		if p.contain == ContainPIDNamespace && termDefault(p.pid) {
			// SIGTERM would have ended it, but a namespace's init is spared the default
			// action: end it as SIGTERM would have, without waiting in vain.
			_ = killGroup(p.pid, syscall.SIGKILL)
		}
		select {
		case <-p.exited:
		case <-time.After(min(termGrace, p.opts.QuitTimeout)):
			_ = killGroup(p.pid, syscall.SIGKILL)
			p.ending = fmt.Sprintf("it was still running %v after quit and the end of its input, ignored SIGTERM, and was killed with SIGKILL", p.opts.QuitTimeout)
		}
	}
	var err error
	select {
	case <-p.exited:
	case <-time.After(reapTimeout):
		err = fmt.Errorf("engine: process %d did not exit within %v of SIGKILL", p.pid, reapTimeout)
	}
	close(p.stop)
	// The engine's last words on standard error (a crash report, say) are still read
	// and passed on; a process outside the group that still holds the pipes only delays
	// the end of the output by readGrace.
	readers := make(chan struct{})
	go func() {
		p.readers.Wait()
		close(readers)
	}()
	select {
	case <-readers:
	case <-time.After(readGrace):
		p.stdout.Close()
		p.stderr.Close()
		<-readers
	}
	p.stdout.Close()
	p.stderr.Close()
	return err
}

func (p *Process) readStdout() {
	defer close(p.lines)
	br := bufio.NewReaderSize(p.stdout, 4096)
	for {
		line, err := readLine(br)
		if err != nil && !errors.Is(err, ErrLineTooLong) {
			return // io.EOF, or the pipe was closed by Close
		}
		select {
		case p.lines <- lineItem{line, err}:
		case <-p.stop:
			return
		}
	}
}

func (p *Process) readStderr() {
	br := bufio.NewReaderSize(p.stderr, 4096)
	for {
		line, err := readLine(br)
		if err != nil && !errors.Is(err, ErrLineTooLong) {
			return
		}
		if errors.Is(err, ErrLineTooLong) {
			line += " [cut]"
		}
		if p.opts.Stderr != nil {
			p.opts.Stderr(line)
		}
	}
}

// readLine reads one line and strips "\n" or "\r\n". A last line without a line ending is
// returned as a line; io.EOF comes after it. A line longer than MaxLineLen is skipped to
// its end and its first quoteLen bytes are returned with ErrLineTooLong.
func readLine(br *bufio.Reader) (string, error) {
	var buf []byte
	long := false
	for {
		frag, err := br.ReadSlice('\n')
		switch {
		case long:
		case len(buf)+len(frag) > MaxLineLen+2: // room for "\r\n"
			long = true
			buf = append(buf, frag...)[:quoteLen]
		default:
			buf = append(buf, frag...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && len(buf) == 0 {
			return "", err
		}
		line := string(buf)
		if strings.HasSuffix(line, "\n") {
			line = strings.TrimSuffix(line[:len(line)-1], "\r")
		}
		if long {
			return line, ErrLineTooLong
		}
		if len(line) > MaxLineLen {
			return line[:quoteLen], ErrLineTooLong
		}
		return line, nil
	}
}
