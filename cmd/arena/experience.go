package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/lab/plot"
	"github.com/arenaref/arena/players/agents/experience"
	"github.com/arenaref/arena/players/player/local"
)

// runExperience runs the experience-base tools: "run" plays the experience player against
// opponents in process and writes its learning curves; "stats" describes a base.
func runExperience(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runSubcommand(ctx, "experience", experienceSubcommands(), args, stdout, stderr)
}

func experienceSubcommands() []subcommand {
	return []subcommand{
		{"run", "play the experience player against opponents in process, with its learning curves", runExperienceRun},
		{"stats", "describe a base: games, nodes, size, hit rate", func(_ context.Context, args []string, stdout, stderr io.Writer) error {
			return runExperienceStats(args, stdout, stderr)
		}},
	}
}

func runExperienceStats(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("experience stats", "--base FILE [--json]", stderr)
	basePath := fs.String("base", "", "the experience base")
	gameSpec := fs.String("game", othello.Name, "the base's game")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *basePath == "" {
		return usagef("--base is required")
	}
	b, err := experience.Open(*basePath, *gameSpec)
	if err != nil {
		return err
	}
	defer b.Close()
	st, err := b.Stats()
	if err != nil {
		return err
	}
	games, err := b.Games()
	if err != nil {
		return err
	}
	doc := statsDoc{Base: *basePath, Game: b.Game(), Stats: st}
	if st.Nodes > 0 {
		doc.BytesPerNode = float64(st.Bytes) / float64(st.Nodes)
	}
	if st.Decisions > 0 {
		doc.HitRate = 100 * float64(st.Hits) / float64(st.Decisions)
	}
	if len(games) > 0 {
		doc.NodesPerGame = float64(st.Nodes) / float64(len(games))
	}
	doc.Recent = recentGames(games, 100)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "base\t%s (%s)\n", *basePath, b.Game())
	fmt.Fprintf(tw, "games merged\t%d\n", st.Games)
	fmt.Fprintf(tw, "nodes\t%d (%.1f per game)\n", st.Nodes, doc.NodesPerGame)
	fmt.Fprintf(tw, "arcs\t%d\n", st.Arcs)
	fmt.Fprintf(tw, "size\t%d bytes (%.0f per node)\n", st.Bytes, doc.BytesPerNode)
	fmt.Fprintf(tw, "hit rate\t%.1f%% (%d of %d moves decided from the base)\n", doc.HitRate, st.Hits, st.Decisions)
	if r := doc.Recent; r.Games > 0 {
		fmt.Fprintf(tw, "last %d games\tmean margin %+.1f, won %d, hit rate %.1f%%\n", r.Games, r.MeanMargin, r.Won, r.HitRate)
	}
	return tw.Flush()
}

type statsDoc struct {
	Base         string           `json:"base"`
	Game         string           `json:"game"`
	Stats        experience.Stats `json:"stats"`
	BytesPerNode float64          `json:"bytes_per_node"`
	NodesPerGame float64          `json:"nodes_per_game"`
	HitRate      float64          `json:"hit_rate"`
	Recent       windowStats      `json:"recent"`
}

// windowStats summarises the last games merged.
type windowStats struct {
	Games      int     `json:"games"`
	MeanMargin float64 `json:"mean_margin"` // from the experience player's side
	Won        int     `json:"won"`
	HitRate    float64 `json:"hit_rate"`
}

func recentGames(rows []experience.GameRow, n int) windowStats {
	if len(rows) > n {
		rows = rows[len(rows)-n:]
	}
	var w windowStats
	var dec, hits int
	for _, r := range rows {
		w.Games++
		m := r.Margin
		if r.Seat == othello.White {
			m = -m
		}
		w.MeanMargin += float64(m)
		if m > 0 {
			w.Won++
		}
		dec += r.Decisions
		hits += r.Hits
	}
	if w.Games > 0 {
		w.MeanMargin /= float64(w.Games)
	}
	if dec > 0 {
		w.HitRate = 100 * float64(hits) / float64(dec)
	}
	return w
}

func runExperienceRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("experience run", "--base FILE --opponents LIST --games N --out NAME [flags]", stderr)
	basePath := fs.String("base", "", "the experience base (created when missing; an existing one carries on learning)")
	gameSpec := fs.String("game", othello.Name, "game: othello, othello:size=6 or othello:size=4")
	opponents := fs.String("opponents", "mm5=minimax:depth=5:tt=0:exact=0", "opponents, played in turn, as --players of tournament")
	games := fs.Int("games", 400, "games to play")
	fallback := fs.String("fallback", experience.DefaultFallback, "the experience player's fallback agent")
	fbParams := fs.String("fb", "", "the fallback's parameters, comma-separated key=value (default for minimax: depth=2,ties=random,tt=0,exact=0)")
	randomPlies := fs.Int("random-plies", 0, "plies played at random at the start of each game")
	seed := fs.Uint64("seed", 1, "seed of the random plies and the agents")
	windowSize := fs.Int("window", 20, "games per point of the margin and hit-rate curves (moving average)")
	out := fs.String("out", "experience", "writes NAME.csv and NAME-margin.svg, NAME-hits.svg, NAME-size.svg")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *basePath == "" {
		return usagef("--base is required")
	}
	if *games < 1 || *windowSize < 1 || *randomPlies < 0 || *randomPlies > 20 {
		return usagef("--games and --window must be at least 1, --random-plies 0 to 20")
	}
	g, err := game.Lookup(*gameSpec)
	if err != nil {
		return usagef("--game: %v", err)
	}
	ops, err := parseOpponents(*opponents)
	if err != nil || len(ops) == 0 {
		return usagef("--opponents: need at least one opponent (%v)", err)
	}
	og, ok := g.(*othello.Game)
	if !ok {
		return usagef("--game: the experience player plays Othello")
	}
	params := map[string]string{"base": *basePath, "size": strconv.Itoa(og.Size()), "fallback": *fallback}
	if *fbParams != "" {
		for _, kv := range strings.Split(*fbParams, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return usagef("--fb: %q is not key=value", kv)
			}
			params["fb."+k] = v
		}
	}
	gina, err := experience.New(agent.Config{Seed: int64(*seed), Params: params})
	if err != nil {
		return err
	}
	defer gina.Close()
	if err := gina.CheckGame(g); err != nil {
		return err
	}
	opps := make([]agent.Agent, len(ops))
	for i, o := range ops {
		a, err := agent.New(o.Agent, agent.Config{Seed: int64(*seed) + int64(i) + 1, Params: o.Params})
		if err != nil {
			return usagef("--opponents: %s: %v", o.Name, err)
		}
		defer agent.Close(a)
		if gc, ok := a.(agent.GameChecker); ok {
			if err := gc.CheckGame(g); err != nil {
				return usagef("--opponents: %s: %v", o.Name, err)
			}
		}
		opps[i] = a
	}

	var rows []expRow
	bar := newTrainProgress(stderr, *games, 0)
	rng := rand.New(rand.NewPCG(*seed, 0xe4))
	start := time.Now()
	for i := range *games {
		o := i % len(ops)
		seat := game.Seat((i / len(ops)) % 2) // each opponent meets both colours in turn
		seats := []local.Player{{Name: "experience", Agent: gina}, {Name: ops[o].Name, Agent: opps[o]}}
		if seat == othello.White {
			seats[0], seats[1] = seats[1], seats[0]
		}
		pos := g.NewState()
		var buf []game.Move
		for pos.Ply() < *randomPlies && !pos.IsTerminal() {
			buf = pos.LegalMoves(pos.ToMove(), buf[:0])
			_ = pos.Play(buf[rng.IntN(len(buf))])
		}
		t0 := time.Now()
		res, err := local.Play(ctx, g, pos, seats, fmt.Sprintf("x%d", i+1))
		if err != nil {
			bar.finish()
			return err
		}
		if err := gina.Err(); err != nil {
			bar.finish()
			return err
		}
		margin := res.Final.(*othello.State).Margin()
		if seat == othello.White {
			margin = -margin
		}
		last, ok, err := gina.Base().LastGame()
		if err != nil {
			return err
		}
		if !ok || last.GameID != fmt.Sprintf("x%d", i+1) {
			return fmt.Errorf("game %d was not merged into the base", i+1)
		}
		st, err := gina.Base().Stats()
		if err != nil {
			return err
		}
		rows = append(rows, expRow{game: i + 1, opponent: ops[o].Name, seat: seat, margin: margin, hits: last.Hits, moves: last.Decisions,
			nodes: st.Nodes, bytes: st.Bytes, seconds: time.Since(t0).Seconds()})
		bar.updateText(i+1, fmt.Sprintf("game %d: margin %+d, hits %d/%d, base %d nodes", i+1, margin, last.Hits, last.Decisions, st.Nodes))
	}
	bar.finish()

	// The curves: moving averages over the window.
	margin := plot.Series{Name: fmt.Sprintf("mean final margin, last %d games", *windowSize)}
	hitRate := plot.Series{Name: fmt.Sprintf("hit rate %%, last %d games", *windowSize)}
	size := plot.Series{Name: "nodes in the base"}
	for i := range rows {
		lo := max(0, i+1-*windowSize)
		var m, h, d int
		for _, r := range rows[lo : i+1] {
			m, h, d = m+r.margin, h+r.hits, d+r.moves
		}
		x := float64(i + 1)
		margin.X, margin.Y = append(margin.X, x), append(margin.Y, float64(m)/float64(i+1-lo))
		hitRate.X, hitRate.Y = append(hitRate.X, x), append(hitRate.Y, 100*float64(h)/float64(max(d, 1)))
		size.X, size.Y = append(size.X, x), append(size.Y, float64(rows[i].nodes))
	}
	err = atomicfile.Write(*out+".csv", func(w io.Writer) error {
		cw := csv.NewWriter(w)
		_ = cw.Write([]string{"game", "opponent", "seat", "margin", "hits", "moves", "hit_rate", "nodes", "bytes", "mean_margin_window", "hit_rate_window", "seconds"})
		for i, r := range rows {
			_ = cw.Write([]string{strconv.Itoa(r.game), r.opponent, []string{"black", "white"}[r.seat], strconv.Itoa(r.margin),
				strconv.Itoa(r.hits), strconv.Itoa(r.moves), ff(float64(r.hits) / float64(max(r.moves, 1))), strconv.Itoa(r.nodes),
				strconv.FormatInt(r.bytes, 10), ff(margin.Y[i]), ff(hitRate.Y[i]), ff(r.seconds)})
		}
		cw.Flush()
		return cw.Error()
	})
	if err != nil {
		return err
	}
	title := fmt.Sprintf("experience player against %s", *opponents)
	for _, c := range []struct {
		file   string
		ylabel string
		s      plot.Series
	}{
		{"-margin.svg", "final disc margin", margin}, {"-hits.svg", "hit rate %", hitRate}, {"-size.svg", "nodes", size},
	} {
		ch := plot.Chart{Title: title, XLabel: "game", YLabel: c.ylabel, Series: []plot.Series{c.s}}
		if c.file == "-hits.svg" {
			ch.YMin, ch.YMax = 0, 100
		}
		if err := atomicfile.Write(*out+c.file, func(w io.Writer) error { return plot.WriteSVG(w, ch) }); err != nil {
			return err
		}
	}
	n := len(rows)
	fmt.Fprintf(stdout, "%d games in %s; %s; base %d nodes, %d bytes\n",
		n, humantime.Round(time.Since(start)), summaryWindows(rows, 50), rows[n-1].nodes, rows[n-1].bytes)
	fmt.Fprintf(stdout, "wrote %s.csv, %s-margin.svg, %s-hits.svg, %s-size.svg\n", *out, *out, *out, *out)
	return nil
}

