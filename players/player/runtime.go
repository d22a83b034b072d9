package player

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
)

// Defaults and bounds of the runtime's timing.
const (
	// DefaultHelloRetry is how often a player repeats its Hello until a referee answers.
	DefaultHelloRetry = time.Second
	// MaxDefaultReserve caps the default reserve (a tenth of the move time).
	MaxDefaultReserve = 20 * time.Millisecond

	// A referee's heartbeat interval is kept within these bounds, so that a misconfigured
	// referee can make a player neither flood the lobby nor fall silent.
	minHeartbeat = 50 * time.Millisecond
	maxHeartbeat = time.Hour

	// maxMoveTime bounds the move time taken from a request, so that absurd values cannot
	// overflow a time.Duration.
	maxMoveTime = 30 * 24 * time.Hour

	// drainTimeout bounds how long Serve waits for its subscriptions to drain on shutdown.
	drainTimeout = 5 * time.Second
	// flushTimeout bounds the wait for the server to confirm the subscriptions.
	flushTimeout = 5 * time.Second
	// maxHelloWait bounds the wait for a Welcome, whatever HelloRetry is.
	maxHelloWait = 5 * time.Second
	// closedCheck is how often Serve checks whether its connection was closed under it.
	closedCheck = 250 * time.Millisecond

	maxInfoPV = 256 // protocol.DecodeTurnReply rejects a longer principal variation

	// queueLen is the capacity of the queue between NATS and the dispatcher, and
	// maxWaiting how many events the dispatcher holds that cannot start yet (their game
	// is busy, or every slot is). Past both, NATS holds further messages.
	queueLen   = 64
	maxWaiting = 64
	// subscriptionBuffer is how many turn requests and notices NATS may hold for the
	// dispatcher before it drops them as a slow consumer.
	subscriptionBuffer = 8192
)

// Config configures Serve.
type Config struct {
	// Name is the player's name: its NATS subjects and its identity at the referee. It must
	// be a protocol.ValidName.
	Name string
	// Agent is the agent's name, reported in the Hello (for example "random").
	Agent string
	// Version is the player's version, reported in the Hello.
	Version string
	// Games lists the game names the player plays, reported in the Hello; nil means any.
	Games []string
	// Log receives the runtime's log. The zero Logger discards everything.
	Log zerolog.Logger
	// HelloRetry is how often the Hello is repeated until a referee welcomes the player.
	// Zero means DefaultHelloRetry. It is also how long each Hello waits for its Welcome,
	// up to 5s.
	HelloRetry time.Duration
	// Reserve is the time kept back from each move's budget for the reply's trip to the
	// referee: Turn.Deadline is the request's arrival plus Clock.MoveMS less Reserve.
	// Zero means a tenth of the move time, at most MaxDefaultReserve (20ms), which covers
	// a NATS round trip on a local network with room to spare. On top of it the runtime
	// keeps twice the delays it has lately observed between its own reckoning of time and
	// the referee's (its replies sent after their deadline, the referee charging more than
	// the player measured, a game lost on time; see lagMeter), so that on a busy machine
	// moves get a little less time instead of games being lost on time. A negative Reserve
	// keeps nothing back and does not adapt. Whatever its value, the agent is always left
	// at least half the move time.
	Reserve time.Duration
	// Concurrency is how many turns (and game notices) are handled at once, each on its
	// own goroutine; turns and notices of one game are still handled one at a time, in
	// the order they arrived (see the package documentation). Zero means 1: one event at
	// a time, so the agent is never called concurrently. Above 1 the agent must be safe
	// for concurrent use, as every registered agent is (see agent.Register).
	Concurrency int
	// Drain, when closed, starts a clean stop: the player says it is leaving
	// (protocol.Hello.Leaving), so that the referee starts no new game with it, plays on
	// the games it is in, and Serve returns once they have ended. Cancelling ctx then
	// ends the clean stop early: Serve unsubscribes, says it is leaving once more, and the
	// referee hands the games still running back (void, replayed later, never forfeited).
	Drain <-chan struct{}
}

