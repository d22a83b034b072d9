package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/players/hosting/cgroup"
	"github.com/arenaref/arena/protocol"
)

// Defaults of Config.
const (
	DefaultBuildTimeout   = 5 * time.Minute
	DefaultBuildSlotHold  = 20 * time.Second
	DefaultDeaths         = 3
	DefaultDeathWindow    = time.Minute
	DefaultResync         = 30 * time.Second
	DefaultRequestTimeout = 15 * time.Second
	// stopReportTimeout bounds the reports of stopped engines when the host stops.
	stopReportTimeout = 3 * time.Second
	// startRetry is the pause between tries to start an engine that would not start.
	startRetry = time.Second
)

// Config configures a Host.
type Config struct {
	// Conn is the host's connection, with a host's credentials on a secured bus: the host
	// API, the referee's notices, and every hosted player's hellos and turns.
	Conn *nats.Conn
	// Dir is where engines are unpacked and built, DIR/NAME/sN; it is made if need be.
	Dir string
	// Sandbox runs the builds and wraps the engines' command lines. Required.
	Sandbox Sandbox
	// Concurrency is how many builds run at once in their first BuildSlotHold; 0 means 1.
	Concurrency int
	// BuildSlotHold is how long a build keeps its place among the Concurrency: past it, it
	// gives the place to the next build waiting and runs on beside it. A player builds one
	// version at a time, so a player's slow build (a hostile one sleeps until its time
	// runs out) holds back the others' by at most BuildSlotHold, and each player has at
	// most one build running; 0 means DefaultBuildSlotHold.
	BuildSlotHold time.Duration
	// BuildTimeout bounds one build; 0 means DefaultBuildTimeout.
	BuildTimeout time.Duration
	// Cgroups, when set, puts each engine in a cgroup of its own, with its limits: every
	// process of the engine joins it before it runs, and it is removed, with whatever is
	// left in it, when the engine stops. Nil runs engines without cgroups.
	Cgroups *cgroup.Manager
	// Ponder lets engines run between their turns. By default (false) each engine is
	// frozen between its turns (its cgroup's freezer, or, without Cgroups, SIGSTOP of its
	// process tree), and thawed for its turns, its handshake and its games' notices: it
	// cannot think on its opponent's time nor take the CPU from the engines that are
	// thinking.
	Ponder bool
	// Engine are the engines' options (timeouts); the host sets Dir and Stderr.
	Engine engine.Options
	// Deaths within DeathWindow make an engine run_failed: it was restarted that many times
	// (the start that follows each death counts, the first start too); 0 means
	// DefaultDeaths and DefaultDeathWindow.
	Deaths      int
	DeathWindow time.Duration
	// Resync is how often the host lists the submissions again, besides at each notice of
	// a new one; 0 means DefaultResync.
	Resync time.Duration
	// RequestTimeout bounds each request to the referee; 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// Drain, when closed, starts a clean stop: the host starts no new engine, every
	// hosted player leaves (player.Config.Drain: no new games, the running ones finish),
	// and Run returns once they all have, or when its ctx ends first.
	Drain <-chan struct{}
	Log   zerolog.Logger
}

// Host keeps, for every player with submitted engines, the newest of them that works built
// and running as that player. See the package documentation.
type Host struct {
	cfg    Config
	builds chan struct{} // one token per build that may run (see Config.BuildSlotHold)

	mu    sync.Mutex
	slots map[string]*slot
	wg    sync.WaitGroup

	serving atomic.Int64 // hosted players whose player.Serve runs
}

// New checks cfg and returns a Host; Run runs it.
func New(cfg Config) (*Host, error) {
	switch {
	case cfg.Conn == nil:
		return nil, errors.New("hosted: no NATS connection")
	case cfg.Sandbox == nil:
		return nil, errors.New("hosted: no sandbox")
	case cfg.Dir == "":
		return nil, errors.New("hosted: no directory")
	case cfg.Concurrency < 0 || cfg.Deaths < 0 || cfg.BuildTimeout < 0 || cfg.BuildSlotHold < 0 || cfg.DeathWindow < 0 || cfg.Resync < 0 || cfg.RequestTimeout < 0:
		return nil, errors.New("hosted: negative concurrency, deaths or duration")
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, err
	}
	// Others may cross it (a sandbox's uid reaches its engine's directory through it),
	// not list it.
	if err := os.MkdirAll(dir, 0o711); err != nil {
		return nil, fmt.Errorf("hosted: %w", err)
	}
	cfg.Dir = dir
	cfg.Concurrency = max(cfg.Concurrency, 1)
	if cfg.BuildTimeout == 0 {
		cfg.BuildTimeout = DefaultBuildTimeout
	}
	if cfg.BuildSlotHold == 0 {
		cfg.BuildSlotHold = DefaultBuildSlotHold
	}
	if cfg.Deaths == 0 {
		cfg.Deaths = DefaultDeaths
	}
	if cfg.DeathWindow == 0 {
		cfg.DeathWindow = DefaultDeathWindow
	}
	if cfg.Resync == 0 {
		cfg.Resync = DefaultResync
	}
	if cfg.RequestTimeout == 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	return &Host{cfg: cfg, builds: make(chan struct{}, cfg.Concurrency), slots: map[string]*slot{}}, nil
}

