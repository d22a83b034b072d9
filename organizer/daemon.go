package organizer

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
)

// Daemon plays tournaments in the background for a long-running referee, and answers the
// referee's API (create, status, cancel, players) in protocol terms; the caller carries
// requests and replies over the bus. A tournament that stops for a shutdown stays running
// in the store, to be resumed (Start) at the next start.
type Daemon struct {
	d         *Director
	db        store.Store
	ref       *referee.Referee
	log       zerolog.Logger
	heartbeat time.Duration

	mu     sync.Mutex
	active map[int64]*activeTournament
}

// NewDaemon returns a Daemon that plays tournaments with d. heartbeat is how often players
// repeat their hello: one not heard from for three heartbeats is reported disconnected.
func NewDaemon(d *Director, heartbeat time.Duration) *Daemon {
	return &Daemon{d: d, db: d.db, ref: d.ref, log: d.log, heartbeat: heartbeat, active: map[int64]*activeTournament{}}
}

type activeTournament struct {
	// cancel stops the run, with ErrCancelled as the cause for the API's cancel and
	// ErrParked for a shutdown, which decide its status (StoppedStatus).
	cancel context.CancelCauseFunc
	drain  chan struct{}
	done   chan struct{}
}

// Start plays tournament id in the background until it ends, is cancelled or the
// daemon shuts down; its final status is stored (Director.Finish).
func (dm *Daemon) Start(id int64) {
	ctx, cancel := context.WithCancelCause(context.Background())
	a := &activeTournament{cancel: cancel, drain: make(chan struct{}), done: make(chan struct{})}
	dm.mu.Lock()
	dm.active[id] = a
	dm.mu.Unlock()
	go func() {
		defer close(a.done)
		defer cancel(nil)
		err := dm.d.Play(ctx, id, a.drain, func(done, total int, res referee.Result) {
			dm.log.Info().Int64("tournament", id).Int("done", done).Int("total", total).Str("game", res.GameID).
				Str("result", res.Result).Str("reason", res.Reason).Msg("game recorded")
		})
		dm.mu.Lock()
		delete(dm.active, id)
		dm.mu.Unlock()
		status, serr := dm.d.Finish(ctx, id, err)
		if status == store.StatusRunning {
			dm.log.Info().Int64("tournament", id).Msg("tournament parked; it resumes at the next start")
			return
		}
		if serr != nil {
			dm.log.Error().Err(serr).Int64("tournament", id).Msg("cannot store the tournament's status")
		}
		ev := dm.log.Info()
		if status == store.StatusFailed {
			ev = dm.log.Error().Err(err)
		}
		ev.Int64("tournament", id).Str("status", status).Msg("tournament ended")
	}()
}

// Shutdown stops every tournament: no new games, grace for running ones, then park
// (the games still running are abandoned unrecorded and the tournaments stay running).
func (dm *Daemon) Shutdown(grace time.Duration) {
	dm.mu.Lock()
	all := make([]*activeTournament, 0, len(dm.active))
	for _, a := range dm.active {
		close(a.drain)
		all = append(all, a)
	}
	dm.mu.Unlock()
	deadline := time.After(grace)
	for _, a := range all {
		select {
		case <-a.done:
		case <-deadline:
			for _, b := range all {
				b.cancel(ErrParked)
			}
			<-a.done
		}
	}
}

// Create answers an API create request: it checks the tournament file, stores the
// tournament and starts it. With an SPRT the tournament is a match that stops when the
// test decides (Director.RunMatch).
func (dm *Daemon) Create(ctx context.Context, req protocol.APIRequest) protocol.APIReply {
	source := req.Source
	if source == "" {
		source = "tournament"
	}
	s, err := ParseSpecFile(source, []byte(req.Config))
	if err != nil {
		return protocol.APIError(protocol.APIBadConfig, "%v", err)
	}
	if req.SPRT != "" {
		t, err := ParseSPRT(req.SPRT)
		if err != nil {
			return protocol.APIError(protocol.APIBadConfig, "sprt: %v", err)
		}
		s.SPRT = &t
	}
	if _, err := s.Compile(req.Openings, true); err != nil {
		return protocol.APIError(protocol.APIBadConfig, "%s: %v", source, err)
	}
	id, n, err := dm.d.Create(ctx, s, req.Openings, true)
	if err != nil {
		dm.log.Error().Err(err).Msg("cannot create a tournament")
		return protocol.APIError(protocol.APIInternal, "cannot store the tournament: %v", err)
	}
	dm.Start(id)
	dm.log.Info().Int64("tournament", id).Int("games", n).Str("source", source).Msg("tournament created")
	for _, msg := range s.Warnings(runtime.NumCPU()) {
		dm.log.Warn().Int64("tournament", id).Msg(msg)
	}
	return protocol.APIReply{V: protocol.Version, Type: protocol.TypeAPIOK, Tournament: id, Games: n}
}