// check validates the config and fills in defaults.
func (c Config) check() (Config, error) {
	if !protocol.ValidName(c.Name) {
		return c, fmt.Errorf("players: player name %q must be 1-64 characters of A-Z a-z 0-9 - _", c.Name)
	}
	if len(c.Agent) > protocol.MaxLabel || len(c.Version) > protocol.MaxLabel {
		return c, fmt.Errorf("players: agent name and version must be at most %d bytes each", protocol.MaxLabel)
	}
	if len(c.Games) > protocol.MaxLabel {
		return c, fmt.Errorf("players: %d games listed, at most %d fit in a hello", len(c.Games), protocol.MaxLabel)
	}
	for _, g := range c.Games {
		if g == "" || len(g) > 64 {
			return c, fmt.Errorf("players: game name %q must be 1-64 bytes", g)
		}
	}
	if c.HelloRetry < 0 {
		return c, fmt.Errorf("players: negative hello retry interval %v", c.HelloRetry)
	}
	if c.HelloRetry == 0 {
		c.HelloRetry = DefaultHelloRetry
	}
	if c.Concurrency < 0 {
		return c, fmt.Errorf("players: negative concurrency %d", c.Concurrency)
	}
	c.Concurrency = max(c.Concurrency, 1)
	return c, nil
}

// reserve is the time kept back from a move time of move when the observed lag is lag.
func (c Config) reserve(move, lag time.Duration) time.Duration {
	r := c.Reserve
	switch {
	case r < 0:
		return 0
	case r == 0:
		r = min(move/10, MaxDefaultReserve)
	}
	return min(r+lagFactor*lag, move/2)
}

// Serve runs a player until ctx is cancelled: it subscribes to the player's subjects,
// announces the player to the referee and keeps announcing it, answers turn requests with
// moves chosen by a, up to cfg.Concurrency at once, and passes game notices to a if it is
// a Learner. See the package documentation for the details.
//
// Serve returns nil once ctx is cancelled, its subscriptions have drained and every event
// that had arrived has been handled (turns are answered; the agent sees a cancelled
// context); no goroutine of Serve outlives it. It returns an error when the config is
// invalid, when subscribing fails, or when the connection is closed under it.
func Serve(ctx context.Context, nc *nats.Conn, cfg Config, a agent.Agent) error {
	cfg, err := cfg.check()
	if err != nil {
		return err
	}
	if nc == nil {
		return errors.New("players: nil nats connection")
	}
	if a == nil {
		return errors.New("players: nil agent")
	}
	p := &runner{
		nc:          nc,
		cfg:         cfg,
		agent:       a,
		log:         cfg.Log.With().Str("player", cfg.Name).Logger(),
		events:      make(chan event, queueLen),
		wake:        make(chan struct{}, 1),
		games:       map[string]game.Game{},
		turnSubject: protocol.TurnSubject(cfg.Name),
		gameSubject: protocol.GameSubject(cfg.Name),
	}
	p.learner, _ = a.(agent.Learner)

	// Turns go to one instance of the player's queue group, so that several instances of
	// one player (on several hosts) share its turns; every instance hears every game
	// notice. Both arrive on one channel, which NATS fills in the order the messages came
	// off the wire, so a game_start still comes before the game's first turn.
	msgs := make(chan *nats.Msg, subscriptionBuffer)
	var subs []*nats.Subscription
	for _, subscribe := range []func() (*nats.Subscription, error){
		func() (*nats.Subscription, error) {
			return nc.ChanQueueSubscribe(p.turnSubject, protocol.PlayerQueue, msgs)
		},
		func() (*nats.Subscription, error) { return nc.ChanSubscribe(p.gameSubject, msgs) },
		func() (*nats.Subscription, error) { return nc.Subscribe(protocol.SubjectRollCall, p.onRollCall) },
	} {
		sub, err := subscribe()
		if err != nil {
			for _, sub := range subs {
				_ = sub.Unsubscribe()
			}
			return fmt.Errorf("players: subscribe: %w", err)
		}
		subs = append(subs, sub)
	}
	stopReading, readerDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(readerDone)
		for {
			select {
			case m := <-msgs:
				p.onPlayer(m)
			case <-stopReading:
				for {
					select {
					case m := <-msgs:
						p.onPlayer(m)
					default:
						return
					}
				}
			}
		}
	}()

	done := make(chan struct{})
	go func() {
		defer close(done)
		p.work(ctx)
	}()

	// The subscriptions must be in place at the server before the referee learns of the
	// player, or its first turn request could find no responders.
	// While the connection is down the flush fails, but the subscriptions are replayed on
	// reconnecting, so only a closed connection is fatal.
	fctx, cancel := context.WithTimeout(ctx, flushTimeout)
	err = nc.FlushWithContext(fctx)
	cancel()
	switch {
	case ctx.Err() != nil:
		err = nil
	case errors.Is(err, nats.ErrConnectionClosed):
		err = fmt.Errorf("players: flush subscriptions: %w", err)
	default:
		if err != nil {
			p.log.Warn().Err(err).Msg("flush subscriptions")
		}
		err = p.announceUntilStopped(ctx)
	}

	p.drain(subs)
	if p.leaving.Load() && !p.nc.IsClosed() {
		// Unsubscribed now: this hello tells a referee waiting for a reply of ours that
		// nobody will answer, so that it hands the game back at once.
		_ = p.nc.Publish(protocol.HelloSubject(p.cfg.Name), p.hello())
		_ = p.nc.FlushTimeout(flushTimeout)
	}
	close(stopReading)
	<-readerDone
	p.close()
	<-done
	if err == nil {
		p.log.Info().Msg("player stopped")
	}
	return err
}