// Run hosts engines until ctx ends, then stops every engine (reporting them stopped) and
// returns. It lists the submissions at once, at every notice of a new one, and every
// Config.Resync.
func (h *Host) Run(ctx context.Context) error {
	wake := make(chan struct{}, 1)
	poke := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	sub, err := h.cfg.Conn.Subscribe(protocol.SubjectHostNew, func(m *nats.Msg) {
		if ev, err := protocol.DecodeEngineEvent(m.Data); err == nil {
			h.cfg.Log.Info().Str("player", ev.Name).Str("version", ev.Version).Msg("new submission")
		}
		poke()
	})
	if err != nil {
		return fmt.Errorf("hosted: subscribe %s: %w", protocol.SubjectHostNew, err)
	}
	defer sub.Unsubscribe()
	// Not yet connected (the server is not up yet), the subscription is made on connecting.
	if err := h.cfg.Conn.Flush(); err != nil {
		h.cfg.Log.Warn().Err(err).Msg("not connected to NATS yet")
	}
	tick := time.NewTicker(h.cfg.Resync)
	defer tick.Stop()
	for poke(); ; {
		select {
		case <-ctx.Done():
			h.stop()
			return nil
		case <-h.cfg.Drain:
			h.leave(ctx)
			h.stop()
			return nil
		case <-wake:
		case <-tick.C:
		}
		if err := h.sync(ctx); err != nil && ctx.Err() == nil {
			h.cfg.Log.Warn().Err(err).Msg("cannot list the submissions; trying again later")
		}
	}
}

// leavePoll is how often a leaving host looks whether its players have all left.
const leavePoll = 100 * time.Millisecond

// leave waits until every hosted player has left (Config.Drain), or ctx ends.
func (h *Host) leave(ctx context.Context) {
	h.cfg.Log.Info().Int64("players", h.serving.Load()).Msg("leaving: no new engines or games; the games being played go on")
	t := time.NewTicker(leavePoll)
	defer t.Stop()
	for h.serving.Load() > 0 {
		select {
		case <-ctx.Done():
			h.cfg.Log.Warn().Int64("players", h.serving.Load()).Msg("leaving before every game ended: the referee hands them back, to replay them")
			return
		case <-t.C:
		}
	}
	h.cfg.Log.Info().Msg("leaving: every hosted game has ended")
}

// stop stops every slot and waits for them.
func (h *Host) stop() {
	h.mu.Lock()
	for _, s := range h.slots {
		s.cancel()
	}
	h.mu.Unlock()
	h.wg.Wait()
}

// sync lists the submissions and hands each name's to its slot.
func (h *Host) sync(ctx context.Context) error {
	r, err := h.request(ctx, protocol.SubjectHostList, protocol.EngineRequest{V: protocol.Version, Type: protocol.TypeHostList})
	if err != nil {
		return err
	}
	byName := map[string][]protocol.EngineSubmission{}
	var names []string
	for _, s := range r.Submissions {
		if _, ok := byName[s.Name]; !ok {
			names = append(names, s.Name)
		}
		byName[s.Name] = append(byName[s.Name], s) // newest first, as listed
	}
	for _, name := range names {
		h.slot(ctx, name).offer(byName[name])
	}
	return nil
}

// slot returns the slot of name, started at first use.
func (h *Host) slot(ctx context.Context, name string) *slot {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s := h.slots[name]; s != nil {
		return s
	}
	sctx, cancel := context.WithCancel(ctx)
	s := &slot{
		h: h, name: name, cancel: cancel,
		kick:   make(chan []protocol.EngineSubmission, 1),
		died:   make(chan int, 4),
		failed: map[int]bool{},
		states: map[int]report{},
		log:    h.cfg.Log.With().Str("player", name).Logger(),
	}
	h.slots[name] = s
	h.wg.Go(func() { s.loop(sctx) })
	return s
}

// request sends a JSON request to the referee and decodes its answer.
func (h *Host) request(ctx context.Context, subject string, req protocol.EngineRequest) (protocol.EngineReply, error) {
	ctx, cancel := context.WithTimeout(ctx, h.cfg.RequestTimeout)
	defer cancel()
	m, err := h.cfg.Conn.RequestWithContext(ctx, subject, protocol.Encode(req))
	if err != nil {
		return protocol.EngineReply{}, fmt.Errorf("%s: %w", subject, err)
	}
	r, err := protocol.DecodeEngineReply(m.Data)
	if err != nil {
		return protocol.EngineReply{}, fmt.Errorf("%s: %w", subject, err)
	}
	return r, nil
}

// fetch gets an archive from the referee and checks it is the one listed.
func (h *Host) fetch(ctx context.Context, name, version, sha string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, h.cfg.RequestTimeout)
	defer cancel()
	req := protocol.EngineRequest{V: protocol.Version, Type: protocol.TypeHostFetch, Name: name, Version: version}
	m, err := h.cfg.Conn.RequestWithContext(ctx, protocol.SubjectHostFetch, protocol.Encode(req))
	if err != nil {
		return nil, fmt.Errorf("fetch %s %s: %w", name, version, err)
	}
	got := m.Header.Get(protocol.HeaderArchiveSHA256)
	if got == "" {
		_, err := protocol.DecodeEngineReply(m.Data)
		return nil, fmt.Errorf("fetch %s %s: %w", name, version, err)
	}
	sum := sha256.Sum256(m.Data)
	if hex.EncodeToString(sum[:]) != got || got != sha {
		return nil, fmt.Errorf("fetch %s %s: the archive's SHA-256 is not the one listed", name, version)
	}
	return m.Data, nil
}

// report is a state the host gave a version, and the log that went with it.
type report struct{ state, log string }
