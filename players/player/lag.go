package player

import (
	"sync"
	"time"

	"github.com/arenaref/arena/protocol"
)

// Bounds of the adaptive reserve.
const (
	// lagDecay is how much of the observed lag survives each turn without a larger delay:
	// about 90 turns to halve it, so that a spell of load keeps the reserve up for a while
	// after the delays stop, and a single hiccup does not keep it forever.
	lagDecay = 0.992
	// lagFactor is how many times the observed lag the reserve keeps on top of its base: the
	// next delay may be longer than any seen so far.
	lagFactor = 2
	// forfeitLagStep is what a lost-on-time notice adds to the lag, at least: the delay that
	// cost the game was not seen by the player (the request's trip, the reply's), so its size
	// is unknown, only that it was larger than the reserve kept.
	forfeitLagStep = 10 * time.Millisecond
	// maxLag bounds the lag, so that a pathological spell cannot leave every later move
	// with half its time.
	maxLag = 5 * time.Second
	// maxLagGames bounds the games whose last clocks are remembered.
	maxLagGames = 1024
)

// lagMeter learns the delays a player process meets that its agents cannot see: the
// request's and the reply's trips and the process waiting for a core, which the referee
// charges to the player's clock all the same. The runtime adds a multiple of the lag to
// each move's reserve, so that a busy machine or a slow network costs moves a little time
// rather than games on time. It is safe for concurrent use.
//
// It observes three things:
//   - how far past its deadline a reply was sent (the agent's own overrun, mostly the
//     process waiting for a core), counted from the deadline without the lag's share of the
//     reserve, so that the lag cannot feed on itself;
//   - on a game clock, what the referee charged for the seat's previous move (the fall of
//     remaining_ms, less the increment) beyond the time the player itself measured from
//     arrival to reply: the whole round trip's delay;
//   - a game lost on time, which means a delay larger than the reserve kept: the lag
//     doubles (plus forfeitLagStep).
//
// The lag is a decaying maximum: a larger delay raises it at once, and each later
// observation lets it fall by a little.
type lagMeter struct {
	mu    sync.Mutex
	lag   time.Duration
	games map[seatOf]lastMove // each seat's previous move in each game on a game clock
}

// seatOf is a seat of a game: one player may hold both seats of a game.
type seatOf struct {
	game string
	seat int
}

// lastMove is what the player knew of its previous move in a game on a game clock.
type lastMove struct {
	ply       int
	remaining int64         // the clock's remaining_ms when that move was asked for
	movesToGo int           // its moves_to_go
	took      time.Duration // from the request's arrival to the reply, by the player's clock
}

// current returns the lag now.
func (l *lagMeter) current() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lag
}

// observe takes one delay into account (zero or less only lets the lag decay) and returns
// the lag after it.
func (l *lagMeter) observe(d time.Duration) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.observeLocked(d)
}

func (l *lagMeter) observeLocked(d time.Duration) time.Duration {
	l.lag = min(max(d, time.Duration(float64(l.lag)*lagDecay)), maxLag)
	return l.lag
}

// request takes in a turn request of a game: on a game clock, when the seat's previous
// move of that game is known, the referee's charge for it compared with the player's own
// measure. It returns the delay observed (zero when nothing could be learned).
func (l *lagMeter) request(req protocol.TurnRequest) time.Duration {
	if req.Clock.PerMove {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	prev, ok := l.games[seatOf{req.GameID, req.Seat}]
	if !ok || req.Ply <= prev.ply || prev.movesToGo == 1 {
		// Nothing before, a replayed turn, or a new period's base added in between, which
		// the fall of the clock would not show.
		return 0
	}
	charged := time.Duration(prev.remaining-(req.Clock.RemainingMS-req.Clock.IncrementMS)) * time.Millisecond
	if charged <= 0 || req.Clock.RemainingMS <= 0 {
		// A clock that rose (a period without moves_to_go) or hit zero tells nothing.
		return 0
	}
	// Milliseconds on the wire: a difference under two is rounding.
	delay := charged - prev.took
	if delay < 2*time.Millisecond {
		return 0
	}
	l.observeLocked(delay)
	return delay
}

// replied notes the seat's move in a game on a game clock, for request to compare with
// the referee's charge.
func (l *lagMeter) replied(req protocol.TurnRequest, took time.Duration) {
	if req.Clock.PerMove {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.games == nil {
		l.games = map[seatOf]lastMove{}
	}
	key := seatOf{req.GameID, req.Seat}
	if _, ok := l.games[key]; !ok && len(l.games) >= maxLagGames {
		clear(l.games) // games whose end notice never came; losing them costs one comparison each
	}
	l.games[key] = lastMove{ply: req.Ply, remaining: req.Clock.RemainingMS, movesToGo: req.Clock.MovesToGo, took: took}
}

// ended forgets a game, and when the player lost it on time, raises the lag. It returns
// the lag after it.
func (l *lagMeter) ended(n protocol.GameNotice) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.games, seatOf{n.GameID, n.Seat})
	lost := n.Seat >= 0 && n.Seat < len(n.Returns) && n.Returns[n.Seat] < 0
	if n.Reason == protocol.ReasonTimeForfeit && lost {
		l.lag = min(2*l.lag+forfeitLagStep, maxLag)
	}
	return l.lag
}
