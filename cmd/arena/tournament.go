package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"
	"github.com/schollz/progressbar/v3"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/natsembed"
	"github.com/arenaref/arena/players"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

type tournamentConfig struct {
	game     string
	players  string
	rounds   int
	tc       string
	margin   time.Duration
	maxPlies int
	db       string
	seed     int64
	json     bool
	natsURL  string
	wait     time.Duration
	eloK     float64
	logLevel string
}

func runTournament(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c tournamentConfig
	fs := newFlagSet("tournament", "--game GAME --players A,B,... [flags]", stderr)
	fs.StringVar(&c.game, "game", "othello", "game to play, with options (e.g. othello)")
	fs.StringVar(&c.players, "players", "", "comma-separated players: built-in agents ("+strings.Join(players.AgentNames(), ", ")+"), or with --nats, names of external players")
	fs.IntVar(&c.rounds, "rounds", 1, "rounds; in each, every pair plays each colour once")
	fs.StringVar(&c.tc, "tc", "100ms", "time control: time per move (100ms, 2s) or a game clock (60+0.5, 40/60)")
	fs.DurationVar(&c.margin, "margin", 50*time.Millisecond, "transport margin added to each move's deadline")
	fs.IntVar(&c.maxPlies, "max-plies", 0, "adjudicate a game as a draw after this many plies (0: no limit)")
	fs.StringVar(&c.db, "db", "arena.db", "SQLite database file for games, moves and ratings")
	fs.Int64Var(&c.seed, "seed", 0, "seed for the built-in agents' random choices (0: from the clock)")
	fs.BoolVar(&c.json, "json", false, "print the standings as one JSON document")
	fs.StringVar(&c.natsURL, "nats", "", "NATS server URL (default: start an embedded server on 127.0.0.1)")
	fs.DurationVar(&c.wait, "wait", 30*time.Second, "how long to wait for every player to say hello")
	fs.Float64Var(&c.eloK, "elo-k", 16, "Elo K-factor")
	fs.StringVar(&c.logLevel, "log-level", "warn", "log level: debug, info, warn, error")
	if err := fs.parse(args); err != nil {
		return err
	}
	log, err := newLogger(stderr, c.logLevel)
	if err != nil {
		return err
	}

	// Check everything the user gave before touching the database or the network, so a
	// mistake costs nothing and leaves nothing behind.
	g, err := game.Lookup(c.game)
	if err != nil {
		return usagef("--game: %v", err)
	}
	names := splitList(c.players)
	if len(names) < 2 {
		return usagef("--players: need at least two players, got %d", len(names))
	}
	seen := map[string]bool{}
	var builtins []string
	for _, n := range names {
		if !protocol.ValidName(n) {
			return usagef("--players: %q is not a valid player name (1-64 of A-Z a-z 0-9 - _)", n)
		}
		if seen[n] {
			return usagef("--players: %q is listed twice", n)
		}
		seen[n] = true
		if players.IsAgent(n) {
			if !playsGame(players.AgentGames(n), g) {
				return usagef("--players: agent %q does not play %s", n, g.Name())
			}
			builtins = append(builtins, n)
		} else if c.natsURL == "" {
			return usagef("--players: unknown agent %q (built-in: %s; external players need --nats URL)", n, strings.Join(players.AgentNames(), ", "))
		}
	}
	if c.rounds < 1 {
		return usagef("--rounds must be at least 1, got %d", c.rounds)
	}
	tc, err := referee.ParseTimeControl(c.tc)
	if err != nil {
		return usagef("--tc: %v", err)
	}
	if c.margin < 0 || c.maxPlies < 0 || c.wait < 0 {
		return usagef("--margin, --max-plies and --wait must not be negative")
	}
	if c.eloK <= 0 || math.IsInf(c.eloK, 0) || math.IsNaN(c.eloK) {
		return usagef("--elo-k must be a positive number")
	}
	schedule, err := referee.RoundRobin(names, c.rounds)
	if err != nil {
		return usagef("%v", err)
	}
	if c.seed == 0 {
		c.seed = time.Now().UnixNano() & math.MaxInt32
	}

	// The bus comes before the database: a failed connection leaves nothing on disk.
	nc, shutdownBus, err := connectBus(c.natsURL, "arena-referee", log)
	if err != nil {
		return err
	}
	defer shutdownBus()

	db, err := sqlite.Open(ctx, c.db)
	if err != nil {
		return fmt.Errorf("--db: %w", err)
	}
	defer db.Close()

	ref, err := referee.New(referee.Config{Conn: nc, Margin: c.margin, Log: log, ID: "arena-referee"})
	if err != nil {
		return err
	}
	if err := ref.StartLobby(ctx, 5*time.Second); err != nil {
		return fmt.Errorf("start lobby: %w", err)
	}

	stopPlayers, err := startBuiltins(ctx, nc.ConnectedUrl(), builtins, g, c.seed, log)
	if err != nil {
		return err
	}
	defer stopPlayers()

	if err := ref.WaitFor(ctx, names, c.wait); err != nil {
		return fmt.Errorf("waiting for players: %w", err)
	}
	info := map[string]referee.PlayerInfo{}
	for _, p := range ref.Players() {
		info[p.Name] = p
	}
	for _, n := range names {
		if err := db.EnsurePlayer(ctx, store.Player{Name: n, Agent: info[n].Agent, Version: info[n].Version}); err != nil {
			return err
		}
	}
	tid, err := db.CreateTournament(ctx, store.Tournament{
		Game: g.Name(), Format: "round-robin", TimeControl: c.tc, Rounds: c.rounds,
		Seed: c.seed, Players: names, Status: store.StatusRunning,
	})
	if err != nil {
		return err
	}

	elo := ratings.Elo{K: c.eloK, Initial: ratings.DefaultElo().Initial}
	current, err := db.CurrentRatings(ctx, g.Name())
	if err != nil {
		return err
	}
	progress := newProgress(stderr, len(schedule))
	var results []ratings.Result
	onResult := func(ctx context.Context, p referee.Pairing, res referee.Result) error {
		rec := gameRecord(tid, p, res)
		if len(res.Players) == 2 {
			a, b := res.Players[0], res.Players[1]
			ra, rb := elo.Rating(current, a), elo.Rating(current, b)
			na, nb := elo.Update(ra, rb, res.Scores[0])
			rec.Ratings = []store.RatingChange{{Player: a, Before: ra, After: na}, {Player: b, Before: rb, After: nb}}
		}
		// The store is the record; the in-memory ratings follow it only once committed.
		if _, err := db.RecordGame(context.WithoutCancel(ctx), rec); err != nil {
			return fmt.Errorf("record game %s: %w", res.GameID, err)
		}
		for _, rc := range rec.Ratings {
			current[rc.Player] = rc.After
		}
		results = append(results, ratings.Result{Players: res.Players, Scores: res.Scores})
		progress.gameDone(p, res)
		return nil
	}
	started := time.Now()
	runErr := ref.RunTournament(ctx, referee.Tournament{
		ID: "t" + strconv.FormatInt(tid, 10), Game: g, Schedule: schedule, TC: tc, MaxPlies: c.maxPlies,
	}, onResult)
	progress.finish()
	status := store.StatusFinished
	switch {
	case errors.Is(runErr, context.Canceled):
		status = store.StatusCancelled
	case runErr != nil:
		status = store.StatusFailed
	}
	if err := db.FinishTournament(context.WithoutCancel(ctx), tid, status); err != nil && runErr == nil {
		runErr = err
	}
	if status == store.StatusCancelled {
		return fmt.Errorf("interrupted: tournament %d cancelled after %d of %d games; those games are kept in %s", tid, len(results), len(schedule), c.db)
	}
	if runErr != nil {
		return fmt.Errorf("tournament %d failed after %d of %d games (kept in %s): %w", tid, len(results), len(schedule), c.db, runErr)
	}
	elapsed := time.Since(started)
	for _, n := range names {
		current[n] = elo.Rating(current, n)
	}
	rows := ratings.Standings(names, results, current)
	if c.json {
		return writeStandingsJSON(stdout, tid, g.Name(), c.seed, len(results), elapsed, rows)
	}
	return writeStandingsTable(stdout, tid, g.Name(), c.seed, len(results), elapsed, rows)
}

