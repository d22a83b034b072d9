package organizer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/players/player"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/referee/workqueue"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/tournament"
)

// Director creates and plays tournaments: it stores a checked Spec with its schedule,
// plays the games still missing through the referee, and records every result with its Elo
// changes as the game ends. The tournament command and the referee daemon share it.
type Director struct {
	db       store.Store
	ref      *referee.Referee
	pool     *builtinPool
	exec     Executor
	log      zerolog.Logger
	programs bool // Config.Programs

	// eloMu guards elo, the current rating of every player by game, which several
	// tournaments of one daemon update in turn. It mirrors the store: loaded from it, and
	// changed only after a game and its rating changes are committed.
	eloMu sync.Mutex
	elo   map[string]map[string]float64

	overMu sync.Mutex
	over   map[int64]Overload // by tournament, for this process's runs
}

// Overload is what a tournament's runs in this process lost to an overloaded machine:
// the time forfeits the referee's own lateness explained, whose games were voided and
// played again (referee.ErrOverloaded), the referee's worst lateness during its games,
// its transport margin, and the largest share of a game's time its process waited for a
// core while busy (referee.Result.Waited: what its built-in players' searches lost).
type Overload struct {
	Voided   int
	Lateness time.Duration
	Margin   time.Duration
	Waiting  float64
}

// OverloadWaiting is the share of a game's time the referee's process may wait for a
// core before the machine counts as overloaded: its built-in players then search with a
// quarter less CPU than they were given.
const OverloadWaiting = 0.25

// Overloaded reports whether the machine was overloaded: a time forfeit was voided, the
// referee itself ran later than its transport margin (by which a reply that late would
// have been), or its process waited for a core OverloadWaiting of a game's time.
func (o Overload) Overloaded() bool {
	return o.Voided > 0 || o.Margin > 0 && o.Lateness > o.Margin || o.Waiting >= OverloadWaiting
}

// Overload returns what tournament id lost to an overloaded machine in this process.
func (d *Director) Overload(id int64) Overload {
	d.overMu.Lock()
	defer d.overMu.Unlock()
	return d.over[id]
}

// voided notes a game of tournament id voided because the machine was overloaded.
func (d *Director) voided(id int64, res referee.Result) {
	d.overMu.Lock()
	defer d.overMu.Unlock()
	o := d.over[id]
	o.Voided++
	o.Lateness = max(o.Lateness, res.Lateness)
	d.over[id] = o
}

// observe notes how late the referee ran in a game of tournament id, whose margin is
// margin.
func (d *Director) observe(id int64, margin time.Duration, res referee.Result) {
	d.overMu.Lock()
	defer d.overMu.Unlock()
	o := d.over[id]
	o.Lateness, o.Margin = max(o.Lateness, res.Lateness), margin
	if span := res.Ended.Sub(res.Started); span > 0 {
		o.Waiting = max(o.Waiting, float64(res.Waited)/float64(span))
	}
	d.over[id] = o
}

// Config is what a Director works with.
type Config struct {
	Store   store.Store      // where tournaments, games and ratings are kept
	Referee *referee.Referee // plays the games; its lobby must be started
	// NATSURL and NATSOptions are how built-in players reach the bus the referee is on
	// (NATSOptions carries their credentials on a secured bus).
	NATSURL     string
	NATSOptions []nats.Option
	Version     string // what built-in players report in their hellos
	// Executor plays the games; nil means on Referee (RefereeExecutor), or on Queue's
	// referee workers (QueueExecutor) when Queue is set.
	Executor Executor
	Queue    *workqueue.Owner
	Log      zerolog.Logger
	// Programs lets the tournaments start programs on this machine: engine agents, named
	// with their commands (Host.Programs). Only the commands the machine's user runs
	// here set it (arena tournament, arena match), never the referee daemon, which plays
	// tournaments that came over the network.
	Programs bool
}

