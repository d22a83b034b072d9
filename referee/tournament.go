package referee

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/tournament"
)

// Tournament is a schedule of games to play with one game and time control.
type Tournament struct {
	ID       string // a protocol.ValidName; game ids are ID-Index
	Game     game.Game
	Schedule []tournament.Pairing // each pairing's Opening is played before its players take over
	TC       clock.TimeControl
	MaxPlies int // see Match.MaxPlies
	// Concurrency is how many games are played at once; 0 means 1. A player may be in
	// several of them at once.
	Concurrency int
	// Wait is how long a game waits for its players to be present before it starts:
	// Connected in the lobby, and subscribed to their turn subjects (which the referee
	// checks with an empty message, as after a timeout; a player reconnecting between
	// games is waited for). A player still absent then loses the game with the reason
	// absent, without a move being played. Zero means no waiting and no check: a missing
	// player then finds out at its first turn (no_responders or disconnected). A positive
	// Wait needs a running lobby.
	Wait time.Duration
	// Skip, when set, is asked with each pairing's Index; the pairings it returns true for
	// are not played (they are already recorded, when a tournament resumes).
	Skip func(index int) bool
	// Margin is the transport margin of every game; zero means the referee's.
	Margin time.Duration
	// Ponder lets the players think between their turns in every game (Match.Ponder).
	Ponder bool
	// Drain, when set and closed, stops the tournament gently: no new game starts, the
	// games being played are played to their end and reported, and RunTournament returns
	// an error wrapping ErrDrained if some games were left unplayed.
	Drain <-chan struct{}
	// Settle bounds how long games wait, after the referee's connection came back from an
	// outage, for their players' turn subscriptions to be back too (the players reconnect
	// on their own schedule): a game starts as soon as all its players are subscribed
	// again, or when Settle has passed since the referee reconnected. Zero means
	// DefaultSettle.
	Settle time.Duration
	// Voided, when set, learns of each game voided because the machine was overloaded
	// (ErrOverloaded: a time forfeit the referee's own lateness explains), with its partial
	// Result, before the game is played again. Like onResult, it is never called
	// concurrently.
	Voided func(p tournament.Pairing, res Result)
}

// Match is the game of pairing p in t, with the game id ID-Index.
func (t Tournament) Match(p tournament.Pairing) Match {
	return Match{
		GameID: fmt.Sprintf("%s-%d", t.ID, p.Index), Game: t.Game, Players: p.Players,
		TC: t.TC, MaxPlies: t.MaxPlies, Round: p.Round, Opening: p.Opening, Margin: t.Margin, Wait: t.Wait,
		Ponder: t.Ponder,
	}
}

// DefaultSettle is Tournament.Settle when it is zero.
const DefaultSettle = 10 * time.Second

// ErrInvalidTournament is wrapped by the errors RunTournament returns for a Tournament it
// cannot run.
var ErrInvalidTournament = errors.New("referee: invalid tournament")

// ErrDrained is wrapped by the error RunTournament returns when Tournament.Drain stopped it
// before every game was played.
var ErrDrained = errors.New("referee: tournament drained")

// MaxAttempts is how many times RunTournament plays a pairing whose games are voided by
// connection outages before it gives up on the tournament.
const MaxAttempts = 5

// MaxOverloadAttempts is how many times RunTournament plays a pairing whose games are
// voided because the machine was overloaded before it gives up on the tournament: a
// machine that busy cannot time its games fairly. These voids do not count against
// MaxAttempts.
const MaxOverloadAttempts = 10

// reconnectPoll is how often a tournament looks whether the referee's connection is back
// before it replays a voided game.
const reconnectPoll = 20 * time.Millisecond

