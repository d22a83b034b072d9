package referee

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/protocol"
)

// ErrPlayersMissing is wrapped by the error WaitFor returns when players have not said hello
// in time.
var ErrPlayersMissing = errors.New("referee: players missing")

// PlayerInfo is what the lobby knows of a player, from its last Hello.
type PlayerInfo struct {
	Name     string
	Agent    string
	Version  string
	Games    []string // the games it plays; empty means any
	LastSeen time.Time
	// Connected reports whether the player was seen within the last PresenceHeartbeats
	// heartbeat intervals when Players was called.
	Connected bool
}

// PresenceHeartbeats is how many heartbeat intervals may pass without a hello before the
// lobby no longer counts a player as connected: a player that misses one heartbeat is
// slow, one that misses three is gone.
const PresenceHeartbeats = 3

// lobby is the presence part of a Referee.
type lobby struct {
	mu        sync.Mutex
	running   bool
	heartbeat time.Duration // of the running lobby, or of the last one
	players   map[string]PlayerInfo
	changed   chan struct{} // closed and replaced whenever a hello is recorded
}

func (l *lobby) init() {
	l.players = map[string]PlayerInfo{}
	l.changed = make(chan struct{})
}

// StartLobby starts answering the players' Hello messages on protocol.SubjectHello with a
// Welcome that names the referee and the heartbeat interval players should say hello at,
// and publishes a RollCall so that players started before the referee say hello at once.
// It returns once the lobby is listening; the lobby runs until ctx ends. Invalid hellos are
// logged and ignored. Only one lobby may run at a time.
func (r *Referee) StartLobby(ctx context.Context, heartbeat time.Duration) error {
	if heartbeat < time.Millisecond {
		return fmt.Errorf("referee: heartbeat %v must be at least 1ms", heartbeat)
	}
	r.lobby.mu.Lock()
	if r.lobby.running {
		r.lobby.mu.Unlock()
		return errors.New("referee: lobby already running")
	}
	r.lobby.running = true
	r.lobby.heartbeat = heartbeat
	r.lobby.mu.Unlock()
	stopped := func() {
		r.lobby.mu.Lock()
		r.lobby.running = false
		r.lobby.mu.Unlock()
	}

	welcome := protocol.Encode(protocol.Welcome{
		V: protocol.Version, Type: protocol.TypeWelcome, Referee: r.id, HeartbeatMS: heartbeat.Milliseconds(),
	})
	sub, err := r.nc.Subscribe(protocol.SubjectHello, func(msg *nats.Msg) { r.hello(msg, welcome) })
	if err != nil {
		stopped()
		return fmt.Errorf("referee: lobby: %w", err)
	}
	// The roll call must go out only once the server knows the subscription, or the
	// hellos it provokes could be lost.
	if err := r.nc.Flush(); err != nil {
		_ = sub.Unsubscribe()
		stopped()
		return fmt.Errorf("referee: lobby: %w", err)
	}
	rollcall := protocol.Encode(protocol.RollCall{V: protocol.Version, Type: protocol.TypeRollCall, Referee: r.id})
	if err := r.nc.Publish(protocol.SubjectRollCall, rollcall); err != nil {
		_ = sub.Unsubscribe()
		stopped()
		return fmt.Errorf("referee: lobby: roll call: %w", err)
	}
	r.log.Info().Str("referee", r.id).Dur("heartbeat", heartbeat).Msg("lobby open")
	go func() {
		<-ctx.Done()
		_ = sub.Unsubscribe()
		stopped()
		r.log.Info().Msg("lobby closed")
	}()
	return nil
}

// hello records a player's Hello and answers it.
func (r *Referee) hello(msg *nats.Msg, welcome []byte) {
	h, err := protocol.DecodeHello(msg.Data)
	if err != nil {
		r.log.Warn().Err(err).Int("bytes", len(msg.Data)).Msg("lobby: invalid hello ignored")
		return
	}
	info := PlayerInfo{
		Name: h.Name, Agent: h.Agent, Version: h.Version,
		Games: slices.Clone(h.Games), LastSeen: r.clock.Now(),
	}
	r.lobby.mu.Lock()
	_, known := r.lobby.players[h.Name]
	r.lobby.players[h.Name] = info
	close(r.lobby.changed)
	r.lobby.changed = make(chan struct{})
	r.lobby.mu.Unlock()
	if !known {
		r.log.Info().Str("player", h.Name).Str("agent", h.Agent).Str("version", h.Version).Msg("lobby: player joined")
	}
	if msg.Reply != "" {
		if err := msg.Respond(welcome); err != nil {
			r.log.Warn().Err(err).Str("player", h.Name).Msg("lobby: welcome failed")
		}
	}
}