// New returns a Director over cfg's store and referee. Close stops the built-in players it
// started.
func New(cfg Config) *Director {
	exec := cfg.Executor
	switch {
	case exec != nil:
	case cfg.Queue != nil:
		exec = QueueExecutor(cfg.Queue, cfg.Log)
		cfg.Queue.DropFinished(func(tournament string) bool { return over(cfg.Store, tournament) })
	default:
		exec = RefereeExecutor(cfg.Referee)
	}
	return &Director{
		db: cfg.Store, ref: cfg.Referee, exec: exec, log: cfg.Log, elo: map[string]map[string]float64{}, over: map[int64]Overload{},
		pool: newBuiltinPool(cfg.NATSURL, cfg.NATSOptions, cfg.Version, cfg.Programs, cfg.Log), programs: cfg.Programs,
	}
}

// Close stops every built-in player the Director runs, whichever tournament holds it.
func (d *Director) Close() { d.pool.stopAll() }

// Create checks s and stores it with its schedule; it returns the tournament id and the
// number of games scheduled.
func (d *Director) Create(ctx context.Context, s Spec, openingsText string, external bool) (int64, int, error) {
	if s.Seed == 0 {
		s.Seed = time.Now().UnixNano() & math.MaxInt32
	}
	r, ownRunner := runners[s.Format]
	if ownRunner {
		s = r.prepare(s)
	}
	p, err := s.CompileOn(Host{External: external, Programs: d.programs, Running: d.pool.runs}, openingsText)
	if err != nil {
		return 0, 0, err
	}
	rec, err := p.Record()
	if err != nil {
		return 0, 0, err
	}
	ensure := p.Spec.Players
	if ownRunner {
		ensure = r.players(p.Spec)
	}
	for _, n := range ensure {
		as, _ := p.Spec.Builtin(n)
		if err := d.db.EnsurePlayer(ctx, store.Player{Name: n, Agent: as.Agent}); err != nil {
			return 0, 0, err
		}
	}
	id, err := d.db.CreateTournament(ctx, rec)
	if err != nil {
		return 0, 0, err
	}
	if ownRunner {
		if err := r.created(ctx, d.db, id, p); err != nil {
			return 0, 0, err
		}
	}
	return id, len(p.schedule), nil
}

// ProgressFunc hears about each recorded game: how many of the tournament's games are
// recorded now, out of how many.
type ProgressFunc func(done, total int, res referee.Result)

// Run plays the games of tournament id that are not recorded yet: those of its schedule,
// or those its format pairs from the results (tournament.Format.Next), or, for a format
// with a runner of its own (the ladder), whatever that runner plays. drain, when closed,
// stops new games from starting while the running ones finish and are recorded. Run
// leaves the tournament's status to the caller, which knows why it stopped.
func (d *Director) Run(ctx context.Context, id int64, drain <-chan struct{}, progress ProgressFunc) error {
	t, err := d.db.Tournament(ctx, id)
	if err != nil {
		return err
	}
	s, err := StoredSpec(t)
	if err != nil {
		return err
	}
	if r, ok := runners[t.Format]; ok {
		return r.run(ctx, d, t, s, drain, progress)
	}
	f, err := tournament.Lookup(t.Format)
	if err != nil {
		return fmt.Errorf("tournament %d: %w", id, err)
	}
	g, err := game.Lookup(s.Game)
	if err != nil {
		return fmt.Errorf("tournament %d: %w", id, err)
	}
	tc, err := clock.Parse(s.TimeControl)
	if err != nil {
		return fmt.Errorf("tournament %d: %w", id, err)
	}
	pending, err := d.db.Pending(ctx, id)
	if err != nil {
		return err
	}
	todo := map[int]bool{}
	for _, sg := range pending {
		todo[sg.Index] = true
	}
	schedule := pairingsOf(t.Schedule)
	var more []tournament.Pairing // games paired from the results
	if len(todo) == 0 {
		if more, err = d.nextPairings(ctx, f, s, t); err != nil || len(more) == 0 {
			return err
		}
	}
	if err := d.db.SetTournamentStatus(ctx, id, store.StatusRunning); err != nil {
		return err
	}

	release, err := d.startBuiltins(ctx, s, s.Players)
	if err != nil {
		return err
	}
	defer release()
	for _, info := range d.ref.Players() {
		if slices.Contains(s.Players, info.Name) {
			if err := d.db.EnsurePlayer(ctx, store.Player{Name: info.Name, Agent: info.Agent, Version: info.Version}); err != nil {
				return err
			}
		}
	}
	games, err := d.exec.Open(refereeID(id))
	if err != nil {
		return err
	}
	defer games.Close()

	done, total := len(t.Schedule)-len(todo), len(t.Schedule)
	elo := ratings.Elo{K: s.EloK, Initial: ratings.DefaultInitial}
	onResult := func(ctx context.Context, games []Played) error {
		recs := make([]toRecord, len(games))
		for i, pl := range games {
			recs[i] = toRecord{p: pl.Pairing, res: pl.Result}
		}
		written, err := d.recordAll(ctx, id, g.Name(), elo, recs)
		for i, ok := range written {
			if !ok {
				continue
			}
			res := games[i].Result
			d.observe(id, cmp.Or(s.Margin.Duration, referee.DefaultMargin), res)
			done++
			if progress != nil {
				progress(done, total, res)
			}
		}
		return err
	}
	play := func(schedule []tournament.Pairing, skip func(int) bool) error {
		return games.Play(ctx, referee.Tournament{
			ID: refereeID(id), Game: g, Schedule: schedule, TC: tc, MaxPlies: s.MaxPlies,
			Concurrency: s.Concurrency, Wait: s.Wait.Duration, Drain: drain, Margin: s.Margin.Duration,
			Ponder: s.Ponder, Skip: skip, Voided: func(_ tournament.Pairing, res referee.Result) { d.voided(id, res) },
		}, onResult, nil)
	}
	if len(todo) > 0 {
		if err := play(schedule, func(index int) bool { return !todo[index] }); err != nil {
			return err
		}
		if more, err = d.nextPairings(ctx, f, s, t); err != nil {
			return err
		}
	}
	// A format that pairs from results plays round after round; the total grows with them.
	for len(more) > 0 {
		total = 0
		if err := play(more, nil); err != nil {
			return err
		}
		if more, err = d.nextPairings(ctx, f, s, t); err != nil {
			return err
		}
	}
	return nil
}