// RunTournament plays t's schedule, in schedule order and up to t.Concurrency games at
// once, with the game id fmt.Sprintf("%s-%d", t.ID, p.Index), and calls onResult (when not
// nil) with each finished game. onResult is never called concurrently: the calls follow
// one another in the order the games end, so it may record results and update ratings
// without locking. Its context is ctx without ctx's cancellation, so that a game that ended
// just as ctx did can still be recorded.
//
// Forfeits, absent players included, are results like any other and do not stop the
// tournament. A game voided because the referee's own connection dropped (ErrVoided) is
// played again from its start once the connection is back, at most MaxAttempts times in
// all; a game voided because the machine was overloaded (ErrOverloaded) is reported to
// t.Voided and played again at once, at most MaxOverloadAttempts times. When ctx ends, no game starts any more, the running games are aborted and not
// reported, and RunTournament returns once they have stopped with an error wrapping ctx's.
// When t.Drain is closed, no game starts any more, the running games are played to their
// end and reported, and the error wraps ErrDrained unless nothing was left to play.
// RunTournament also stops, with a wrapped error, when onResult returns one or a game
// cannot be played; the other running games are then aborted.
func (r *Referee) RunTournament(ctx context.Context, t Tournament, onResult func(ctx context.Context, p tournament.Pairing, res Result) error) error {
	if err := protocol.CheckName("tournament id", t.ID); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidTournament, err)
	}
	if t.Game == nil {
		return fmt.Errorf("%w: no game", ErrInvalidTournament)
	}
	if t.Concurrency < 0 {
		return fmt.Errorf("%w: negative concurrency %d", ErrInvalidTournament, t.Concurrency)
	}
	if t.Wait < 0 {
		return fmt.Errorf("%w: negative wait %v", ErrInvalidTournament, t.Wait)
	}
	if t.Wait > 0 && !r.lobbyRunning() {
		return fmt.Errorf("%w: waiting for players (wait %v) needs a running lobby (StartLobby)", ErrInvalidTournament, t.Wait)
	}
	// Check every game before playing the first, so a bad schedule fails at once
	// rather than halfway through.
	matches := make([]Match, len(t.Schedule))
	indices := make(map[int]bool, len(t.Schedule))
	var todo []int
	for i, p := range t.Schedule {
		if p.Index < 1 || indices[p.Index] {
			return fmt.Errorf("%w: pairing %d has index %d, want a unique positive index", ErrInvalidTournament, i+1, p.Index)
		}
		indices[p.Index] = true
		matches[i] = t.Match(p)
		if err := checkMatch(matches[i]); err != nil {
			return fmt.Errorf("%w: game %d: %w", ErrInvalidTournament, p.Index, err)
		}
		if t.Skip == nil || !t.Skip(p.Index) {
			todo = append(todo, i)
		}
	}
	conc := max(t.Concurrency, 1)
	log := r.log.With().Str("tournament", t.ID).Logger()
	log.Info().Int("games", len(todo)).Int("skipped", len(matches)-len(todo)).Int("concurrency", conc).
		Str("game", t.Game.Name()).Msg("tournament start")

	recordCtx := context.WithoutCancel(ctx)
	gameCtx, cancel := context.WithCancel(ctx)
	defer cancel()

	type ended struct {
		i        int
		res      Result
		err      error
		unplayed bool // drained before it started
	}
	results := make(chan ended)
	attempts := make([]int, len(matches))
	overloads := make([]int, len(matches)) // voids for overload, which attempts does not count
	var (
		replay   []int // voided games to play again, before any new one
		next     int   // the next of todo to start
		running  int
		left     int // games that ended without a result and will not be played
		stopping bool
		drained  bool
		fatal    error
		drain    = t.Drain
		done     = ctx.Done()
	)
	settle := t.Settle
	if settle == 0 {
		settle = DefaultSettle
	}
	reconnects := r.nc.Stats().Reconnects
	var settleUntil time.Time // games started before then first wait for their players' subscriptions
	start := func(i int) {
		running++
		attempts[i]++
		if n := r.nc.Stats().Reconnects; n != reconnects {
			reconnects, settleUntil = n, time.Now().Add(settle)
		}
		until := settleUntil
		go func() {
			res, unplayed, err := r.playPairing(gameCtx, t, matches[i], until)
			results <- ended{i: i, res: res, err: err, unplayed: unplayed}
		}()
	}
	stop := func(err error) {
		if fatal == nil {
			fatal = err
		}
		stopping = true
		cancel()
	}
	for {
		if !stopping && drain != nil {
			select {
			case <-drain:
				drained, stopping = true, true
			default:
			}
		}
		for !stopping && running < conc && (len(replay) > 0 || next < len(todo)) {
			if len(replay) > 0 {
				start(replay[0])
				replay = replay[1:]
			} else {
				start(todo[next])
				next++
			}
		}
		if running == 0 {
			break
		}
		select {
		case e := <-results:
			running--
			p, id := t.Schedule[e.i], matches[e.i].GameID
			switch {
			case e.unplayed:
				left++
			case e.err == nil:
				if fatal != nil || onResult == nil {
					break
				}
				if err := onResult(recordCtx, p, e.res); err != nil {
					stop(fmt.Errorf("referee: tournament %s: game %s: result: %w", t.ID, id, err))
				}
			case errors.Is(e.err, ErrVoided):
				// An overload has its own count: it says nothing of the connection. A game
				// handed back by a clean stop has its own bound (MaxHandBacks, in Play).
				overload, handedBack := errors.Is(e.err, ErrOverloaded), errors.Is(e.err, ErrHandedBack)
				if handedBack {
					attempts[e.i]--
				}
				tries, most, why := attempts[e.i], MaxAttempts, ""
				if overload {
					attempts[e.i]--
					overloads[e.i]++
					tries, most, why = overloads[e.i], MaxOverloadAttempts, ", the machine too overloaded to time it fairly"
				}
				switch {
				case stopping:
					left++
				case tries >= most:
					stop(fmt.Errorf("referee: tournament %s: game %s voided %d times%s: %w", t.ID, id, tries, why, e.err))
				case handedBack:
					log.Info().Str("game_id", id).Msg("game handed back by a player's clean stop; it will be replayed once its players are present")
					replay = append(replay, e.i)
				case overload:
					if t.Voided != nil {
						t.Voided(p, e.res)
					}
					log.Warn().Str("game_id", id).Int("attempt", tries).Dur("lateness", e.res.Lateness).Msg("game voided: the machine was overloaded; it will be replayed")
					replay = append(replay, e.i)
				default:
					log.Warn().Str("game_id", id).Int("attempt", tries).Msg("game voided by a connection outage; it will be replayed")
					replay = append(replay, e.i)
				}
			case ctx.Err() != nil || stopping && gameCtx.Err() != nil:
				left++ // aborted by the end of ctx, or by a fatal error elsewhere
				stopping = true
			default:
				stop(fmt.Errorf("referee: tournament %s: %w", t.ID, e.err))
			}
		case <-drain:
			drain = nil
			if !stopping {
				drained, stopping = true, true
			}
		case <-done:
			done = nil
			stopping = true
		}
	}
	if fatal != nil {
		return fatal
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("referee: tournament %s: %w", t.ID, err)
	}
	if unplayed := left + len(replay) + len(todo) - next; drained && unplayed > 0 {
		log.Info().Int("unplayed", unplayed).Msg("tournament drained")
		return fmt.Errorf("referee: tournament %s: %d games not played: %w", t.ID, unplayed, ErrDrained)
	}
	log.Info().Msg("tournament end")
	return nil
}

