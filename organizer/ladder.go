package organizer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/tournament"
)

// Ladder defaults, for the settings a ladder file leaves out (see tournament).
const (
	DefaultValidationGames    = tournament.DefaultValidationGames
	DefaultValidationOpponent = tournament.DefaultValidationOpponent
	DefaultFinalTop           = tournament.DefaultFinalTop
	DefaultFinalRounds        = tournament.DefaultFinalRounds
)

// ladderTick is how often a ladder looks for players that arrived or left between games.
const ladderTick = 250 * time.Millisecond

func init() { runners[FormatLadder] = ladderRunner{} }

// ladderRunner plays ladders: format tournament.Ladder pairs from who is present as well
// as from results, with entries that come and go, so the application runs it itself.
type ladderRunner struct{}

// LadderDeadline is the ladder's deadline. Create turns a relative deadline ("90m") into
// an absolute one, so a stored ladder always has a time.
func (s Spec) LadderDeadline() (time.Time, error) { return tournament.ParseDeadline(s.Deadline) }

func (ladderRunner) prepare(s Spec) Spec {
	s.Deadline = tournament.AbsoluteDeadline(s.Deadline, time.Now())
	return s
}

// players are the entrants the file names and the validation opponent.
func (ladderRunner) players(s Spec) []string {
	return append(slices.Clone(s.Players), s.ValidationOpponent)
}

// created stores the ladder's state: the open phase, with the opening lines of its final.
func (ladderRunner) created(ctx context.Context, db store.Store, id int64, p Plan) error {
	data, err := json.Marshal(ladderData{Openings: p.openings})
	if err != nil {
		return err
	}
	return db.SetLadderState(ctx, store.LadderState{Tournament: id, Phase: store.LadderOpen, Data: data})
}

func (ladderRunner) standings(ctx context.Context, st store.Store, id int64) ([]protocol.StandingsRow, error) {
	b, err := LadderBoard(ctx, st, id)
	if err != nil {
		return nil, err
	}
	return b.StandingsRows(), nil
}

func (ladderRunner) run(ctx context.Context, d *Director, t store.Tournament, s Spec, drain <-chan struct{}, progress ProgressFunc) error {
	return d.runLadder(ctx, t, s, drain, progress)
}

// compile checks what the ladder's format leaves to the application (its own settings
// are checked already): its players are the roster (empty: anyone who plays the game may
// enter), built-in agents among them play as entrants; the validation opponent is a
// built-in agent outside the roster.
func (ladderRunner) compile(s Spec, g game.Game, openingsText string, h Host) (Plan, error) {
	as, ok := s.Builtin(s.ValidationOpponent)
	if !ok {
		return Plan{}, fmt.Errorf("validation_opponent: %q is not a built-in agent", s.ValidationOpponent)
	}
	if !playsGame(agent.Games(as.Agent), g) {
		return Plan{}, fmt.Errorf("validation_opponent: agent %q does not play %s", as.Agent, g.Name())
	}
	withValidator := s
	withValidator.Players = append(slices.Clone(s.Players), s.ValidationOpponent)
	if _, err := withValidator.checkPlayers(g, h); err != nil {
		return Plan{}, err
	}
	if !h.External {
		return Plan{}, fmt.Errorf("format: a ladder's entrants join over the bus: it needs a NATS server others can reach (--nats URL, or arena referee)")
	}
	tc, err := s.checkSettings()
	if err != nil {
		return Plan{}, err
	}
	openings, err := s.openingLines(g, openingsText)
	if err != nil {
		return Plan{}, err
	}
	return Plan{Spec: s, game: g, tc: tc, openings: openings}, nil
}

// ladderRun is one ladder being played: what it knows of its entries and games, kept in
// step with the store.
type ladderRun struct {
	d        *Director
	id       int64
	s        Spec
	g        game.Game
	tc       clock.TimeControl
	deadline time.Time
	log      zerolog.Logger
	rng      *rand.Rand
	elo      ratings.Elo

	entries   map[int64]*store.LadderEntry
	current   map[string]int64 // a player's newest entry
	games     []store.LadderGame
	nextIndex int
	busy      map[string]bool // players in a game now (never the validation opponent)
	session   Session         // where the ladder's games are played
	inValid   map[int64]int   // validation games running, by entry
	board     []LeaderRow     // ratings as of the last recorded game
	// away holds the players that lost a game by not being there, with when: they are
	// not paired again until they say hello after it.
	away map[string]time.Time
	// started is when each entry last started a rated game, for the pace.
	started   map[int64]time.Time
	refreshed time.Time // when entries were last read back from the store
}