// pairingsOf is a stored schedule as pairings.
func pairingsOf(schedule []store.ScheduledGame) []tournament.Pairing {
	out := make([]tournament.Pairing, len(schedule))
	for i, sg := range schedule {
		out[i] = tournament.Pairing{Index: sg.Index, Round: sg.Round, Players: sg.Players, Opening: sg.Opening, OpeningIndex: sg.OpeningIndex}
	}
	return out
}

// nextPairings asks format f for the games tournament id plays next, given the games it
// has recorded, and checks that none of them is recorded already (a format that paired
// them again would never end).
func (d *Director) nextPairings(ctx context.Context, f tournament.Format, s Spec, t store.Tournament) ([]tournament.Pairing, error) {
	id := t.ID
	sums, err := d.db.GameSummaries(ctx, id)
	if err != nil {
		return nil, err
	}
	played := make([]tournament.Game, len(sums))
	seen := make(map[int]bool, len(sums))
	for i, g := range sums {
		played[i] = tournament.Game{Index: g.Index, Round: g.Round, Players: g.Players, Scores: g.Scores}
		seen[g.Index] = true
	}
	next, err := f.Next(s.settings(nil), played)
	if err != nil {
		return nil, fmt.Errorf("tournament %d: %s: %w", id, f.Name(), err)
	}
	if len(next) > 0 && len(t.Schedule) > 0 {
		// The store files the games of a tournament with a schedule under it.
		return nil, fmt.Errorf("tournament %d: format %s pairs games from results besides its schedule", id, f.Name())
	}
	for _, p := range next {
		if p.Index < 1 || seen[p.Index] {
			return nil, fmt.Errorf("tournament %d: %s paired game %d, which is played already or has no index", id, f.Name(), p.Index)
		}
		seen[p.Index] = true
	}
	return next, nil
}

// Problem is why tournament id's games make no progress, as its executor sees it (a
// stalled work queue), or "".
func (d *Director) Problem(id int64) string {
	if p, ok := d.exec.(interface{ Problem(string) string }); ok {
		return p.Problem(refereeID(id))
	}
	return ""
}

// over reports whether the tournament named tournament on the referee (refereeID) is
// over: stored and no longer running, or not stored at all.
func over(db store.Store, tournament string) bool {
	id, err := strconv.ParseInt(strings.TrimPrefix(tournament, "t"), 10, 64)
	if err != nil || !strings.HasPrefix(tournament, "t") {
		return false
	}
	t, err := db.Tournament(context.Background(), id)
	if errors.Is(err, store.ErrNotFound) {
		return true
	}
	return err == nil && t.Status != store.StatusRunning
}

