package plot_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/arenaref/arena/lab/plot"
)

func ExampleWriteSVG() {
	curve := plot.Series{Name: "td-lambda"}
	for game, wins := 1, 0; game <= 1000; game++ {
		if game%3 != 0 || game > 500 {
			wins++
		}
		curve.X = append(curve.X, float64(game))
		curve.Y = append(curve.Y, 100*float64(wins)/float64(game))
	}
	path := filepath.Join(os.TempDir(), "example-learning-curve.svg")
	f, err := os.Create(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.Remove(path)
	defer f.Close()
	err = plot.WriteSVG(f, plot.Chart{
		Title:  "Learning curve",
		XLabel: "game",
		YLabel: "win rate (%)",
		Series: []plot.Series{curve},
		YMin:   0,
		YMax:   100,
	})
	fmt.Println(err)
	// Output: <nil>
}
