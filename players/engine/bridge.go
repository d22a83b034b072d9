package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
)

// ErrClosed is returned by a Bridge's methods after Close.
var ErrClosed = errors.New("engine: the bridge is closed")

// Bridge is a agent.Agent (and agent.Learner) that plays through an external engine
// program: it starts the program, speaks to it in a Dialect, and turns each turn into a
// move command and each game notice into the dialect's new-game and game-over commands.
//
// An engine plays one game at a time, so the bridge serialises every call on its one
// process; serve it with player.Config.Concurrency 1. When the referee interleaves two
// games, the bridge tells the engine of the switch with a new-game command before the
// other game's turn: engines that go by the turn's commands alone (as the line protocol
// allows) play both correctly.
//
// One engine's fault stays inside one game:
//   - The engine is started lazily (by Start, or the first notice or turn) and must finish
//     its handshake within Options.StartTimeout: a game only starts with an engine that
//     has answered.
//   - Turns are fenced: output the engine sent outside any turn (the rest of a flood, an
//     answer after the deadline) is read away before the next turn's commands, and
//     logged as stale, never judged. A line-protocol engine with the fence (feature
//     fence) has its turns fenced by ping and pong too, and its stray lines skipped; one
//     without it that wrote out of turn is restarted before the turn, since its next
//     line could not be told from an answer.
//   - The engine's standard error is logged within bounds (stderrLog).
//   - An engine that dies choosing a move loses that game only, as crashed (the
//     Decision's Crashed says how it ended), because the player runtime would otherwise
//     play the first legal move in its place. It is restarted before its next turn; its
//     other games go on with the new engine, which is told the game in progress with the
//     next turn (every dialect sends or replays the whole game). An engine that dies
//     between turns costs no game.
//   - An answer that is not a legal move is passed to the referee as it is, which records
//     illegal_move or protocol_error with the engine's words; no answer before the turn's
//     deadline leaves the turn unanswered, and the referee records time_forfeit.
//   - After any such turn the engine is settled (Dialect.Settle), once the turn's answer
//     has gone back, before anything else is asked of it: it has Options.PingTimeout to
//     give what it still owes and to answer a harmless command. One that does not is
//     restarted at once, so that the next game does not meet an engine still stuck in
//     the last one.
//   - A turn whose context is cancelled (the player is shutting down) returns an error.
type Bridge struct {
	argv       []string
	newDialect func() Dialect
	opts       Options
	log        zerolog.Logger
	errLog     *stderrLog // the engine's standard error, logged within bounds

	ctx    context.Context // cancelled by Close, to cut short a start or a command
	cancel context.CancelFunc

	mu       sync.Mutex // serialises the use of the engine; guards the fields below
	proc     *Process
	dialect  Dialect
	identity Identity
	current  string // the game the engine was last told of with NewGame; "" for none
	// unsettled is set by a turn that went wrong until the engine is settled, which
	// happens once the turn's answer has gone (settleLater) or before the next call.
	unsettled    bool
	unsettledLog zerolog.Logger
	died         bool // an engine died and has not been restarted
	closed       bool
	retiring     sync.WaitGroup // engines being closed in the background
}

var (
	_ agent.Agent   = (*Bridge)(nil)
	_ agent.Learner = (*Bridge)(nil)
)

// NewBridge returns a Bridge that runs argv (the program and its arguments) with opts and
// speaks to each process it starts with a new Dialect from dialect. It starts nothing yet.
// The engine's standard error is logged to log within bounds, per game (see StderrHead
// and StderrTail); opts.Stderr, when set, receives every line as well.
func NewBridge(argv []string, dialect func() Dialect, opts Options, log zerolog.Logger) *Bridge {
	opts = opts.withDefaults()
	errLog := &stderrLog{log: log}
	if also := opts.Stderr; also != nil {
		opts.Stderr = func(line string) { errLog.line(line); also(line) }
	} else {
		opts.Stderr = errLog.line
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Bridge{
		argv:       append([]string(nil), argv...),
		newDialect: dialect,
		opts:       opts,
		log:        log,
		errLog:     errLog,
		ctx:        ctx,
		cancel:     cancel,
	}
}

// Start starts the engine unless it runs already, and returns what it said about itself
// in the handshake. Commands call it to fail at once on an engine that cannot start, and
// to learn its name; the other methods start the engine when they need it.
func (b *Bridge) Start(ctx context.Context) (Identity, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.ensure(ctx); err != nil {
		return Identity{}, err
	}
	return b.identity, nil
}

// Identity returns what the running (or last) engine said about itself in its handshake.
func (b *Bridge) Identity() Identity {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.identity
}

// Pid returns the process id (and process group id) of the running engine, or 0.
func (b *Bridge) Pid() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.proc == nil || !b.proc.alive() {
		return 0
	}
	return b.proc.Pid()
}

