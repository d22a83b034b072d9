package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/players/hosting/archive"
	"github.com/arenaref/arena/players/hosting/cgroup"
	"github.com/arenaref/arena/players/player"
	"github.com/arenaref/arena/protocol"
)

// builtSuffix names the marker a finished build leaves beside its directory.
const builtSuffix = ".built"

// slot is one player name on the host: it runs at most one of the name's versions, and
// does one thing at a time (fetch, build, start, stop), on its own goroutine.
type slot struct {
	h      *Host
	name   string
	cancel context.CancelFunc
	log    zerolog.Logger

	kick chan []protocol.EngineSubmission // the name's latest listing, newest first
	died chan int                         // a running version that keeps dying

	// Owned by the slot's goroutine:
	failed map[int]bool   // versions that failed here
	states map[int]report // the state this host last gave each version
	run    *running       // the player running, or nil
}

// offer hands the slot a new listing, replacing one it has not read yet.
func (s *slot) offer(subs []protocol.EngineSubmission) {
	for {
		select {
		case s.kick <- subs:
			return
		default:
		}
		select {
		case <-s.kick:
		default:
		}
	}
}

func (s *slot) loop(ctx context.Context) {
	var subs []protocol.EngineSubmission
	for {
		select {
		case <-ctx.Done():
			if s.run != nil {
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopReportTimeout)
				s.stop(rctx, protocol.EngineStopped, "")
				cancel()
			}
			return
		case subs = <-s.kick:
		case v := <-s.died:
			if s.run == nil || s.run.version != v {
				continue
			}
			log := string(s.run.stderr.bytes()) + s.run.oomKills()
			s.log.Error().Str("version", protocol.EngineVersion(v)).Int("deaths", s.h.cfg.Deaths).Dur("within", s.h.cfg.DeathWindow).Msg("the engine keeps dying; it is run_failed")
			s.failed[v] = true
			s.stop(ctx, protocol.EngineRunFailed, fmt.Sprintf("%s\nthe engine died %d times within %v", log, s.h.cfg.Deaths, s.h.cfg.DeathWindow))
		}
		s.reconcile(ctx, subs)
	}
}

// target is the version to run: the newest listed that has not failed.
func (s *slot) target(subs []protocol.EngineSubmission) (protocol.EngineSubmission, int, bool) {
	for _, sub := range subs {
		v, err := protocol.ParseEngineVersion(sub.Version)
		if err != nil || s.failed[v] || sub.State == protocol.EngineBuildFailed || sub.State == protocol.EngineRunFailed {
			continue
		}
		return sub, v, true
	}
	return protocol.EngineSubmission{}, 0, false
}

// reconcile brings the slot to run the target of subs: it builds the target if need be,
// stops the version running, and starts the target; a target that fails leaves the next
// one to try.
func (s *slot) reconcile(ctx context.Context, subs []protocol.EngineSubmission) {
	for ctx.Err() == nil {
		sub, v, ok := s.target(subs)
		switch {
		case !ok:
			return
		case s.run != nil && s.run.version >= v:
			s.resend(ctx, subs)
			return
		}
		m, dir, ok := s.prepare(ctx, sub, v)
		if !ok {
			if s.failed[v] {
				continue
			}
			return // the referee or the disk failed: tried again at the next listing
		}
		// A newer version listed meanwhile goes first; this one stays built.
		select {
		case newer := <-s.kick:
			subs = newer
			continue
		default:
		}
		if !s.start(ctx, v, m, dir) && s.failed[v] {
			continue
		}
		return
	}
}

// resend reports again the states this host gave that the referee does not list (a
// report lost while the referee was away).
func (s *slot) resend(ctx context.Context, subs []protocol.EngineSubmission) {
	for _, sub := range subs {
		v, _ := protocol.ParseEngineVersion(sub.Version)
		if r, ok := s.states[v]; ok && r.state != sub.State {
			s.report(ctx, v, r.state, r.log)
		}
	}
}

// report tells the referee of a version's new state; a report that fails is sent again
// at a later listing (resend).
func (s *slot) report(ctx context.Context, v int, state, log string) {
	log = protocol.LogTail([]byte(log))
	s.states[v] = report{state, log}
	req := protocol.EngineRequest{V: protocol.Version, Type: protocol.TypeHostReport, Name: s.name, Version: protocol.EngineVersion(v), State: state, Log: log}
	if _, err := s.h.request(ctx, protocol.SubjectHostReport, req); err != nil {
		s.log.Warn().Err(err).Str("version", protocol.EngineVersion(v)).Str("state", state).Msg("cannot report a state; it is reported again later")
		return
	}
	s.log.Info().Str("version", protocol.EngineVersion(v)).Str("state", state).Msg("state reported")
}