// Status answers an API status request: every tournament, or one with its standings.
func (dm *Daemon) Status(ctx context.Context, req protocol.APIRequest) protocol.APIReply {
	var list []store.Tournament
	if req.Tournament != 0 {
		t, err := dm.db.Tournament(ctx, req.Tournament)
		if errors.Is(err, store.ErrNotFound) {
			return protocol.APIError(protocol.APINotFound, "no tournament %d", req.Tournament)
		}
		if err != nil {
			return protocol.APIError(protocol.APIInternal, "%v", err)
		}
		list = []store.Tournament{t}
	} else {
		var err error
		if list, err = dm.db.Tournaments(ctx, ""); err != nil {
			return protocol.APIError(protocol.APIInternal, "%v", err)
		}
	}
	reply := protocol.APIReply{V: protocol.Version, Type: protocol.TypeAPIOK}
	for _, t := range list {
		ts := TournamentStatus(t)
		if t.Status == store.StatusRunning {
			ts.Problem = dm.d.Problem(t.ID)
		}
		if req.Tournament != 0 {
			rows, err := EventStandings(ctx, dm.db, t)
			if err != nil {
				return protocol.APIError(protocol.APIInternal, "%v", err)
			}
			ts.Rows = rows
		}
		reply.Tournaments = append(reply.Tournaments, ts)
	}
	return reply
}

// Cancel answers an API cancel request: it stops a running tournament, which is stored
// as cancelled.
func (dm *Daemon) Cancel(ctx context.Context, req protocol.APIRequest) protocol.APIReply {
	if req.Tournament == 0 {
		return protocol.APIError(protocol.APIBadRequest, "cancel needs a tournament id")
	}
	dm.mu.Lock()
	a, ok := dm.active[req.Tournament]
	dm.mu.Unlock()
	if ok {
		a.cancel(ErrCancelled)
		<-a.done
		return protocol.APIReply{V: protocol.Version, Type: protocol.TypeAPIOK, Tournament: req.Tournament}
	}
	t, err := dm.db.Tournament(ctx, req.Tournament)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return protocol.APIError(protocol.APINotFound, "no tournament %d", req.Tournament)
	case err != nil:
		return protocol.APIError(protocol.APIInternal, "%v", err)
	}
	return protocol.APIError(protocol.APINotRunning, "tournament %d is %s, not running", t.ID, t.Status)
}

// Players answers an API players request: the players the referee has heard from.
func (dm *Daemon) Players(_ context.Context, _ protocol.APIRequest) protocol.APIReply {
	reply := protocol.APIReply{V: protocol.Version, Type: protocol.TypeAPIOK}
	for _, p := range dm.ref.Players() {
		reply.Players = append(reply.Players, protocol.PlayerStatus{
			Name: p.Name, Agent: p.Agent, Version: p.Version, Games: p.Games,
			LastSeen:  p.LastSeen.UTC().Format(time.RFC3339),
			Connected: time.Since(p.LastSeen) < 3*dm.heartbeat,
		})
	}
	return reply
}

// ConcurrencyWarning returns a one-line warning when games games at once would outnumber
// cpus cores, and "" otherwise. Built-in players that search until their time is nearly
// spent (minimax) share the cores with every other game; with more games than cores the
// scheduler can hold a reply past its deadline, and the player loses on time through no
// fault of its own. It is a warning, not an error: external players on other machines
// do not compete for these cores.
func ConcurrencyWarning(games, cpus int) string {
	if games <= cpus {
		return ""
	}
	return fmt.Sprintf("concurrency %d is more than the %d cores of this machine: built-in players that search on the clock (minimax) may lose on time when more games run at once than there are cores", games, cpus)
}

// Warnings are what a tournament's settings may do that its organiser may not expect: more
// games at once than cpus (ConcurrencyWarning), a time control that is a number alone
// (clock.Note). Nil when there is nothing to say.
func (s Spec) Warnings(cpus int) []string {
	var out []string
	for _, msg := range []string{ConcurrencyWarning(s.Concurrency, cpus), clock.Note(s.TimeControl)} {
		if msg != "" {
			out = append(out, msg)
		}
	}
	return out
}
