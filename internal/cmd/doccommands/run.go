package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

const (
	pace      = time.Second     // a reader's pause after starting something in the background
	settle    = 2 * time.Second // the least a background command lives before it is judged
	stopGrace = 5 * time.Second // from SIGTERM to SIGKILL
	tailLines = 12              // lines of output shown for a failure
)

// usageErrors are what arena prints for a flag or command it does not know.
var usageErrors = []string{"flag provided but not defined", "unknown command", "unknown flag", "unknown subcommand", "(see 'arena "}

type runner struct {
	timeout, long time.Duration
	keep          bool

	base, repo, bin, preamble string
	env                       []string
	ports                     map[int]bool // ports handed out so far
	docker                    *bool        // whether a Docker engine answers, once asked
	steps                     int

	mu       sync.Mutex
	live     map[*proc]bool // started and not yet reaped, for an interrupt to end
	stopping bool           // interrupted: start nothing more

	passed      int
	failed      []string
	skipped     []string
	unavailable []notMade
}

// notMade is a file named by a command that was skipped or stopped before it finished,
// and that did not exist afterwards: a later command failing for want of it is skipped,
// not failed.
type notMade struct{ path, by string }

// setup copies the repository into a scratch directory and builds arena there.
func (r *runner) setup() error {
	var err error
	r.base, err = os.MkdirTemp("", "arena-docs-")
	if err != nil {
		return err
	}
	// arena host runs each submitted engine in a sandbox as a uid of its own, which must
	// be able to reach its directory under the scratch copy; MkdirTemp made it 0700.
	if err := os.Chmod(r.base, 0o755); err != nil {
		return err
	}
	r.repo = filepath.Join(r.base, "repo")
	r.bin = filepath.Join(r.base, "bin")
	for _, d := range []string{r.repo, r.bin, filepath.Join(r.base, "steps")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	out, err := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return fmt.Errorf("git ls-files: %v", err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if err := copyFile(f, filepath.Join(r.repo, f)); err != nil {
			return err
		}
	}
	r.ports = map[int]bool{}
	r.live = map[*proc]bool{}
	path := r.bin + string(os.PathListSeparator) + os.Getenv("PATH")
	if !strings.Contains(path, "/usr/sbin") {
		path += ":/usr/sbin" // Debian's nats-server
	}
	os.Setenv("PATH", path) // for exec.LookPath too
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "NATS_URL", "ARENA_NAME", "PATH": // the docs' commands say what they need
		default:
			r.env = append(r.env, kv)
		}
	}
	r.env = append(r.env, "PATH="+path, "ARENA_BIN="+filepath.Join(r.bin, "arena"))

	fmt.Printf("setup: a copy of the repository in %s; go build -o arena ./cmd/arena there\n", r.repo)
	build := exec.Command("go", "build", "-o", "arena", "./cmd/arena")
	build.Dir = r.repo
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build -o arena ./cmd/arena: %v\n%s", err, out)
	}
	if err := copyFile(filepath.Join(r.repo, "arena"), filepath.Join(r.bin, "arena")); err != nil {
		return err
	}
	r.preamble = filepath.Join(r.base, "preamble.sh")
	return os.WriteFile(r.preamble, []byte(preamble), 0o644)
}

// preamble is sourced before every command: go run ./cmd/arena becomes the prebuilt
// binary, go build -o X ./cmd/arena copies it, and __save_state writes the variables a
// command set, for the next command of its block.
const preamble = `
go() {
	if [ "$1" = run ] && [ "${2%/}" = ./cmd/arena ]; then
		shift 2
		arena "$@"
	elif [ $# -eq 4 ] && [ "$1" = build ] && [ "$2" = -o ] && [ "${4%/}" = ./cmd/arena ]; then
		cp -f "$ARENA_BIN" "$3"
	else
		command go "$@"
	fi
}
__save_state() {
	local __v
	for __v in $(compgen -v); do
		case "$__base_vars" in *" $__v "*) continue ;; esac
		case $__v in __* | BASH* | FUNCNAME | PIPESTATUS | _) continue ;; esac
		declare -p "$__v"
	done >"$1" 2>/dev/null
}
__base_vars=" $(compgen -v | tr '\n' ' ') "
`

func (r *runner) cleanup() {
	if r.base == "" {
		return
	}
	if r.keep {
		fmt.Println("scratch directory kept:", r.base)
		return
	}
	os.RemoveAll(r.base)
}