// announceUntilStopped says hello (announce) until ctx ends, or, once Config.Drain is
// closed, until the games the player is in have ended.
func (p *runner) announceUntilStopped(ctx context.Context) error {
	actx, stop := context.WithCancel(ctx)
	defer stop()
	announced := make(chan error, 1)
	go func() { announced <- p.announce(actx) }()
	select {
	case err := <-announced:
		return err
	case <-p.cfg.Drain:
	}
	p.leaving.Store(true)
	p.wakeHello()
	n, idle := p.inGame.idle()
	p.log.Info().Int("games", n).Msg("leaving: no new games; the games being played go on")
	select {
	case <-idle:
		p.log.Info().Msg("leaving: every game has ended")
	case <-ctx.Done():
		n, _ := p.inGame.idle()
		p.log.Warn().Int("games", n).Msg("leaving before the games ended: the referee hands them back, to replay them")
	case err := <-announced:
		return err
	}
	stop()
	return <-announced
}

// wakeHello makes announce say hello now.
func (p *runner) wakeHello() {
	select {
	case p.wake <- struct{}{}:
	default: // a hello is already due
	}
}

// hello is the player's Hello, leaving or not.
func (p *runner) hello() []byte {
	return protocol.Encode(protocol.Hello{
		V: protocol.Version, Type: protocol.TypeHello, Name: p.cfg.Name, Agent: p.cfg.Agent,
		Version: p.cfg.Version, Games: p.cfg.Games, Leaving: p.leaving.Load(),
	})
}

// event is a turn request or a game notice waiting to be handled, with the time it arrived.
type event struct {
	gameID  string // the game it belongs to: events of one game are handled in order
	arrival time.Time
	msg     *nats.Msg             // a turn request's message, to reply to
	turn    *protocol.TurnRequest // a turn request, or nil
	notice  *protocol.GameNotice  // a game notice, or nil
}

