package referee

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"
	"golang.org/x/time/rate"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/protocol"
)

// DefaultMargin is the transport margin used when Config.Margin is zero: the time a request
// and its reply may spend on the wire on top of the player's own time.
const DefaultMargin = 50 * time.Millisecond

// DefaultLateWatch is how long the referee listens for a reply after its deadline when
// Config.LateWatch is zero.
const DefaultLateWatch = time.Second

// DefaultID is the referee id used when Config.ID is empty.
const DefaultID = "referee"

// ErrInvalidMatch is wrapped by the errors Play returns for a Match it cannot run.
var ErrInvalidMatch = errors.New("referee: invalid match")

// ErrVoided is wrapped by the error Play returns when a game cannot count because the
// referee itself lost its NATS connection while it was being played: the players' faults
// during an outage are not theirs. Such a game is played again from its start. A game
// void because the machine was overloaded wraps it too, with ErrOverloaded, so that
// whoever replays void games replays those.
var ErrVoided = errors.New("referee: game voided by a connection outage")

// ErrOverloaded is wrapped, with ErrVoided, by the error Play returns when a game would
// have ended in a time forfeit that the referee's own lateness explains: the reply came
// late by no more than the referee's timers and goroutines were late then (Config.Load),
// so the machine, not the player, was too slow. Such a game is void and played again from
// its start, like a game voided by an outage.
var ErrOverloaded = errors.New("referee: the machine was overloaded")

// overloadError is the error of a game voided by an overloaded machine: it is both
// ErrVoided, so that whoever replays voided games replays it, and ErrOverloaded.
type overloadError struct{ game string }

func (e overloadError) Error() string {
	return "referee: game " + e.game + " voided: the machine was overloaded"
}

func (e overloadError) Unwrap() []error { return []error{ErrVoided, ErrOverloaded} }

// Config configures a Referee.
type Config struct {
	// Conn is the NATS connection the referee talks to players on. Required.
	Conn *nats.Conn
	// LobbyConn, when set, is the connection the lobby (StartLobby) listens and answers on
	// instead of Conn. Every message on a connection goes through one socket and one
	// reader, so a flood of hellos on Conn would queue the players' moves behind it: with
	// a connection of its own, the lobby can be flooded while the moves still come in
	// at once. nil means Conn.
	LobbyConn *nats.Conn
	// Clock times every turn; nil means the wall clock (RealClock).
	Clock Clock
	// Margin is added to every deadline for the time messages spend in transit. Zero means
	// DefaultMargin (50ms); a negative margin is an error. Use a tiny positive margin, such
	// as time.Nanosecond, to allow practically none.
	Margin time.Duration
	// Log receives the referee's log; the zero value discards it.
	Log zerolog.Logger
	// ID names the referee in Welcome and RollCall messages; empty means DefaultID.
	ID string
	// LateWatch is how long, on the wall clock, the referee keeps listening after a turn's
	// deadline has passed without a reply, to learn how late the reply comes: a time
	// forfeit then says by how much the player missed (Result.Late), which tells a slow
	// player from a stalled or overloaded one. The game's result is recorded only after
	// it. Zero means DefaultLateWatch; a negative value does not listen at all.
	LateWatch time.Duration

	// The lobby's limits keep one misbehaving client, or many, from costing the referee
	// more than a little work per hello; see StartLobby. Each hello they turn away is
	// ignored (no Welcome), counted in LobbyStats and logged without flooding the log.

	// MaxPlayers is how many distinct player names the lobby knows at most: a hello from a
	// new name once that many have said hello is refused. Zero means DefaultMaxPlayers; a
	// negative value is an error.
	MaxPlayers int
	// Load measures the referee's own lateness: a time forfeit whose reply came late by
	// no more than the referee itself was late during the turn (its timers fired late, its
	// goroutines waited for a core) is not the player's fault, and the game is void
	// (ErrOverloaded). nil means SystemLoad() on the wall clock and QuietLoad (every late
	// reply is the player's fault) on any other Clock.
	Load LoadMeter
	// EngineCPU, when set, tells how much CPU time the program behind a player has used
	// so far, where something measures it (a cgroup of a hosted engine): a time forfeit's
	// Detail then says how much of the turn the engine spent computing. ok is false when
	// nothing is known of the player.
	EngineCPU func(player string) (cpu time.Duration, ok bool)
	// HelloRate is how many hellos a second, on average, the lobby accepts from one player
	// name, on both hello subjects together; the others are ignored as rate limited. Zero
	// means DefaultHelloRate; math.Inf(1) means no limit; a negative value or NaN is an
	// error.
	HelloRate float64
	// HelloBurst is how many hellos of one name the lobby accepts in a row after a quiet
	// spell, however fast they come. Zero means DefaultHelloBurst; a negative value is an
	// error.
	HelloBurst int
}

// Referee runs games and the lobby over one NATS connection, or two when the lobby has its
// own (Config.LobbyConn). Its methods are safe for concurrent use; several games may be
// played at once.
type Referee struct {
	nc      *nats.Conn
	lobbyNC *nats.Conn // Config.LobbyConn, or nc
	clock   Clock
	margin  time.Duration
	log     zerolog.Logger
	id      string

	lobby     lobby
	replies   replies
	handBacks handBacks

	maxPlayers int        // Config.MaxPlayers, default applied
	helloRate  rate.Limit // Config.HelloRate, default applied
	helloBurst int        // Config.HelloBurst, default applied

	lateWatch time.Duration // Config.LateWatch, default applied; 0 means none
	load      LoadMeter     // Config.Load, default applied
	engineCPU func(player string) (time.Duration, bool)

	// timeoutHook, when set (by benchmarks), learns how long after a turn's deadline the
	// referee decided that no reply had come.
	timeoutHook func(late time.Duration)
	// overheadHook, when set (by benchmarks), learns the two parts of the overhead of each
	// turn's reply (MoveRecord.Overhead) but a simultaneous turn's: the wait from the
	// reply's arrival until the game's goroutine took it, and the work from then until the
	// next request went out.
	overheadHook func(wait, work time.Duration)
}

