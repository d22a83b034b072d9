package referee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
)

// DefaultMargin is the transport margin used when Config.Margin is zero: the time a request
// and its reply may spend on the wire on top of the player's own time.
const DefaultMargin = 50 * time.Millisecond

// DefaultID is the referee id used when Config.ID is empty.
const DefaultID = "referee"

// ErrInvalidMatch is wrapped by the errors Play returns for a Match it cannot run.
var ErrInvalidMatch = errors.New("referee: invalid match")

// ErrVoided is wrapped by the error Play returns when a game cannot count because the
// referee itself lost its NATS connection while it was being played: the players' faults
// during an outage are not theirs. Such a game is played again from its start.
var ErrVoided = errors.New("referee: game voided by a connection outage")

// Config configures a Referee.
type Config struct {
	// Conn is the NATS connection the referee talks to players on. Required.
	Conn *nats.Conn
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
}

// Referee runs games and the lobby over one NATS connection. Its methods are safe for
// concurrent use; several games may be played at once.
type Referee struct {
	nc     *nats.Conn
	clock  Clock
	margin time.Duration
	log    zerolog.Logger
	id     string

	lobby lobby
}

// New returns a Referee for cfg.
func New(cfg Config) (*Referee, error) {
	if cfg.Conn == nil {
		return nil, errors.New("referee: config needs a NATS connection")
	}
	if cfg.Margin < 0 {
		return nil, fmt.Errorf("referee: negative transport margin %v", cfg.Margin)
	}
	r := &Referee{nc: cfg.Conn, clock: cfg.Clock, margin: cfg.Margin, log: cfg.Log, id: cfg.ID}
	if r.clock == nil {
		r.clock = RealClock()
	}
	if r.margin == 0 {
		r.margin = DefaultMargin
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

// TimeControl is the time the players have: either a fixed time for every move
// (PerMove), or a game clock per seat (Base, with Increment added after each move and,
// when MovesPerPeriod is set, Base added again every MovesPerPeriod moves). ParseTimeControl
// reads the usual text forms.
type TimeControl struct {
	// PerMove is the time for each move, at least a millisecond, when Base is zero. The
	// referee allows PerMove plus its transport margin before it declares a time forfeit.
	PerMove time.Duration
	// Base is each seat's starting time on a game clock.
	Base time.Duration
	// Increment is added to a seat's clock after each of its moves.
	Increment time.Duration
	// MovesPerPeriod, with Base, gives each seat Base more time after every
	// MovesPerPeriod of its moves (the "40/60" form); 0 means the whole game is one period.
	MovesPerPeriod int
}

// Match is one game to play.
type Match struct {
	GameID   string    // unique id, a protocol.ValidName; it names the event subject
	Game     game.Game // the game, options applied
	Players  []string  // player names by seat, each a protocol.ValidName
	TC       TimeControl
	MaxPlies int // a game still running after this many plies is a draw; 0 means no limit
	Round    int // the tournament round, for the record; 0 outside tournaments
	// Opening are moves, in the game's notation, played from the initial position before
	// the first turn request. They are not the players' moves: they use no clock time and
	// are sent in TurnRequest.Moves like any other move.
	Opening []string
}

// MoveRecord is one move as it was played.
type MoveRecord struct {
	Ply     int    // the ply it was played at, from 0
	Seat    int    // the seat that played it
	Move    string // in the game's notation, as the game itself writes it
	Elapsed time.Duration
	Info    *protocol.SearchInfo // what the player said about its search, if anything
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
	// Forfeit is the seat that forfeited or resigned, or -1.
	Forfeit        int
	StartPosition  string
	FinalPosition  string
	Moves          []MoveRecord
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
	if m.TC.PerMove < time.Millisecond {
		return fmt.Errorf("%w: time per move %v must be at least 1ms", ErrInvalidMatch, m.TC.PerMove)
	}
	if m.MaxPlies < 0 {
		return fmt.Errorf("%w: negative ply limit %d", ErrInvalidMatch, m.MaxPlies)
	}
	if m.Round < 0 {
		return fmt.Errorf("%w: negative round %d", ErrInvalidMatch, m.Round)
	}
	return nil
}

// Play runs m to its end and returns the result. A player's fault ends the game with a
// forfeit and is part of the Result, not an error. Play returns an error for a Match it
// cannot run (wrapping ErrInvalidMatch), when ctx ends (wrapping ctx's error; the game is
// then aborted and the partial Result is returned with it), and when the referee cannot go
// on, such as when its NATS connection is closed or the game breaks its own contract.
func (r *Referee) Play(ctx context.Context, m Match) (Result, error) {
	if err := checkMatch(m); err != nil {
		return Result{}, err
	}
	g := &run{
		r:     r,
		m:     m,
		seats: m.Game.Seats(),
		limit: m.TC.PerMove + r.margin,
		hist:  []string{},
		log:   r.log.With().Str("game_id", m.GameID).Logger(),
	}
	g.res = Result{
		GameID:  m.GameID,
		Game:    m.Game.Name(),
		Players: append([]string(nil), m.Players...),
		Forfeit: -1,
	}
	return g.play(ctx)
}

// run is the state of one game being played.
type run struct {
	r     *Referee
	m     Match
	seats []string
	limit time.Duration // PerMove plus the margin
	st    game.State
	hist  []string // one text per ply, as sent in TurnRequest.Moves
	buf   []game.Move
	res   Result
	log   zerolog.Logger
}

// outcome is the judgement of one seat's reply: a move, or a fault when reason is set.
type outcome struct {
	seat    int
	move    game.Move
	text    string
	elapsed time.Duration
	info    *protocol.SearchInfo
	reason  string
	detail  string
}

func (g *run) play(ctx context.Context) (Result, error) {
	g.st = g.m.Game.NewState()
	g.res.StartPosition = g.st.String()
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
	g.publish(protocol.EventSubject(g.m.GameID), start)

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
	ex := g.r.exchange(ctx, protocol.TurnSubject(player), req, g.limit)
	if ex.err != nil {
		return nil, ex.err
	}
	ply := g.st.Ply()
	out := g.judge(int(seat), ply, legal, ex)
	if out.reason != "" {
		return []outcome{out}, nil
	}
	if err := g.st.Play(out.move); err != nil {
		out.reason = protocol.ReasonIllegalMove
		out.detail = fmt.Sprintf("%s: move %q was refused by the rules: %v", player, out.text, err)
		return []outcome{out}, nil
	}
	g.hist = append(g.hist, out.text)
	g.record(ply, out)
	g.moveEvent(ply, int(seat), out.text)
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
		reqs[seat] = req
	}
	// Only the exchanges run concurrently: the state is not safe for concurrent use, so
	// requests are built before and replies judged after.
	exs := make([]exchange, n)
	var wg sync.WaitGroup
	for seat := range n {
		wg.Go(func() {
			exs[seat] = g.r.exchange(ctx, protocol.TurnSubject(g.m.Players[seat]), reqs[seat], g.limit)
		})
	}
	wg.Wait()
	for _, ex := range exs {
		if ex.err != nil {
			return nil, ex.err
		}
	}
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
	if err := g.st.PlayJoint(joint); err != nil {
		return nil, fmt.Errorf("game %s refused the joint move %v of legal moves: %w", g.res.Game, texts, err)
	}
	text := strings.Join(texts, ",")
	g.hist = append(g.hist, text)
	for _, o := range outs {
		g.record(ply, o)
	}
	g.moveEvent(ply, 0, text)
	return nil, nil
}

// request encodes the turn request for seat.
func (g *run) request(seat game.Seat, legal []game.Move) ([]byte, error) {
	texts := make([]string, len(legal))
	for i, m := range legal {
		texts[i] = g.st.MoveString(m)
	}
	ms := g.m.TC.PerMove.Milliseconds()
	req := protocol.TurnRequest{
		V: protocol.Version, Type: protocol.TypeTurn,
		GameID: g.m.GameID, Game: g.res.Game,
		Seat: int(seat), SeatName: g.seats[seat],
		Ply: g.st.Ply(), Position: g.st.String(),
		Legal: texts, Moves: g.hist,
		Clock: protocol.Clock{MoveMS: ms, RemainingMS: ms},
	}
	if o, ok := g.st.(game.Observer); ok {
		raw, err := json.Marshal(o.Observation(seat))
		if err != nil {
			return nil, fmt.Errorf("game %s: observation of seat %d: %w", g.res.Game, seat, err)
		}
		if string(raw) != "null" {
			req.Observation = raw
		}
	}
	return protocol.Encode(req), nil
}

// judge decides what a seat's reply to the turn at ply amounts to. It never trusts the
// reply: the order of the checks is the order of the faults' precedence.
func (g *run) judge(seat, ply int, legal []game.Move, ex exchange) outcome {
	who := g.m.Players[seat]
	out := outcome{seat: seat, elapsed: ex.elapsed}
	fault := func(reason, format string, args ...any) outcome {
		out.reason = reason
		out.detail = who + ": " + fmt.Sprintf(format, args...)
		return out
	}
	switch {
	case ex.noResponders:
		return fault(protocol.ReasonNoResponders, "nobody listens on %s", protocol.TurnSubject(who))
	case ex.timedOut:
		return fault(protocol.ReasonTimeForfeit, "no reply within %v+%v", g.m.TC.PerMove, g.r.margin)
	case ex.elapsed > g.limit:
		return fault(protocol.ReasonTimeForfeit, "reply after %v, later than %v+%v", ex.elapsed, g.m.TC.PerMove, g.r.margin)
	}
	rep, err := protocol.DecodeTurnReply(ex.reply)
	if err != nil {
		return fault(protocol.ReasonProtocol, "bad reply: %s", clip(err.Error(), 200))
	}
	if rep.GameID != g.m.GameID {
		return fault(protocol.ReasonProtocol, "reply is for game %q, not %q", clip(rep.GameID, 64), g.m.GameID)
	}
	if rep.Ply != ply {
		return fault(protocol.ReasonProtocol, "reply is for ply %d, not %d", rep.Ply, ply)
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
	g.res.Moves = append(g.res.Moves, MoveRecord{Ply: ply, Seat: o.seat, Move: o.text, Elapsed: o.elapsed, Info: o.info})
	g.log.Debug().Int("ply", ply).Int("seat", o.seat).Str("move", o.text).Dur("elapsed", o.elapsed).Msg("move")
}

func (g *run) moveEvent(ply, seat int, text string) {
	ev := g.event(protocol.TypeEventMove)
	ev.Ply, ev.Seat, ev.Move = ply, seat, text
	g.publish(protocol.EventSubject(g.m.GameID), ev)
}

func (g *run) event(typ string) protocol.GameEvent {
	return protocol.GameEvent{
		V: protocol.Version, Type: typ, GameID: g.m.GameID, Game: g.res.Game,
		Ply: g.st.Ply(), Position: g.st.String(),
	}
}

// publish sends msg, logging rather than failing: notices and events are for information,
// and a broken connection shows up at the next turn request.
func (g *run) publish(subject string, msg any) {
	if err := g.r.nc.Publish(subject, protocol.Encode(msg)); err != nil {
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
	rets := make([]float64, len(g.seats))
	for i := range rets {
		rets[i] = 1
	}
	details := make([]string, len(faults))
	for i, f := range faults {
		rets[f.seat] = -1
		details[i] = f.detail
	}
	return g.finish(faults[0].reason, strings.Join(details, "; "), faults[0].seat, rets)
}

func (g *run) finish(reason, detail string, forfeit int, rets []float64) (Result, error) {
	g.res.Returns = rets
	g.res.Scores = Scores(rets)
	g.res.Result = ResultString(g.res.Scores)
	g.res.Reason, g.res.Detail, g.res.Forfeit = reason, detail, forfeit
	g.res.FinalPosition = g.st.String()
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

// abort ends a game that has no result.
func (g *run) abort(cause error) (Result, error) {
	g.res.Reason = protocol.ReasonAborted
	g.res.Detail = cause.Error()
	g.res.FinalPosition = g.st.String()
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
	g.publish(protocol.EventSubject(g.m.GameID), ev)
	// Flush so that whoever reads the result can count on the notices being on their way.
	if err := g.r.nc.Flush(); err != nil {
		g.log.Warn().Err(err).Msg("flush after game end failed")
	}
}

// exchange is the raw outcome of one turn request: a reply with its elapsed time, one of
// the two faults found before any reply, or an error of the referee's own.
type exchange struct {
	reply        []byte
	elapsed      time.Duration
	noResponders bool
	timedOut     bool
	err          error
}

// exchange sends a turn request and waits for the reply until limit has passed on the
// referee's clock. It is safe for concurrent use.
func (r *Referee) exchange(ctx context.Context, subject string, req []byte, limit time.Duration) exchange {
	reqCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := r.clock.Now()
	// The timer fires just after the limit, so that a reply at the limit exactly is in
	// time whichever of the two arrives first.
	timer, stop := startTimer(r.clock, limit+time.Nanosecond)
	defer stop()
	go func() {
		select {
		case <-timer:
			cancel()
		case <-reqCtx.Done():
		}
	}()
	msg, err := r.nc.RequestWithContext(reqCtx, subject, req)
	elapsed := r.clock.Now().Sub(start)
	switch {
	case err == nil:
		return exchange{reply: msg.Data, elapsed: elapsed}
	case errors.Is(err, nats.ErrNoResponders):
		return exchange{noResponders: true, elapsed: elapsed}
	case ctx.Err() != nil:
		return exchange{err: ctx.Err()}
	case errors.Is(err, context.Canceled):
		return exchange{timedOut: true, elapsed: elapsed}
	default:
		return exchange{err: fmt.Errorf("turn request on %s: %w", subject, err)}
	}
}

// Scores turns returns into tournament points: against each other seat, a seat earns 1 for
// a higher return, 1/2 for an equal one and 0 for a lower one, and its score is the average
// over its opponents. A lone seat scores 1, 1/2 or 0 by the sign of its return.
func Scores(returns []float64) []float64 {
	n := len(returns)
	s := make([]float64, n)
	if n == 1 {
		switch {
		case returns[0] > 0:
			s[0] = 1
		case returns[0] == 0:
			s[0] = 0.5
		}
		return s
	}
	for i, ri := range returns {
		var pts float64
		for j, rj := range returns {
			switch {
			case i == j:
			case ri > rj:
				pts++
			case ri == rj:
				pts += 0.5
			}
		}
		s[i] = pts / float64(n-1)
	}
	return s
}

// ResultString writes scores by seat order, joined by '-', a half as "1/2": "1-0", "0-1",
// "1/2-1/2" for two seats.
func ResultString(scores []float64) string {
	parts := make([]string, len(scores))
	for i, s := range scores {
		switch s {
		case 0:
			parts[i] = "0"
		case 0.5:
			parts[i] = "1/2"
		case 1:
			parts[i] = "1"
		default:
			parts[i] = strconv.FormatFloat(s, 'g', 4, 64)
		}
	}
	return strings.Join(parts, "-")
}

// clip shortens untrusted text for a log line or a Detail.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}