// runner is the state of one Serve call.
type runner struct {
	nc      *nats.Conn
	cfg     Config
	agent   agent.Agent
	learner agent.Learner
	log     zerolog.Logger

	turnSubject, gameSubject string

	mu     sync.Mutex // guards closed, and sends on events against its closing
	closed bool
	events chan event
	wake   chan struct{} // a roll call asks for a hello now

	gamesMu sync.Mutex
	games   map[string]game.Game // by spec

	leaving atomic.Bool // Config.Drain is closed: every hello says so
	inGame  playing     // the games this player is in

	lag lagMeter
}

// playerSubjects is one subscription subject for protocol.TurnSubject(name) and
// protocol.GameSubject(name).
// onPlayer receives the player's turn requests and game notices. It decodes them here, so
// that the dispatcher knows each one's game, and so that malformed messages never queue.
func (p *runner) onPlayer(m *nats.Msg) {
	arrival := time.Now()
	switch m.Subject {
	case p.turnSubject:
		// An empty message is the referee checking that someone still listens here (see
		// docs/protocol.md); it wants no answer.
		if len(m.Data) == 0 {
			return
		}
		req, err := protocol.DecodeTurnRequest(m.Data)
		if err != nil {
			p.log.Warn().Err(err).Msg("ignoring malformed turn request")
			return
		}
		p.inGame.turn(req.GameID)
		p.push(event{gameID: req.GameID, arrival: arrival, msg: m, turn: &req})
	case p.gameSubject:
		n, err := protocol.DecodeGameNotice(m.Data)
		if err != nil {
			p.log.Warn().Err(err).Msg("ignoring malformed game notice")
			return
		}
		p.inGame.notice(n)
		p.push(event{gameID: n.GameID, arrival: arrival, notice: &n})
	default:
		p.log.Debug().Str("subject", m.Subject).Msg("ignoring message on an unknown subject")
	}
}

func (p *runner) onRollCall(m *nats.Msg) {
	rc, err := protocol.DecodeRollCall(m.Data)
	if err != nil {
		p.log.Warn().Err(err).Msg("ignoring malformed roll call")
		return
	}
	p.log.Debug().Str("referee", rc.Referee).Msg("roll call")
	p.wakeHello()
}

// push queues an event for the dispatcher. It blocks while the queue is full, which makes
// NATS hold further messages; after close it drops the event.
func (p *runner) push(e event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.events <- e
	}
}

func (p *runner) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	close(p.events)
}

// drain removes the subscriptions' interest, lets the messages already received reach the
// queue, and waits (boundedly) until NATS has delivered them all.
func (p *runner) drain(subs []*nats.Subscription) {
	for _, sub := range subs {
		if err := sub.Drain(); err != nil && !p.nc.IsClosed() {
			p.log.Warn().Err(err).Str("subject", sub.Subject).Msg("drain subscription")
			_ = sub.Unsubscribe()
		}
	}
	limit := time.Now().Add(drainTimeout)
	for _, sub := range subs {
		// Without a connection no message can arrive, and the drain can never complete.
		for sub.IsValid() && p.nc.IsConnected() && time.Now().Before(limit) {
			time.Sleep(5 * time.Millisecond)
		}
		if sub.IsValid() {
			_ = sub.Unsubscribe()
		}
	}
}

// work dispatches the queued events until the queue is closed and every event has been
// handled. Each event runs on its own goroutine, at most cfg.Concurrency at once and at
// most one per game; among the events that may start, the earliest to arrive starts
// first. So with Concurrency 1 events are handled one at a time in arrival order, and
// with more, an event never overtakes an earlier one of its own game.
func (p *runner) work(ctx context.Context) {
	var (
		waiting []event             // arrived but not started, in arrival order
		busy    = map[string]bool{} // games with an event being handled
		running int
		done    = make(chan string) // a handler's game, when it has finished
		in      = p.events
		wg      sync.WaitGroup
	)
	defer wg.Wait() // so that no handler goroutine outlives Serve
	for in != nil || len(waiting) > 0 || running > 0 {
		// An event waits only while its game is busy or every slot is taken. Once an event
		// of a game is left waiting, so is every later one of that game: either the game
		// is busy, or no slot is free for the rest of this pass.
		kept := waiting[:0]
		for _, e := range waiting {
			if running == p.cfg.Concurrency || busy[e.gameID] {
				kept = append(kept, e)
				continue
			}
			busy[e.gameID] = true
			running++
			wg.Add(1)
			go func() {
				defer wg.Done()
				p.handle(ctx, e)
				done <- e.gameID
			}()
		}
		clear(waiting[len(kept):])
		waiting = kept

		// With too many events waiting, leave the rest in the queue (and then in NATS)
		// until a handler finishes. Some handler is running then: with none, the first
		// waiting event would have started.
		recv := in
		if len(waiting) >= maxWaiting {
			recv = nil
		}
		select {
		case e, ok := <-recv:
			if !ok {
				in = nil
				break
			}
			waiting = append(waiting, e)
		case g := <-done:
			running--
			delete(busy, g)
		}
	}
}

