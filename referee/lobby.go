package referee

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"golang.org/x/time/rate"

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
	// Leaving is when the player last said it is stopping cleanly (Hello.Leaving); zero
	// once it says hello without it. A leaving player is not present: no game starts with it.
	Leaving time.Time
	// Connected reports whether the player was seen within the last PresenceHeartbeats
	// heartbeat intervals when Players was called, and is not leaving.
	Connected bool
}

// PresenceHeartbeats is how many heartbeat intervals may pass without a hello before the
// lobby no longer counts a player as connected: a player that misses one heartbeat is
// slow, one that misses three is gone.
const PresenceHeartbeats = 3

// Defaults of the lobby's limits (Config.MaxPlayers, Config.HelloRate, Config.HelloBurst).
const (
	// DefaultMaxPlayers is how many distinct player names the lobby knows at most.
	DefaultMaxPlayers = 1024
	// DefaultHelloRate is how many hellos a second one name may say, on average. A player
	// says one per heartbeat, and one per roll call.
	DefaultHelloRate = 5.0
	// DefaultHelloBurst is how many hellos one name may say at once.
	DefaultHelloBurst = 20
)

// The lobby's shared subscriptions (to protocol.SubjectHelloNamed and SubjectHello) hold at
// most this many messages, and bytes, that the lobby has not read yet; the NATS client
// drops what comes on top (LobbyStats.Dropped). A player whose hello is dropped retries, so
// a flood costs bounded memory and nothing else.
const (
	lobbyPendingMsgs  = 8192
	lobbyPendingBytes = 8 << 20
)

// A known player's own subscription to its HelloSubject holds at most this many messages,
// and bytes, not read yet: a player says hello once per heartbeat, so only one that floods
// its own subject fills it, and loses its own hellos.
const (
	ownPendingMsgs  = 32
	ownPendingBytes = 128 << 10
)

// maxAdmitting bounds the rate limiters of names the lobby does not know yet (their hello
// is being checked, or was not accepted). When it is reached, one of them is forgotten: a
// stranger's limit may then start afresh, but the limiters of known players never go.
const maxAdmitting = 64

// Rejected hellos are logged without flooding the log: the first of each name and reason
// is logged, up to maxLoggedRejections pairs in all, and the rest are counted and summed up
// in at most one line per reason every rejectSummaryEvery.
const (
	maxLoggedRejections = 256
	rejectSummaryEvery  = 5 * time.Second
)

// maxLoggedSubject bounds how much of a rejected hello's subject goes into the log.
const maxLoggedSubject = 128

// LobbyStats counts the hellos the lobby has handled since the referee started, by what
// became of them. Every hello the lobby read is in exactly one of the first five counts.
type LobbyStats struct {
	// Accepted counts the hellos recorded (and welcomed, when they asked for a reply).
	Accepted uint64
	// Invalid counts the hellos that could not be decoded, or that came on a named hello
	// subject whose name is no valid player name.
	Invalid uint64
	// Mismatched counts the hellos on a named hello subject whose name differs from the
	// hello's own name field.
	Mismatched uint64
	// RateLimited counts the hellos of a name that was over its rate (Config.HelloRate and
	// HelloBurst).
	RateLimited uint64
	// Refused counts the hellos of new names when the lobby already knew Config.MaxPlayers
	// names.
	Refused uint64
	// Dropped counts the messages on the hello subjects that the NATS client discarded
	// unread because one of the lobby's queues was full; they are in none of the other
	// counts. A known player's hello on its named subject reaches two of the lobby's
	// subscriptions, the player's own, which reads it, and the shared one, which leaves it
	// to the other: so a hello may be counted here, dropped by the shared subscription,
	// although it was read.
	Dropped uint64
}

// rejection is why the lobby ignored a hello.
type rejection int

const (
	rejectInvalid rejection = iota
	rejectMismatched
	rejectRateLimited
	rejectRefused
	numRejections
)

func (k rejection) String() string {
	switch k {
	case rejectInvalid:
		return "invalid"
	case rejectMismatched:
		return "mismatched"
	case rejectRateLimited:
		return "rate_limited"
	case rejectRefused:
		return "refused"
	}
	return "unknown"
}