// ladderEnded is one game of the ladder that ended, for the loop that started it.
type ladderEnded struct {
	phase   string
	entries []int64
	index   int
	res     referee.Result
	err     error
	// ours is false for a game put on the work queue by an earlier run of the owner,
	// which this run's bookkeeping of busy players knows nothing of.
	ours bool
}

// endedOf is the ladderEnded of a game's end; the game's tag is its ladder tag.
func endedOf(e Ended) (ladderEnded, error) {
	var tag store.LadderTag
	if err := json.Unmarshal(e.Tag, &tag); err != nil || len(tag.Entries) != len(e.Players) {
		return ladderEnded{}, fmt.Errorf("game %s: a ladder game without its tag", e.GameID)
	}
	return ladderEnded{phase: tag.Phase, entries: tag.Entries, index: e.Index, res: e.Result, err: e.Err, ours: e.Ours}, nil
}

// runLadder plays ladder id: the open phase until the deadline, then the final phase,
// then it freezes the final standings. It resumes wherever a stopped ladder was.
func (d *Director) runLadder(ctx context.Context, t store.Tournament, s Spec, drain <-chan struct{}, progress ProgressFunc) error {
	f, err := tournament.Lookup(FormatLadder)
	if err != nil {
		return err
	}
	s = s.withDefaults(f)
	g, err := game.Lookup(s.Game)
	if err != nil {
		return fmt.Errorf("ladder %d: %w", t.ID, err)
	}
	tc, err := clock.Parse(s.TimeControl)
	if err != nil {
		return fmt.Errorf("ladder %d: %w", t.ID, err)
	}
	deadline, err := s.LadderDeadline()
	if err != nil {
		return fmt.Errorf("ladder %d: %w", t.ID, err)
	}
	l := &ladderRun{
		d: d, id: t.ID, s: s, g: g, tc: tc, deadline: deadline,
		log:     d.log.With().Int64("ladder", t.ID).Logger(),
		rng:     rand.New(rand.NewPCG(uint64(s.Seed), uint64(t.ID))),
		elo:     ratings.Elo{K: s.EloK, Initial: ratings.DefaultInitial},
		entries: map[int64]*store.LadderEntry{}, current: map[string]int64{},
		busy: map[string]bool{}, inValid: map[int64]int{},
		away: map[string]time.Time{}, started: map[int64]time.Time{},
	}
	if l.session, err = d.exec.Open(refereeID(t.ID)); err != nil {
		return err
	}
	defer l.session.Close()
	if err := l.load(ctx); err != nil {
		return err
	}
	if err := d.db.SetTournamentStatus(ctx, t.ID, store.StatusRunning); err != nil {
		return err
	}
	// The ladder's own players: the validation opponent and the built-in entrants.
	release, err := d.startBuiltins(ctx, s, ladderRunner{}.players(s))
	if err != nil {
		return err
	}
	defer release()
	// Games still playing on the referee stop before the players they need do.
	defer l.session.Close()
	state, err := d.db.LadderState(ctx, t.ID)
	if err != nil {
		return err
	}
	if state.Phase == store.LadderOpen {
		if err := l.open(ctx, drain, progress); err != nil {
			return err
		}
		if state, err = l.chooseFinalists(ctx); err != nil {
			return err
		}
	}
	if state.Phase == store.LadderFinal {
		if err := l.final(ctx, state, drain, progress); err != nil {
			return err
		}
		return l.freeze(ctx, state)
	}
	return nil
}