// playsGame reports whether an agent registered for games can play g.
func playsGame(games []string, g game.Game) bool {
	if games == nil {
		return true
	}
	name, _, _ := game.ParseSpec(g.Name())
	for _, gn := range games {
		if gn == name {
			return true
		}
	}
	return false
}

// connectBus connects the referee to the NATS server at url, or starts an embedded one
// when url is empty. The returned function closes the connection and stops the server.
func connectBus(url, name string, log zerolog.Logger) (*nats.Conn, func(), error) {
	var srv *natsembed.Server
	if url == "" {
		var err error
		if srv, err = natsembed.Start(natsembed.Options{}); err != nil {
			return nil, nil, err
		}
		url = srv.URL()
		log.Info().Str("url", url).Msg("embedded NATS server started")
	}
	nc, err := players.Connect(url, name, log)
	if err != nil {
		if srv != nil {
			srv.Shutdown()
		}
		return nil, nil, err
	}
	return nc, func() {
		_ = nc.Drain()
		nc.Close()
		if srv != nil {
			srv.Shutdown()
		}
	}, nil
}

// startBuiltins runs each built-in agent as a player with its own NATS connection, the same
// wire path an external player takes. The returned function stops them and waits.
func startBuiltins(ctx context.Context, url string, names []string, g game.Game, seed int64, log zerolog.Logger) (func(), error) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var conns []*nats.Conn
	stop := func() {
		cancel()
		wg.Wait()
		for _, nc := range conns {
			nc.Close()
		}
	}
	for i, name := range names {
		agent, err := players.NewAgent(name, players.AgentConfig{Seed: seed + int64(i)})
		if err != nil {
			stop()
			return nil, err
		}
		nc, err := players.Connect(url, name, log)
		if err != nil {
			stop()
			return nil, err
		}
		conns = append(conns, nc)
		cfg := players.Config{Name: name, Agent: name, Version: version, Log: log.With().Str("player", name).Logger()}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := players.Serve(ctx, nc, cfg, agent); err != nil {
				log.Error().Err(err).Str("player", name).Msg("player stopped")
			}
		}()
	}
	return stop, nil
}