// refereeID is tournament id's name on the referee and the bus: game ids are
// refereeID-index, and the work queue's subjects carry it.
func refereeID(id int64) string { return "t" + strconv.FormatInt(id, 10) }

// startBuiltins starts, as players on the bus, those of names that are built-in agents in
// s, engines included, and waits until they have said hello; release stops the ones no
// other tournament needs.
func (d *Director) startBuiltins(ctx context.Context, s Spec, names []string) (release func(), err error) {
	var builtins []string
	agents := map[string]agent.Spec{}
	for _, n := range names {
		if as, ok := s.Builtin(n); ok {
			builtins = append(builtins, n)
			agents[n] = as
		}
	}
	if release, err = d.pool.acquire(ctx, builtins, agents, s.Seed); err != nil {
		return nil, err
	}
	// Built-in players start within milliseconds (an engine has started already); external
	// ones are waited for game by game, and by Ready.
	if err := d.ref.WaitFor(ctx, builtins, 10*time.Second); err != nil {
		release()
		return nil, fmt.Errorf("built-in players did not start: %w", err)
	}
	return release, nil
}

// toRecord is a game to record: its pairing, result and ladder tag, if any.
type toRecord struct {
	p   tournament.Pairing
	res referee.Result
	tag *store.LadderTag
}

// record commits one game with its Elo changes (none for a game that is not Rated) and its
// ladder tag, if any, then updates the ratings in memory. A game recorded already fails
// with store.ErrDuplicate.
func (d *Director) record(ctx context.Context, tid int64, gameName string, elo ratings.Elo, p tournament.Pairing, res referee.Result, tag *store.LadderTag) error {
	_, err := d.recordAll(ctx, tid, gameName, elo, []toRecord{{p, res, tag}})
	return err
}

// recordAll records games as record does, in one transaction when it can: a batch with a
// game recorded already is recorded again game by game. written tells which games it
// wrote; when some were recorded already and all the others were written, err wraps
// store.ErrDuplicate. Another error stops it.
func (d *Director) recordAll(ctx context.Context, tid int64, gameName string, elo ratings.Elo, games []toRecord) (written []bool, err error) {
	d.eloMu.Lock()
	defer d.eloMu.Unlock()
	written = make([]bool, len(games))
	if err := d.commit(ctx, tid, gameName, elo, games); err == nil {
		for i := range written {
			written[i] = true
		}
		return written, nil
	} else if len(games) == 1 || !errors.Is(err, store.ErrDuplicate) {
		return written, err
	}
	var dup []string
	for i, g := range games {
		err := d.commit(ctx, tid, gameName, elo, []toRecord{g})
		switch {
		case errors.Is(err, store.ErrDuplicate):
			dup = append(dup, g.res.GameID)
		case err != nil:
			return written, err
		default:
			written[i] = true
		}
	}
	if len(dup) > 0 {
		return written, fmt.Errorf("%w: games %s", store.ErrDuplicate, strings.Join(dup, ", "))
	}
	return written, nil
}

// commit writes games in one transaction, each with its Elo changes computed from the
// ratings after the ones before it, and updates the ratings in memory once they are
// written; eloMu held.
func (d *Director) commit(ctx context.Context, tid int64, gameName string, elo ratings.Elo, games []toRecord) error {
	current, err := d.ratingsOf(ctx, gameName)
	if err != nil {
		return err
	}
	next := maps.Clone(current)
	recs := make([]store.Game, len(games))
	for i, g := range games {
		rec := gameRecord(tid, g.p, g.res)
		rec.Ladder = g.tag
		// A ladder game lost by going away is not rated (LadderRated).
		res := g.res
		if len(res.Players) == 2 && Rated(res.Reason) && (g.tag == nil || g.tag.Phase == store.PhaseFinal || !tournament.WentAway(res.Reason)) {
			a, b := res.Players[0], res.Players[1]
			ra, rb := elo.Rating(next, a), elo.Rating(next, b)
			na, nb := elo.Update(ra, rb, res.Scores[0])
			rec.Ratings = []store.RatingChange{{Player: a, Before: ra, After: na}, {Player: b, Before: rb, After: nb}}
			next[a], next[b] = na, nb
		}
		recs[i] = rec
	}
	// A game that has ended is recorded even when the tournament is being stopped.
	if _, err := d.db.RecordGames(context.WithoutCancel(ctx), recs); err != nil {
		if len(games) == 1 {
			return fmt.Errorf("record game %s: %w", games[0].res.GameID, err)
		}
		return fmt.Errorf("record %d games: %w", len(games), err)
	}
	maps.Copy(current, next)
	return nil
}

