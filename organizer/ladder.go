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
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/referee/workqueue"
	"github.com/arenaref/arena/store"
)

// Ladder defaults, for the settings a ladder file leaves out.
const (
	DefaultValidationGames    = 2
	DefaultValidationOpponent = "random"
	DefaultFinalTop           = 8
	DefaultFinalRounds        = 2
)

// ladderTick is how often a ladder looks for players that arrived or left between games.
const ladderTick = 250 * time.Millisecond

// failsValidation reports whether a fault of an entry's own in a validation game fails
// the entry: the engine is broken (it sent garbage, an illegal move, crashed, or did not
// answer in time). A player that went away (disconnected, absent) is not failed; its
// validation goes on when it is back.
func failsValidation(reason string) bool {
	switch reason {
	case protocol.ReasonProtocol, protocol.ReasonIllegalMove, protocol.ReasonCrashed, protocol.ReasonTimeForfeit:
		return true
	}
	return false
}

// LadderDeadline is the ladder's deadline. Create turns a relative deadline ("90m") into
// an absolute one, so a stored ladder always has a time.
func (s Spec) LadderDeadline() (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s.Deadline)
	if err != nil {
		return time.Time{}, fmt.Errorf("deadline: %q is not a time such as 2026-12-18T17:00:00Z", s.Deadline)
	}
	return t, nil
}

// ladderDefaults fills in the ladder settings left out.
func (s *Spec) ladderDefaults() {
	if s.ValidationGames == 0 {
		s.ValidationGames = DefaultValidationGames
	}
	if s.ValidationOpponent == "" {
		s.ValidationOpponent = DefaultValidationOpponent
	}
	if s.FinalTop == 0 {
		s.FinalTop = DefaultFinalTop
	}
	if s.FinalRounds == 0 {
		s.FinalRounds = DefaultFinalRounds
	}
}