// New returns a Referee for cfg.
func New(cfg Config) (*Referee, error) {
	if cfg.Conn == nil {
		return nil, errors.New("referee: config needs a NATS connection")
	}
	if cfg.Margin < 0 {
		return nil, fmt.Errorf("referee: negative transport margin %v", cfg.Margin)
	}
	if cfg.MaxPlayers < 0 {
		return nil, fmt.Errorf("referee: negative MaxPlayers %d", cfg.MaxPlayers)
	}
	if cfg.HelloRate < 0 || math.IsNaN(cfg.HelloRate) {
		return nil, fmt.Errorf("referee: invalid HelloRate %v", cfg.HelloRate)
	}
	if cfg.HelloBurst < 0 {
		return nil, fmt.Errorf("referee: negative HelloBurst %d", cfg.HelloBurst)
	}
	r := &Referee{nc: cfg.Conn, clock: cfg.Clock, margin: cfg.Margin, log: cfg.Log, id: cfg.ID,
		maxPlayers: cmp.Or(cfg.MaxPlayers, DefaultMaxPlayers),
		helloRate:  rate.Limit(cmp.Or(cfg.HelloRate, DefaultHelloRate)),
		helloBurst: cmp.Or(cfg.HelloBurst, DefaultHelloBurst),
	}
	if r.clock == nil {
		r.clock = RealClock()
	}
	switch _, real := r.clock.(realClock); {
	case cfg.Load != nil:
		r.load = cfg.Load
	case real:
		r.load = SystemLoad()
	default:
		r.load = QuietLoad
	}
	r.engineCPU = cfg.EngineCPU
	r.lobbyNC = cmp.Or(cfg.LobbyConn, cfg.Conn)
	if r.margin == 0 {
		r.margin = DefaultMargin
	}
	switch {
	case cfg.LateWatch == 0:
		r.lateWatch = DefaultLateWatch
	case cfg.LateWatch > 0:
		r.lateWatch = cfg.LateWatch
	}
	if r.id == "" {
		r.id = DefaultID
	}
	r.lobby.init()
	return r, nil
}

// ID returns the referee's id.
func (r *Referee) ID() string { return r.id }

// Margin returns the transport margin added to every deadline.
func (r *Referee) Margin() time.Duration { return r.margin }

// Match is one game to play.
type Match struct {
	GameID   string    // unique id, a protocol.ValidName; it names the event subject
	Game     game.Game // the game, options applied
	Players  []string  // player names by seat, each a protocol.ValidName
	TC       clock.TimeControl
	MaxPlies int // a game still running after this many plies (opening included) is a draw; 0 means no limit
	Round    int // the tournament round, for the record; 0 outside tournaments
	// Margin is the transport margin for this game; zero means the referee's (Config.Margin).
	Margin time.Duration
	// Ponder lets the players think between their turns (Clock.Ponder): a host then does
	// not freeze its engines between their turns of this game.
	Ponder bool
	// Wait is how long a player found gone before its first move of the game may take to
	// come back (it may be reconnecting between games), as an absent player is waited for;
	// zero means no wait.
	Wait time.Duration
	// Opening are moves, in the game's notation, played from the initial position before
	// the first turn request. They are not the players' moves: they use no clock time and
	// are sent in TurnRequest.Moves like any other move.
	Opening []string
}

// MoveRecord is one move as it was played.
type MoveRecord struct {
	Ply  int    // the ply it was played at, from 0 at the initial position (openings count)
	Seat int    // the seat that played it
	Move string // in the game's notation, as the game itself writes it
	// Elapsed is the time charged to the seat: from just before the request was sent
	// until the reply arrived.
	Elapsed time.Duration
	// Clock is what was left on the seat's game clock after the move, increment and any
	// new period included; 0 under a per-move time control.
	Clock time.Duration
	// Overhead is the referee's own time between this reply's arrival and the next turn
	// request it sent (judging, applying, encoding): charged to nobody, measured to keep
	// it in sight. It is 0 when no request followed; in a simultaneous turn only the
	// record of the reply that arrived last carries it.
	Overhead time.Duration
	Info     *protocol.SearchInfo // what the player said about its search, if anything
}

// Result is how a game went and ended.
type Result struct {
	GameID  string
	Game    string   // the game's name, options included
	Players []string // by seat
	// Returns are the rewards by seat: the game's own at a normal end, -1 for a seat that
	// forfeited or resigned and +1 for the others, all 0 for a max_plies draw.
	Returns []float64
	// Scores are the tournament points by seat: 1 for a win, 1/2 for a draw, 0 for a loss.
	Scores []float64
	// Result is the scores written by seat order: "1-0", "0-1" or "1/2-1/2" for two seats.
	Result string
	Reason string // a protocol.Reason code
	Detail string // for a forfeit, what happened, in plain words
	// Late, for a time forfeit, is how long after the deadline (the time for the move
	// plus the margin) the forfeiting seat's reply arrived; zero when none came while the
	// referee listened for it (Config.LateWatch). A game void because the machine was
	// overloaded keeps the Late of the forfeit that was not charged.
	Late time.Duration
	// Lateness is how late the referee itself ran during the game, at worst (its timers and
	// goroutines; see Config.Load); for a game void because the machine was overloaded
	// (ErrOverloaded), at least as late as during the turn that would have been forfeited.
	Lateness time.Duration
	// Waited is how long, in all, the referee's process waited for a core while it was
	// busy during the game (Load.Wait): what its in-process players' searches lost to the
	// machine.
	Waited time.Duration
	// Forfeit is the seat that forfeited or resigned, or -1.
	Forfeit int
	// StartPosition is the game's initial position, before any opening move.
	StartPosition string
	FinalPosition string
	// Opening are the moves of Match.Opening as the game writes them. They were played
	// before the first turn request and are not in Moves, whose plies follow them.
	Opening []string
	// Moves are the players' moves.
	Moves []MoveRecord
	// Clocks are the time left on each seat's game clock at the end, by seat; nil under
	// a per-move time control.
	Clocks         []time.Duration
	Started, Ended time.Time
}

