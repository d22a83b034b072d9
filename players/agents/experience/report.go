package experience

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/arenaref/arena/games/othello"
)

// Report describes a base as arena experience stats shows it: its Stats, the figures
// derived from them and a summary of the games merged last.
type Report struct {
	Base         string  `json:"base"`
	Game         string  `json:"game"`
	Stats        Stats   `json:"stats"`
	BytesPerNode float64 `json:"bytes_per_node"`
	NodesPerGame float64 `json:"nodes_per_game"`
	HitRate      float64 `json:"hit_rate"`
	Recent       Recent  `json:"recent"`
}

// Recent summarises the last games merged into a base.
type Recent struct {
	Games      int     `json:"games"`
	MeanMargin float64 `json:"mean_margin"` // from the experience player's side
	Won        int     `json:"won"`
	HitRate    float64 `json:"hit_rate"`
}

// Report returns the base's Report, with the last recent games summarised. Report.Base
// is left to the caller, who names the base as its user did (Path is absolute).
func (b *Base) Report(recent int) (Report, error) {
	st, err := b.Stats()
	if err != nil {
		return Report{}, err
	}
	games, err := b.Games()
	if err != nil {
		return Report{}, err
	}
	r := Report{Game: b.Game(), Stats: st, Recent: RecentGames(games, recent)}
	if st.Nodes > 0 {
		r.BytesPerNode = float64(st.Bytes) / float64(st.Nodes)
	}
	if st.Decisions > 0 {
		r.HitRate = 100 * float64(st.Hits) / float64(st.Decisions)
	}
	if len(games) > 0 {
		r.NodesPerGame = float64(st.Nodes) / float64(len(games))
	}
	return r, nil
}

// RecentGames summarises the last n of rows, from the experience player's side: a
// margin counts for it when it played Black, against it when it played White.
func RecentGames(rows []GameRow, n int) Recent {
	if len(rows) > n {
		rows = rows[len(rows)-n:]
	}
	var w Recent
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

// WriteText writes the report as the table arena experience stats prints.
func (r Report) WriteText(w io.Writer) error {
	st := r.Stats
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "base\t%s (%s)\n", r.Base, r.Game)
	fmt.Fprintf(tw, "games merged\t%d\n", st.Games)
	fmt.Fprintf(tw, "nodes\t%d (%.1f per game)\n", st.Nodes, r.NodesPerGame)
	fmt.Fprintf(tw, "arcs\t%d\n", st.Arcs)
	fmt.Fprintf(tw, "size\t%d bytes (%.0f per node)\n", st.Bytes, r.BytesPerNode)
	fmt.Fprintf(tw, "hit rate\t%.1f%% (%d of %d moves decided from the base)\n", r.HitRate, st.Hits, st.Decisions)
	if rc := r.Recent; rc.Games > 0 {
		fmt.Fprintf(tw, "last %d games\tmean margin %+.1f, won %d, hit rate %.1f%%\n", rc.Games, rc.MeanMargin, rc.Won, rc.HitRate)
	}
	return tw.Flush()
}
