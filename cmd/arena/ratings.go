package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// ratingCenter is the pool average the maximum-likelihood ratings are centred on: the
// initial Elo, so the two scales read alike.
const ratingCenter = ratings.DefaultInitial

// errorBar turns a standard error into the 95% error bar the tables print.
const errorBar = 1.96

// ratingRow is one player of a rating table.
type ratingRow struct {
	Rank    int     `json:"rank"`
	Player  string  `json:"player"`
	Rating  float64 `json:"rating"`
	Error   float64 `json:"error"` // 95% error bar
	Games   int     `json:"games"`
	Wins    int     `json:"wins"`
	Draws   int     `json:"draws"`
	Losses  int     `json:"losses"`
	Points  float64 `json:"points"`
	Pct     float64 `json:"score_pct"`
	DrawPct float64 `json:"draw_pct"`
}

// crossCell is one pairing of a crosstable, from the row player's side.
type crossCell struct {
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Points float64 `json:"points"`
}

// ratingTable is a maximum-likelihood rating table with its LOS matrix and crosstable,
// all in the order of Rows.
type ratingTable struct {
	Games          int                             `json:"games"`
	DrawRatio      float64                         `json:"draw_ratio"`
	FirstMove      float64                         `json:"first_move_advantage,omitempty"`
	FirstMoveError float64                         `json:"first_move_error,omitempty"`
	ErrorMethod    string                          `json:"error_method"`
	Rows           []ratingRow                     `json:"ratings"`
	LOS            map[string]map[string]float64   `json:"los"`
	Cross          map[string]map[string]crossCell `json:"crosstable"`
	Anchor         *ratingAnchor                   `json:"anchor,omitempty"` // the player fixed at its rating; nil: the pool's average is
}

// ratingAnchor is the player a rating table is anchored to, and the rating it is fixed at.
type ratingAnchor struct {
	Player string  `json:"player"`
	Rating float64 `json:"rating"`
}

// footing says what a rating table's ratings are relative to: its anchor, or the pool's
// average.
func (t ratingTable) footing() string {
	if t.Anchor != nil {
		return fmt.Sprintf("%s fixed at %.0f", t.Anchor.Player, t.Anchor.Rating)
	}
	return fmt.Sprintf("pool average %.0f", float64(ratingCenter))
}

type rateOptions struct {
	anchor      string
	firstMove   bool
	simulations int
}

// rateGames fits maximum-likelihood ratings to the two-player games among players (nil:
// whoever played). Games without a result are left out.
func rateGames(games []store.Game, players []string, o rateOptions) (ratingTable, error) {
	index := map[string]int{}
	add := func(n string) {
		if _, ok := index[n]; !ok {
			index[n] = len(players)
			players = append(players, n)
		}
	}
	players = slices.Clone(players)
	for i, n := range players {
		index[n] = i
	}
	var rg []ratings.Game
	t := ratingTable{LOS: map[string]map[string]float64{}, Cross: map[string]map[string]crossCell{}}
	cell := func(a, b string) crossCell { return t.Cross[a][b] }
	setCell := func(a, b string, c crossCell) {
		if t.Cross[a] == nil {
			t.Cross[a] = map[string]crossCell{}
		}
		t.Cross[a][b] = c
	}
	for _, g := range games {
		if len(g.Players) != 2 || len(g.Scores) != 2 || g.Result == store.ResultNone {
			continue
		}
		a, b := g.Players[0], g.Players[1]
		add(a)
		add(b)
		rg = append(rg, ratings.Game{First: index[a], Second: index[b], Score: g.Scores[0]})
		for seat, p := range g.Players {
			other := g.Players[1-seat]
			c := cell(p, other)
			sc := g.Scores[seat]
			switch {
			case sc == 1:
				c.Wins++
			case sc == 0:
				c.Losses++
			default:
				c.Draws++
			}
			c.Points += sc
			setCell(p, other, c)
		}
	}
	t.Games = len(rg)
	if len(rg) == 0 {
		return t, fmt.Errorf("no two-player games with a result to rate")
	}
	opt := ratings.FitOptions{Anchor: -1, Center: ratingCenter, FirstMove: o.firstMove, Simulations: o.simulations, Seed: 1}
	if o.anchor != "" {
		i, ok := index[o.anchor]
		if !ok {
			return t, fmt.Errorf("--anchor: %q has no games", o.anchor)
		}
		opt.Anchor = i
		t.Anchor = &ratingAnchor{Player: o.anchor, Rating: ratingCenter}
	}
	fit, err := ratings.MaximumLikelihood(len(players), rg, opt)
	if err != nil {
		return t, err
	}
	t.DrawRatio, t.FirstMove, t.FirstMoveError = fit.DrawRatio, fit.FirstMove, errorBar*fit.FirstMoveError
	t.ErrorMethod = "information matrix"
	if o.simulations > 0 {
		t.ErrorMethod = fmt.Sprintf("%d simulated tournaments", o.simulations)
	}
	for i, n := range players {
		r := ratingRow{Player: n, Rating: fit.Ratings[i], Error: errorBar * fit.Errors[i]}
		for _, c := range t.Cross[n] {
			r.Wins, r.Draws, r.Losses, r.Points = r.Wins+c.Wins, r.Draws+c.Draws, r.Losses+c.Losses, r.Points+c.Points
		}
		r.Games = r.Wins + r.Draws + r.Losses
		if r.Games > 0 {
			r.Pct, r.DrawPct = 100*r.Points/float64(r.Games), 100*float64(r.Draws)/float64(r.Games)
		}
		t.Rows = append(t.Rows, r)
	}
	sort.SliceStable(t.Rows, func(i, j int) bool {
		a, b := t.Rows[i], t.Rows[j]
		if a.Rating != b.Rating {
			return a.Rating > b.Rating
		}
		return a.Player < b.Player
	})
	for i := range t.Rows {
		t.Rows[i].Rank = i + 1
		a := index[t.Rows[i].Player]
		t.LOS[t.Rows[i].Player] = map[string]float64{}
		for _, other := range t.Rows {
			if other.Player != t.Rows[i].Player {
				t.LOS[t.Rows[i].Player][other.Player] = fit.LOS(a, index[other.Player])
			}
		}
	}
	return t, nil
}