// playPairing plays one game of a tournament: it waits for the referee's connection, then
// for the players when t.Wait asks for it, and plays the match. unplayed reports a game
// that Drain stopped before it started.
func (r *Referee) playPairing(ctx context.Context, t Tournament, m Match, settleUntil time.Time) (res Result, unplayed bool, err error) {
	if err := r.waitConnected(ctx); err != nil {
		return Result{}, false, err
	}
	if _, err := r.waitSubscribed(ctx, m.Players, settleUntil); err != nil {
		return Result{}, false, err
	}
	if t.Wait > 0 {
		reconnects := r.nc.Stats().Reconnects
		absent, stopped, err := r.waitPresent(ctx, m.Players, t.Wait, t.Drain)
		switch {
		case err != nil:
			return Result{}, false, err
		case stopped:
			return Result{}, true, nil
		case len(absent) > 0:
			return r.forfeitAbsent(m, absent, t.Wait, reconnects)
		}
		// Said hello lately is not enough: a player that is reconnecting between games
		// has no turn subscription yet. Give it the wait too, on the wall clock, since
		// only the server can tell.
		gone, err := r.waitSubscribed(ctx, m.Players, time.Now().Add(t.Wait))
		if err != nil {
			return Result{}, false, err
		}
		if len(gone) > 0 {
			return r.forfeitAbsent(m, gone, t.Wait, reconnects)
		}
	}
	res, err = r.Play(ctx, m)
	return res, false, err
}

// waitConnected waits until the referee's connection can carry messages.
func (r *Referee) waitConnected(ctx context.Context) error {
	for !connected(r.nc) {
		if r.nc.IsClosed() {
			return fmt.Errorf("referee: %w", nats.ErrConnectionClosed)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(reconnectPoll):
		}
	}
	return nil
}

// waitSubscribed waits, until the wall clock reads until, for every named player to be
// subscribed to its turn subject, probing the subjects every reconnectPoll, and returns
// the players still missing then (none when all are there). The last probe decides: a
// player found there and gone an instant later is caught at its first turn (Match.Wait).
func (r *Referee) waitSubscribed(ctx context.Context, names []string, until time.Time) ([]string, error) {
	for {
		missing := r.unsubscribed(names)
		if len(missing) == 0 || !time.Now().Before(until) {
			return missing, nil
		}
		select {
		case <-ctx.Done():
			return missing, ctx.Err()
		case <-time.After(reconnectPoll):
		}
	}
}

// unsubscribed lists the named players nobody listens for on their turn subjects; a
// failed probe counts as missing.
func (r *Referee) unsubscribed(names []string) []string {
	var out []string
	for _, n := range names {
		if gone, err := r.probe(protocol.TurnSubject(n)); gone || err != nil {
			out = append(out, n)
		}
	}
	return out
}

// forfeitAbsent ends m, before any turn, as a forfeit of the absent players with the
// reason absent. When every player is absent, every seat has the return -1, and so the
// game is a draw. Like any game it is void if the referee's connection dropped since
// reconnects was read: then the players' hellos could not arrive.
func (r *Referee) forfeitAbsent(m Match, absent []string, waited time.Duration, reconnects uint64) (Result, bool, error) {
	g := r.newRun(m)
	g.reconnects = reconnects
	g.st = m.Game.NewState()
	g.res.StartPosition = g.st.String()
	g.res.Started = r.clock.Now()
	if texts, err := playOpening(g.st, len(g.seats), m.Opening); err == nil {
		g.res.Opening, g.hist = texts, texts
	}
	var faults []outcome
	for seat, p := range m.Players {
		for _, a := range absent {
			if p == a {
				faults = append(faults, outcome{seat: seat, reason: protocol.ReasonAbsent,
					detail: fmt.Sprintf("%s: not present after waiting %v", p, humantime.Round(waited))})
				break
			}
		}
	}
	if len(faults) == 0 {
		return Result{}, false, fmt.Errorf("referee: game %s: absent players %s are not in it", m.GameID, strings.Join(absent, ", "))
	}
	res, err := g.forfeit(faults)
	return res, false, err
}
