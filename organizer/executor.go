package organizer

import (
	"context"
	"strconv"
	"sync"

	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/tournament"
)

// Executor plays a tournament's games somewhere and hands their results back: on the
// Director's own referee (RefereeExecutor) or on the referee workers that share a work
// queue (QueueExecutor). A Director holds one, chosen when it is made; the formats never
// know which.
type Executor interface {
	// Open starts a session for the games of tournament id (its name on the bus, as game
	// ids are id-index). A tournament has one session at a time; Close ends it.
	Open(id string) (Session, error)
}

// Played is a scheduled game and its result.
type Played struct {
	Pairing tournament.Pairing
	Result  referee.Result
}

// RecordFunc records the results of scheduled games, those at hand together (in one
// transaction when it can). A game recorded already is left as it is and the others are
// recorded; the error then wraps store.ErrDuplicate. It is never called concurrently.
// Its context is the run's without its cancellation, so that a game that ended just as
// the run was stopped is still recorded.
type RecordFunc func(ctx context.Context, games []Played) error

// Session is one tournament's games on an Executor. It plays a schedule (Play) and single
// games paired as the event goes (Start, Ended), the ladder's way.
type Session interface {
	// Play plays the pairings of t.Schedule that t.Skip does not skip, up to
	// t.Concurrency at once, and records each result, as referee.RunTournament does (see
	// it for voided games, ctx, t.Drain and errors). other, when not nil, takes the ends
	// of games outside the schedule that an earlier run of the owner started (a ladder's
	// open phase on a work queue); the session acknowledges them after it.
	Play(ctx context.Context, t referee.Tournament, record RecordFunc, other func(context.Context, Ended) error) error
	// Start starts game index, m; tag travels with the game and comes back in its Ended.
	Start(ctx context.Context, index int, m referee.Match, tag []byte) error
	// Ended delivers the ends of the games Start started and, on a work queue, of those an
	// earlier run of the owner started (Ours false). Each is acknowledged (Ended.Ack) once
	// recorded.
	Ended() <-chan Ended
	// Reserved is the highest game index an earlier run put in play and whose result is
	// still to come (0 when none is): new games take indices after it.
	Reserved(ctx context.Context) (int, error)
	// Close ends the session. Games still playing on the referee are aborted and waited
	// for; games on a work queue go on, and their outcomes wait for the next session.
	Close()
}

// Ended is how a game started with Session.Start ended.
type Ended struct {
	Index   int
	GameID  string
	Players []string // by seat, as the game was started
	Tag     []byte
	Result  referee.Result
	// Err is why the game has no result: aborted, voided by an outage, or (on a work
	// queue) it could not be played there, wrapping referee.ErrInvalidMatch.
	Err error
	// Ours is false for a game that an earlier run of the owner put on the work queue,
	// which this run's bookkeeping knows nothing of.
	Ours bool

	failure, worker string                          // a work queue's outcome that is an error
	ack             func(ctx context.Context) error // nil on the referee
	release         func()                          // gives a work queue's outcome back; nil on the referee
}

// Ack tells the executor that the game is recorded; a work queue delivers it again
// otherwise.
func (e Ended) Ack(ctx context.Context) error {
	if e.ack == nil {
		return nil
	}
	return e.ack(ctx)
}

// RefereeExecutor plays the games on ref, in this process.
func RefereeExecutor(ref *referee.Referee) Executor { return refereeExecutor{ref} }

type refereeExecutor struct{ ref *referee.Referee }

func (x refereeExecutor) Open(id string) (Session, error) {
	ctx, cancel := context.WithCancel(context.Background())
	return &refereeSession{ref: x.ref, id: id, ctx: ctx, cancel: cancel, ended: make(chan Ended), closed: make(chan struct{})}, nil
}

// refereeSession plays a tournament's games on the referee: a schedule with
// RunTournament, single games each in a goroutine of its own.
type refereeSession struct {
	ref    *referee.Referee
	id     string
	ctx    context.Context // the single games'; Close cancels it
	cancel context.CancelFunc
	ended  chan Ended
	closed chan struct{}
	once   sync.Once
	wg     sync.WaitGroup
}

func (s *refereeSession) Play(ctx context.Context, t referee.Tournament, record RecordFunc, _ func(context.Context, Ended) error) error {
	return s.ref.RunTournament(ctx, t, func(ctx context.Context, p tournament.Pairing, res referee.Result) error {
		return record(ctx, []Played{{p, res}})
	})
}

func (s *refereeSession) Start(ctx context.Context, index int, m referee.Match, tag []byte) error {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		res, err := s.ref.Play(s.ctx, m)
		e := Ended{Index: index, GameID: s.id + "-" + strconv.Itoa(index), Players: m.Players, Tag: tag, Result: res, Err: err, Ours: true}
		select {
		case s.ended <- e:
		case <-s.closed:
		}
	}()
	return nil
}

func (s *refereeSession) Ended() <-chan Ended                   { return s.ended }
func (s *refereeSession) Reserved(context.Context) (int, error) { return 0, nil }

func (s *refereeSession) Close() {
	s.once.Do(func() {
		s.cancel()
		close(s.closed)
		s.wg.Wait()
	})
}