// fail marks a version failed here and reports it.
func (s *slot) fail(ctx context.Context, v int, state, log string) {
	s.failed[v] = true
	s.log.Warn().Str("version", protocol.EngineVersion(v)).Str("state", state).Str("log", lastLine(log)).Msg("engine failed")
	s.report(ctx, v, state, log)
}

func (s *slot) dir(v int) string {
	return filepath.Join(s.h.cfg.Dir, s.name, protocol.EngineVersion(v))
}

// prepare makes sure version v is unpacked and built in its directory, and returns its
// manifest and directory. ok is false when it could not: the version is then failed (its
// archive or build is at fault), or the referee or the disk failed.
func (s *slot) prepare(ctx context.Context, sub protocol.EngineSubmission, v int) (m archive.Manifest, dir string, ok bool) {
	dir = s.dir(v)
	marker := dir + builtSuffix
	if b, err := readSmall(marker); err == nil && string(b) == sub.SHA256 && archive.CheckDir(dir) == nil {
		if m, err := archive.ReadManifest(dir, engine.Names()); err == nil {
			return m, dir, true
		}
	}
	s.report(ctx, v, protocol.EngineBuilding, "")
	data, err := s.h.fetch(ctx, s.name, sub.Version, sub.SHA256)
	if err != nil {
		s.log.Warn().Err(err).Msg("cannot fetch an archive; trying again later")
		return m, dir, false
	}
	_ = os.Remove(marker)
	if err := os.RemoveAll(dir); err != nil {
		s.log.Error().Err(err).Msg("cannot clear the engine's directory")
		return m, dir, false
	}
	// DIR/NAME lets the sandbox's uid through to its own sN, owned by that uid, but not
	// list what is there; sN itself is the uid's alone (0700, archive.Unpack).
	if err := os.MkdirAll(filepath.Dir(dir), 0o711); err != nil {
		s.log.Error().Err(err).Msg("cannot make the player's directory")
		return m, dir, false
	}
	if _, err := archive.Unpack(data, dir, archive.DefaultLimits); err != nil {
		if errors.Is(err, archive.ErrRefused) {
			s.fail(ctx, v, protocol.EngineBuildFailed, err.Error())
		} else {
			s.log.Error().Err(err).Msg("cannot unpack an archive")
		}
		return m, dir, false
	}
	if m, err = archive.ReadManifest(dir, engine.Names()); err != nil {
		s.fail(ctx, v, protocol.EngineBuildFailed, err.Error())
		return m, dir, false
	}
	var out []byte
	if m.Build != "" {
		if out, err = s.build(ctx, dir, m.Build); err != nil {
			if ctx.Err() == nil {
				s.fail(ctx, v, protocol.EngineBuildFailed, fmt.Sprintf("%s\n%s: %v", bytes.TrimRight(out, "\n"), m.Build, err))
			}
			return m, dir, false
		}
		// What the build left is read by the host (the manifest) and run: nothing in it
		// may be a link or a special file.
		if err := archive.CheckDir(dir); err != nil {
			s.fail(ctx, v, protocol.EngineBuildFailed, fmt.Sprintf("%s\nthe build's result is refused: %v", bytes.TrimRight(out, "\n"), err))
			return m, dir, false
		}
		if m, err = archive.ReadManifest(dir, engine.Names()); err != nil {
			s.fail(ctx, v, protocol.EngineBuildFailed, fmt.Sprintf("%s\nthe build's result is refused: %v", bytes.TrimRight(out, "\n"), err))
			return m, dir, false
		}
	}
	if err := os.WriteFile(marker, []byte(sub.SHA256), 0o600); err != nil {
		s.log.Error().Err(err).Msg("cannot mark a build done")
	}
	s.report(ctx, v, protocol.EngineBuilt, string(out))
	return m, dir, true
}