// Choose asks the engine for a move. See Bridge for what it does when the engine fails.
func (b *Bridge) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	ctx, stop := b.join(ctx)
	defer stop()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return agent.Decision{}, ErrClosed
	}
	log := b.log.With().Str("game_id", t.GameID).Int("ply", len(t.Moves)).Logger()
	resign := agent.Decision{Resign: true}
	b.errLog.turn(t.GameID)
	b.settlePending()

	b.reap()
	if err := b.ensure(ctx); err != nil {
		if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return agent.Decision{}, err
		}
		log.Error().Err(err).Msg("resigning: the engine could not be started")
		return resign, nil
	}
	if b.fence(log) {
		if err := b.ensure(ctx); err != nil {
			log.Error().Err(err).Msg("resigning: the engine could not be restarted")
			return resign, nil
		}
	}
	if b.current != t.GameID {
		if err := b.newGame(ctx, t.GameID, t.Game, t.Seat); err != nil {
			if how, dead := b.crashed(); dead {
				log.Error().Err(err).Str("exit", how).Msg("the engine crashed taking the game; the game is given up as crashed and the engine restarted for the next turn")
				return agent.Decision{Crashed: how}, nil
			}
			log.Warn().Err(err).Msg("the engine did not take the new game")
		}
	}

	d, err := b.dialect.Move(ctx, b.proc, t)
	if f, ok := b.dialect.(fencing); ok {
		logStale(log, f.takeStale(), "at the fence, or stray")
	}
	if err == nil {
		return d, nil
	}
	if how, dead := b.crashed(); dead || errors.Is(err, ErrExited) {
		if how == "" {
			how = exitHow(err)
		}
		if !dead {
			b.drop()
		}
		log.Error().Str("exit", how).Msg("the engine crashed choosing its move; this game is given up as crashed, the engine is restarted for the next turn")
		return agent.Decision{Crashed: how}, nil
	}
	var (
		ae   *AnswerError
		out  = resign
		line string
	)
	switch {
	case errors.Is(err, context.Canceled):
		return agent.Decision{}, err
	case errors.Is(err, context.DeadlineExceeded):
		// The referee decides on its own clock: the game is lost on time, as it should be.
		log.Error().Err(err).Msg("the engine did not answer in time; leaving the turn unanswered")
		out = agent.Decision{NoReply: true}
	case errors.As(err, &ae) && ae.Line != "":
		// Pass the engine's own words on, so the referee judges and records them
		// (illegal_move, or protocol_error for a line too long to be a move).
		line = ae.Line
		log.Warn().Str("line", clipQuote(line)).Str("why", clipQuote(ae.Reason)).Msg("passing the engine's answer to the referee as it is")
		out = agent.Decision{Raw: rawMove(line)}
	default:
		log.Error().Err(err).Msg("resigning: the engine's answer cannot be played")
	}
	// The engine is settled once this decision has gone back: waiting for the real answer
	// after a stray line must not make the answer judged here late.
	b.unsettled, b.unsettledLog = true, log
	go b.settleLater()
	return out, nil
}

// Settle settles the engine now if its last turn went wrong (it answered late, or wrote a
// stray line), as Choose otherwise does in the background once it has returned; it
// returns at once when nothing is pending. A caller that stops the engine between its
// turns (a host's freezer) calls it first: a stopped engine could not catch up, and would
// be restarted as unresponsive.
func (b *Bridge) Settle() { b.settleLater() }

// settleLater settles the engine (settle) if no call has done it since the turn that went
// wrong: it runs once that turn's Choose has returned.
func (b *Bridge) settleLater() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settlePending()
}

// settlePending settles the engine if a turn went wrong since it last was, before anything
// else is asked of it. The caller holds mu.
func (b *Bridge) settlePending() {
	if !b.unsettled || b.closed || b.proc == nil {
		b.unsettled = false
		return
	}
	b.unsettled = false
	b.settle(b.unsettledLog)
}

// fencing is a Dialect that fences turns itself (the line protocol): it hands over what
// it read away inside Move, and says when an engine has no fence.
type fencing interface {
	takeStale() Stale
	unfenced() bool
}