// lobby is the presence part of a Referee.
type lobby struct {
	mu        sync.Mutex
	running   bool
	heartbeat time.Duration // of the running lobby, or of the last one
	players   map[string]PlayerInfo
	changed   chan struct{} // closed and replaced whenever a hello is recorded
	// limits are the hello rate limiters of the players in players; admitting those of
	// names not known (yet), at most maxAdmitting.
	limits    map[string]*rate.Limiter
	admitting map[string]*rate.Limiter
	run       *lobbyRun // the running lobby; nil when none runs
	dropped   uint64    // by the subscriptions of lobbies that have stopped

	accepted atomic.Uint64
	rejected [numRejections]atomic.Uint64

	rejects rejectLog
}

func (l *lobby) init() {
	l.players = map[string]PlayerInfo{}
	l.changed = make(chan struct{})
	l.limits = map[string]*rate.Limiter{}
	l.admitting = map[string]*rate.Limiter{}
	l.rejects.logged = map[rejectKey]bool{}
}

// lobbyRun is one run of the lobby, from StartLobby until its context ends. Its fields are
// guarded by the lobby's lock.
type lobbyRun struct {
	welcome []byte
	shared  []*nats.Subscription // to protocol.SubjectHelloNamed and protocol.SubjectHello
	// own are the subscriptions of known players to their own HelloSubject. Each has a
	// queue of its own, so that a flood on the shared subscription, on another player's
	// subject or with new names, does not crowd out a known player's heartbeats. Once a
	// name is in own, the shared subscription leaves its hellos to its own one.
	own    map[string]*nats.Subscription
	closed bool
}

// subs returns every subscription of the run.
func (run *lobbyRun) subs() []*nats.Subscription {
	return slices.Concat(run.shared, slices.Collect(maps.Values(run.own)))
}

// rejectLog decides which rejected hellos are logged.
type rejectLog struct {
	mu     sync.Mutex
	logged map[rejectKey]bool // the pairs whose first rejection was logged
	quiet  [numRejections]rejectSum
}

type rejectKey struct {
	reason rejection
	name   string // "" when the hello named nobody valid
}

// rejectSum is what a reason's next summary line says.
type rejectSum struct {
	count uint64    // rejections not logged since the last summary
	name  string    // the last of them
	since time.Time // of the last line logged for the reason; zero before the first
}

// StartLobby starts answering the players' Hello messages, on their named subjects
// (protocol.SubjectHelloNamed) and on the unnamed protocol.SubjectHello, with a Welcome that
// names the referee and the heartbeat interval players should say hello at, and publishes
// a RollCall so that players started before the referee say hello at once. It returns once
// the lobby is listening; the lobby runs until ctx ends. Only one lobby may run at a time.
//
// The lobby ignores, without a reply, a hello that is invalid, that came on another
// player's named subject than its own name's, that is over its name's rate
// (Config.HelloRate, Config.HelloBurst), or that is from a new name when Config.MaxPlayers
// names are known; LobbyStats counts them. On a named subject the rate is checked before
// the hello is decoded, so that a flood of hellos costs little. What the lobby has not
// read yet is bounded: when a flood outruns it, the NATS client drops the excess. A player
// welcomed after a hello on its named subject gets a subscription and a queue of its own
// for its hellos, so that others' floods do not crowd out its heartbeats.
//
// The lobby listens on Config.LobbyConn when it is set, and on Config.Conn otherwise;
// a connection of its own keeps a flood of hellos from delaying the players' moves.
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

	run := &lobbyRun{
		welcome: protocol.Encode(protocol.Welcome{
			V: protocol.Version, Type: protocol.TypeWelcome, Referee: r.id, HeartbeatMS: heartbeat.Milliseconds(),
		}),
		own: map[string]*nats.Subscription{},
	}
	closeRun := func() {
		r.lobby.mu.Lock()
		run.closed = true
		subs := run.subs()
		// Count what the subscriptions dropped before they go, since a closed
		// subscription no longer tells.
		for _, sub := range subs {
			if n, err := sub.Dropped(); err == nil {
				r.lobby.dropped += uint64(n)
			}
		}
		r.lobby.run = nil
		r.lobby.mu.Unlock()
		for _, sub := range subs {
			_ = sub.Unsubscribe()
		}
	}
	fail := func(err error) error {
		closeRun()
		stopped()
		return fmt.Errorf("referee: lobby: %w", err)
	}
	r.lobby.mu.Lock()
	r.lobby.run = run
	r.lobby.mu.Unlock()
	for _, subject := range []string{protocol.SubjectHelloNamed, protocol.SubjectHello} {
		sub, err := r.lobbyNC.Subscribe(subject, func(msg *nats.Msg) { r.hello(run, msg, true) })
		if err != nil {
			return fail(err)
		}
		r.lobby.mu.Lock()
		run.shared = append(run.shared, sub)
		r.lobby.mu.Unlock()
		if err := sub.SetPendingLimits(lobbyPendingMsgs, lobbyPendingBytes); err != nil {
			return fail(err)
		}
	}
	// The roll call must go out only once the server knows the subscriptions, or the
	// hellos it provokes could be lost.
	if err := r.lobbyNC.Flush(); err != nil {
		return fail(err)
	}
	rollcall := protocol.Encode(protocol.RollCall{V: protocol.Version, Type: protocol.TypeRollCall, Referee: r.id})
	if err := r.lobbyNC.Publish(protocol.SubjectRollCall, rollcall); err != nil {
		return fail(fmt.Errorf("roll call: %w", err))
	}
	r.log.Info().Str("referee", r.id).Dur("heartbeat", heartbeat).Msg("lobby open")
	go func() {
		// The summaries of rejected hellos are due even when no more hellos come.
		tick := time.NewTicker(rejectSummaryEvery)
		defer tick.Stop()
		for done := false; !done; {
			select {
			case <-tick.C:
				r.summarizeRejects(false)
			case <-ctx.Done():
				done = true
			}
		}
		closeRun()
		stopped()
		r.summarizeRejects(true)
		r.log.Info().Msg("lobby closed")
	}()
	return nil
}