// build runs a build in the sandbox, when a build may run; it gives its place up to the
// next build once it has run for Config.BuildSlotHold.
func (s *slot) build(ctx context.Context, dir, shell string) ([]byte, error) {
	select {
	case s.h.builds <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var once sync.Once
	release := func() { once.Do(func() { <-s.h.builds }) }
	defer release()
	hold := time.AfterFunc(s.h.cfg.BuildSlotHold, func() {
		s.log.Info().Str("dir", dir).Dur("after", s.h.cfg.BuildSlotHold).Msg("a slow build gives its place to the next and runs on")
		release()
	})
	defer hold.Stop()
	bctx, cancel := context.WithTimeoutCause(ctx, s.h.cfg.BuildTimeout, fmt.Errorf("the build took longer than %v", s.h.cfg.BuildTimeout))
	defer cancel()
	start := time.Now()
	out, err := s.h.cfg.Sandbox.Build(bctx, dir, shell)
	s.log.Info().Str("dir", dir).Dur("took", time.Since(start).Round(time.Millisecond)).AnErr("error", err).Msg("build")
	return out, err
}

// running is one version running as the player.
type running struct {
	version int
	bridge  *engine.Bridge
	cancel  context.CancelFunc
	done    chan struct{}
	stderr  *tail
	group   *cgroup.Group // the engine's cgroup, or nil
	memory  int64         // its memory limit
	frozen  *frozen       // the bridge, frozen between its calls, or nil

	mu       sync.Mutex
	starts   []time.Time // of the engine, within the death window
	signaled bool
}

// started counts a start of the engine, and tells the slot once the engine has been
// restarted Deaths times within DeathWindow.
func (p *running) started(s *slot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	p.starts = append(p.starts, now)
	for len(p.starts) > 0 && now.Sub(p.starts[0]) > s.h.cfg.DeathWindow {
		p.starts = p.starts[1:]
	}
	if len(p.starts) > s.h.cfg.Deaths && !p.signaled {
		p.signaled = true
		select {
		case s.died <- p.version:
		default:
		}
	}
}

// oomKills says how many of the engine's processes its cgroup's memory limit killed, if
// any: a line for its failure log.
func (p *running) oomKills() string {
	if p.group == nil {
		return ""
	}
	if n, err := p.group.OOMKills(); err == nil && n > 0 {
		return fmt.Sprintf("\nthe engine's cgroup reached its memory limit (%d MiB): the kernel killed %d of its processes", p.memory>>20, n)
	}
	return ""
}

// counting is a Dialect that counts the handshakes of the engines it speaks to: one at
// each start, and so one after each death.
type counting struct {
	engine.Dialect
	started func()
}

func (d counting) Start(ctx context.Context, c engine.LineConn) (engine.Identity, error) {
	d.started()
	return d.Dialect.Start(ctx, c)
}

// start stops the version running and starts v as the player. It reports false when v
// could not start (v is then failed).
func (s *slot) start(ctx context.Context, v int, m archive.Manifest, dir string) bool {
	argv, err := s.h.cfg.Sandbox.Command(dir, m.Argv)
	if err != nil {
		s.fail(ctx, v, protocol.EngineRunFailed, "the sandbox refused the run line: "+err.Error())
		return false
	}
	// A manifest names only registered protocols (ReadManifest checked it); the settings are
	// the defaults, as a manifest has none.
	proto, err := engine.Lookup(m.Protocol)
	if err != nil {
		s.fail(ctx, v, protocol.EngineRunFailed, "protocol "+err.Error())
		return false
	}
	newDialect, err := proto.Dialects(engine.DefaultSettings())
	if err != nil {
		s.fail(ctx, v, protocol.EngineRunFailed, "protocol "+m.Protocol+": "+err.Error())
		return false
	}
	p := &running{version: v, stderr: &tail{max: 2 * protocol.MaxEngineLog}, done: make(chan struct{})}
	log := s.log.With().Str("version", protocol.EngineVersion(v)).Logger()
	if m := s.h.cfg.Cgroups; m != nil {
		// Every process of the engine, its restarts too, runs in the group from its start.
		if p.group, err = m.New(s.name + "-" + protocol.EngineVersion(v)); err != nil {
			s.log.Error().Err(err).Msg("cannot make the engine's cgroup; trying again later")
			return false
		}
		p.memory = m.Limits().Memory
		argv = p.group.Wrap(argv)
	}
	opts := s.h.cfg.Engine
	opts.Dir = dir
	opts.Stderr = p.stderr.line // the bridge logs it within bounds
	p.bridge = engine.NewBridge(argv, func() engine.Dialect { return counting{newDialect(), func() { p.started(s) }} }, opts, log)

	if s.run != nil {
		s.stop(ctx, protocol.EngineStopped, "")
	}
	var id engine.Identity
	for attempt := 1; ; attempt++ {
		if id, err = p.bridge.Start(ctx); err == nil {
			break
		}
		if ctx.Err() != nil || attempt > s.h.cfg.Deaths {
			_ = p.bridge.Close()
			p.remove(log)
			if ctx.Err() == nil {
				s.fail(ctx, v, protocol.EngineRunFailed, fmt.Sprintf("%s\nthe engine did not start: %v", p.stderr.bytes(), err))
			}
			return false
		}
		log.Warn().Err(err).Int("attempt", attempt).Msg("the engine did not start; trying again")
		select {
		case <-ctx.Done():
		case <-time.After(startRetry):
		}
	}
	games := m.Games
	if len(games) == 0 {
		games = slices.Clone(proto.Games) // nil, as m.Games, means any game
	}
	cfg := player.Config{
		Name:        s.name,
		Agent:       protocol.Clip("hosted:"+filepath.Base(m.Argv[0]), protocol.MaxLabel),
		Version:     protocol.EngineVersion(v),
		Games:       games,
		Concurrency: 1, // one engine process plays one game at a time; see engine.Bridge
		Drain:       s.h.cfg.Drain,
		Log:         s.h.cfg.Log,
	}
	var a agent.Agent = p.bridge
	if !s.h.cfg.Ponder {
		var fz freezer = &treeStopper{pid: p.bridge.Pid}
		if p.group != nil {
			fz = p.group
		}
		p.frozen = newFrozen(p.bridge, fz, log)
		a = p.frozen
	}
	sctx, cancel := context.WithCancel(ctx)
	p.cancel = cancel
	s.h.serving.Add(1)
	go func() {
		defer close(p.done)
		defer s.h.serving.Add(-1)
		if err := player.Serve(sctx, s.h.cfg.Conn, cfg, a); err != nil && sctx.Err() == nil {
			log.Error().Err(err).Msg("the player stopped")
		}
	}()
	s.run = p
	log.Info().Str("dir", dir).Str("engine_name", id.Name).Str("engine_version", id.Version).Msg("engine running")
	s.report(ctx, v, protocol.EngineRunning, "")
	s.clean(v)
	return true
}

// stop stops the player running and reports its state.
func (s *slot) stop(ctx context.Context, state, log string) {
	p := s.run
	s.run = nil
	p.cancel()
	<-p.done
	if p.frozen != nil { // a frozen engine could not take its quit
		p.frozen.release()
	}
	if err := p.bridge.Close(); err != nil {
		s.log.Debug().Err(err).Str("version", protocol.EngineVersion(p.version)).Msg("stop engine")
	}
	p.remove(s.log)
	s.report(ctx, p.version, state, log)
}

// remove removes the engine's cgroup, killing whatever is left in it.
func (p *running) remove(log zerolog.Logger) {
	if p.group == nil {
		return
	}
	if err := p.group.Remove(); err != nil {
		log.Error().Err(err).Msg("cannot remove the engine's cgroup")
	}
}

// clean removes the directories of versions older than the one before v: a version that
// comes back is unpacked and built again.
func (s *slot) clean(v int) {
	entries, err := os.ReadDir(filepath.Join(s.h.cfg.Dir, s.name))
	if err != nil {
		return
	}
	for _, e := range entries {
		n, err := protocol.ParseEngineVersion(strings.TrimSuffix(e.Name(), builtSuffix))
		if err != nil || n >= v-1 {
			continue
		}
		if err := os.RemoveAll(filepath.Join(s.h.cfg.Dir, s.name, e.Name())); err != nil {
			s.log.Warn().Err(err).Msg("cannot remove an old version")
		}
	}
}

// readSmall reads a small file the host wrote (a build's marker), as archive.OpenRegular
// opens it: never through a link, never blocking.
func readSmall(path string) ([]byte, error) {
	f, err := archive.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 4096))
}

// lastLine is the last line of a log, for a log entry.
func lastLine(log string) string {
	log = strings.TrimRight(log, "\n")
	if i := strings.LastIndexByte(log, '\n'); i >= 0 {
		return log[i+1:]
	}
	return log
}
