package experiencerun

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/lab/plot"
	"github.com/arenaref/arena/lab/train"
	"github.com/arenaref/arena/players/agents/experience"
	"github.com/arenaref/arena/players/player/local"
)

// Config is an experience run.
type Config struct {
	Game      *othello.Game
	Base      string           // the experience base: created when missing, else it carries on learning
	Opponents []train.Opponent // played in turn
	Games     int
	// Fallback is the experience player's fallback agent, with FallbackParams its
	// parameters (none: the experience player's defaults).
	Fallback       string
	FallbackParams map[string]string
	RandomPlies    int // plies played at random at the start of each game
	Seed           uint64
}

// OpponentError is an opponent that cannot play: an unknown agent, bad parameters or a
// game it does not play.
type OpponentError struct {
	Name string
	Err  error
}

func (e *OpponentError) Error() string { return e.Name + ": " + e.Err.Error() }
func (e *OpponentError) Unwrap() error { return e.Err }

// Row is one game of a run, from the experience player's side.
type Row struct {
	Game     int // from 1
	Opponent string
	Seat     game.Seat
	Margin   int // the final disc margin
	Hits     int // moves decided from the base
	Moves    int // moves the experience player decided
	Nodes    int
	Bytes    int64 // the base's size after the game (experience.Stats.Bytes)
	Seconds  float64
}

// Run plays cfg.Games games, calling progress after each, and returns their rows.
func Run(ctx context.Context, cfg Config, progress func(Row)) ([]Row, error) {
	params := map[string]string{"base": cfg.Base, "size": strconv.Itoa(cfg.Game.Size()), "fallback": cfg.Fallback}
	for k, v := range cfg.FallbackParams {
		params["fb."+k] = v
	}
	gina, err := experience.New(agent.Config{Seed: int64(cfg.Seed), Params: params})
	if err != nil {
		return nil, err
	}
	defer gina.Close()
	if err := gina.CheckGame(cfg.Game); err != nil {
		return nil, err
	}
	opps := make([]agent.Agent, len(cfg.Opponents))
	for i, o := range cfg.Opponents {
		a, err := agent.New(o.Agent, agent.Config{Seed: int64(cfg.Seed) + int64(i) + 1, Params: o.Params})
		if err != nil {
			return nil, &OpponentError{o.Name, err}
		}
		defer agent.Close(a)
		if gc, ok := a.(agent.GameChecker); ok {
			if err := gc.CheckGame(cfg.Game); err != nil {
				return nil, &OpponentError{o.Name, err}
			}
		}
		opps[i] = a
	}

	var rows []Row
	rng := rand.New(rand.NewPCG(cfg.Seed, 0xe4))
	for i := range cfg.Games {
		o := i % len(cfg.Opponents)
		seat := game.Seat((i / len(cfg.Opponents)) % 2) // each opponent meets both colours in turn
		seats := []local.Player{{Name: "experience", Agent: gina}, {Name: cfg.Opponents[o].Name, Agent: opps[o]}}
		if seat == othello.White {
			seats[0], seats[1] = seats[1], seats[0]
		}
		pos := cfg.Game.NewState()
		var buf []game.Move
		for pos.Ply() < cfg.RandomPlies && !pos.IsTerminal() {
			buf = pos.LegalMoves(pos.ToMove(), buf[:0])
			_ = pos.Play(buf[rng.IntN(len(buf))])
		}
		t0 := time.Now()
		id := fmt.Sprintf("x%d", i+1)
		res, err := local.Play(ctx, cfg.Game, pos, seats, id)
		if err != nil {
			return rows, err
		}
		if err := gina.Err(); err != nil {
			return rows, err
		}
		margin := res.Final.(*othello.State).Margin()
		if seat == othello.White {
			margin = -margin
		}
		last, ok, err := gina.Base().LastGame()
		if err != nil {
			return rows, err
		}
		if !ok || last.GameID != id {
			return rows, fmt.Errorf("game %d was not merged into the base", i+1)
		}
		st, err := gina.Base().Stats()
		if err != nil {
			return rows, err
		}
		r := Row{Game: i + 1, Opponent: cfg.Opponents[o].Name, Seat: seat, Margin: margin, Hits: last.Hits, Moves: last.Decisions,
			Nodes: st.Nodes, Bytes: st.Bytes, Seconds: time.Since(t0).Seconds()}
		rows = append(rows, r)
		if progress != nil {
			progress(r)
		}
	}
	return rows, nil
}