// compileLadder checks a ladder: its players are the roster (empty: anyone who plays the
// game may enter), built-in agents among them play as entrants; the validation opponent
// is a built-in agent outside the roster.
func (s Spec) compileLadder(g game.Game, openingsText string, external bool) (Plan, error) {
	s.ladderDefaults()
	if s.Deadline == "" {
		return Plan{}, fmt.Errorf("deadline: a ladder needs one: a time (2026-12-18T17:00:00Z) or a duration from its start (90m)")
	}
	if _, err := time.ParseDuration(s.Deadline); err != nil {
		if _, err := s.LadderDeadline(); err != nil {
			return Plan{}, fmt.Errorf("deadline: %q is neither a time such as 2026-12-18T17:00:00Z nor a duration such as 90m", s.Deadline)
		}
	}
	if len(s.Seeds) > 0 {
		return Plan{}, fmt.Errorf("seeds: only a gauntlet has seeds")
	}
	switch {
	case s.ValidationGames < 1 || s.ValidationGames > 20:
		return Plan{}, fmt.Errorf("validation_games: between 1 and 20, got %d", s.ValidationGames)
	case s.FinalTop < 2 || s.FinalTop > 64:
		return Plan{}, fmt.Errorf("final_top: between 2 and 64, got %d", s.FinalTop)
	case s.FinalRounds < 1 || s.FinalRounds > 20:
		return Plan{}, fmt.Errorf("final_rounds: between 1 and 20, got %d", s.FinalRounds)
	case slices.Contains(s.Players, s.ValidationOpponent):
		return Plan{}, fmt.Errorf("validation_opponent: %q is also an entrant", s.ValidationOpponent)
	}
	as, ok := s.Builtin(s.ValidationOpponent)
	if !ok {
		return Plan{}, fmt.Errorf("validation_opponent: %q is not a built-in agent", s.ValidationOpponent)
	}
	if !playsGame(agent.Games(as.Agent), g) {
		return Plan{}, fmt.Errorf("validation_opponent: agent %q does not play %s", as.Agent, g.Name())
	}
	withValidator := s
	withValidator.Players = append(slices.Clone(s.Players), s.ValidationOpponent)
	if _, err := withValidator.checkPlayers(g, external); err != nil {
		return Plan{}, err
	}
	if !external {
		return Plan{}, fmt.Errorf("format: a ladder's entrants join over the bus: it needs a NATS server others can reach (--nats URL, or arena referee)")
	}
	tc, err := s.checkSettings()
	if err != nil {
		return Plan{}, err
	}
	switch s.OpeningOrder {
	case "sequential", "", "random":
	default:
		return Plan{}, fmt.Errorf("opening_order: %q is not sequential or random", s.OpeningOrder)
	}
	p := Plan{Spec: s, game: g, tc: tc}
	if s.Openings != "" {
		ops, err := opening.Parse(strings.NewReader(openingsText), g)
		if err != nil {
			return Plan{}, fmt.Errorf("openings %s: %v", s.Openings, err)
		}
		for _, o := range ops {
			p.openings = append(p.openings, o.Moves)
		}
	}
	return p, nil
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
	feed      *workqueue.Feed // the ladder's outcomes, when its games are played by referee workers
	inValid   map[int64]int   // validation games running, by entry
	board     []LeaderRow     // ratings as of the last recorded game
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

// endedOf is the ladderEnded of a work queue outcome; its job's tag is the game's
// ladder tag.
func endedOf(dlv workqueue.Delivery, ours bool) (ladderEnded, error) {
	var tag store.LadderTag
	if err := json.Unmarshal(dlv.Job.Tag, &tag); err != nil || len(tag.Entries) != len(dlv.Job.Players) {
		return ladderEnded{}, fmt.Errorf("game %s: a ladder job without its tag", dlv.Job.GameID())
	}
	e := ladderEnded{phase: tag.Phase, entries: tag.Entries, index: dlv.Job.Index, res: dlv.Result, ours: ours}
	if dlv.Error != "" {
		e.err = fmt.Errorf("%w: %s", referee.ErrInvalidMatch, dlv.Error)
	}
	return e, nil
}

// runLadder plays ladder id: the open phase until the deadline, then the final phase,
// then it freezes the final standings. It resumes wherever a stopped ladder was.
func (d *Director) runLadder(ctx context.Context, t store.Tournament, s Spec, drain <-chan struct{}, progress ProgressFunc) error {
	s.ladderDefaults()
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
	}
	if d.queue != nil {
		if l.feed, err = d.queue.Open(refereeID(t.ID)); err != nil {
			return err
		}
		defer l.feed.Close()
	}
	if err := l.load(ctx); err != nil {
		return err
	}
	if err := d.db.SetTournamentStatus(ctx, t.ID, store.StatusRunning); err != nil {
		return err
	}
	// The ladder's own players: the validation opponent and the built-in entrants.
	release, err := d.startBuiltins(ctx, s, append(slices.Clone(s.Players), s.ValidationOpponent))
	if err != nil {
		return err
	}
	defer release()
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
	if l.feed != nil {
		// Games an earlier run put on the queue keep their indices.
		reserved, err := l.feed.Reserved(ctx)
		if err != nil {
			return err
		}
		l.nextIndex = max(l.nextIndex, reserved+1)
	}
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
	results := make(chan ladderEnded)
	gameCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	running := 0
	mine := map[int]bool{} // games this run put on the work queue, outcome not yet in
	var outcomes <-chan workqueue.Delivery
	if l.feed != nil {
		outcomes = l.feed.Outcomes()
	}
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
				if l.feed != nil {
					tag, err := json.Marshal(store.LadderTag{Phase: phase, Entries: entries})
					if err != nil {
						return err
					}
					if err := l.feed.Put(ctx, workqueue.JobOf(refereeID(l.id), index, m, tag)); err != nil {
						return err
					}
					mine[index] = true
					continue
				}
				go func() {
					res, err := l.d.ref.Play(gameCtx, m)
					results <- ladderEnded{phase: phase, entries: entries, index: index, res: res, err: err, ours: true}
				}()
			}
		}
		if stopping && running == 0 {
			break
		}
		select {
		case e := <-results:
			running--
			if err := l.ended(ctx, e, progress); err != nil {
				cancel()
				for ; running > 0; running-- {
					<-results
				}
				return err
			}
		case dlv := <-outcomes:
			e, err := endedOf(dlv, mine[dlv.Job.Index])
			if err != nil {
				l.log.Error().Err(err).Msg("dropping an outcome")
				_ = dlv.Ack(ctx)
				continue
			}
			if e.ours {
				delete(mine, e.index)
				running--
			}
			if err := l.ended(ctx, e, progress); err != nil {
				return err
			}
			if err := dlv.Ack(context.WithoutCancel(ctx)); err != nil {
				l.log.Warn().Err(err).Str("game_id", dlv.Job.GameID()).Msg("acknowledging an outcome")
			}
		case <-tick.C:
		case <-closing.C:
		case <-drain:
			drain, stopping, drained = nil, true, true
		case <-ctx.Done():
			cancel()
			if l.feed != nil {
				return ctx.Err() // the queued games go on; their outcomes wait for the next run
			}
			for ; running > 0; running-- {
				<-results
			}
			return ctx.Err()
		}
	}
	if drained {
		return fmt.Errorf("ladder %d: %w", l.id, referee.ErrDrained)
	}
	return nil
}