// handle answers a turn or passes on a notice.
func (p *runner) handle(ctx context.Context, e event) {
	if e.turn != nil {
		p.turn(ctx, e.msg, *e.turn, e.arrival)
	} else {
		p.notice(*e.notice)
	}
}

// announce sends the Hello, retrying until a referee welcomes the player and then repeating
// it as a heartbeat, until ctx is cancelled or the connection is closed. It says hello on
// the player's own subject (protocol.HelloSubject), the only one a secured bus lets it
// publish a hello on.
func (p *runner) announce(ctx context.Context) error {
	subject := protocol.HelloSubject(p.cfg.Name)
	var (
		referee  string // the referee that welcomed us last; "" while not welcomed
		searched bool   // the "waiting for a referee" message was logged
		timer    = time.NewTimer(0)
		// The connection is the caller's, so its closed handler is too: look instead.
		check = time.NewTicker(closedCheck)
	)
	defer timer.Stop()
	defer check.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-check.C:
			if p.nc.IsClosed() {
				return fmt.Errorf("players: %w", nats.ErrConnectionClosed)
			}
			continue
		case <-timer.C:
		case <-p.wake:
		}
		start := time.Now()
		interval := p.cfg.HelloRetry
		reqCtx, cancel := context.WithTimeout(ctx, min(p.cfg.HelloRetry, maxHelloWait))
		reply, err := p.nc.RequestWithContext(reqCtx, subject, p.hello())
		cancel()
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, nats.ErrConnectionClosed):
			return fmt.Errorf("players: hello: %w", err)
		case err != nil:
			if referee != "" {
				p.log.Warn().Err(err).Str("referee", referee).Msg("referee stopped answering hello; retrying")
				referee = ""
			} else if !searched {
				p.log.Info().Err(err).Dur("retry", interval).Msg("no referee yet; retrying hello")
			} else {
				p.log.Debug().Err(err).Msg("hello unanswered")
			}
			searched = true
		default:
			w, err := protocol.DecodeWelcome(reply.Data)
			if err != nil {
				p.log.Warn().Err(err).Msg("malformed welcome; retrying hello")
				referee = ""
				break
			}
			interval = maxHeartbeat
			if w.HeartbeatMS < int64(maxHeartbeat/time.Millisecond) {
				interval = max(time.Duration(w.HeartbeatMS)*time.Millisecond, minHeartbeat)
			}
			if w.Referee != referee {
				p.log.Info().Str("referee", w.Referee).Dur("heartbeat", interval).Msg("welcomed by referee")
			}
			referee = w.Referee
			if referee == "" {
				referee = "(unnamed)"
			}
		}
		timer.Reset(max(0, interval-time.Since(start)))
	}
}