// ratingsOf returns the current ratings for a game, loading them on first use; eloMu held.
func (d *Director) ratingsOf(ctx context.Context, gameName string) (map[string]float64, error) {
	if r, ok := d.elo[gameName]; ok {
		return r, nil
	}
	r, err := d.db.CurrentRatings(ctx, gameName)
	if err != nil {
		return nil, err
	}
	d.elo[gameName] = r
	return r, nil
}

// Standings is the standings of tournament id (see Standings).
func (d *Director) Standings(ctx context.Context, id int64) ([]protocol.StandingsRow, error) {
	return Standings(ctx, d.db, id)
}

// Standings computes a tournament's standings from its recorded games, with each player's
// current Elo and how its games ended. Two-player zero-sum games rank by the tournament's
// maximum-likelihood rating, general-sum games by total payoff.
func Standings(ctx context.Context, st store.Store, id int64) ([]protocol.StandingsRow, error) {
	// Standings need neither the schedule nor the moves, which are most of a long
	// tournament's data.
	t, err := st.TournamentInfo(ctx, id)
	if err != nil {
		return nil, err
	}
	sums, err := st.GameSummaries(ctx, id)
	if err != nil {
		return nil, err
	}
	return StandingsOf(ctx, st, t, sums)
}

// StandingsOf is Standings of tournament t from its game summaries, already read: a
// caller that needs the summaries for more than the standings (a web view's crosstable)
// reads them once. st gives the players' current Elo.
func StandingsOf(ctx context.Context, st store.Store, t store.Tournament, sums []store.GameSummary) ([]protocol.StandingsRow, error) {
	games := make([]store.Game, len(sums))
	for i, g := range sums {
		games[i] = store.Game{
			ID: g.ID, TournamentID: g.TournamentID, Index: g.Index, Round: g.Round, Game: g.Game, Players: g.Players,
			Result: g.Result, Reason: g.Reason, Scores: g.Scores, Returns: g.Returns, Started: g.Started, Ended: g.Ended,
		}
	}
	current, err := st.CurrentRatings(ctx, t.Game)
	if err != nil {
		return nil, err
	}
	elo := ratings.DefaultElo()
	results := make([]ratings.Result, len(games))
	for i, g := range games {
		results[i] = ratings.Result{Players: g.Players, Scores: g.Scores}
	}
	ends := Endings(games)
	elos := map[string]float64{}
	for _, n := range t.Players {
		elos[n] = elo.Rating(current, n)
	}
	var payoffs map[string]float64
	if g, err := game.Lookup(t.Game); err == nil && game.IsGeneralSum(g) {
		payoffs = PayoffTotals(games)
	}
	var rows []protocol.StandingsRow
	for _, r := range ratings.Standings(t.Players, results, elos) {
		row := protocol.StandingsRow{
			Rank: r.Rank, Player: r.Player, Games: r.Games, Wins: r.Wins, Draws: r.Draws, Losses: r.Losses,
			Score: r.Score, Pct: r.ScorePct, Elo: r.Elo, Ends: ends[r.Player].Ended, WonBy: ends[r.Player].WonBy,
		}
		if payoffs != nil && r.Games > 0 {
			row.Payoff, row.MeanPayoff = payoffs[r.Player], payoffs[r.Player]/float64(r.Games)
		}
		rows = append(rows, row)
	}
	if payoffs == nil {
		// Two-player zero-sum games rank by the maximum-likelihood rating of the whole
		// tournament, which does not depend on the order the games were played in. A
		// player without a rated game (one that never came) has none, and comes last.
		if table, err := RateGames(games, t.Players, RateOptions{}); err == nil {
			byName := map[string]RatingRow{}
			for _, r := range table.Rows {
				byName[r.Player] = r
			}
			for i := range rows {
				if r, ok := byName[rows[i].Player]; ok && r.Games > 0 {
					rows[i].Rating, rows[i].RatingError = r.Rating, r.Error
				}
			}
			sort.SliceStable(rows, func(i, j int) bool { return rows[i].Rating > rows[j].Rating })
			for i := range rows {
				rows[i].Rank = i + 1
			}
		}
	}
	if payoffs != nil {
		// General-sum games rank by total payoff, as Axelrod-style tournaments do; wins
		// by payoff and Elo stay beside it.
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].Payoff > rows[j].Payoff })
		for i := range rows {
			rows[i].Rank = i + 1
		}
	}
	rankByFormat(t, games, rows)
	return rows, nil
}