// chatty is a Dialect whose engines may speak between turns unasked, as the protocol
// allows (NBoard's status lines): chatter tells such a line, which the fence reads away
// without calling it stale.
type chatty interface {
	chatter(line string) bool
}

// expecter is a Dialect that may still be owed a line when the fence runs (the line
// protocol's real answer after a stray line): expected tells it, and takes it.
type expecter interface {
	expected(line string) bool
}

// fence reads away what the engine sent since the last turn, before this turn's commands
// are sent: it answers nothing being asked now. An engine that wrote out of turn and has
// no way to fence its turns (the line protocol without "feature fence") is restarted,
// since what it writes next could not be told from an answer; fence reports whether it
// dropped the engine, which the caller then starts again.
func (b *Bridge) fence(log zerolog.Logger) bool {
	var st, owed Stale
	for {
		select {
		case it, ok := <-b.proc.lines:
			if ok {
				c, isChatty := b.dialect.(chatty)
				e, isExpecter := b.dialect.(expecter)
				switch {
				case it.err == nil && isChatty && c.chatter(it.line):
				case it.err == nil && isExpecter && e.expected(it.line):
					owed.add(it.line)
				default:
					st.add(it.line)
				}
				continue
			}
		default:
		}
		break
	}
	logStale(log, owed, "before the turn (the answer owed after a stray line)")
	logStale(log, st, "before the turn")
	if f, ok := b.dialect.(fencing); ok && st.Lines > 0 && f.unfenced() {
		log.Warn().Msg("the engine wrote out of turn and has no fence (feature fence): restarting it")
		b.drop()
		return true
	}
	return false
}

// settle gives an engine whose turn went wrong Options.PingTimeout to catch up and
// answer (Dialect.Settle), and restarts it when it does not.
func (b *Bridge) settle(log zerolog.Logger) {
	ctx, cancel := context.WithTimeout(b.ctx, b.opts.PingTimeout)
	st, err := b.dialect.Settle(ctx, b.proc)
	cancel()
	logStale(log, st, "after the turn")
	if err == nil {
		return
	}
	if _, dead := b.crashed(); !dead {
		log.Warn().Err(err).Dur("ping_timeout", b.opts.PingTimeout).Msg("the engine is unresponsive; restarting it")
		b.drop()
	}
	if err := b.ensure(b.ctx); err != nil {
		log.Error().Err(err).Msg("the engine could not be restarted; it is tried again at the next turn")
	}
}

// logStale logs what an engine sent outside any turn, when it sent anything.
func logStale(log zerolog.Logger, st Stale, when string) {
	if st.Lines == 0 {
		return
	}
	log.Warn().Int("lines", st.Lines).Int64("bytes", st.Bytes).Str("first", clipQuote(st.First)).
		Msg("stale output from the engine, read away " + when + " and not judged")
}

// clipQuote shortens an engine's line for a log entry.
func clipQuote(line string) string {
	if len(line) <= staleQuote {
		return line
	}
	return strings.ToValidUTF8(line[:staleQuote], "") + fmt.Sprintf("... (%d bytes)", len(line))
}

// crashed reports whether the engine has gone, and how it ended; a dead engine is dropped.
func (b *Bridge) crashed() (string, bool) {
	if b.proc == nil || b.proc.alive() {
		return "", false
	}
	how := exitHow(b.proc.exitErr())
	b.reap()
	return how, true
}

// exitHow is how an engine ended, from an error wrapping ErrExited: "exit status 3".
func exitHow(err error) string {
	if ee := (*exitError)(nil); errors.As(err, &ee) && ee.how != "" {
		return ee.how
	}
	return "it exited"
}

// rawMove is the engine's answer line, trimmed, as the move text passed to the referee:
// the referee judges exactly what the engine said ("d3 is my move" is no move).
func rawMove(line string) string { return strings.TrimSpace(line) }

// GameStarted starts the engine if need be and tells it of the new game.
func (b *Bridge) GameStarted(n protocol.GameNotice) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.settlePending()
	log := b.log.With().Str("game_id", n.GameID).Logger()
	g, err := game.Lookup(n.Game)
	if err != nil {
		log.Error().Err(err).Msg("game start for an unknown game")
		return
	}
	b.reap()
	if err := b.ensure(b.ctx); err != nil {
		log.Error().Err(err).Msg("the engine could not be started for the game; it is tried again at its first turn")
		return
	}
	if b.fence(log) {
		if err := b.ensure(b.ctx); err != nil {
			log.Error().Err(err).Msg("the engine could not be restarted for the game; it is tried again at its first turn")
			return
		}
	}
	if err := b.newGame(b.ctx, n.GameID, g, game.Seat(n.Seat)); err != nil {
		log.Warn().Err(err).Msg("the engine did not take the new game")
	}
}