// checkMatch returns an error wrapping ErrInvalidMatch when m cannot be played.
func checkMatch(m Match) error {
	if m.Game == nil {
		return fmt.Errorf("%w: no game", ErrInvalidMatch)
	}
	if err := protocol.CheckName("game id", m.GameID); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidMatch, err)
	}
	seats := m.Game.Seats()
	if len(seats) == 0 {
		return fmt.Errorf("%w: game %s has no seats", ErrInvalidMatch, m.Game.Name())
	}
	if len(m.Players) != len(seats) {
		return fmt.Errorf("%w: game %s has %d seats (%s), got %d players",
			ErrInvalidMatch, m.Game.Name(), len(seats), strings.Join(seats, ", "), len(m.Players))
	}
	for _, p := range m.Players {
		if err := protocol.CheckName("player name", p); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalidMatch, err)
		}
	}
	if err := m.TC.Check(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidMatch, err)
	}
	if m.Margin < 0 || m.Wait < 0 {
		return fmt.Errorf("%w: negative margin %v or wait %v", ErrInvalidMatch, m.Margin, m.Wait)
	}
	if m.MaxPlies < 0 {
		return fmt.Errorf("%w: negative ply limit %d", ErrInvalidMatch, m.MaxPlies)
	}
	if m.Round < 0 {
		return fmt.Errorf("%w: negative round %d", ErrInvalidMatch, m.Round)
	}
	if len(m.Opening) > 0 {
		if _, err := playOpening(m.Game.NewState(), len(seats), m.Opening); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalidMatch, err)
		}
	}
	return nil
}

// playOpening plays the opening's moves on st and returns them as the game writes them.
// Each move must be legal where it is played; in a simultaneous turn the move is the
// seats' moves joined by commas, in seat order.
func playOpening(st game.State, nseats int, opening []string) ([]string, error) {
	texts := make([]string, 0, len(opening))
	for i, text := range opening {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("opening move %d %q: %s", i+1, clip(text, 64), fmt.Sprintf(format, args...))
		}
		if st.IsTerminal() {
			return nil, bad("the game is already over")
		}
		switch to := st.ToMove(); {
		case to == game.Simultaneous:
			parts := strings.Split(text, ",")
			if len(parts) != nseats {
				return nil, bad("a simultaneous turn needs %d moves joined by commas", nseats)
			}
			joint := make([]game.Move, nseats)
			for seat, p := range parts {
				m, err := parseMove(st, strings.TrimSpace(p))
				if err != nil || !game.IsLegal(st, game.Seat(seat), m) {
					return nil, bad("%q is not a legal move of seat %d", clip(p, 64), seat)
				}
				joint[seat], parts[seat] = m, st.MoveString(m)
			}
			if err := st.PlayJoint(joint); err != nil {
				return nil, bad("%v", err)
			}
			texts = append(texts, strings.Join(parts, ","))
		case to >= 0:
			m, err := parseMove(st, strings.TrimSpace(text))
			if err != nil || !game.IsLegal(st, to, m) {
				return nil, bad("not a legal move of seat %d", to)
			}
			canon := st.MoveString(m)
			if err := st.Play(m); err != nil {
				return nil, bad("%v", err)
			}
			texts = append(texts, canon)
		default:
			return nil, bad("the game reports %v to move", to)
		}
	}
	return texts, nil
}

// Play runs m to its end and returns the result. A player's fault ends the game with a
// forfeit and is part of the Result, not an error. Play returns an error for a Match it
// cannot run (wrapping ErrInvalidMatch, an illegal opening included), when ctx ends
// (wrapping ctx's error; the game is then aborted and the partial Result is returned with
// it), when the referee's own NATS connection dropped during the game (wrapping ErrVoided,
// with the partial Result: the game must be played again from its start), and when the
// referee cannot go on, such as when its connection is closed or the game breaks its own
// contract.
func (r *Referee) Play(ctx context.Context, m Match) (Result, error) {
	if err := checkMatch(m); err != nil {
		return Result{}, err
	}
	res, err := r.newRun(m).play(ctx)
	if !res.Started.IsZero() && res.Ended.After(res.Started) {
		l := r.load.Load(res.Started, res.Ended)
		res.Lateness, res.Waited = max(res.Lateness, l.Late), l.Wait
	}
	return res, err
}

// newRun prepares a game of m.
func (r *Referee) newRun(m Match) *run {
	n := len(m.Game.Seats())
	g := &run{
		r:          r,
		m:          m,
		seats:      m.Game.Seats(),
		hist:       []string{},
		moved:      make([]bool, n),
		lastRecord: -1,
		reconnects: r.nc.Stats().Reconnects,
		margin:     r.margin,
		log:        r.log.With().Str("game_id", m.GameID).Logger(),
		waiters:    make([]*waiter, n),
		turnSubj:   make([]string, n),
		eventSubj:  protocol.EventSubject(m.GameID),
	}
	for seat, p := range m.Players {
		g.turnSubj[seat] = protocol.TurnSubject(p)
	}
	g.afterSend = g.flushEvent
	if m.Margin > 0 {
		g.margin = m.Margin
	}
	g.clocks = clock.Seats(m.TC, n)
	g.res = Result{
		GameID:  m.GameID,
		Game:    m.Game.Name(),
		Players: append([]string(nil), m.Players...),
		Forfeit: -1,
	}
	return g
}