// Curves are the learning curves of a run: moving averages over a window of games.
type Curves struct {
	Margin, HitRate, Size plot.Series
}

// NewCurves returns the curves of rows, averaged over the last window games at each.
func NewCurves(rows []Row, window int) Curves {
	c := Curves{
		Margin:  plot.Series{Name: fmt.Sprintf("mean final margin, last %d games", window)},
		HitRate: plot.Series{Name: fmt.Sprintf("hit rate %%, last %d games", window)},
		Size:    plot.Series{Name: "nodes in the base"},
	}
	for i := range rows {
		lo := max(0, i+1-window)
		var m, h, d int
		for _, r := range rows[lo : i+1] {
			m, h, d = m+r.Margin, h+r.Hits, d+r.Moves
		}
		x := float64(i + 1)
		c.Margin.X, c.Margin.Y = append(c.Margin.X, x), append(c.Margin.Y, float64(m)/float64(i+1-lo))
		c.HitRate.X, c.HitRate.Y = append(c.HitRate.X, x), append(c.HitRate.Y, 100*float64(h)/float64(max(d, 1)))
		c.Size.X, c.Size.Y = append(c.Size.X, x), append(c.Size.Y, float64(rows[i].Nodes))
	}
	return c
}

// Write writes rows and their curves over window games as OUT.csv and the charts
// OUT-margin.svg, OUT-hits.svg and OUT-size.svg, titled title.
func Write(out, title string, rows []Row, window int) error {
	c := NewCurves(rows, window)
	ff := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	err := atomicfile.Write(out+".csv", func(w io.Writer) error {
		cw := csv.NewWriter(w)
		_ = cw.Write([]string{"game", "opponent", "seat", "margin", "hits", "moves", "hit_rate", "nodes", "bytes", "mean_margin_window", "hit_rate_window", "seconds"})
		for i, r := range rows {
			_ = cw.Write([]string{strconv.Itoa(r.Game), r.Opponent, []string{"black", "white"}[r.Seat], strconv.Itoa(r.Margin),
				strconv.Itoa(r.Hits), strconv.Itoa(r.Moves), ff(float64(r.Hits) / float64(max(r.Moves, 1))), strconv.Itoa(r.Nodes),
				strconv.FormatInt(r.Bytes, 10), ff(c.Margin.Y[i]), ff(c.HitRate.Y[i]), ff(r.Seconds)})
		}
		cw.Flush()
		return cw.Error()
	})
	if err != nil {
		return err
	}
	for _, f := range []struct {
		file   string
		ylabel string
		s      plot.Series
	}{
		{"-margin.svg", "final disc margin", c.Margin}, {"-hits.svg", "hit rate %", c.HitRate}, {"-size.svg", "nodes", c.Size},
	} {
		ch := plot.Chart{Title: title, XLabel: "game", YLabel: f.ylabel, Series: []plot.Series{f.s}}
		if f.file == "-hits.svg" {
			ch.YMin, ch.YMax = 0, 100
		}
		if err := atomicfile.Write(out+f.file, func(w io.Writer) error { return plot.WriteSVG(w, ch) }); err != nil {
			return err
		}
	}
	return nil
}

// SummaryWindows describes the first and the last games of rows, up to size each. When
// fewer than 2*size games were played the two windows split them in halves, so that no
// game counts in both; a single game is described alone.
func SummaryWindows(rows []Row, size int) string {
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

func summarize(rows []Row) summary {
	var s summary
	var h, d int
	for _, r := range rows {
		s.m += float64(r.Margin)
		if r.Margin > 0 {
			s.won++
		}
		h, d = h+r.Hits, d+r.Moves
	}
	s.m /= float64(max(1, len(rows)))
	s.hit = 100 * float64(h) / float64(max(1, d))
	return s
}
