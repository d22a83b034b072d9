package host

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/protocol"
)

// freezer stops and resumes every process of one engine.
type freezer interface {
	Freeze() error
	Thaw() error
}

// frozen is an engine's bridge whose engine is kept stopped except while the bridge uses
// it: for a turn (thawed before its commands are sent, frozen again once the answer is
// in), for a game's start and end, and for the handshake (the slot freezes the engine
// once Start has returned). A stopped engine spends no CPU, so it cannot ponder, nor
// take the CPU from the engines that are thinking; its clock does not run either, since
// the referee runs an engine's clock only during its turns.
//
// Calls may overlap (a game's end while another game's turn waits for the bridge): the
// engine is thawed by the first and frozen again by the last.
//
// A turn of an event that allows pondering (Clock.Ponder) leaves the engine thawed after
// its answer, until a turn that does not allow it, or the end of a game, freezes it again.
type frozen struct {
	*engine.Bridge
	fz  freezer
	log zerolog.Logger

	mu        sync.Mutex
	users     int
	stopped   bool // frozen, or being frozen
	released  bool // thawed for good
	pondering bool // the last turn allowed pondering: not frozen after it
}

// newFrozen returns bridge frozen between its calls by fz, frozen now.
func newFrozen(bridge *engine.Bridge, fz freezer, log zerolog.Logger) *frozen {
	f := &frozen{Bridge: bridge, fz: fz, log: log}
	f.freeze()
	return f
}

// release thaws the engine for good, so that it can be told to quit and end.
func (f *frozen) release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.released = true
	if f.stopped {
		if err := f.fz.Thaw(); err != nil {
			f.log.Warn().Err(err).Msg("cannot thaw the engine to stop it")
		}
		f.stopped = false
	}
}

// use thaws the engine for a call, and returns what freezes it again after the call,
// unless ponder: then it stays thawed. The freeze happens in the background, so that the
// answer goes out without waiting for it; the next thaw waits for it.
func (f *frozen) use(ponder bool) (done func()) {
	f.mu.Lock()
	if f.users++; f.users == 1 && f.stopped {
		if err := f.fz.Thaw(); err != nil {
			f.log.Error().Err(err).Msg("cannot thaw the engine")
		}
		f.stopped = false
	}
	f.mu.Unlock()
	return func() {
		f.mu.Lock()
		f.users--
		f.pondering = ponder
		f.mu.Unlock()
		go f.freeze()
	}
}

// freeze freezes the engine unless a call uses it.
func (f *frozen) freeze() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.users > 0 || f.stopped || f.released || f.pondering {
		return
	}
	if err := f.fz.Freeze(); err != nil {
		f.log.Error().Err(err).Msg("cannot freeze the engine between its turns")
	}
	f.stopped = true
}

// Choose plays the turn thawed, and freezes the engine once it is settled: a turn that
// went wrong (a late answer) leaves the engine thawed while the bridge gives it time to
// catch up (Bridge.Settle), in the background, after the decision has gone.
func (f *frozen) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	done := f.use(t.Clock.Ponder)
	d, err := f.Bridge.Choose(ctx, t)
	go func() {
		f.Bridge.Settle()
		done()
	}()
	return d, err
}

func (f *frozen) GameStarted(n protocol.GameNotice) {
	f.mu.Lock()
	ponder := f.pondering // a game's start changes nothing
	f.mu.Unlock()
	defer f.use(ponder)()
	f.Bridge.GameStarted(n)
}

func (f *frozen) GameEnded(n protocol.GameNotice) {
	defer f.use(false)()
	f.Bridge.GameEnded(n)
}

// treeStopper freezes an engine without a cgroup: SIGSTOP of its process and of every
// descendant, found in /proc, and SIGCONT of them to thaw. It is weaker than a freezer: a
// process that forks while the tree is walked may escape a walk (so it walks until it
// finds nothing new), and the engine's processes see that they were stopped.
type treeStopper struct {
	pid func() int // the engine's process, or 0

	mu      sync.Mutex
	stopped []int
}

func (s *treeStopper) Freeze() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	root := s.pid()
	if root == 0 {
		return nil
	}
	seen := map[int]bool{}
	for round := 0; round < 10; round++ {
		fresh := 0
		for _, pid := range descendants(root) {
			if !seen[pid] {
				seen[pid] = true
				fresh++
				if syscall.Kill(pid, syscall.SIGSTOP) == nil {
					s.stopped = append(s.stopped, pid)
				}
			}
		}
		if fresh == 0 {
			return nil
		}
	}
	return errors.New("the engine's process tree kept growing while it was being stopped")
}

func (s *treeStopper) Thaw() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, pid := range s.stopped {
		_ = syscall.Kill(pid, syscall.SIGCONT)
	}
	s.stopped = s.stopped[:0]
	return nil
}

// descendants returns root and every process below it, from the parents /proc gives.
func descendants(root int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return []int{root}
	}
	children := map[int][]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// "PID (COMM) STATE PPID ...": COMM may hold anything, up to the last ')'.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(f[1]); err == nil {
			children[ppid] = append(children[ppid], pid)
		}
	}
	out := []int{root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}