// run is the state of one game being played.
type run struct {
	r      *Referee
	m      Match
	margin time.Duration // the transport margin of this game
	seats  []string
	st     game.State
	hist   []string // one text per ply, as sent in TurnRequest.Moves
	buf    []game.Move
	res    Result
	log    zerolog.Logger

	clocks []clock.Clock // by seat

	// moved records the seats that have answered a turn in this game: a seat that did and
	// then has nobody listening has disconnected.
	moved []bool

	// lastArrival is when the reply that completed the latest turn arrived, and
	// lastRecord the index in res.Moves of the record that carries the overhead after it.
	lastArrival time.Time
	lastWoke    time.Time // when the game took that reply, for overheadHook; zero if unknown
	lastRecord  int

	reconnects uint64 // the referee connection's reconnect count when the game started

	// What every turn would otherwise make again: each seat's waiter and turn subject,
	// the event subject, the buffers messages are encoded in (NATS copies what it
	// publishes), the legal moves' texts, and the position's text until the next move.
	waiters   []*waiter
	turnSubj  []string
	eventSubj string
	reqBuf    []byte
	pubBuf    []byte
	texts     []string
	pos       string
	posOK     bool

	pending   pendingEvent // the move event to publish after the next request
	afterSend func()       // flushEvent, made once
}

// pendingEvent is a move event waiting for the next turn request to go out first.
type pendingEvent struct {
	ok        bool
	ply, seat int
	move      string
}

// position returns the state's text, made once a position.
func (g *run) position() string {
	if !g.posOK {
		g.pos, g.posOK = g.st.String(), true
	}
	return g.pos
}

// waiter returns the seat's waiter.
func (g *run) waiter(seat int) *waiter {
	if g.waiters[seat] == nil {
		g.waiters[seat] = newWaiter()
	}
	return g.waiters[seat]
}

// stop releases what the game holds that outlives it otherwise: its waiters' timers.
func (g *run) stop() {
	for _, w := range g.waiters {
		if w != nil {
			w.stop()
		}
	}
}

// outcome is the judgement of one seat's reply: a move, or a fault when reason is set.
type outcome struct {
	seat    int
	move    game.Move
	text    string
	elapsed time.Duration
	at      time.Time     // the reply's arrival
	late    time.Duration // for a time forfeit, how late the reply came; 0 if unknown
	// overload, for a time forfeit, is the referee's own lateness during the turn when it
	// is at least the reply's: the forfeit is the machine's, not the player's.
	overload *Load
	info     *protocol.SearchInfo
	reason   string
	detail   string
}

func (g *run) play(ctx context.Context) (Result, error) {
	defer g.stop()
	if a, ok := g.r.load.(acquirer); ok {
		defer a.Acquire()()
	}
	g.st = g.m.Game.NewState()
	g.res.StartPosition = g.position()
	g.res.Started = g.r.clock.Now()
	g.log.Debug().Strs("players", g.m.Players).Str("game", g.res.Game).Msg("game start")
	for seat, p := range g.m.Players {
		g.publish(protocol.GameSubject(p), protocol.GameNotice{
			V: protocol.Version, Type: protocol.TypeGameStart, GameID: g.m.GameID, Game: g.res.Game,
			Seat: seat, Players: g.res.Players, Position: g.res.StartPosition,
		})
	}
	start := g.event(protocol.TypeEventStart)
	start.Players = g.res.Players
	if to := g.st.ToMove(); to >= 0 {
		start.Seat = int(to)
	}
	g.publish(g.eventSubj, start)
	if err := g.opening(); err != nil {
		return g.abort(err)
	}

	for {
		if err := ctx.Err(); err != nil {
			return g.abort(err)
		}
		if g.st.IsTerminal() {
			return g.finishNormal()
		}
		if g.m.MaxPlies > 0 && g.st.Ply() >= g.m.MaxPlies {
			return g.finish(protocol.ReasonMaxPlies, fmt.Sprintf("drawn after %d plies", g.m.MaxPlies),
				-1, make([]float64, len(g.seats)))
		}
		var faults []outcome
		var err error
		switch to := g.st.ToMove(); {
		case to == game.Simultaneous:
			faults, err = g.jointTurn(ctx)
		case to >= 0 && int(to) < len(g.seats):
			faults, err = g.turn(ctx, to)
		default:
			err = fmt.Errorf("game %s reports %v to move in a game that is not over", g.res.Game, to)
		}
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				err = ctxErr
			}
			return g.abort(err)
		}
		if len(faults) > 0 {
			return g.forfeit(faults)
		}
	}
}

// opening plays the match's opening moves, publishing each as a move event. checkMatch
// has already played them once on a fresh state, so an error here means a game whose
// states do not replay alike.
func (g *run) opening() error {
	for _, text := range g.m.Opening {
		seat := max(int(g.st.ToMove()), 0) // 0 for a joint move, as for the players'
		canon, err := playOpening(g.st, len(g.seats), []string{text})
		g.posOK = false
		if err != nil {
			return fmt.Errorf("game %s: %w", g.res.Game, err)
		}
		g.res.Opening = append(g.res.Opening, canon[0])
		g.hist = append(g.hist, canon[0])
		g.moveEvent(g.st.Ply()-1, seat, canon[0])
	}
	return nil
}

