package referee

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/protocol"
)

// replyQueue is how many replies to one turn request wait to be read. A player that sends
// more at once than this loses the extra ones, and with them possibly its move.
const replyQueue = 16

// outagePoll is how often a turn waiting for its reply looks at the referee's connection.
const outagePoll = 100 * time.Millisecond

// errOutage is the error of a turn given up because the referee's connection dropped.
var errOutage = errors.New("the referee's connection to NATS dropped")

// probeTimeout bounds the round trip to the server when the referee checks whether a
// player that did not answer is still subscribed.
const probeTimeout = 2 * time.Second

// replies routes the replies to turn requests to the exchanges waiting for them. Every
// request gets its own reply subject, a token under one wildcard subscription of the
// referee's, so a turn can receive several messages (a stale reply and then the right one)
// and a reply to a turn that is over finds nobody waiting and is dropped. One subscription
// for all turns spares the server a subscription and an unsubscription per turn.
type replies struct {
	mu      sync.Mutex
	sub     *nats.Subscription
	prefix  string // the inbox prefix, ending in '.'
	seq     uint64
	waiting map[uint64]chan arrival // by token
}

// arrival is a message on a reply subject, the token of its subject, and the referee's
// time when it arrived.
type arrival struct {
	msg   *nats.Msg
	token uint64
	at    time.Time
}

// waiter is what one seat of a game waits for its replies with, reused turn after turn
// (the seats of a simultaneous turn wait at once, each with its own): the channel the
// replies are routed to, and the timers of a turn. A message still in the channel from
// an earlier turn carries that turn's token, and the exchange drops it as the router
// drops the replies to turns that are over.
type waiter struct {
	replies  chan arrival
	watch    *time.Ticker // the outage watch; nil until the first turn
	deadline *time.Timer  // the turn's deadline on a RealClock; nil until the first turn
	stopFake func()       // stops the turn's deadline on another clock
}

func newWaiter() *waiter {
	// One more than replyQueue: the router may hand over one message of the previous
	// turn just after the exchange has emptied the channel.
	return &waiter{replies: make(chan arrival, replyQueue+1)}
}

// stop releases the waiter's timers.
func (w *waiter) stop() {
	if w.watch != nil {
		w.watch.Stop()
	}
	w.stopDeadline()
}

// startDeadline starts the turn's deadline timer on the referee's clock.
func (w *waiter) startDeadline(c Clock, d time.Duration) <-chan time.Time {
	if _, ok := c.(realClock); !ok {
		ch, stop := startTimer(c, d)
		w.stopFake = stop
		return ch
	}
	if w.deadline == nil {
		w.deadline = time.NewTimer(d)
	} else {
		w.deadline.Reset(d)
	}
	return w.deadline.C
}

// stopDeadline stops the turn's deadline timer.
func (w *waiter) stopDeadline() {
	switch {
	case w.stopFake != nil:
		w.stopFake()
		w.stopFake = nil
	case w.deadline != nil:
		w.deadline.Stop()
	}
}

// await registers a fresh reply subject whose messages go to w, and returns it with its
// token; release(token) stops the routing. Messages of earlier turns still waiting in w
// are dropped.
func (r *Referee) await(w *waiter) (subject string, token uint64, err error) {
	for len(w.replies) > 0 {
		<-w.replies
	}
	rp := &r.replies
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.sub == nil || !rp.sub.IsValid() {
		prefix := r.nc.NewInbox() + "."
		sub, err := r.nc.Subscribe(prefix+"*", r.deliver)
		if err != nil {
			return "", 0, fmt.Errorf("subscribe to the reply inbox: %w", err)
		}
		rp.sub, rp.prefix = sub, prefix
		if rp.waiting == nil {
			rp.waiting = map[uint64]chan arrival{}
		}
	}
	rp.seq++
	rp.waiting[rp.seq] = w.replies
	var buf [64]byte
	return string(strconv.AppendUint(append(buf[:0], rp.prefix...), rp.seq, 36)), rp.seq, nil
}

// release stops routing the replies of token.
func (r *Referee) release(token uint64) {
	r.replies.mu.Lock()
	delete(r.replies.waiting, token)
	r.replies.mu.Unlock()
}