// load reads the ladder's entries and games back from the store.
func (l *ladderRun) load(ctx context.Context) error {
	entries, err := l.d.db.LadderEntries(ctx, l.id)
	if err != nil {
		return err
	}
	for i := range entries {
		e := entries[i]
		l.entries[e.ID] = &e
		if cur, ok := l.current[e.Player]; !ok || cur < e.ID {
			l.current[e.Player] = e.ID
		}
	}
	if l.games, err = l.d.db.LadderGames(ctx, l.id); err != nil {
		return err
	}
	sums, err := l.d.db.GameSummaries(ctx, l.id)
	if err != nil {
		return err
	}
	l.nextIndex = 1
	for _, g := range sums {
		l.nextIndex = max(l.nextIndex, g.Index+1)
	}
	// Games an earlier run put on a work queue keep their indices.
	reserved, err := l.session.Reserved(ctx)
	if err != nil {
		return err
	}
	l.nextIndex = max(l.nextIndex, reserved+1)
	l.rate()
	return nil
}

// rate recomputes the ratings over every rated game of the ladder.
func (l *ladderRun) rate() {
	entries := make([]store.LadderEntry, 0, len(l.entries))
	for _, e := range l.entries {
		entries = append(entries, *e)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].ID < entries[j].ID })
	l.board = boardRows(entries, l.games, ladderData{})
}

// open plays the open phase: entries join, validate and play, until the deadline.
func (l *ladderRun) open(ctx context.Context, drain <-chan struct{}, progress ProgressFunc) error {
	running := 0 // games this run started, end not yet in
	tick := time.NewTicker(ladderTick)
	defer tick.Stop()
	closing := time.NewTimer(time.Until(l.deadline))
	defer closing.Stop()
	stopping, drained := false, false
	for {
		if !stopping && !time.Now().Before(l.deadline) {
			stopping = true
			l.log.Info().Msg("deadline: no new entries or games; the final phase follows")
		}
		if !stopping {
			if err := l.refresh(ctx); err != nil {
				return err
			}
			if err := l.syncEntrants(ctx); err != nil {
				return err
			}
			for running < l.s.Concurrency {
				m, phase, entries, ok := l.next()
				if !ok {
					break
				}
				running++
				index := l.nextIndex
				l.nextIndex++
				tag, err := json.Marshal(store.LadderTag{Phase: phase, Entries: entries})
				if err != nil {
					return err
				}
				if err := l.session.Start(ctx, index, m, tag); err != nil {
					return err
				}
			}
		}
		if stopping && running == 0 {
			break
		}
		select {
		case end := <-l.session.Ended():
			e, err := endedOf(end)
			if err != nil {
				l.log.Error().Err(err).Msg("dropping an outcome")
				_ = end.Ack(ctx)
				continue
			}
			if e.ours {
				running--
			}
			if err := l.ended(ctx, e, progress); err != nil {
				return err // the session's Close aborts the games still playing on the referee
			}
			if err := end.Ack(context.WithoutCancel(ctx)); err != nil {
				l.log.Warn().Err(err).Str("game_id", end.GameID).Msg("acknowledging an outcome")
			}
		case <-tick.C:
		case <-closing.C:
		case <-drain:
			drain, stopping, drained = nil, true, true
		case <-ctx.Done():
			// Games on the referee are aborted when the session closes; games on a work
			// queue go on, and their outcomes wait for the next run.
			return ctx.Err()
		}
	}
	if drained {
		return fmt.Errorf("ladder %d: %w", l.id, referee.ErrDrained)
	}
	return nil
}

// refresh adopts the statuses set in the store by others since the ladder last looked
// (arena course disable, enable, remove), at most once a tick.
func (l *ladderRun) refresh(ctx context.Context) error {
	if time.Since(l.refreshed) < ladderTick {
		return nil
	}
	l.refreshed = time.Now()
	entries, err := l.d.db.LadderEntries(ctx, l.id)
	if err != nil {
		return err
	}
	changed := false
	for _, stored := range entries {
		e, ok := l.entries[stored.ID]
		if !ok || e.Status == stored.Status && e.Reason == stored.Reason {
			continue
		}
		l.log.Info().Str("player", e.Player).Str("version", e.Version).Str("status", stored.Status).Str("reason", stored.Reason).Msg("entry changed in the store")
		e.Status, e.Reason, e.Updated = stored.Status, stored.Reason, stored.Updated
		changed = true
	}
	if changed {
		l.rate()
	}
	return nil
}

// barred reports whether a player may not enter again: the teacher disabled its
// current entry.
func (l *ladderRun) barred(player string) bool {
	cur, ok := l.current[player]
	return ok && l.entries[cur].Status == store.EntryDisabled
}