// budget is the time the seat has for its next move, not counting the margin.
func (g *run) budget(seat int) time.Duration { return g.clocks[seat].Budget() }

// limit is the seat's deadline for its next move, counted from just before the request.
func (g *run) limit(seat int) time.Duration { return g.budget(seat) + g.margin }

// charge takes a move's elapsed time off the seat's game clock, by the one clock rule
// (clock.Clock.Charge: a reply that used part of the margin leaves the clock at zero, not
// below), and returns what is left; zero under a per-move limit.
func (g *run) charge(seat int, elapsed time.Duration) time.Duration {
	return g.clocks[seat].Charge(elapsed)
}

// clocksLeft is the time left on each seat's game clock, by seat; nil under a per-move
// limit.
func (g *run) clocksLeft() []time.Duration {
	if !g.m.TC.IsClock() {
		return nil
	}
	left := make([]time.Duration, len(g.clocks))
	for i := range g.clocks {
		left[i] = g.clocks[i].Left()
	}
	return left
}

// sent notes that the turn request after the latest reply went out at t, which closes the
// referee's overhead of that reply.
func (g *run) sent(t time.Time) {
	if g.lastRecord >= 0 {
		g.res.Moves[g.lastRecord].Overhead = t.Sub(g.lastArrival)
		g.lastRecord = -1
		if g.r.overheadHook != nil && !g.lastWoke.IsZero() {
			g.r.overheadHook(g.lastWoke.Sub(g.lastArrival), t.Sub(g.lastWoke))
		}
	}
}

// turn asks the seat to move and plays its move.
func (g *run) turn(ctx context.Context, seat game.Seat) ([]outcome, error) {
	g.buf = g.st.LegalMoves(seat, g.buf[:0])
	legal := g.buf
	if len(legal) == 0 {
		return nil, fmt.Errorf("game %s has seat %d to move but no legal move", g.res.Game, seat)
	}
	req, err := g.request(seat, legal)
	if err != nil {
		return nil, err
	}
	player := g.m.Players[seat]
	ply := g.st.Ply()
	w, subject := g.waiter(int(seat)), g.turnSubj[seat]
	var cpu0 time.Duration
	cpuOK := false
	if g.r.engineCPU != nil {
		cpu0, cpuOK = g.r.engineCPU(player)
	}
	ex := g.r.exchange(ctx, w, g.m.Players[seat], subject, req, g.limit(int(seat)), g.m.GameID, ply, g.reconnects, g.afterSend)
	if ex.err == nil && ex.noResponders && !g.moved[seat] && g.m.Wait > 0 {
		// A player that has not moved in this game yet may have dropped off between games
		// an instant before it began: it gets the wait to come back, then is asked again.
		gone, err := g.r.waitSubscribed(ctx, []string{player}, time.Now().Add(g.m.Wait))
		if err != nil {
			return nil, err
		}
		if len(gone) == 0 {
			ex = g.r.exchange(ctx, w, g.m.Players[seat], subject, req, g.limit(int(seat)), g.m.GameID, ply, g.reconnects, nil)
		}
	}
	if ex.err != nil {
		return nil, ex.err
	}
	g.sent(ex.sent)
	out := g.judge(int(seat), ply, legal, ex)
	if out.reason == protocol.ReasonTimeForfeit && cpuOK {
		if cpu1, ok := g.r.engineCPU(player); ok {
			out.detail += fmt.Sprintf(" (its engine computed for %v of the turn)", humantime.Round(cpu1-cpu0))
		}
	}
	if out.reason != "" {
		return []outcome{out}, nil
	}
	err = g.st.Play(out.move)
	g.posOK = false
	if errors.Is(err, game.ErrRules) {
		// The move was judged legal; a game whose own rules then fail (a script game's
		// error) ends with no result, charged to nobody.
		return nil, fmt.Errorf("the rules of %s failed on %s's legal move %q: %w", g.res.Game, player, out.text, err)
	}
	if err != nil {
		out.reason = protocol.ReasonIllegalMove
		out.detail = fmt.Sprintf("%s: move %q was refused by the rules: %v", player, out.text, err)
		return []outcome{out}, nil
	}
	g.hist = append(g.hist, out.text)
	g.record(ply, out)
	g.lastArrival, g.lastWoke, g.lastRecord = out.at, ex.woke, len(g.res.Moves)-1
	g.deferMoveEvent(ply, int(seat), out.text)
	return nil, nil
}

// jointTurn asks every seat at once and plays the joint move when all have replied.
func (g *run) jointTurn(ctx context.Context) ([]outcome, error) {
	n := len(g.seats)
	ply := g.st.Ply()
	legal := make([][]game.Move, n)
	reqs := make([][]byte, n)
	for seat := range n {
		legal[seat] = g.st.LegalMoves(game.Seat(seat), nil)
		if len(legal[seat]) == 0 {
			return nil, fmt.Errorf("game %s has a simultaneous turn but no legal move for seat %d", g.res.Game, seat)
		}
		req, err := g.request(game.Seat(seat), legal[seat])
		if err != nil {
			return nil, err
		}
		reqs[seat] = slices.Clone(req) // the next request is encoded in the same buffer
	}
	// Only the exchanges run concurrently: the state is not safe for concurrent use, so
	// requests are built before and replies judged after.
	g.flushEvent()
	exs := make([]exchange, n)
	var wg sync.WaitGroup
	for seat := range n {
		limit := g.limit(seat)
		wg.Go(func() {
			exs[seat] = g.r.exchange(ctx, g.waiter(seat), g.m.Players[seat], g.turnSubj[seat], reqs[seat], limit, g.m.GameID, ply, g.reconnects, nil)
		})
	}
	wg.Wait()
	first := time.Time{}
	for _, ex := range exs {
		if ex.err != nil {
			return nil, ex.err
		}
		if first.IsZero() || ex.sent.Before(first) {
			first = ex.sent
		}
	}
	g.sent(first)
	outs := make([]outcome, n)
	var faults []outcome
	for seat := range n {
		outs[seat] = g.judge(seat, ply, legal[seat], exs[seat])
		if outs[seat].reason != "" {
			faults = append(faults, outs[seat])
		}
	}
	if len(faults) > 0 {
		return faults, nil
	}
	joint := make([]game.Move, n)
	texts := make([]string, n)
	for seat, o := range outs {
		joint[seat], texts[seat] = o.move, o.text
	}
	err := g.st.PlayJoint(joint)
	g.posOK = false
	if err != nil {
		return nil, fmt.Errorf("game %s refused the joint move %v of legal moves: %w", g.res.Game, texts, err)
	}
	text := strings.Join(texts, ",")
	g.hist = append(g.hist, text)
	last := 0
	for seat, o := range outs {
		g.record(ply, o)
		if o.at.After(outs[last].at) {
			last = seat
		}
	}
	g.lastArrival, g.lastWoke, g.lastRecord = outs[last].at, time.Time{}, len(g.res.Moves)-n+last
	g.moveEvent(ply, 0, text)
	return nil, nil
}