// deliver hands a message on the reply inbox to the exchange waiting for it. It runs on
// the subscription's goroutine, so it only stamps and forwards.
func (r *Referee) deliver(msg *nats.Msg) {
	at := r.clock.Now()
	token, err := strconv.ParseUint(msg.Subject[strings.LastIndexByte(msg.Subject, '.')+1:], 36, 64)
	var ch chan arrival
	if err == nil {
		r.replies.mu.Lock()
		ch = r.replies.waiting[token]
		r.replies.mu.Unlock()
	}
	if ch == nil {
		r.log.Debug().Int("bytes", len(msg.Data)).Msg("reply to a turn that is over ignored")
		return
	}
	select {
	case ch <- arrival{msg: msg, token: token, at: at}:
	default:
		r.log.Debug().Int("bytes", len(msg.Data)).Msg("reply dropped: too many replies to one turn")
	}
}

// isNoResponders reports whether msg is the server's notice that nobody was subscribed to
// the subject of a request.
func isNoResponders(msg *nats.Msg) bool {
	return len(msg.Data) == 0 && msg.Header != nil && msg.Header.Get("Status") == "503"
}

// exchange is the raw outcome of one turn request: the reply (or why it could not be
// decoded) with its timing, one of the faults found without a reply, or an error of the
// referee's own.
type exchange struct {
	rep          protocol.TurnReply
	bad          error     // the reply could not be decoded
	sent         time.Time // just before the request was published
	at           time.Time // when the reply arrived
	woke         time.Time // when the exchange took it; only for the referee's overheadHook
	elapsed      time.Duration
	stale        int           // replies for another game or ply, ignored
	noResponders bool          // nobody was subscribed when the request was sent
	timedOut     bool          // no reply by the deadline
	gone         bool          // timed out, and nobody is subscribed any more
	left         bool          // the player stopped cleanly while thinking (see Hello.Leaving): nobody is subscribed any more
	late         time.Duration // timed out, and the reply came this long after the deadline
	watched      time.Duration // timed out, and no reply came in this long after the deadline
	timerLate    time.Duration // how late the deadline's timer fired, when it did, on the wall clock
	err          error
}

// exchange sends a turn request for the game and ply and waits for its reply until limit
// has passed on the referee's clock, calling sent, if not nil, once the request is out. Replies that decode but name another game or ply are
// stale: they are ignored, and the wait goes on. When no reply came in time, it checks
// whether the player is still subscribed. It is safe for concurrent use.
//
// While it waits it also watches the referee's own connection, on the wall clock since an
// outage is no game time: when the connection has dropped since the game started (its
// reconnect count differs from reconnects, or it is not connected), it gives up the turn
// with an error wrapping errOutage, so that a void game ends as soon as it is known to be.
// It watches the lobby too: when player says it is leaving (Hello.Leaving) during the
// turn, it probes the subject, and ends the turn with left set once nobody listens.
func (r *Referee) exchange(ctx context.Context, w *waiter, player, subject string, req []byte, limit time.Duration, gameID string, ply int, reconnects uint64, sent func()) exchange {
	inbox, token, err := r.await(w)
	if err != nil {
		return exchange{err: err}
	}
	defer r.release(token)
	replies := w.replies
	ex := exchange{sent: r.clock.Now()}
	// The timer fires just after the limit, so that a reply at the limit exactly is in
	// time whichever of the two arrives first.
	timer := w.startDeadline(r.clock, limit+time.Nanosecond)
	defer w.stopDeadline()
	if err := r.nc.PublishRequest(subject, inbox, req); err != nil {
		return exchange{err: fmt.Errorf("turn request on %s: %w", subject, err)}
	}
	if sent != nil {
		sent()
	}
	// take judges one message; it reports whether the exchange is over.
	take := func(a arrival) bool {
		if a.token != token {
			r.log.Debug().Int("bytes", len(a.msg.Data)).Msg("reply to a turn that is over ignored")
			return false
		}
		ex.at, ex.elapsed = a.at, a.at.Sub(ex.sent)
		if r.overheadHook != nil {
			ex.woke = r.clock.Now()
		}
		if isNoResponders(a.msg) {
			ex.noResponders = true
			return true
		}
		rep, bad, stale := classify(a.msg.Data, gameID, ply)
		if stale {
			ex.stale++
			r.log.Debug().Str("game_id", gameID).Int("ply", ply).Str("reply_game_id", clip(rep.GameID, 64)).
				Int("reply_ply", rep.Ply).Str("subject", subject).Msg("stale reply ignored")
			return false
		}
		ex.rep, ex.bad = rep, bad
		return true
	}
	if w.watch == nil {
		w.watch = time.NewTicker(outagePoll)
	} else {
		w.watch.Reset(outagePoll)
	}
	defer w.watch.Stop()
	leaving := r.leavingAt(player)
	for {
		select {
		case a := <-replies:
			if take(a) {
				return ex
			}
		case <-w.watch.C:
			if r.nc.Stats().Reconnects != reconnects || !connected(r.nc) {
				return exchange{err: fmt.Errorf("turn request on %s: %w", subject, errOutage)}
			}
			if at := r.leavingAt(player); !at.Equal(leaving) {
				leaving = at
				if gone, err := r.probe(subject); err == nil && gone {
					ex.timedOut, ex.gone, ex.left = true, true, true
					ex.at, ex.elapsed = time.Time{}, r.clock.Now().Sub(ex.sent)
					return ex
				}
			}
		case <-timer:
			if _, wall := r.clock.(realClock); wall {
				ex.timerLate = max(r.clock.Now().Sub(ex.sent.Add(limit)), 0)
			}
			// A reply may have come just in time while the timer fired: look before
			// declaring the turn lost.
		late:
			for {
				select {
				case a := <-replies:
					if take(a) {
						return ex
					}
				default:
					break late
				}
			}
			ex.timedOut = true
			ex.at, ex.elapsed = time.Time{}, r.clock.Now().Sub(ex.sent)
			gone, err := r.probe(subject)
			if err != nil {
				// The referee's own connection is in trouble; Play's outage check
				// decides what that means for the game.
				r.log.Warn().Err(err).Str("subject", subject).Msg("probe after a timeout failed")
			}
			ex.gone = gone
			if r.timeoutHook != nil {
				r.timeoutHook(r.clock.Now().Sub(ex.sent.Add(limit)))
			}
			if !gone && err == nil {
				a, ok, watched := r.watchLate(ctx, replies, token, gameID, ply)
				switch {
				case ok && !a.at.After(ex.sent.Add(limit)):
					// Stamped in time, and routed to this turn only as the timer fired:
					// it is judged like any reply in time.
					ex.timedOut = false
					take(a)
				case ok:
					ex.late = a.at.Sub(ex.sent.Add(limit))
				default:
					ex.watched = watched
				}
			}
			return ex
		case <-ctx.Done():
			return exchange{err: ctx.Err()}
		}
	}
}

