package tdleaf

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/arenaref/arena/lab/plot"
)

// MaxResultsBytes bounds a results file: a row per weight set and depth takes some 30
// bytes, so this is room for thousands of matches.
const MaxResultsBytes = 1 << 20

// ErrResults is wrapped by the errors about a results file's content.
var ErrResults = errors.New("tdleaf: bad results file")

// Result is one evaluation match: a weight set against the hand-tuned player, both
// searching Depth plies, from the set's side.
type Result struct {
	Set   string
	Depth int
	Score Score
}

// ReadResults reads a results file: CSV with the header set,depth,wins,draws,losses
// and a row per match, at most one per set and depth, at most MaxResultsBytes.
func ReadResults(r io.Reader) ([]Result, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxResultsBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxResultsBytes {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrResults, MaxResultsBytes)
	}
	cr := csv.NewReader(strings.NewReader(string(data)))
	cr.FieldsPerRecord = -1 // checked below, after the header, with clearer errors
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrResults, err)
	}
	want := []string{"set", "depth", "wins", "draws", "losses"}
	if len(rows) == 0 || !slices.Equal(rows[0], want) {
		return nil, fmt.Errorf("%w: the first line must be %s", ErrResults, strings.Join(want, ","))
	}
	var out []Result
	seen := map[string]bool{}
	for i, row := range rows[1:] {
		line := i + 2
		if len(row) != len(want) {
			return nil, fmt.Errorf("%w: line %d: %d fields, want %d", ErrResults, line, len(row), len(want))
		}
		if row[0] == "" {
			return nil, fmt.Errorf("%w: line %d: no set name", ErrResults, line)
		}
		var n [4]int
		for k, text := range row[1:] {
			v, err := strconv.Atoi(text)
			if err != nil || v < 0 || v > 1e9 {
				return nil, fmt.Errorf("%w: line %d: %s %q: want a whole number from 0 to 1e9", ErrResults, line, want[k+1], text)
			}
			n[k] = v
		}
		if n[0] < 1 || n[0] > 1000 {
			return nil, fmt.Errorf("%w: line %d: depth %d: want 1 to 1000", ErrResults, line, n[0])
		}
		key := row[0] + "\x00" + strconv.Itoa(n[0])
		if seen[key] {
			return nil, fmt.Errorf("%w: line %d: set %s at depth %d given twice", ErrResults, line, row[0], n[0])
		}
		seen[key] = true
		out = append(out, Result{Set: row[0], Depth: n[0], Score: Score{Wins: n[1], Draws: n[2], Losses: n[3]}})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no results", ErrResults)
	}
	return out, nil
}

// sets returns the sets of rs in the order they first appear.
func sets(rs []Result) []string {
	var names []string
	for _, r := range rs {
		if !slices.Contains(names, r.Set) {
			names = append(names, r.Set)
		}
	}
	return names
}

// DepthChart returns the chart of each set's score against the hand-tuned player by
// search depth, a line per set in the order the sets first appear, with the even score
// (50%) drawn as a line of its own.
func DepthChart(rs []Result, title string) plot.Chart {
	ch := plot.Chart{Title: title, XLabel: "search depth of both players (plies)", YLabel: "score against hand-tuned (%)", YMin: 0, YMax: 100}
	lo, hi := rs[0].Depth, rs[0].Depth
	for _, name := range sets(rs) {
		s := plot.Series{Name: name}
		var mine []Result
		for _, r := range rs {
			if r.Set == name {
				mine = append(mine, r)
			}
		}
		slices.SortFunc(mine, func(a, b Result) int { return a.Depth - b.Depth })
		for _, r := range mine {
			s.X = append(s.X, float64(r.Depth))
			s.Y = append(s.Y, r.Score.Percent())
			lo, hi = min(lo, r.Depth), max(hi, r.Depth)
		}
		ch.Series = append(ch.Series, s)
	}
	ch.Series = append(ch.Series, plot.Series{Name: "even (50%)", X: []float64{float64(lo), float64(hi)}, Y: []float64{50, 50}})
	return ch
}

// DepthTable returns the results as a Markdown table: a row per depth, a column per set,
// each cell the set's score in percent and its wins, draws and losses.
func DepthTable(rs []Result) string {
	names := sets(rs)
	cell := map[string]Score{}
	var depths []int
	for _, r := range rs {
		cell[r.Set+"\x00"+strconv.Itoa(r.Depth)] = r.Score
		if !slices.Contains(depths, r.Depth) {
			depths = append(depths, r.Depth)
		}
	}
	slices.Sort(depths)
	var b strings.Builder
	b.WriteString("| depth |")
	for _, n := range names {
		fmt.Fprintf(&b, " %s |", n)
	}
	b.WriteString("\n|---:|")
	for range names {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, d := range depths {
		fmt.Fprintf(&b, "| %d |", d)
		for _, n := range names {
			sc, ok := cell[n+"\x00"+strconv.Itoa(d)]
			if !ok {
				b.WriteString(" - |")
				continue
			}
			fmt.Fprintf(&b, " %.1f%% (+%d =%d -%d) |", sc.Percent(), sc.Wins, sc.Draws, sc.Losses)
		}
		b.WriteString("\n")
	}
	return b.String()
}