// Players returns the players that have said hello since the referee started, sorted by
// name, each with whether it is connected now (see Connected).
func (r *Referee) Players() []PlayerInfo {
	now := r.clock.Now()
	r.lobby.mu.Lock()
	defer r.lobby.mu.Unlock()
	out := make([]PlayerInfo, 0, len(r.lobby.players))
	for _, p := range r.lobby.players {
		p.Games = slices.Clone(p.Games)
		p.Connected = r.lobby.present(p, now)
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b PlayerInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// WaitFor waits until every named player has said hello since the referee started. It
// returns nil as soon as they all have, an error wrapping ErrPlayersMissing that names the
// missing players once timeout has passed on the referee's clock, or ctx's error. A timeout
// of zero or less checks once without waiting. The lobby must be running.
func (r *Referee) WaitFor(ctx context.Context, names []string, timeout time.Duration) error {
	r.lobby.mu.Lock()
	running := r.lobby.running
	r.lobby.mu.Unlock()
	if !running {
		return errors.New("referee: WaitFor needs a running lobby (StartLobby)")
	}
	var expired <-chan time.Time
	if timeout > 0 {
		c, stop := startTimer(r.clock, timeout)
		defer stop()
		expired = c
	}
	for {
		missing, changed := r.missing(names)
		if len(missing) == 0 {
			return nil
		}
		if expired == nil {
			return fmt.Errorf("%w: %s", ErrPlayersMissing, strings.Join(missing, ", "))
		}
		select {
		case <-changed:
		case <-expired:
			missing, _ = r.missing(names)
			if len(missing) == 0 {
				return nil
			}
			return fmt.Errorf("%w after %v: %s", ErrPlayersMissing, timeout, strings.Join(missing, ", "))
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// missing lists, in the order given and once each, the names that have not said hello, and
// returns the channel that is closed at the next hello.
func (r *Referee) missing(names []string) ([]string, <-chan struct{}) {
	r.lobby.mu.Lock()
	defer r.lobby.mu.Unlock()
	var out []string
	for _, n := range names {
		if _, ok := r.lobby.players[n]; !ok && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, r.lobby.changed
}

// Connected reports whether the named player is present: it has said hello within the last
// PresenceHeartbeats heartbeat intervals of the lobby, on the referee's clock. It is false
// for a player never seen, and for every player when no lobby has been started.
func (r *Referee) Connected(name string) bool {
	now := r.clock.Now()
	r.lobby.mu.Lock()
	defer r.lobby.mu.Unlock()
	p, ok := r.lobby.players[name]
	return ok && r.lobby.present(p, now)
}

// present reports whether p counts as connected at now. The lobby's lock must be held.
func (l *lobby) present(p PlayerInfo, now time.Time) bool {
	return l.heartbeat > 0 && now.Sub(p.LastSeen) <= PresenceHeartbeats*l.heartbeat
}

// saidHello reports whether the named player has said hello since the referee started.
func (r *Referee) saidHello(name string) bool {
	r.lobby.mu.Lock()
	defer r.lobby.mu.Unlock()
	_, ok := r.lobby.players[name]
	return ok
}

// waitPresent waits up to timeout on the referee's clock until every named player is
// Connected. It returns the names still absent then (nil when all are present), or early
// with stopped set when stop is closed, or ctx's error.
func (r *Referee) waitPresent(ctx context.Context, names []string, timeout time.Duration, stop <-chan struct{}) (absent []string, stopped bool, err error) {
	expired, cancel := startTimer(r.clock, timeout)
	defer cancel()
	for {
		absent, changed := r.absent(names)
		if len(absent) == 0 {
			return nil, false, nil
		}
		select {
		case <-changed:
		case <-expired:
			absent, _ = r.absent(names)
			return absent, false, nil
		case <-stop:
			return absent, true, nil
		case <-ctx.Done():
			return absent, false, ctx.Err()
		}
	}
}

// absent lists the names that are not Connected, in the order given and once each, and
// returns the channel that is closed at the next hello.
func (r *Referee) absent(names []string) ([]string, <-chan struct{}) {
	now := r.clock.Now()
	r.lobby.mu.Lock()
	defer r.lobby.mu.Unlock()
	var out []string
	for _, n := range names {
		p, ok := r.lobby.players[n]
		if (!ok || !r.lobby.present(p, now)) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, r.lobby.changed
}

// lobbyRunning reports whether StartLobby's lobby is listening.
func (r *Referee) lobbyRunning() bool {
	r.lobby.mu.Lock()
	defer r.lobby.mu.Unlock()
	return r.lobby.running
}