// request encodes the turn request for seat. The bytes are valid until the next request.
func (g *run) request(seat game.Seat, legal []game.Move) ([]byte, error) {
	texts := g.texts[:0]
	for _, m := range legal {
		texts = append(texts, g.st.MoveString(m))
	}
	g.texts = texts
	req := protocol.TurnRequest{
		V: protocol.Version, Type: protocol.TypeTurn,
		GameID: g.m.GameID, Game: g.res.Game,
		Seat: int(seat), SeatName: g.seats[seat],
		Ply: g.st.Ply(), Position: g.position(),
		Legal: texts, Moves: g.hist,
		Clock: g.clocks[seat].Wire(),
	}
	req.Clock.MarginMS, req.Clock.Ponder = g.margin.Milliseconds(), g.m.Ponder
	if o, ok := g.st.(game.Observer); ok {
		raw, err := json.Marshal(o.Observation(seat))
		if err != nil {
			return nil, fmt.Errorf("game %s: observation of seat %d: %w", g.res.Game, seat, err)
		}
		if string(raw) != "null" {
			req.Observation = raw
		}
	}
	g.reqBuf = protocol.AppendTurnRequest(g.reqBuf[:0], &req)
	return g.reqBuf, nil
}

// timeText describes the seat's allowance for a Detail: "100ms+50ms" under a per-move
// limit, "the 1.5s left on its clock+50ms" on a game clock. The figures keep three
// significant digits, rounded down, so that a late reply's time, written with
// humantime.RoundAbove, is always more than the allowance as written.
func (g *run) timeText(seat int) string {
	if g.m.TC.IsClock() {
		return fmt.Sprintf("the %v left on its clock+%v", humantime.Truncate(g.clocks[seat].Left()), humantime.Truncate(g.margin))
	}
	return fmt.Sprintf("%v+%v", humantime.Truncate(g.m.TC.PerMove), humantime.Truncate(g.margin))
}

// judge decides what a seat's reply to the turn at ply amounts to. It never trusts the
// reply: the order of the checks is the order of the faults' precedence. Replies for
// another game or ply never get here: the exchange ignores them as stale.
func (g *run) judge(seat, ply int, legal []game.Move, ex exchange) outcome {
	who := g.m.Players[seat]
	out := outcome{seat: seat, elapsed: ex.elapsed, at: ex.at}
	fault := func(reason, format string, args ...any) outcome {
		out.reason = reason
		out.detail = who + ": " + fmt.Sprintf(format, args...)
		return out
	}
	stale := ""
	if ex.stale > 0 {
		stale = fmt.Sprintf(" (%d stale replies ignored)", ex.stale)
	}
	switch {
	case ex.noResponders && g.moved[seat]:
		return fault(protocol.ReasonDisconnected, "nobody listens on %s any more: it left in the middle of the game", protocol.TurnSubject(who))
	case ex.noResponders && g.r.saidHello(who):
		return fault(protocol.ReasonDisconnected, "nobody listens on %s any more: it had said hello, and has gone", protocol.TurnSubject(who))
	case ex.noResponders:
		return fault(protocol.ReasonNoResponders, "nobody listens on %s", protocol.TurnSubject(who))
	case ex.left:
		return fault(protocol.ReasonDisconnected, "it stopped cleanly while thinking, and nobody listens on %s any more", protocol.TurnSubject(who))
	case ex.timedOut && ex.gone:
		return fault(protocol.ReasonDisconnected, "no reply within %s, and nobody listens on %s any more: it went away while thinking", g.timeText(seat), protocol.TurnSubject(who))
	case ex.timedOut && ex.late > 0:
		out.late = ex.late
		out.overload = g.excuse(seat, ex, ex.late, true)
		return fault(protocol.ReasonTimeForfeit, "no reply within %s%s; it came %v after that", g.timeText(seat), stale, humantime.Round(ex.late))
	case ex.timedOut && ex.watched > 0:
		out.overload = g.excuse(seat, ex, ex.watched, false)
		return fault(protocol.ReasonTimeForfeit, "no reply within %s%s, nor in the %v after", g.timeText(seat), stale, humantime.Round(ex.watched))
	case ex.timedOut:
		return fault(protocol.ReasonTimeForfeit, "no reply within %s%s", g.timeText(seat), stale)
	case ex.elapsed > g.limit(seat):
		out.late = ex.elapsed - g.limit(seat)
		out.overload = g.excuse(seat, ex, out.late, true)
		return fault(protocol.ReasonTimeForfeit, "reply after %v, %v later than %s", humantime.RoundAbove(ex.elapsed, g.limit(seat)), humantime.Round(out.late), g.timeText(seat))
	case ex.bad != nil:
		return fault(protocol.ReasonProtocol, "bad reply: %s", clip(ex.bad.Error(), 200))
	}
	rep := ex.rep
	if rep.Move == protocol.Resign && rep.Crashed != "" {
		out.reason = protocol.ReasonCrashed
		out.detail = who + "'s engine crashed choosing its move: " + clip(rep.Crashed, protocol.MaxNote)
		return out
	}
	if rep.Move == protocol.Resign {
		out.reason = protocol.ReasonResigned
		out.detail = who + " resigned"
		return out
	}
	m, err := parseMove(g.st, rep.Move)
	if err != nil {
		return fault(protocol.ReasonIllegalMove, "reply %q is not a move of %s", rep.Move, g.res.Game)
	}
	found := false
	for _, l := range legal {
		if l == m {
			found = true
			break
		}
	}
	if !found {
		return fault(protocol.ReasonIllegalMove, "reply %q is not a legal move", rep.Move)
	}
	out.move = m
	out.text = g.st.MoveString(m)
	out.info = rep.Info
	return out
}