// turn answers one turn request. Requests that cannot be understood are logged and left
// unanswered: a reply could only be a guess, and the referee times the turn out either way.
func (p *runner) turn(ctx context.Context, m *nats.Msg, req protocol.TurnRequest, arrival time.Time) {
	log := p.log.With().Str("game_id", req.GameID).Int("ply", req.Ply).Logger()
	g, err := p.game(req.Game)
	if err != nil {
		log.Error().Err(err).Msg("cannot play turn: unknown game")
		return
	}
	st, err := g.ParseState(req.Position)
	if err != nil {
		log.Error().Err(err).Msg("cannot play turn: bad position")
		return
	}
	if req.Seat >= len(g.Seats()) {
		log.Error().Int("seat", req.Seat).Msg("cannot play turn: no such seat")
		return
	}
	seat := game.Seat(req.Seat)
	legal := st.LegalMoves(seat, nil)
	if len(legal) == 0 {
		log.Error().Int("seat", req.Seat).Str("position", req.Position).Msg("cannot play turn: the seat has no legal move here")
		return
	}
	p.compareLegal(log, st, legal, req.Legal)

	if d := p.lag.request(req); d > 0 {
		log.Debug().Dur("delay", d).Msg("the referee charged more for the previous move than it took here")
	}
	move := time.Duration(min(req.Clock.MoveMS, int64(maxMoveTime/time.Millisecond))) * time.Millisecond
	deadline := arrival.Add(move - p.cfg.reserve(move, p.lag.current()))
	// Overruns are measured from the deadline the lag has not moved: measured from the
	// agent's own, an agent that takes its time whatever the deadline (a fixed-depth
	// search) would overrun by each increase of the reserve, and the lag would feed on
	// itself.
	unmoved := arrival.Add(move - p.cfg.reserve(move, 0))
	t := agent.Turn{
		GameID:      req.GameID,
		Game:        g,
		State:       st.Clone(),
		Seat:        seat,
		Legal:       slices.Clone(legal),
		Moves:       req.Moves,
		Observation: req.Observation,
		Clock:       req.Clock,
		Deadline:    deadline,
		Cutoff:      deadline.Add(time.Duration(max(req.Clock.MarginMS, 0)) * time.Millisecond),
	}
	d, err := p.choose(ctx, t)

	reply := protocol.TurnReply{V: protocol.Version, Type: protocol.TypeMove, GameID: req.GameID, Ply: req.Ply}
	switch {
	case err == nil && d.NoReply:
		log.Warn().Msg("agent leaves the turn unanswered; the referee decides on its clock")
		return
	case err == nil && d.Raw != "":
		reply.Move = d.Raw
		reply.Info = cleanInfo(d.Info)
		if !slices.ContainsFunc(legal, func(m game.Move) bool { return st.MoveString(m) == d.Raw }) {
			log.Warn().Str("move", d.Raw).Msg("passing on the agent's own words, which are not one of the legal moves; the referee judges them")
		}
	case err != nil:
		reply.Move = st.MoveString(legal[0])
		log.Warn().Err(err).Str("move", reply.Move).Msg("agent failed; playing the first legal move")
	case d.Crashed != "":
		reply.Move = protocol.Resign
		reply.Crashed = protocol.Clip(d.Crashed, protocol.MaxNote)
		log.Warn().Str("crashed", reply.Crashed).Msg("the agent's engine crashed; giving the game up")
	case d.Resign:
		reply.Move = protocol.Resign
		reply.Info = cleanInfo(d.Info)
		log.Info().Msg("agent resigns")
	case !slices.Contains(legal, d.Move):
		reply.Move = st.MoveString(legal[0])
		// The illegal move is logged as a number: MoveString need not cope with any value.
		log.Warn().Int32("agent_move", int32(d.Move)).Str("move", reply.Move).Msg("agent chose an illegal move; playing the first legal move")
	default:
		reply.Move = st.MoveString(d.Move)
		reply.Info = cleanInfo(d.Info)
	}
	data := protocol.Encode(reply)
	if len(data) > protocol.MaxMessageSize {
		reply.Info = nil
		data = protocol.Encode(reply)
	}
	late := time.Since(unmoved)
	if now := p.lag.observe(late); late > 0 {
		// Within the referee's margin this costs nothing; the referee decides forfeits.
		log.Info().Dur("late", late).Dur("lag", now).Msg("agent overran its deadline; later moves keep more in reserve")
	}
	if err := m.Respond(data); err != nil {
		log.Error().Err(err).Msg("send turn reply")
		return
	}
	p.lag.replied(req, time.Since(arrival))
	log.Debug().Str("move", reply.Move).Dur("took", time.Since(arrival)).Msg("turn answered")
}