func gameRecord(tid int64, p referee.Pairing, res referee.Result) store.Game {
	moves := make([]store.Move, len(res.Moves))
	for i, m := range res.Moves {
		moves[i] = store.Move{Ply: m.Ply, Seat: m.Seat, Move: m.Move, Elapsed: m.Elapsed}
		if m.Info != nil {
			moves[i].Depth, moves[i].Nodes, moves[i].Score, moves[i].PV = m.Info.Depth, m.Info.Nodes, m.Info.Score, m.Info.PV
		}
	}
	return store.Game{
		TournamentID: tid, Index: p.Index, Round: p.Round, Game: res.Game, Players: res.Players,
		Result: res.Result, Reason: res.Reason, Detail: res.Detail, Scores: res.Scores, Returns: res.Returns,
		StartPosition: res.StartPosition, FinalPosition: res.FinalPosition,
		Started: res.Started, Ended: res.Ended, Moves: moves,
	}
}

// progress reports finished games on stderr: a progress bar on a terminal, otherwise one
// line per game so logs stay readable.
type progress struct {
	bar   *progressbar.ProgressBar
	w     io.Writer
	total int
	done  int
}

func newProgress(stderr io.Writer, total int) *progress {
	p := &progress{w: stderr, total: total}
	if f, ok := stderr.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("games"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish(),
		)
	}
	return p
}

func (p *progress) gameDone(pr referee.Pairing, res referee.Result) {
	p.done++
	if p.bar != nil {
		_ = p.bar.Add(1)
		return
	}
	fmt.Fprintf(p.w, "game %d/%d: %s  %s  (%s)\n", p.done, p.total, strings.Join(res.Players, " - "), res.Result, res.Reason)
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

func writeStandingsTable(w io.Writer, tid int64, gameName string, seed int64, games int, elapsed time.Duration, rows []ratings.Row) error {
	fmt.Fprintf(w, "Tournament %d: %s, %d games, seed %d, %s\n\n", tid, gameName, games, seed, elapsed.Round(time.Millisecond))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Rank\tPlayer\tGames\tWins\tDraws\tLosses\tScore%\tElo\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%d\t%.1f\t%.0f\t\n", r.Rank, r.Player, r.Games, r.Wins, r.Draws, r.Losses, r.ScorePct, r.Elo)
	}
	return tw.Flush()
}

type standingsJSON struct {
	Tournament int64     `json:"tournament"`
	Game       string    `json:"game"`
	Seed       int64     `json:"seed"`
	Games      int       `json:"games"`
	ElapsedMS  int64     `json:"elapsed_ms"`
	Standings  []rowJSON `json:"standings"`
}

type rowJSON struct {
	Rank     int     `json:"rank"`
	Player   string  `json:"player"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Score    float64 `json:"score"`
	ScorePct float64 `json:"score_pct"`
	Elo      float64 `json:"elo"`
}

func writeStandingsJSON(w io.Writer, tid int64, gameName string, seed int64, games int, elapsed time.Duration, rows []ratings.Row) error {
	doc := standingsJSON{Tournament: tid, Game: gameName, Seed: seed, Games: games, ElapsedMS: elapsed.Milliseconds()}
	for _, r := range rows {
		doc.Standings = append(doc.Standings, rowJSON{r.Rank, r.Player, r.Games, r.Wins, r.Draws, r.Losses, r.Score, r.ScorePct, r.Elo})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