// excuse returns the referee's own load during a turn whose reply came late by late (at
// least, when no reply came), when the referee itself was at least as late then: the
// forfeit is the machine's, not the player's. It returns nil otherwise. A reply that came
// is compared with the process's lateness and with what its threads lost to the machine
// while busy (Load.Wait: an in-process player's search, slowed down); a reply that never
// came only with the lateness, since a stalled player is the player's own. Load.Late is
// then the measure compared. A slow player on a quiet machine is late by far more than
// the referee.
func (g *run) excuse(seat int, ex exchange, late time.Duration, replied bool) *Load {
	l := g.r.load.Load(ex.sent, ex.sent.Add(g.limit(seat)+late))
	l.Late = max(l.Late, ex.timerLate)
	if replied {
		l.Late = max(l.Late, l.Wait)
	}
	if l.Late <= 0 || l.Late < late {
		if l.Late >= time.Millisecond {
			g.log.Info().Dur("late", late).Dur("referee_late", l.Late).Msg("time forfeit charged: the referee was less late than the reply")
		}
		return nil
	}
	return &l
}

// parseMove parses untrusted text, turning a panic of the game's parser into an error so
// that a player can never crash the referee through a bug in a game.
func parseMove(st game.State, text string) (m game.Move, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: parser panicked: %v", game.ErrBadMove, p)
		}
	}()
	return st.ParseMove(text)
}

func (g *run) record(ply int, o outcome) {
	g.moved[o.seat] = true
	left := g.charge(o.seat, o.elapsed)
	g.res.Moves = append(g.res.Moves, MoveRecord{Ply: ply, Seat: o.seat, Move: o.text, Elapsed: o.elapsed, Clock: left, Info: o.info})
	g.log.Debug().Int("ply", ply).Int("seat", o.seat).Str("move", o.text).Dur("elapsed", o.elapsed).Msg("move")
}

// deferMoveEvent publishes the event of a move once the next turn request is out, or the
// game ends: the referee's overhead between a reply and the next request leaves the
// event out, and the two messages go out to the server together. Spectators still see
// the game's events in order, each with the position after its move.
func (g *run) deferMoveEvent(ply, seat int, text string) {
	g.flushEvent()
	g.pending = pendingEvent{ok: true, ply: ply, seat: seat, move: text}
}

// flushEvent publishes the deferred move event, if any.
func (g *run) flushEvent() {
	if p := g.pending; p.ok {
		g.pending = pendingEvent{}
		g.moveEvent(p.ply, p.seat, p.move)
	}
}

func (g *run) moveEvent(ply, seat int, text string) {
	ev := g.event(protocol.TypeEventMove)
	ev.Ply, ev.Seat, ev.Move = ply, seat, text
	g.pubBuf = protocol.AppendGameEvent(g.pubBuf[:0], &ev)
	g.send(g.eventSubj, g.pubBuf)
}

func (g *run) event(typ string) protocol.GameEvent {
	return protocol.GameEvent{
		V: protocol.Version, Type: typ, GameID: g.m.GameID, Game: g.res.Game,
		Ply: g.st.Ply(), Position: g.position(),
	}
}

// publish sends msg, logging rather than failing: notices and events are for information,
// and a broken connection shows up at the next turn request.
func (g *run) publish(subject string, msg any) { g.send(subject, protocol.Encode(msg)) }

// send is publish of a message already encoded.
func (g *run) send(subject string, data []byte) {
	if err := g.r.nc.Publish(subject, data); err != nil {
		g.log.Warn().Err(err).Str("subject", subject).Msg("publish failed")
	}
}

func (g *run) finishNormal() (Result, error) {
	rets := g.st.Returns(nil)
	if len(rets) != len(g.seats) {
		return g.abort(fmt.Errorf("game %s gave %d returns for %d seats", g.res.Game, len(rets), len(g.seats)))
	}
	return g.finish(protocol.ReasonNormal, "", -1, rets)
}

func (g *run) forfeit(faults []outcome) (Result, error) {
	if l, ok := overloaded(faults); ok {
		return g.voidOverload(faults, l)
	}
	if g.handedBack(faults) {
		return g.voidHandedBack(faults)
	}
	rets := make([]float64, len(g.seats))
	for i := range rets {
		rets[i] = 1
	}
	details := make([]string, len(faults))
	for i, f := range faults {
		rets[f.seat] = -1
		details[i] = f.detail
	}
	g.res.Late = faults[0].late
	return g.finish(faults[0].reason, strings.Join(details, "; "), faults[0].seat, rets)
}