// syncEntrants makes an entry of every present player that plays the ladder's game, and a
// new entry of a player that came back with a new version, retiring the old one.
func (l *ladderRun) syncEntrants(ctx context.Context) error {
	for _, p := range l.d.ref.Players() {
		if !p.Connected || p.Name == l.s.ValidationOpponent || !playsGame(p.Games, l.g) {
			continue
		}
		if len(l.s.Players) > 0 && !slices.Contains(l.s.Players, p.Name) || l.barred(p.Name) {
			continue
		}
		cur, known := l.current[p.Name]
		if known && l.entries[cur].Version == p.Version {
			continue
		}
		if l.busy[p.Name] {
			continue // its game goes on; the new version enters after it
		}
		if known {
			if e := l.entries[cur]; e.Status == store.EntryValidating || e.Status == store.EntryActive {
				if err := l.setStatus(ctx, e, store.EntryRetired, "replaced by version "+p.Version); err != nil {
					return err
				}
			}
		}
		if err := l.d.db.EnsurePlayer(ctx, store.Player{Name: p.Name, Agent: p.Agent, Version: p.Version}); err != nil {
			return err
		}
		var id int64
		for _, e := range l.entries {
			if e.Player == p.Name && e.Version == p.Version {
				id = e.ID // an earlier version again: its entry comes back as it was
			}
		}
		if id == 0 {
			e := store.LadderEntry{Tournament: l.id, Player: p.Name, Version: p.Version, Status: store.EntryValidating}
			var err error
			if id, err = l.d.db.AddLadderEntry(ctx, e); err != nil {
				return err
			}
			e.ID, e.Joined, e.Updated = id, time.Now(), time.Now()
			l.entries[id] = &e
			l.log.Info().Str("player", p.Name).Str("version", p.Version).Int64("entry", id).Msg("new entry")
		} else if e := l.entries[id]; e.Status == store.EntryRetired {
			if err := l.setStatus(ctx, e, store.EntryActive, ""); err != nil {
				return err
			}
		}
		l.current[p.Name] = id
	}
	return nil
}

// setStatus stores and remembers an entry's status.
func (l *ladderRun) setStatus(ctx context.Context, e *store.LadderEntry, status, reason string) error {
	if err := l.d.db.SetLadderEntry(ctx, e.ID, status, reason); err != nil {
		return err
	}
	e.Status, e.Reason, e.Updated = status, reason, time.Now()
	l.log.Info().Str("player", e.Player).Str("version", e.Version).Str("status", status).Str("reason", reason).Msg("entry")
	return nil
}

// playable reports whether entry e can start a game now: it is its player's current
// entry, the player is present and idle, and back if it went away (seen, the time of
// its last hello, by player).
func (l *ladderRun) playable(e *store.LadderEntry, seen map[string]time.Time) bool {
	if l.current[e.Player] != e.ID || l.busy[e.Player] || !l.d.ref.Connected(e.Player) {
		return false
	}
	if left, ok := l.away[e.Player]; ok {
		if !seen[e.Player].After(left) {
			return false
		}
		delete(l.away, e.Player)
	}
	return true
}

// lastSeen is the time of every player's last hello.
func (l *ladderRun) lastSeen() map[string]time.Time {
	seen := map[string]time.Time{}
	for _, p := range l.d.ref.Players() {
		seen[p.Name] = p.LastSeen
	}
	return seen
}