func copyFile(src, dst string) error {
	fi, err := os.Lstat(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil // deleted in the work tree
	} else if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		t, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(t, dst)
	}
	if !fi.Mode().IsRegular() {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// freePort returns a port nothing listens on, not handed out before in this run.
func (r *runner) freePort() string {
	for {
		l, err := net.Listen("tcp", ":0")
		if err != nil {
			panic(err)
		}
		p := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if !r.ports[p] {
			r.ports[p] = true
			return strconv.Itoa(p)
		}
	}
}

var builtins = map[string]bool{
	"cd": true, "echo": true, "printf": true, "export": true, "set": true, "unset": true,
	"source": true, ".": true, "true": true, "false": true, "test": true, "[": true,
	"read": true, "exit": true, "eval": true, "wait": true, "kill": true, "pwd": true,
	"shift": true, "local": true, "command": true, "exec": true,
}

// missingTool returns a program a block needs that is not installed ("" if none): the
// programs its runnable commands start, and the engines arena commands start after "--".
// docker counts as missing when no Docker engine answers.
func (r *runner) missingTool(b *block) string {
	for _, c := range b.cmds {
		if skipReason(c) != "" {
			continue
		}
		for _, s := range simpleCommands(c.text) {
			progs := []string{s.words[0]}
			if args, ok := arenaArgs(s.words); ok {
				progs = progs[:0]
				for i, a := range args {
					if a == "--" && i+1 < len(args) {
						progs = append(progs, args[i+1])
						break
					}
				}
			}
			for _, p := range progs {
				if builtins[p] || strings.ContainsAny(p, "/$") {
					continue
				}
				if _, err := exec.LookPath(p); err != nil {
					return p + ", which is not installed"
				}
				if p == "docker" && !r.dockerRuns() {
					return "docker, and no Docker engine answers"
				}
			}
		}
	}
	return ""
}

func (r *runner) dockerRuns() bool {
	if r.docker == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		ok := exec.CommandContext(ctx, "docker", "info").Run() == nil
		r.docker = &ok
	}
	return *r.docker
}

// skipReason says why a command is not run, or "".
func skipReason(c *command) string {
	for _, s := range simpleCommands(c.text) {
		if len(s.words) >= 2 && s.words[0] == "go" && s.words[1] == "test" {
			return "go test: the test suite, which CI runs on its own"
		}
	}
	if p := placeholder(c.text); p != "" {
		return p
	}
	return ""
}

func (r *runner) skip(c *command, why string) {
	fmt.Printf("skip %s  %s: %s\n", c, why, c.oneLine())
	r.skipped = append(r.skipped, fmt.Sprintf("%s  %s: %s", c, why, c.oneLine()))
	r.noteNotMade(c, fmt.Sprintf("%s (skipped)", c))
}

// noteNotMade records the files a command names that do not exist after it (for a
// placeholder path such as out/NAME.json, its directory too).
func (r *runner) noteNotMade(c *command, by string) {
	for _, w := range fileWords(c.text) {
		for p := w; p != "." && p != ""; p = filepath.Dir(p) {
			if _, err := os.Stat(filepath.Join(r.repo, p)); err == nil {
				break
			}
			name := p
			if p != w {
				name += "/"
			}
			r.unavailable = append(r.unavailable, notMade{name, by})
			if !strings.Contains(p, "/") {
				break
			}
		}
	}
}

// A proc is a command started in a process group of its own.
type proc struct {
	c       *command
	text    string
	why     string // why it is long-running, if it is
	cmd     *exec.Cmd
	done    chan struct{}
	out     string // stdout and stderr files
	errf    string
	started time.Time
	stopped bool // ended by us
}