// helloPrefix is the named hello subjects' common prefix: the name follows it.
var helloPrefix = protocol.HelloSubject("")

// verdict is what admit decides about a hello.
type verdict int

const (
	admitted verdict = iota // within its name's rate: go on
	rejected                // ignore it, for the reason admit gives
	theirs                  // the name's own subscription has it too, and reads it
)

// hello judges a player's Hello, and records and answers it when it is accepted. It runs
// for every message on the hello subjects, so what it does before it knows whether the
// hello is acceptable must stay cheap: on a named subject the name's rate is checked
// before the message is decoded. shared tells whether msg came on one of the lobby's
// shared subscriptions rather than on a player's own.
func (r *Referee) hello(run *lobbyRun, msg *nats.Msg, shared bool) {
	now := r.clock.Now()
	named, isNamed := strings.CutPrefix(msg.Subject, helloPrefix)
	if isNamed {
		if !protocol.ValidName(named) {
			r.reject(rejectInvalid, "", msg, errors.New("the subject names no valid player"))
			return
		}
		switch v, k := r.admit(run, named, now, shared); v {
		case theirs:
			return
		case rejected:
			r.reject(k, named, msg, nil)
			return
		}
	}
	h, err := protocol.DecodeHello(msg.Data)
	if err != nil {
		r.reject(rejectInvalid, named, msg, err)
		return
	}
	if isNamed && h.Name != named {
		r.reject(rejectMismatched, named, msg, fmt.Errorf("the hello names %q", h.Name))
		return
	}
	if !isNamed {
		if v, k := r.admit(run, h.Name, now, false); v == rejected {
			r.reject(k, h.Name, msg, nil)
			return
		}
	}
	info := PlayerInfo{
		Name: h.Name, Agent: h.Agent, Version: h.Version,
		Games: slices.Clone(h.Games), LastSeen: now,
	}
	if h.Leaving {
		info.Leaving = now
	}
	r.lobby.mu.Lock()
	_, known := r.lobby.players[h.Name]
	if !known && len(r.lobby.players) >= r.maxPlayers {
		// Other names were admitted since admit looked.
		r.lobby.mu.Unlock()
		r.reject(rejectRefused, h.Name, msg, nil)
		return
	}
	wasLeaving := known && !r.lobby.players[h.Name].Leaving.IsZero()
	r.lobby.players[h.Name] = info
	if !known {
		// A known player's limiter stays for good, so the lobby's limiters number at most
		// MaxPlayers + maxAdmitting.
		if lim, ok := r.lobby.admitting[h.Name]; ok {
			r.lobby.limits[h.Name] = lim
			delete(r.lobby.admitting, h.Name)
		} else {
			r.lobby.limits[h.Name] = r.newLimiter(now)
		}
	}
	// Only the shared subscription reads the named hellos of a player without one of its
	// own, so this runs on one goroutine at a time for a name.
	subscribe := isNamed && run.own[h.Name] == nil && !run.closed
	close(r.lobby.changed)
	r.lobby.changed = make(chan struct{})
	r.lobby.mu.Unlock()
	r.lobby.accepted.Add(1)
	switch {
	case !known:
		r.log.Info().Str("player", h.Name).Str("agent", h.Agent).Str("version", h.Version).Msg("lobby: player joined")
	case h.Leaving && !wasLeaving:
		r.log.Info().Str("player", h.Name).Msg("lobby: player leaving (a clean stop): no new games with it")
	case !h.Leaving && wasLeaving:
		r.log.Info().Str("player", h.Name).Msg("lobby: player back")
	}
	if subscribe {
		r.subscribeOwn(run, h.Name)
	}
	if msg.Reply != "" {
		if err := msg.Respond(run.welcome); err != nil {
			r.log.Warn().Err(err).Str("player", h.Name).Msg("lobby: welcome failed")
		}
	}
}