func (g *run) finish(reason, detail string, forfeit int, rets []float64) (Result, error) {
	g.flushEvent()
	if g.outage() {
		return g.void()
	}
	g.res.Returns = rets
	g.res.Scores = game.Scores(rets)
	g.res.Result = game.ResultString(g.res.Scores)
	g.res.Reason, g.res.Detail, g.res.Forfeit = reason, detail, forfeit
	g.res.FinalPosition = g.position()
	g.res.Clocks = g.clocksLeft()
	g.res.Ended = g.r.clock.Now()
	for seat, p := range g.m.Players {
		g.publish(protocol.GameSubject(p), protocol.GameNotice{
			V: protocol.Version, Type: protocol.TypeGameEnd, GameID: g.m.GameID, Game: g.res.Game,
			Seat: seat, Players: g.res.Players, Position: g.res.FinalPosition,
			Moves: g.hist, Result: g.res.Result, Reason: reason, Returns: rets,
		})
	}
	g.endEvent()
	ev := g.log.Info()
	if forfeit >= 0 {
		ev = g.log.Warn().Int("forfeit", forfeit)
	}
	ev.Str("result", g.res.Result).Str("reason", reason).Str("detail", detail).Int("plies", g.st.Ply()).Msg("game end")
	return g.res, nil
}

// outage reports whether the referee's own connection dropped since the game started:
// it reconnected since, or it is not connected now.
func (g *run) outage() bool {
	return g.r.nc.Stats().Reconnects != g.reconnects || !connected(g.r.nc)
}

// connected reports whether nc can carry messages now. A connection that is draining
// still does.
func connected(nc *nats.Conn) bool {
	switch nc.Status() {
	case nats.CONNECTED, nats.DRAINING_SUBS, nats.DRAINING_PUBS:
		return true
	}
	return false
}

// void ends a game that cannot count because the referee's connection dropped during it.
func (g *run) void() (Result, error) {
	g.log.Warn().Msg("game void: the referee's connection dropped during it; it must be replayed")
	return g.voidWith("void: the referee's connection to NATS dropped during the game",
		fmt.Errorf("referee: %w", fmt.Errorf("game %s: %w", g.m.GameID, ErrVoided)))
}

// overloaded reports whether every fault is a time forfeit that the referee's own
// lateness explains, and the largest load among them.
func overloaded(faults []outcome) (Load, bool) {
	var l Load
	for _, f := range faults {
		if f.overload == nil {
			return Load{}, false
		}
		l.Late, l.Steal = max(l.Late, f.overload.Late), max(l.Steal, f.overload.Steal)
	}
	return l, len(faults) > 0
}

// voidOverload ends a game whose time forfeits are the machine's: the referee was at
// least as late as the replies.
func (g *run) voidOverload(faults []outcome, l Load) (Result, error) {
	if g.outage() {
		return g.void()
	}
	details := make([]string, len(faults))
	for i, f := range faults {
		details[i] = f.detail
	}
	detail := fmt.Sprintf("void: the machine was overloaded: %s; but the referee itself ran up to %v late then",
		strings.Join(details, "; "), humantime.Round(l.Late))
	if l.Steal > 0 {
		detail += fmt.Sprintf(", with %.0f%% of the CPU stolen", 100*l.Steal)
	}
	g.res.Late, g.res.Lateness = faults[0].late, l.Late
	g.log.Warn().Str("detail", detail).Msg("game void: the machine was overloaded; it must be replayed")
	return g.voidWith(detail, overloadError{g.m.GameID})
}

// voidWith ends a game that cannot count, for the reason detail, with the error err.
func (g *run) voidWith(detail string, err error) (Result, error) {
	g.flushEvent()
	g.res.Returns, g.res.Scores, g.res.Result, g.res.Forfeit = nil, nil, "", -1
	g.res.Reason = protocol.ReasonAborted
	g.res.Detail = detail
	g.res.FinalPosition = g.position()
	g.res.Clocks = g.clocksLeft()
	g.res.Ended = g.r.clock.Now()
	g.endEvent()
	return g.res, err
}

// abort ends a game that has no result.
func (g *run) abort(cause error) (Result, error) {
	g.flushEvent()
	if !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded) && g.outage() {
		return g.void()
	}
	g.res.Reason = protocol.ReasonAborted
	g.res.Detail = cause.Error()
	g.res.FinalPosition = g.position()
	g.res.Clocks = g.clocksLeft()
	g.res.Ended = g.r.clock.Now()
	g.endEvent()
	g.log.Warn().Err(cause).Msg("game aborted")
	return g.res, fmt.Errorf("referee: game %s aborted: %w", g.m.GameID, cause)
}

func (g *run) endEvent() {
	ev := g.event(protocol.TypeEventEnd)
	ev.Players = g.res.Players
	if g.res.Forfeit >= 0 {
		ev.Seat = g.res.Forfeit
	}
	ev.Result, ev.Reason, ev.Detail, ev.Returns = g.res.Result, g.res.Reason, g.res.Detail, g.res.Returns
	g.publish(g.eventSubj, ev)
	// Flush so that whoever reads the result can count on the notices being on their way.
	// Without a connection there is nothing to wait for: the messages stay buffered.
	if !connected(g.r.nc) {
		return
	}
	if err := g.r.nc.FlushTimeout(flushTimeout); err != nil {
		g.log.Warn().Err(err).Msg("flush after game end failed")
	}
}

// flushTimeout bounds the wait for the server to confirm the end-of-game messages.
const flushTimeout = 5 * time.Second

// clip shortens untrusted text for a log line or a Detail.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}