// rankByFormat reorders rows as t's format ranks its players (tournament.Format.Rank),
// when it has an order of its own; players it leaves out follow in the order they had.
func rankByFormat(t store.Tournament, games []store.Game, rows []protocol.StandingsRow) {
	f, err := tournament.Lookup(t.Format)
	if err != nil {
		return
	}
	s, err := StoredSpec(t)
	if err != nil {
		return
	}
	played := make([]tournament.Game, len(games))
	for i, g := range games {
		played[i] = tournament.Game{Index: g.Index, Round: g.Round, Players: g.Players, Scores: g.Scores}
	}
	order := f.Rank(s.settings(nil), played)
	if order == nil {
		return
	}
	place := make(map[string]int, len(order))
	for i, p := range order {
		place[p] = i
	}
	at := func(r protocol.StandingsRow) int {
		if i, ok := place[r.Player]; ok {
			return i
		}
		return len(order)
	}
	sort.SliceStable(rows, func(i, j int) bool { return at(rows[i]) < at(rows[j]) })
	for i := range rows {
		rows[i].Rank = i + 1
	}
}

// Endings tallies how each player's games ended, every fault against the player at fault.
func Endings(games []store.Game) map[string]ratings.Ends {
	es := make([]ratings.Ending, len(games))
	for i, g := range games {
		es[i] = ratings.Ending{Players: g.Players, Scores: g.Scores, Reason: g.Reason, Fault: protocol.IsFault(g.Reason)}
	}
	return ratings.Endings(es)
}

// PayoffTotals adds up each player's returns over games: for general-sum games, whose
// returns are payoffs, that is what Axelrod-style tournaments rank by.
func PayoffTotals(games []store.Game) map[string]float64 {
	totals := map[string]float64{}
	for _, g := range games {
		for seat, p := range g.Players {
			if seat < len(g.Returns) {
				totals[p] += g.Returns[seat]
			}
		}
	}
	return totals
}

// gameRecord is the stored form of a played game.
func gameRecord(tid int64, p tournament.Pairing, res referee.Result) store.Game {
	moves := make([]store.Move, len(res.Moves))
	for i, m := range res.Moves {
		moves[i] = store.Move{Ply: m.Ply, Seat: m.Seat, Move: m.Move, Elapsed: m.Elapsed}
		if m.Info != nil {
			moves[i].Depth, moves[i].Nodes, moves[i].Score, moves[i].PV, moves[i].Note = m.Info.Depth, m.Info.Nodes, m.Info.Score, m.Info.PV, m.Info.Note
		}
	}
	return store.Game{
		TournamentID: tid, Index: p.Index, Round: p.Round, Game: res.Game, Players: res.Players,
		Result: res.Result, Reason: res.Reason, Detail: res.Detail, Late: res.Late, Scores: res.Scores, Returns: res.Returns,
		StartPosition: res.StartPosition, FinalPosition: res.FinalPosition, Opening: p.Opening,
		Started: res.Started, Ended: res.Ended, Moves: moves,
	}
}

// BuiltinConcurrency is how many turns a built-in player answers at once, here and by
// default in `arena player`: as many games as one tournament may play at once (the
// concurrency limit of Spec.Compile). The referee bounds the games in flight anyway, and a turn
// left waiting behind other games' turns loses on time, whereas turns thinking side by
// side only share the CPU: the agents stop at their deadlines. Every built-in agent is
// safe for concurrent use (see agent.Register).
const BuiltinConcurrency = 256