// next chooses the next game: a validation game for an entry that needs one, else the
// matchmaker's pair among the active entries.
func (l *ladderRun) next() (referee.Match, string, []int64, bool) {
	ids := make([]int64, 0, len(l.entries))
	for id := range l.entries {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	seen := l.lastSeen()
	now := time.Now()
	for _, id := range ids {
		e := l.entries[id]
		if e.Status != store.EntryValidating || !l.playable(e, seen) || l.validation(e).Played+l.inValid[id] >= l.s.ValidationGames {
			continue
		}
		players, entries := []string{e.Player, l.s.ValidationOpponent}, []int64{id, 0}
		if (l.validation(e).Played+l.inValid[id])%2 == 1 {
			players, entries = []string{l.s.ValidationOpponent, e.Player}, []int64{0, id}
		}
		l.inValid[id]++
		l.busy[e.Player] = true
		return l.match(players, nil), store.PhaseValidation, entries, true
	}
	rows := map[int64]LeaderRow{}
	for _, r := range l.board {
		rows[r.Entry] = r
	}
	var cs []tournament.Contender
	for _, id := range ids {
		e := l.entries[id]
		if e.Status != store.EntryActive || !l.playable(e, seen) || !tournament.Paced(l.started[id], l.s.GamesPerHour, now) {
			continue
		}
		r := rows[id]
		c := tournament.Contender{Entry: id, Rating: r.Rating, Error: math.Inf(1), Games: r.Games, Whites: l.firsts(id)}
		if r.Error >= 0 {
			c.Error = r.Error / ErrorBar
		}
		cs = append(cs, c)
	}
	a, b, ok := tournament.PickPair(cs, l.pairGames, l.rng)
	if !ok {
		return referee.Match{}, "", nil, false
	}
	ea, eb := l.entries[a], l.entries[b]
	l.busy[ea.Player], l.busy[eb.Player] = true, true
	l.started[a], l.started[b] = now, now
	return l.match([]string{ea.Player, eb.Player}, nil), store.PhaseLadder, []int64{a, b}, true
}

// match is a game of the ladder between players, by seat, at the next index.
func (l *ladderRun) match(players []string, opening []string) referee.Match {
	return referee.Match{
		GameID: refereeID(l.id) + "-" + strconv.Itoa(l.nextIndex), Game: l.g, Players: players,
		TC: l.tc, MaxPlies: l.s.MaxPlies, Margin: l.s.Margin.Duration, Opening: opening, Ponder: l.s.Ponder,
	}
}

// validation counts entry e's validation games of its current validation.
func (l *ladderRun) validation(e *store.LadderEntry) Validation { return ValidationOf(l.games, e) }

// Validation is how far an entry has got in its validation.
type Validation struct {
	// Played counts the games towards passing: all but those it lost by going away
	// (disconnected, absent, nobody listening) or on time, which it plays again.
	Played int
	// TimeLosses counts the games it lost on time: strikes.
	TimeLosses int
}

// ValidationSlack is how long before an entry's validation began (e.Updated) a game may
// seem to have started and still count: a game played by a worker on another machine
// has that machine's clock. A teacher enables a failed entry again minutes after its
// last game, not seconds.
const ValidationSlack = 5 * time.Second

// ValidationOf counts entry e's validation games among games, those that started since
// its current validation did (e.Updated, less ValidationSlack: an entry the teacher
// enabled again validates afresh), and those whose start is unknown.
func ValidationOf(games []store.LadderGame, e *store.LadderEntry) Validation {
	var v Validation
	since := e.Updated.Add(-ValidationSlack)
	for _, g := range games {
		if g.Phase != store.PhaseValidation || !g.Started.IsZero() && g.Started.Before(since) {
			continue
		}
		for seat, id := range g.Entries {
			if id != e.ID {
				continue
			}
			lost := seat < len(g.Scores) && g.Scores[seat] == 0
			switch {
			case lost && g.Reason == protocol.ReasonTimeForfeit:
				v.TimeLosses++
			case lost && tournament.WentAway(g.Reason):
			default:
				v.Played++
			}
		}
	}
	return v
}

// firsts counts the rated games entry id played in the first seat.
func (l *ladderRun) firsts(id int64) int {
	n := 0
	for _, g := range l.games {
		if g.Phase != store.PhaseValidation && len(g.Entries) > 0 && g.Entries[0] == id {
			n++
		}
	}
	return n
}

// pairGames counts the rated games between entries a and b.
func (l *ladderRun) pairGames(a, b int64) int {
	n := 0
	for _, g := range l.games {
		if g.Phase != store.PhaseValidation && len(g.Entries) == 2 &&
			(g.Entries[0] == a && g.Entries[1] == b || g.Entries[0] == b && g.Entries[1] == a) {
			n++
		}
	}
	return n
}

// ended records a game that ended and updates the entries it decides.
func (l *ladderRun) ended(ctx context.Context, e ladderEnded, progress ProgressFunc) error {
	for seat, p := range e.res.Players {
		if e.ours && (p != l.s.ValidationOpponent || e.entries[seat] != 0) {
			delete(l.busy, p)
		}
	}
	if e.ours && e.phase == store.PhaseValidation {
		for _, id := range e.entries {
			if id != 0 {
				l.inValid[id]--
			}
		}
	}
	if e.err != nil {
		// Aborted or void: nobody's result, and the ladder plans anew. A game is played
		// again only if the matchmaker chooses it again.
		l.log.Warn().Err(e.err).Str("game", e.res.GameID).Msg("ladder game without a result")
		if ctx.Err() == nil && !errors.Is(e.err, referee.ErrVoided) && !errors.Is(e.err, context.Canceled) {
			return fmt.Errorf("ladder %d: %w", l.id, e.err)
		}
		return nil
	}
	tag := &store.LadderTag{Phase: e.phase, Entries: e.entries}
	if err := l.d.record(ctx, l.id, l.g.Name(), l.elo, tournament.Pairing{Index: e.index, Players: e.res.Players}, e.res, tag); errors.Is(err, store.ErrDuplicate) {
		return nil // a second outcome of a game recorded already (work queue)
	} else if err != nil {
		return err
	}
	l.games = append(l.games, store.LadderGame{
		GameSummary: store.GameSummary{Index: e.index, Players: e.res.Players, Result: e.res.Result, Reason: e.res.Reason,
			Scores: e.res.Scores, Started: e.res.Started, Ended: e.res.Ended},
		LadderTag: *tag,
	})
	for seat, p := range e.res.Players {
		if e.entries[seat] != 0 && tournament.WentAway(e.res.Reason) && e.res.Scores[seat] == 0 {
			l.away[p] = time.Now()
		}
	}
	if e.phase == store.PhaseValidation {
		// A status the teacher set meanwhile wins over this game's verdict.
		l.refreshed = time.Time{}
		if err := l.refresh(ctx); err != nil {
			return err
		}
		for seat, id := range e.entries {
			if id == 0 {
				continue
			}
			ent := l.entries[id]
			v := l.validation(ent)
			switch {
			case ent.Status != store.EntryValidating:
			case e.res.Forfeit == seat && tournament.FailsValidation(e.res.Reason, v.TimeLosses, l.s.TimeStrikes):
				reason := e.res.Reason
				if e.res.Detail != "" {
					reason += ": " + e.res.Detail
				}
				if e.res.Reason == protocol.ReasonTimeForfeit {
					reason += fmt.Sprintf(" (validation game %d of %d lost on time)", v.TimeLosses, l.s.TimeStrikes)
				}
				if err := l.setStatus(ctx, ent, store.EntryFailed, reason); err != nil {
					return err
				}
			case v.Played >= l.s.ValidationGames:
				if err := l.setStatus(ctx, ent, store.EntryActive, ""); err != nil {
					return err
				}
			}
		}
	}
	l.rate()
	if progress != nil {
		progress(len(l.games), 0, e.res)
	}
	return nil
}

// chooseFinalists takes the top entries by rating into the final phase, builds its
// round-robin, and stores it, so that a restart plays the same final.
func (l *ladderRun) chooseFinalists(ctx context.Context) (store.LadderState, error) {
	l.rate()
	var finalists []int64
	var names []string
	for _, r := range l.board {
		e := l.entries[r.Entry]
		if r.Rank == 0 || e.Status != store.EntryActive || l.current[e.Player] != e.ID || slices.Contains(names, e.Player) {
			continue
		}
		finalists = append(finalists, e.ID)
		names = append(names, e.Player)
		if len(finalists) == l.s.FinalTop {
			break
		}
	}
	data := ladderData{Final: finalists}
	state, err := l.d.db.LadderState(ctx, l.id)
	if err != nil {
		return state, err
	}
	var kept ladderData
	if err := json.Unmarshal(state.Data, &kept); err != nil {
		return state, fmt.Errorf("ladder %d: stored state: %w", l.id, err)
	}
	data.Openings = kept.Openings
	schedule, err := tournament.FinalSchedule(l.s.settings(data.Openings), names, l.nextIndex)
	if err != nil {
		return state, err
	}
	for _, p := range schedule {
		data.Schedule = append(data.Schedule, store.ScheduledGame{
			Index: p.Index, Round: p.Round, Players: p.Players, Opening: p.Opening, OpeningIndex: p.OpeningIndex,
		})
	}
	b, err := json.Marshal(data)
	if err != nil {
		return state, err
	}
	state = store.LadderState{Tournament: l.id, Phase: store.LadderFinal, Data: b}
	if err := l.d.db.SetLadderState(ctx, state); err != nil {
		return state, err
	}
	l.log.Info().Strs("finalists", names).Int("games", len(data.Schedule)).Msg("final phase")
	return state, nil
}

// final plays the final phase's round-robin, the games not yet recorded.
func (l *ladderRun) final(ctx context.Context, state store.LadderState, drain <-chan struct{}, progress ProgressFunc) error {
	var data ladderData
	if err := json.Unmarshal(state.Data, &data); err != nil {
		return fmt.Errorf("ladder %d: stored state: %w", l.id, err)
	}
	entryOf := map[string]int64{}
	for _, id := range data.Final {
		entryOf[l.entries[id].Player] = id
	}
	done := map[int]bool{}
	for _, g := range l.games {
		if g.Phase == store.PhaseFinal {
			done[g.Index] = true
		}
	}
	schedule := pairingsOf(data.Schedule)
	if len(schedule) == 0 {
		return nil
	}
	// Outcomes of open-phase games that an earlier run put on the work queue.
	other := func(ctx context.Context, end Ended) error {
		e, err := endedOf(end)
		if err == nil {
			err = l.ended(ctx, e, progress)
		}
		if err != nil {
			l.log.Error().Err(err).Msg("an outcome of the open phase")
		}
		return nil
	}
	return l.session.Play(ctx, referee.Tournament{
		ID: refereeID(l.id), Game: l.g, Schedule: schedule, TC: l.tc, MaxPlies: l.s.MaxPlies,
		Concurrency: l.s.Concurrency, Wait: l.s.Wait.Duration, Drain: drain, Margin: l.s.Margin.Duration,
		Ponder: l.s.Ponder, Skip: func(index int) bool { return done[index] },
	}, func(ctx context.Context, games []Played) error {
		recs := make([]toRecord, len(games))
		for i, pl := range games {
			entries := make([]int64, len(pl.Result.Players))
			for seat, n := range pl.Result.Players {
				entries[seat] = entryOf[n]
			}
			recs[i] = toRecord{p: pl.Pairing, res: pl.Result, tag: &store.LadderTag{Phase: store.PhaseFinal, Entries: entries}}
		}
		written, err := l.d.recordAll(ctx, l.id, l.g.Name(), l.elo, recs)
		for i, ok := range written {
			if !ok {
				continue
			}
			p, res := recs[i].p, recs[i].res
			l.games = append(l.games, store.LadderGame{
				GameSummary: store.GameSummary{Index: p.Index, Players: res.Players, Result: res.Result, Reason: res.Reason, Scores: res.Scores},
				LadderTag:   *recs[i].tag,
			})
			l.rate()
			if progress != nil {
				progress(len(l.games), 0, res)
			}
		}
		return err
	}, other)
}

// freeze decides the final standings: the finalists by their points in the final phase
// (ties by rating over all rated games), then every other ranked entry by rating. They
// are stored and never change again.
func (l *ladderRun) freeze(ctx context.Context, state store.LadderState) error {
	var data ladderData
	if err := json.Unmarshal(state.Data, &data); err != nil {
		return fmt.Errorf("ladder %d: stored state: %w", l.id, err)
	}
	l.rate()
	rows := map[int64]LeaderRow{}
	for _, r := range l.board {
		rows[r.Entry] = r
	}
	finalists := slices.Clone(data.Final)
	sort.SliceStable(finalists, func(i, j int) bool {
		a, b := rows[finalists[i]], rows[finalists[j]]
		if a.FinalPoints != b.FinalPoints {
			return a.FinalPoints > b.FinalPoints
		}
		return a.Rating > b.Rating
	})
	data.Standings = finalists
	for _, r := range l.board {
		if r.Rank > 0 && !slices.Contains(finalists, r.Entry) {
			data.Standings = append(data.Standings, r.Entry)
		}
	}
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	if err := l.d.db.SetLadderState(ctx, store.LadderState{Tournament: l.id, Phase: store.LadderFinished, Data: b}); err != nil {
		return err
	}
	l.log.Info().Int("ranked", len(data.Standings)).Msg("final standings frozen")
	return nil
}