// syncEntrants makes an entry of every present player that plays the ladder's game, and a
// new entry of a player that came back with a new version, retiring the old one.
func (l *ladderRun) syncEntrants(ctx context.Context) error {
	for _, p := range l.d.ref.Players() {
		if !p.Connected || p.Name == l.s.ValidationOpponent || !playsGame(p.Games, l.g) {
			continue
		}
		if len(l.s.Players) > 0 && !slices.Contains(l.s.Players, p.Name) {
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
// entry, the player is present and idle.
func (l *ladderRun) playable(e *store.LadderEntry) bool {
	return l.current[e.Player] == e.ID && !l.busy[e.Player] && l.d.ref.Connected(e.Player)
}

// next chooses the next game: a validation game for an entry that needs one, else the
// matchmaker's pair among the active entries.
func (l *ladderRun) next() (referee.Match, string, []int64, bool) {
	ids := make([]int64, 0, len(l.entries))
	for id := range l.entries {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	played := l.validationPlayed()
	for _, id := range ids {
		e := l.entries[id]
		if e.Status != store.EntryValidating || !l.playable(e) || played[id]+l.inValid[id] >= l.s.ValidationGames {
			continue
		}
		players, entries := []string{e.Player, l.s.ValidationOpponent}, []int64{id, 0}
		if (played[id]+l.inValid[id])%2 == 1 {
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
	var cs []Contender
	for _, id := range ids {
		e := l.entries[id]
		if e.Status != store.EntryActive || !l.playable(e) {
			continue
		}
		r := rows[id]
		c := Contender{Entry: id, Rating: r.Rating, Error: math.Inf(1), Games: r.Games, Whites: l.firsts(id)}
		if r.Error >= 0 {
			c.Error = r.Error / ErrorBar
		}
		cs = append(cs, c)
	}
	a, b, ok := PickPair(cs, l.pairGames, l.rng)
	if !ok {
		return referee.Match{}, "", nil, false
	}
	ea, eb := l.entries[a], l.entries[b]
	l.busy[ea.Player], l.busy[eb.Player] = true, true
	return l.match([]string{ea.Player, eb.Player}, nil), store.PhaseLadder, []int64{a, b}, true
}

// match is a game of the ladder between players, by seat, at the next index.
func (l *ladderRun) match(players []string, opening []string) referee.Match {
	return referee.Match{
		GameID: refereeID(l.id) + "-" + strconv.Itoa(l.nextIndex), Game: l.g, Players: players,
		TC: l.tc, MaxPlies: l.s.MaxPlies, Margin: l.s.Margin.Duration, Opening: opening,
	}
}

// validationPlayed counts each entry's validation games that count towards passing: all
// but those it lost by going away (disconnected, absent, nobody listening), which it
// plays again when it is back.
func (l *ladderRun) validationPlayed() map[int64]int {
	n := map[int64]int{}
	for _, g := range l.games {
		if g.Phase != store.PhaseValidation {
			continue
		}
		for seat, id := range g.Entries {
			if id != 0 && !(wentAway(g.Reason) && seat < len(g.Scores) && g.Scores[seat] == 0) {
				n[id]++
			}
		}
	}
	return n
}

// wentAway reports whether a game was lost by a player that was not there.
func wentAway(reason string) bool {
	switch reason {
	case protocol.ReasonDisconnected, protocol.ReasonAbsent, protocol.ReasonNoResponders:
		return true
	}
	return false
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
	if err := l.d.record(ctx, l.id, l.g.Name(), l.elo, referee.Pairing{Index: e.index, Players: e.res.Players}, e.res, tag); errors.Is(err, store.ErrDuplicate) {
		return nil // a second outcome of a game recorded already (work queue)
	} else if err != nil {
		return err
	}
	l.games = append(l.games, store.LadderGame{
		GameSummary: store.GameSummary{Index: e.index, Players: e.res.Players, Result: e.res.Result, Reason: e.res.Reason, Scores: e.res.Scores},
		LadderTag:   *tag,
	})
	if e.phase == store.PhaseValidation {
		for seat, id := range e.entries {
			if id == 0 {
				continue
			}
			ent := l.entries[id]
			switch {
			case e.res.Forfeit == seat && failsValidation(e.res.Reason):
				reason := e.res.Reason
				if e.res.Detail != "" {
					reason += ": " + e.res.Detail
				}
				if err := l.setStatus(ctx, ent, store.EntryFailed, reason); err != nil {
					return err
				}
			case ent.Status == store.EntryValidating && l.validationPlayed()[id] >= l.s.ValidationGames:
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
	if len(names) >= 2 {
		schedule, err := referee.RoundRobin(names, l.s.FinalRounds)
		if err != nil {
			return state, err
		}
		if len(data.Openings) > 0 {
			schedule = referee.AssignOpenings(schedule, data.Openings, l.s.OpeningOrder == "random", l.s.Seed)
		}
		for _, p := range schedule {
			data.Schedule = append(data.Schedule, store.ScheduledGame{
				Index: l.nextIndex + p.Index - 1, Round: p.Round, Players: p.Players, Opening: p.Opening, OpeningIndex: p.OpeningIndex,
			})
		}
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
	schedule := make([]referee.Pairing, len(data.Schedule))
	for i, sg := range data.Schedule {
		schedule[i] = referee.Pairing{Index: sg.Index, Round: sg.Round, Players: sg.Players, Opening: sg.Opening, OpeningIndex: sg.OpeningIndex}
	}
	if len(schedule) == 0 {
		return nil
	}
	// Outcomes of open-phase games that an earlier run put on the work queue.
	other := func(ctx context.Context, dlv workqueue.Delivery) error {
		e, err := endedOf(dlv, false)
		if err == nil {
			err = l.ended(ctx, e, progress)
		}
		if err != nil {
			l.log.Error().Err(err).Msg("an outcome of the open phase")
		}
		return dlv.Ack(ctx)
	}
	return l.d.runSchedule(ctx, referee.Tournament{
		ID: refereeID(l.id), Game: l.g, Schedule: schedule, TC: l.tc, MaxPlies: l.s.MaxPlies,
		Concurrency: l.s.Concurrency, Wait: l.s.Wait.Duration, Drain: drain, Margin: l.s.Margin.Duration,
		Skip: func(index int) bool { return done[index] },
	}, l.feed, other, func(ctx context.Context, p referee.Pairing, res referee.Result) error {
		entries := make([]int64, len(res.Players))
		for seat, n := range res.Players {
			entries[seat] = entryOf[n]
		}
		tag := &store.LadderTag{Phase: store.PhaseFinal, Entries: entries}
		if err := l.d.record(ctx, l.id, l.g.Name(), l.elo, p, res, tag); err != nil {
			return err
		}
		l.games = append(l.games, store.LadderGame{
			GameSummary: store.GameSummary{Index: p.Index, Players: res.Players, Result: res.Result, Reason: res.Reason, Scores: res.Scores},
			LadderTag:   *tag,
		})
		l.rate()
		if progress != nil {
			progress(len(l.games), 0, res)
		}
		return nil
	})
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