// GameEnded tells the engine how the game ended, if the game is the engine's current
// one, and restarts an engine that died, so that it is ready for the next game.
func (b *Bridge) GameEnded(n protocol.GameNotice) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.errLog.end(n.GameID)
	b.settlePending()
	b.reap()
	if b.proc != nil && b.current == n.GameID {
		ctx, cancel := context.WithTimeout(b.ctx, b.opts.CommandTimeout)
		err := b.dialect.GameOver(ctx, b.proc, n)
		cancel()
		if err != nil {
			b.log.Warn().Err(err).Str("game_id", n.GameID).Msg("the engine did not take the game's end")
		}
		b.current = ""
	}
	if b.reap(); b.died && b.proc == nil {
		b.died = false // one try per death, so that a broken engine does not hold up every notice
		if err := b.ensure(b.ctx); err != nil {
			b.log.Error().Err(err).Msg("the engine could not be restarted; it is tried again at the next game")
		}
	}
}

// Close tells the engine to quit and ends its process group (see Process.Close). It waits
// for a call in progress to return first. Close is safe to call more than once.
func (b *Bridge) Close() error {
	b.cancel()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	var err error
	if b.proc != nil {
		err = b.stop(b.proc, b.dialect)
		b.proc = nil
	}
	b.retiring.Wait()
	b.errLog.close()
	return err
}

// join returns ctx, also cancelled when the bridge is closed.
func (b *Bridge) join(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(b.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// ensure starts the engine and performs the handshake, unless an engine runs already.
func (b *Bridge) ensure(ctx context.Context) error {
	if b.closed {
		return ErrClosed
	}
	if b.proc != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, b.opts.StartTimeout)
	defer cancel()
	p, err := Start(ctx, b.argv, b.opts)
	if err != nil {
		return err
	}
	d := b.newDialect()
	id, err := d.Start(ctx, p)
	if err != nil {
		b.retire(p)
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("the engine did not finish the %s handshake in time (start-up timeout %v): %w", d.Name(), b.opts.StartTimeout, err)
		}
		return fmt.Errorf("%s handshake: %w", d.Name(), err)
	}
	b.proc, b.dialect, b.identity, b.current, b.died = p, d, id, "", false
	b.log.Info().Int("pid", p.Pid()).Stringer("containment", p.Containment()).Str("protocol", d.Name()).
		Str("engine_name", id.Name).Str("engine_version", id.Version).Str("command", strings.Join(b.argv, " ")).
		Msg("engine started")
	return nil
}

// newGame tells the running engine that it plays seat in game id.
func (b *Bridge) newGame(ctx context.Context, id string, g game.Game, seat game.Seat) error {
	ctx, cancel := context.WithTimeout(ctx, b.opts.CommandTimeout)
	defer cancel()
	b.current = ""
	if err := b.dialect.NewGame(ctx, b.proc, g, seat); err != nil {
		return err
	}
	b.current = id
	return nil
}

// reap notices an engine that has exited and drops it. It reports whether it found one.
func (b *Bridge) reap() bool {
	if b.proc == nil || b.proc.alive() {
		return false
	}
	b.log.Warn().Int("pid", b.proc.Pid()).Err(b.proc.exitErr()).Msg("the engine exited")
	b.drop()
	return true
}

// drop gives up on the engine, dead or as good as dead (it closed its output, it does not
// answer): it is closed in the background, so that the next use starts a new one, which
// is told of each game in progress at its next turn.
func (b *Bridge) drop() {
	b.current = ""
	b.retire(b.proc)
	b.proc, b.died = nil, true
}

// retire closes a process that is no longer used, in the background.
func (b *Bridge) retire(p *Process) {
	b.retiring.Go(func() {
		err := p.Close()
		b.log.Info().Int("pid", p.Pid()).Str("how", p.Ending()).AnErr("close_error", err).Msg("old engine stopped")
	})
}

// stop asks the engine to quit and closes it.
func (b *Bridge) stop(p *Process, d Dialect) error {
	if p.alive() {
		ctx, cancel := context.WithTimeout(context.Background(), b.opts.CommandTimeout)
		if err := d.Quit(ctx, p); err != nil {
			b.log.Debug().Err(err).Msg("quit")
		}
		cancel()
	}
	err := p.Close()
	b.log.Info().Int("pid", p.Pid()).Str("how", p.Ending()).Msg("engine stopped")
	return err
}