// expRow is one game of arena experience run.
type expRow struct {
	game                int
	opponent            string
	seat                game.Seat
	margin, hits, moves int
	nodes               int
	bytes               int64 // the base's size after the game (experience.Stats.Bytes)
	seconds             float64
}

// summaryWindows describes the first and the last games of rows, up to size each. When
// fewer than 2*size games were played the two windows split them in halves, so that no
// game counts in both; a single game is described alone.
func summaryWindows(rows []expRow, size int) string {
	n := len(rows)
	w := min(size, n/2)
	if w == 0 {
		s := summarize(rows)
		return fmt.Sprintf("all %d: mean margin %+.1f, won %d, hit rate %.1f%%", n, s.m, s.won, s.hit)
	}
	first, last := summarize(rows[:w]), summarize(rows[n-w:])
	return fmt.Sprintf("first %d: mean margin %+.1f, won %d, hit rate %.1f%%; last %d: mean margin %+.1f, won %d, hit rate %.1f%%",
		w, first.m, first.won, first.hit, w, last.m, last.won, last.hit)
}

type summary struct {
	m   float64
	won int
	hit float64
}

func summarize(rows []expRow) summary {
	var s summary
	var h, d int
	for _, r := range rows {
		s.m += float64(r.margin)
		if r.margin > 0 {
			s.won++
		}
		h, d = h+r.hits, d+r.moves
	}
	s.m /= float64(max(1, len(rows)))
	s.hit = 100 * float64(h) / float64(max(1, d))
	return s
}