// subscribeOwn gives a known player that says hello on its named subject a subscription of
// its own to that subject (see lobbyRun.own), before the player is welcomed. The server
// handles a connection's messages in order, so it has the subscription before it passes
// the welcome on: every hello the player sends once welcomed reaches both subscriptions,
// and the shared one can leave it to the player's own at once. (A hello sent before the
// welcome came, and read by the shared subscription only after this, is lost; the player
// says hello again.) Should subscribing fail, the player's hellos stay on the shared
// subscription, and its next one tries again.
func (r *Referee) subscribeOwn(run *lobbyRun, name string) {
	sub, err := r.lobbyNC.Subscribe(protocol.HelloSubject(name), func(msg *nats.Msg) { r.hello(run, msg, false) })
	if err == nil {
		err = sub.SetPendingLimits(ownPendingMsgs, ownPendingBytes)
	}
	r.lobby.mu.Lock()
	keep := err == nil && !run.closed
	if keep {
		run.own[name] = sub
	}
	r.lobby.mu.Unlock()
	if !keep && sub != nil {
		_ = sub.Unsubscribe()
	}
	if err != nil {
		r.log.Warn().Err(err).Str("player", name).Msg("lobby: no subscription of the player's own; its hellos stay on the shared one")
	}
}

// newLimiter returns a hello rate limiter with a full burst, one of which is taken at now:
// the hello that made the limiter.
func (r *Referee) newLimiter(now time.Time) *rate.Limiter {
	lim := rate.NewLimiter(r.helloRate, r.helloBurst)
	lim.AllowN(now, 1)
	return lim
}

// admit takes one hello of name at now from its rate limiter, unless the hello came on a
// shared subscription although name has its own (theirs). It rejects the hello when the
// name is new and the lobby full, or over its rate. A new name gets a limiter among those
// being admitted, in room for maxAdmitting.
func (r *Referee) admit(run *lobbyRun, name string, now time.Time, shared bool) (verdict, rejection) {
	l := &r.lobby
	l.mu.Lock()
	defer l.mu.Unlock()
	if shared && run.own[name] != nil {
		return theirs, 0
	}
	lim, ok := l.limits[name]
	if !ok {
		if len(l.players) >= r.maxPlayers {
			return rejected, rejectRefused
		}
		if lim, ok = l.admitting[name]; !ok {
			if len(l.admitting) >= maxAdmitting {
				for n := range l.admitting {
					delete(l.admitting, n)
					break
				}
			}
			lim = rate.NewLimiter(r.helloRate, r.helloBurst)
			l.admitting[name] = lim
		}
	}
	if !lim.AllowN(now, 1) {
		return rejected, rejectRateLimited
	}
	return admitted, 0
}