// choose calls the agent with a context that ends at the turn's cutoff (its deadline plus
// the referee's margin), turning a panic into an error.
func (p *runner) choose(ctx context.Context, t agent.Turn) (d agent.Decision, err error) {
	end := t.Deadline
	if t.Cutoff.After(end) {
		end = t.Cutoff
	}
	ctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("agent panicked: %v", r)
		}
	}()
	return p.agent.Choose(ctx, t)
}

// compareLegal logs when the referee's list of legal moves differs from the player's own,
// which means the two disagree about the rules, or about the position.
func (p *runner) compareLegal(log zerolog.Logger, st game.State, ours []game.Move, theirs []string) {
	if theirs == nil {
		return
	}
	if len(ours) == len(theirs) {
		// Both lists come from the same rules, most often in the same order: then there
		// is nothing to sort.
		same := true
		for i, m := range ours {
			if st.MoveString(m) != theirs[i] {
				same = false
				break
			}
		}
		if same {
			return
		}
	}
	mine := make([]string, len(ours))
	for i, m := range ours {
		mine[i] = st.MoveString(m)
	}
	other := slices.Clone(theirs)
	slices.Sort(mine)
	slices.Sort(other)
	if !slices.Equal(mine, other) {
		log.Warn().Strs("ours", mine).Strs("referee", other).Msg("legal moves differ from the referee's")
	}
}

// game returns the game for a spec, looking each spec up once. The game is shared by the
// turns of every game of that spec, as the referee shares it between its games.
func (p *runner) game(spec string) (game.Game, error) {
	p.gamesMu.Lock()
	defer p.gamesMu.Unlock()
	if g, ok := p.games[spec]; ok {
		return g, nil
	}
	g, err := game.Lookup(spec)
	if err != nil {
		return nil, err
	}
	p.games[spec] = g
	return g, nil
}

// cleanInfo makes an agent's search info fit the protocol: JSON cannot carry a NaN or an
// infinite score, and the referee rejects negative counts, overlong variations and notes. It
// returns nil when there is nothing to say.
func cleanInfo(info protocol.SearchInfo) *protocol.SearchInfo {
	info.Depth = max(info.Depth, 0)
	info.Nodes = max(info.Nodes, 0)
	if math.IsNaN(info.Score) || math.IsInf(info.Score, 0) {
		info.Score = 0
	}
	if len(info.PV) > maxInfoPV {
		info.PV = info.PV[:maxInfoPV]
	}
	info.Note = protocol.Clip(info.Note, protocol.MaxNote)
	if info.Depth == 0 && info.Nodes == 0 && info.Score == 0 && len(info.PV) == 0 && info.Note == "" {
		return nil
	}
	return &info
}

// notice passes a game notice to the agent, if it wants them.
func (p *runner) notice(n protocol.GameNotice) {
	log := p.log.With().Str("game_id", n.GameID).Str("game", n.Game).Logger()
	if n.Type == protocol.TypeGameEnd {
		log.Info().Str("result", n.Result).Str("reason", n.Reason).Int("seat", n.Seat).Msg("game ended")
		before := p.lag.current()
		if after := p.lag.ended(n); after > before {
			log.Warn().Dur("lag", after).Msg("lost on time: later moves keep more in reserve")
		}
	} else {
		log.Info().Strs("players", n.Players).Int("seat", n.Seat).Msg("game started")
	}
	if p.learner == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			log.Error().Interface("panic", r).Msg("agent panicked on a game notice")
		}
	}()
	if n.Type == protocol.TypeGameEnd {
		p.learner.GameEnded(n)
	} else {
		p.learner.GameStarted(n)
	}
}