// watchLate listens for the reply to a turn whose deadline has passed, for the referee's
// LateWatch on the wall clock. It returns the reply when one came (ok), or how long it
// listened in vain. Knowing how late a reply was tells a player that thinks a little too
// long from one that stalled; the exchange decides what the reply means.
func (r *Referee) watchLate(ctx context.Context, replies <-chan arrival, token uint64, gameID string, ply int) (a arrival, ok bool, watched time.Duration) {
	if r.lateWatch <= 0 {
		return arrival{}, false, 0
	}
	start := time.Now()
	timer := time.NewTimer(r.lateWatch)
	defer timer.Stop()
	for {
		select {
		case a := <-replies:
			if a.token != token {
				continue
			}
			if isNoResponders(a.msg) {
				return arrival{}, false, time.Since(start)
			}
			if _, _, stale := classify(a.msg.Data, gameID, ply); stale {
				continue
			}
			return a, true, 0
		case <-timer.C:
			return arrival{}, false, r.lateWatch
		case <-ctx.Done():
			return arrival{}, false, time.Since(start)
		}
	}
}

// probe reports whether nobody is subscribed to subject any more: it publishes an empty
// request there and looks for the server's no-responders notice. A player must ignore the
// empty message. The notice, if any, is on its reply subject by the time the flush that
// follows returns, because the server answers in order and a channel subscription receives
// on the connection's reading goroutine.
func (r *Referee) probe(subject string) (gone bool, err error) {
	inbox := r.nc.NewInbox()
	ch := make(chan *nats.Msg, replyQueue)
	sub, err := r.nc.ChanSubscribe(inbox, ch)
	if err != nil {
		return false, err
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := r.nc.PublishRequest(subject, inbox, nil); err != nil {
		return false, err
	}
	if err := r.nc.FlushTimeout(probeTimeout); err != nil {
		return false, err
	}
	for {
		select {
		case msg := <-ch:
			if isNoResponders(msg) {
				return true, nil
			}
		default:
			return false, nil
		}
	}
}

// classify decodes a reply to the turn at ply of the game: a reply (bad is nil), a message
// that is not a valid reply (bad says why), or a valid reply to another turn (stale).
func classify(data []byte, gameID string, ply int) (rep protocol.TurnReply, bad error, stale bool) {
	rep, err := protocol.DecodeTurnReply(data)
	if err != nil {
		return protocol.TurnReply{}, err, false
	}
	if rep.GameID != gameID || rep.Ply != ply {
		return rep, nil, true
	}
	return rep, nil, false
}