// start runs text (a command's text with its ports replaced) under bash, with the block's
// variables; a foreground command saves its own for the next.
func (r *runner) start(c *command, text, state string, save bool) (*proc, error) {
	r.steps++
	stem := filepath.Join(r.base, "steps", strconv.Itoa(r.steps))
	var s strings.Builder
	fmt.Fprintf(&s, "# %s\nsource %q\nsource %q\n%s\n", c, r.preamble, state, text)
	if save {
		fmt.Fprintf(&s, "__rc=$?\n__save_state %q\nexit $__rc\n", state+".new")
	}
	if err := os.WriteFile(stem+".sh", []byte(s.String()), 0o644); err != nil {
		return nil, err
	}
	p := &proc{c: c, text: text, out: stem + ".out", errf: stem + ".err", done: make(chan struct{})}
	stdout, err := os.Create(p.out)
	if err != nil {
		return nil, err
	}
	stderr, err := os.Create(p.errf)
	if err != nil {
		stdout.Close()
		return nil, err
	}
	p.cmd = exec.Command("bash", stem+".sh")
	p.cmd.Dir = r.repo
	p.cmd.Env = r.env
	p.cmd.Stdout, p.cmd.Stderr = stdout, stderr
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Under the lock, so that an interrupt either sees the process or stops it starting.
	r.mu.Lock()
	if r.stopping {
		r.mu.Unlock()
		select {} // interrupted: the exit is under way
	}
	err = p.cmd.Start()
	if err == nil {
		r.live[p] = true
	}
	r.mu.Unlock()
	if err != nil {
		stdout.Close()
		stderr.Close()
		return nil, err
	}
	p.started = time.Now()
	go func() {
		p.cmd.Wait()
		stdout.Close()
		stderr.Close()
		close(p.done)
	}()
	return p, nil
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop ends p's process group: SIGTERM, then SIGKILL after stopGrace; then whatever is
// left in the group.
func (p *proc) stop() {
	pg := -p.cmd.Process.Pid
	if !p.exited() {
		p.stopped = true
		syscall.Kill(pg, syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(stopGrace):
			syscall.Kill(pg, syscall.SIGKILL)
			<-p.done
		}
	}
	syscall.Kill(pg, syscall.SIGKILL)
}

// forget drops p from the processes an interrupt ends, once stop has ended it.
func (r *runner) forget(p *proc) {
	r.mu.Lock()
	delete(r.live, p)
	r.mu.Unlock()
}

// haltIfInterrupted blocks for good once an interrupt is being handled: what the
// interrupt ended is not to be judged.
func (r *runner) haltIfInterrupted() {
	r.mu.Lock()
	stopping := r.stopping
	r.mu.Unlock()
	if stopping {
		select {}
	}
}

// interrupted ends every process group still running, removes the scratch directory and
// exits: the commands run in process groups of their own, which a Ctrl-C at the terminal
// does not reach.
func (r *runner) interrupted(sig os.Signal) {
	r.mu.Lock()
	r.stopping = true
	for p := range r.live {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
	r.mu.Unlock()
	time.Sleep(200 * time.Millisecond)
	r.cleanup()
	fmt.Printf("interrupted (%s)\n", sig)
	os.Exit(130)
}

// status describes how p ended, and whether that is a failure: a non-zero exit, a
// signal it did not get from us, or a usage error in its output.
func (p *proc) status() (string, bool) {
	output := readTail(p.errf, 200) + readTail(p.out, 200)
	for _, u := range usageErrors {
		if strings.Contains(output, u) {
			return "usage error (" + u + ")", true
		}
	}
	ps := p.cmd.ProcessState
	if p.stopped {
		return "", false
	}
	if ps.Success() {
		return "exit 0", false
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "ended by a signal (" + ws.Signal().String() + ")", true
	}
	return "exit " + strconv.Itoa(ps.ExitCode()), true
}

// runBlock runs a block's commands in order and stops its background ones at its end.
func (r *runner) runBlock(b *block) {
	if why := r.missingTool(b); why != "" {
		for _, c := range b.cmds {
			if w := skipReason(c); w != "" {
				r.skip(c, w)
			} else {
				r.skip(c, "the block needs "+why)
			}
		}
		return
	}
	ports := map[string]string{}
	for _, c := range b.cmds {
		for _, p := range fixedPorts(c.text) {
			if _, ok := ports[p]; !ok {
				ports[p] = r.freePort()
			}
		}
	}
	r.steps++
	state := filepath.Join(r.base, "steps", fmt.Sprintf("state-%d.sh", r.steps))
	if err := os.WriteFile(state, nil, 0o644); err != nil {
		r.fail(b.cmds[0], "", err.Error(), "")
		return
	}
	var bg []*proc
	for _, c := range b.cmds {
		if why := skipReason(c); why != "" {
			r.skip(c, why)
			continue
		}
		text := replacePorts(c.text, ports)
		long, daemon, why := longRunning(text, r.timeout)
		if c.bg || daemon {
			p, err := r.start(c, text, state, false)
			if err != nil {
				r.fail(c, text, err.Error(), "")
				continue
			}
			p.why = why
			bg = append(bg, p)
			time.Sleep(pace)
			continue
		}
		r.runForeground(c, text, state, long, why)
	}
	if len(bg) > 0 {
		if d := settle - time.Since(bg[len(bg)-1].started); d > 0 {
			time.Sleep(d)
		}
	}
	// Players and bridges first, servers last: the reverse of the start order.
	for i := len(bg) - 1; i >= 0; i-- {
		p := bg[i]
		ran := time.Since(p.started).Round(100 * time.Millisecond)
		p.stop()
		r.forget(p)
		r.haltIfInterrupted()
		st, bad := p.status()
		switch {
		case bad:
			r.fail(p.c, p.text, st+" in the background", output(p))
		case p.stopped:
			r.pass(p.c, fmt.Sprintf("in the background, still running after %s: stopped at the end of its block", ran))
		default:
			r.pass(p.c, "in the background, "+st)
		}
	}
}

func (r *runner) runForeground(c *command, text, state string, long bool, why string) {
	bound := r.timeout
	if long {
		bound = r.long
	}
	p, err := r.start(c, text, state, true)
	if err != nil {
		r.fail(c, text, err.Error(), "")
		return
	}
	timedOut := false
	select {
	case <-p.done:
	case <-time.After(bound):
		timedOut = true
	}
	p.stop()
	r.forget(p)
	r.haltIfInterrupted()
	took := time.Since(p.started).Round(100 * time.Millisecond)
	if !timedOut {
		os.Rename(state+".new", state)
	}
	st, bad := p.status()
	switch {
	case bad:
		if m := r.needsNotMade(p); m != nil {
			r.skip(c, fmt.Sprintf("needs %s, which %s did not make (%s)", m.path, m.by, st))
			return
		}
		r.fail(c, text, st, output(p))
	case timedOut && long:
		r.pass(c, fmt.Sprintf("still running after %s: counted as started (%s)", bound, why))
		r.noteNotMade(c, fmt.Sprintf("%s (stopped after %s)", c, bound))
	case timedOut:
		r.fail(c, text, fmt.Sprintf("still running after %s, and not long-running by nature", bound), output(p))
	default:
		r.pass(c, fmt.Sprintf("%s in %s", st, took))
	}
}

// needsNotMade returns the file a failed command wanted that a skipped or unfinished
// command would have made, if its output names one.
func (r *runner) needsNotMade(p *proc) *notMade {
	out := readTail(p.errf, 50) + readTail(p.out, 50)
	for i := range r.unavailable {
		if strings.Contains(out, r.unavailable[i].path) {
			return &r.unavailable[i]
		}
	}
	return nil
}

func (r *runner) pass(c *command, how string) {
	r.passed++
	fmt.Printf("ok   %s  %s: %s\n", c, how, c.oneLine())
}

func (r *runner) fail(c *command, text, why, out string) {
	fmt.Printf("FAIL %s  %s: %s\n", c, why, c.oneLine())
	if text != "" && text != c.text {
		fmt.Printf("     ran as: %s\n", strings.Join(strings.Fields(strings.ReplaceAll(text, "\\\n", " ")), " "))
	}
	if out != "" {
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			fmt.Printf("     | %s\n", l)
		}
	}
	last := lastLine(out)
	if last != "" {
		last = ": " + last
	}
	r.failed = append(r.failed, fmt.Sprintf("%s  %s%s\n      %s", c, why, last, c.oneLine()))
}

// output is the tail of a command's stderr, or of its stdout when stderr is empty.
func output(p *proc) string {
	if s := readTail(p.errf, tailLines); strings.TrimSpace(s) != "" {
		return s
	}
	return readTail(p.out, tailLines)
}

func readTail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	s := string(bytes.Join(lines, []byte("\n")))
	if s != "" {
		s += "\n"
	}
	return s
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

func (r *runner) report(took time.Duration) {
	fmt.Println()
	fmt.Printf("skipped %d commands (placeholders, a program not installed, go test, or a file only a skipped or unfinished command makes):\n", len(r.skipped))
	for _, s := range r.skipped {
		fmt.Println("  " + s)
	}
	if len(r.failed) > 0 {
		fmt.Printf("failed %d commands:\n", len(r.failed))
		for _, f := range r.failed {
			fmt.Println("  " + f)
		}
	}
	fmt.Printf("took %s\n", took.Round(time.Second))
	fmt.Printf("%d passed, %d failed\n", r.passed, len(r.failed))
}