// builtinPool runs built-in agents as players, each with its own NATS connection (the same
// wire path an external player takes), shared by the tournaments that need them: a player
// name must have one process behind it on the bus.
type builtinPool struct {
	url      string
	opts     []nats.Option // credentials, on a secured bus
	version  string
	programs bool // agents may start programs (agent.Config.Programs)
	log      zerolog.Logger

	mu      sync.Mutex
	running map[string]*builtinPlayer
}

type builtinPlayer struct {
	Spec agent.Spec
	refs int
	stop func()
}

func newBuiltinPool(url string, opts []nats.Option, version string, programs bool, log zerolog.Logger) *builtinPool {
	return &builtinPool{url: url, opts: opts, version: version, programs: programs, log: log, running: map[string]*builtinPlayer{}}
}

// acquire makes sure each named player runs its agent (agents[name]), started (see start);
// release stops those no one needs any more. A name already running a different agent or
// settings is an error.
func (p *builtinPool) acquire(ctx context.Context, names []string, agents map[string]agent.Spec, seed int64) (release func(), err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var got []string
	release = func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, n := range got {
			bp := p.running[n]
			if bp.refs--; bp.refs == 0 {
				bp.stop()
				delete(p.running, n)
			}
		}
	}
	fail := func(err error) (func(), error) {
		p.mu.Unlock()
		release()
		p.mu.Lock()
		return nil, err
	}
	for i, name := range names {
		as := agents[name]
		if bp, ok := p.running[name]; ok {
			if !reflect.DeepEqual(bp.Spec, as) {
				return fail(fmt.Errorf("player %s already plays as agent %s %v in another tournament; give this one another name", name, bp.Spec.Agent, bp.Spec.Params))
			}
			bp.refs++
			got = append(got, name)
			continue
		}
		stop, err := p.start(ctx, name, as, seed+int64(i))
		if err != nil {
			return fail(err)
		}
		p.running[name] = &builtinPlayer{Spec: as, refs: 1, stop: stop}
		got = append(got, name)
	}
	return release, nil
}

// start serves player name with its agent, made from as and started first when it has
// something to start (agent.Starter: an engine's program, which must finish its handshake,
// so that a bad command fails the tournament before its first game). An agent that takes
// one turn at a time (agent.Sequential) is served so; the others with BuiltinConcurrency.
func (p *builtinPool) start(ctx context.Context, name string, as agent.Spec, seed int64) (func(), error) {
	log := p.log.With().Str("player", name).Logger()
	a, err := agent.New(as.Agent, agent.Config{Seed: seed, Params: as.Params, Programs: p.programs, Log: log})
	if err != nil {
		return nil, fmt.Errorf("player %s: %w", name, err)
	}
	if st, ok := a.(agent.Starter); ok {
		if err := st.Start(ctx); err != nil {
			agent.Close(a)
			return nil, fmt.Errorf("player %s: %w", name, err)
		}
	}
	concurrency := BuiltinConcurrency
	if agent.IsSequential(a) {
		concurrency = 1
	}
	nc, err := bus.Connect(p.url, name, p.log, p.opts...)
	if err != nil {
		agent.Close(a)
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	cfg := player.Config{
		Name: name, Agent: as.Agent, Version: p.version, Games: agent.Games(as.Agent),
		Concurrency: concurrency, Log: p.log, // Serve adds the player's name
	}
	go func() {
		defer close(done)
		if err := player.Serve(ctx, nc, cfg, a); err != nil && !errors.Is(err, context.Canceled) {
			p.log.Error().Err(err).Str("player", name).Msg("built-in player stopped")
		}
	}()
	return func() {
		cancel()
		<-done
		nc.Close()
		if err := agent.Close(a); err != nil {
			p.log.Error().Err(err).Str("player", name).Msg("closing the agent")
		}
	}, nil
}

// runs reports whether name runs as the agent as, with these settings.
func (p *builtinPool) runs(name string, as agent.Spec) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	bp, ok := p.running[name]
	return ok && reflect.DeepEqual(bp.Spec, as)
}

// stopAll stops every built-in player, whoever holds it.
func (p *builtinPool) stopAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for n, bp := range p.running {
		bp.stop()
		delete(p.running, n)
	}
}