// reject counts a hello ignored for reason k and logs it, if it is the first of its name
// and reason; the others go into the reason's summary. name is the player the hello is
// for, "" when it names none validly; err says what was wrong, when it is not evident.
func (r *Referee) reject(k rejection, name string, msg *nats.Msg, err error) {
	r.lobby.rejected[k].Add(1)
	now := r.clock.Now()
	rl := &r.lobby.rejects
	rl.mu.Lock()
	key := rejectKey{k, name}
	sum := &rl.quiet[k]
	if !rl.logged[key] && len(rl.logged) < maxLoggedRejections {
		rl.logged[key] = true
		if sum.since.IsZero() {
			sum.since = now // the reason's first summary comes rejectSummaryEvery later
		}
		rl.mu.Unlock()
		subject := msg.Subject
		if len(subject) > maxLoggedSubject {
			subject = subject[:maxLoggedSubject] + "..."
		}
		ev := r.log.Warn().Str("reason", k.String()).Str("subject", subject).Int("bytes", len(msg.Data))
		if name != "" {
			ev = ev.Str("player", name)
		}
		if err != nil {
			ev = ev.Err(err)
		}
		ev.Msg("lobby: hello ignored (further ones of this player and reason are only counted)")
		return
	}
	sum.count++
	sum.name = name
	due := sum.since.IsZero() || now.Sub(sum.since) >= rejectSummaryEvery
	rl.mu.Unlock()
	if due {
		r.summarizeRejects(false)
	}
}

// summarizeRejects logs, for each reason, how many rejected hellos were not logged since its
// last summary, if any were and rejectSummaryEvery has passed since, or always when final.
func (r *Referee) summarizeRejects(final bool) {
	now := r.clock.Now()
	type line struct {
		k    rejection
		sum  rejectSum
		over time.Duration
	}
	var lines []line
	rl := &r.lobby.rejects
	rl.mu.Lock()
	for k := range numRejections {
		sum := &rl.quiet[k]
		if sum.count == 0 || !(final || sum.since.IsZero() || now.Sub(sum.since) >= rejectSummaryEvery) {
			continue
		}
		var over time.Duration
		if !sum.since.IsZero() {
			over = now.Sub(sum.since)
		}
		lines = append(lines, line{k, *sum, over})
		*sum = rejectSum{since: now}
	}
	rl.mu.Unlock()
	for _, l := range lines {
		ev := r.log.Warn().Str("reason", l.k.String()).Uint64("count", l.sum.count)
		if l.over > 0 {
			ev = ev.Dur("over", l.over)
		}
		if l.sum.name != "" {
			ev = ev.Str("last_player", l.sum.name)
		}
		ev.Msg("lobby: more hellos ignored")
	}
}

// LobbyStats returns the counts of the hellos the lobby has handled since the referee
// started, over every lobby it ran.
func (r *Referee) LobbyStats() LobbyStats {
	r.lobby.mu.Lock()
	dropped := r.lobby.dropped
	if run := r.lobby.run; run != nil {
		for _, sub := range run.subs() {
			if n, err := sub.Dropped(); err == nil {
				dropped += uint64(n)
			}
		}
	}
	r.lobby.mu.Unlock()
	return LobbyStats{
		Accepted:    r.lobby.accepted.Load(),
		Invalid:     r.lobby.rejected[rejectInvalid].Load(),
		Mismatched:  r.lobby.rejected[rejectMismatched].Load(),
		RateLimited: r.lobby.rejected[rejectRateLimited].Load(),
		Refused:     r.lobby.rejected[rejectRefused].Load(),
		Dropped:     dropped,
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
// PresenceHeartbeats heartbeat intervals of the lobby, on the referee's clock, and is not
// leaving. It is false for a player never seen, and for every player when no lobby has
// been started.
func (r *Referee) Connected(name string) bool {
	now := r.clock.Now()
	r.lobby.mu.Lock()
	defer r.lobby.mu.Unlock()
	p, ok := r.lobby.players[name]
	return ok && r.lobby.present(p, now)
}

// present reports whether p counts as connected at now, and is not leaving. The lobby's
// lock must be held.
func (l *lobby) present(p PlayerInfo, now time.Time) bool {
	return l.heartbeat > 0 && now.Sub(p.LastSeen) <= PresenceHeartbeats*l.heartbeat && p.Leaving.IsZero()
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