func runRatings(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ratings", "--db FILE [--tournament ID] [--game GAME] [--json]", stderr)
	dbPath := fs.String("db", "arena.db", "the database")
	tid := fs.Int64("tournament", 0, "rate one tournament (default: every tournament of --game)")
	gameName := fs.String("game", "", "rate the games of this game (needed when the database holds several)")
	anchor := fs.String("anchor", "", "fix this player's rating at 1500 instead of the pool's average")
	firstMove := fs.Bool("first-move", false, "also fit a first-move advantage")
	sims := fs.Int("simulations", 0, "error bars from this many simulated tournaments instead of the information matrix")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.parse(args); err != nil {
		return err
	}
	if _, err := os.Stat(*dbPath); err != nil {
		return usagef("--db: %v", err)
	}
	db, err := sqlite.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	games, label, err := loadGames(ctx, db, *tid, *gameName)
	if err != nil {
		return err
	}
	t, err := rateGames(games, nil, rateOptions{anchor: *anchor, firstMove: *firstMove, simulations: *sims})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(t)
	}
	fmt.Fprintf(stdout, "%s: %d games, draws %.1f%%", label, t.Games, 100*t.DrawRatio)
	if *firstMove {
		fmt.Fprintf(stdout, ", first-move advantage %+.1f ± %.1f Elo", t.FirstMove, t.FirstMoveError)
	}
	fmt.Fprintf(stdout, "\nmaximum-likelihood ratings (logistic, %s); ± is 95%%, from the %s\n\n", t.footing(), t.ErrorMethod)
	return writeRatingTable(stdout, t)
}

// writeRatingTable prints the ratings, the LOS matrix and the crosstable.
func writeRatingTable(w io.Writer, t ratingTable) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Rank\tPlayer\tRating\t±\tGames\tWins\tDraws\tLosses\tScore%\tDraw%\t")
	for _, r := range t.Rows {
		fmt.Fprintf(tw, "%d\t%s\t%.0f\t%s\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t\n", r.Rank, r.Player, r.Rating, plusMinus(r.Error), r.Games, r.Wins, r.Draws, r.Losses, r.Pct, r.DrawPct)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	names := make([]string, len(t.Rows))
	short := make([]string, len(t.Rows))
	for i, r := range t.Rows {
		names[i], short[i] = r.Player, abbreviate(r.Player)
	}
	fmt.Fprintln(w, "\nLikelihood of superiority (row stronger than column), %")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\t"+strings.Join(short, "\t")+"\t")
	for _, a := range names {
		fmt.Fprint(tw, a+"\t")
		for _, b := range names {
			if a == b {
				fmt.Fprint(tw, "-\t")
			} else {
				fmt.Fprintf(tw, "%.1f\t", 100*t.LOS[a][b])
			}
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nCrosstable (row's points against column / games)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\t"+strings.Join(short, "\t")+"\t")
	for _, a := range names {
		fmt.Fprint(tw, a+"\t")
		for _, b := range names {
			c, ok := t.Cross[a][b]
			switch {
			case a == b:
				fmt.Fprint(tw, "-\t")
			case !ok:
				fmt.Fprint(tw, "\t")
			default:
				fmt.Fprintf(tw, "%g/%d\t", c.Points, c.Wins+c.Draws+c.Losses)
			}
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

func plusMinus(e float64) string {
	if math.IsInf(e, 0) || math.IsNaN(e) {
		return "-"
	}
	return fmt.Sprintf("%.0f", e)
}

// abbreviate shortens a column heading.
func abbreviate(name string) string {
	if len(name) <= 8 {
		return name
	}
	return name[:7] + "."
}

// loadGames reads the games to rate: one tournament's, or every tournament's of a game.
func loadGames(ctx context.Context, db *sqlite.DB, tid int64, gameName string) ([]store.Game, string, error) {
	if tid != 0 {
		t, err := findTournament(ctx, db, tid, db.Path())
		if err != nil {
			return nil, "", fmt.Errorf("--tournament: %w", err)
		}
		games, err := db.Games(ctx, tid)
		return games, fmt.Sprintf("tournament %d (%s)", tid, t.Game), err
	}
	ts, err := db.Tournaments(ctx, "")
	if err != nil {
		return nil, "", err
	}
	kinds := map[string]bool{}
	var all []store.Game
	n := 0
	for _, t := range ts {
		if gameName != "" && t.Game != gameName {
			continue
		}
		kinds[t.Game] = true
		n++
		games, err := db.Games(ctx, t.ID)
		if err != nil {
			return nil, "", err
		}
		all = append(all, games...)
	}
	if len(kinds) > 1 {
		var ks []string
		for k := range kinds {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return nil, "", usagef("the database holds games of %s: choose one with --game", strings.Join(ks, ", "))
	}
	if len(kinds) == 0 {
		return nil, "", fmt.Errorf("no tournaments%s in the database", map[bool]string{true: " of " + gameName, false: ""}[gameName != ""])
	}
	var g string
	for k := range kinds {
		g = k
	}
	return all, fmt.Sprintf("%d tournaments of %s", n, g), nil
}
