package tdleaf

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/arenaref/arena/internal/atomicfile"
	"github.com/arenaref/arena/lab/plot"
	"github.com/arenaref/arena/players/agents/minimax"
)

// Point is one point of a learning curve.
type Point struct {
	// Game is the training games played.
	Game int
	// Train is the learner's score in the training games since the previous point
	// (teacher mode; empty in self-play, where the learner plays itself).
	Train Score
	// Test is the score of the test pass played at this point, if any.
	Test *Score
	// Learned and Cut count the turns learned from and those whose variation was cut
	// short, since the previous point.
	Learned, Cut int
	// Weights are the learnable weights at this point.
	Weights []float64
}

// Describe says what the point holds, as the progress lines of arena tune-checkers train
// show it after the game number: the training score, the test score and the turns
// learned from, each when there is one.
func (p Point) Describe() string {
	var s string
	if p.Train.Games() > 0 {
		s += fmt.Sprintf(": training %.1f%% (+%d =%d -%d)", p.Train.Percent(), p.Train.Wins, p.Train.Draws, p.Train.Losses)
	}
	if p.Test != nil {
		s += fmt.Sprintf(", test %.1f%% (+%d =%d -%d)", p.Test.Percent(), p.Test.Wins, p.Test.Draws, p.Test.Losses)
	}
	if p.Learned+p.Cut > 0 {
		s += fmt.Sprintf(", %d turns learned from, %.1f%% cut short", p.Learned, 100*float64(p.Cut)/float64(p.Learned+p.Cut))
	}
	return s
}

// LoadWeights reads the learnable weights of a checkers weights file of minimax, to
// start a training from (Config.Init).
func LoadWeights(path string) ([]float64, error) {
	f, err := minimax.LoadCheckersFile(path)
	if err != nil {
		return nil, err
	}
	e, err := f.Eval()
	if err != nil {
		return nil, err
	}
	return e.Weights(), nil
}

// Curve collects training events into a learning curve: a point every Every games,
// at every test pass, and at the last game.
type Curve struct {
	Every int // games between points; at least 1
	Last  int // the last game of the run, which always makes a point
	// Teacher tallies the training games' results, which are the learner's against the
	// hand-tuned player in teacher mode (in self-play they are the learner's against
	// itself, and not tallied).
	Teacher bool
	Points  []Point
	open    Point // the point being collected
}

// Add takes one event.
func (c *Curve) Add(ev Event) {
	if ev.Game > 0 && c.Teacher {
		c.open.Train.add(ev.Result)
	}
	if ev.Game > 0 {
		c.open.Learned += ev.Learned
		c.open.Cut += ev.Cut
	}
	if ev.Test == nil && ev.Game != c.Last && (c.Every < 1 || ev.Game%c.Every != 0) {
		return
	}
	p := c.open
	p.Game, p.Test, p.Weights = ev.Game, ev.Test, ev.Weights
	c.Points = append(c.Points, p)
	c.open = Point{}
}

// WriteCSV writes the curve: per point the games played, the training score since the
// previous point (wins, draws, losses, percent), the test score (empty without a test),
// the turns learned from and cut short, and the weights by name.
func (c *Curve) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"game", "train_wins", "train_draws", "train_losses", "train_score", "test_wins", "test_draws", "test_losses", "test_score", "learned", "cut"}
	cw.Write(append(head, minimax.CheckersTermNames()...))
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, p := range c.Points {
		row := []string{strconv.Itoa(p.Game)}
		if p.Train.Games() > 0 {
			row = append(row, strconv.Itoa(p.Train.Wins), strconv.Itoa(p.Train.Draws), strconv.Itoa(p.Train.Losses), f(p.Train.Percent()))
		} else {
			row = append(row, "", "", "", "")
		}
		if p.Test != nil {
			row = append(row, strconv.Itoa(p.Test.Wins), strconv.Itoa(p.Test.Draws), strconv.Itoa(p.Test.Losses), f(p.Test.Percent()))
		} else {
			row = append(row, "", "", "", "")
		}
		row = append(row, strconv.Itoa(p.Learned), strconv.Itoa(p.Cut))
		for _, x := range p.Weights {
			row = append(row, f(x))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// WriteFiles writes the curve beside a weights file: base.csv (WriteCSV) and base.svg
// (Chart, titled title), each replaced whole or not at all.
func (c *Curve) WriteFiles(base, title string) error {
	if err := atomicfile.Write(base+".csv", c.WriteCSV); err != nil {
		return err
	}
	ch, err := c.Chart(title)
	if err != nil {
		return err
	}
	return atomicfile.Write(base+".svg", func(w io.Writer) error { return plot.WriteSVG(w, ch) })
}

// Chart returns the curve as a chart of the learner's score against the hand-tuned
// player: in the training games (teacher mode) and in the test passes, whichever the
// run has.
func (c *Curve) Chart(title string) (plot.Chart, error) {
	train := plot.Series{Name: "training games (vs hand-tuned)"}
	test := plot.Series{Name: "test pass (vs hand-tuned)"}
	for _, p := range c.Points {
		if p.Train.Games() > 0 {
			train.X = append(train.X, float64(p.Game))
			train.Y = append(train.Y, p.Train.Percent())
		}
		if p.Test != nil {
			test.X = append(test.X, float64(p.Game))
			test.Y = append(test.Y, p.Test.Percent())
		}
	}
	ch := plot.Chart{Title: title, XLabel: "training games", YLabel: "score of the learner (%)", YMin: 0, YMax: 100}
	for _, s := range []plot.Series{train, test} {
		if len(s.X) > 0 {
			ch.Series = append(ch.Series, s)
		}
	}
	if len(ch.Series) == 0 {
		return ch, fmt.Errorf("tdleaf: the curve has no score to draw")
	}
	return ch, nil
}
