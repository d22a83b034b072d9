package tdleaf

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/lab/plot"
	"github.com/arenaref/arena/players/agents/minimax"
)

const sampleResults = `set,depth,wins,draws,losses
teacher-5,1,10,20,2
teacher-5,5,4,30,4
zero,5,0,10,30
teacher-5,3,6,26,0
`

func TestReadResults(t *testing.T) {
	rs, err := ReadResults(strings.NewReader(sampleResults))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 4 || rs[2] != (Result{Set: "zero", Depth: 5, Score: Score{0, 10, 30}}) {
		t.Fatalf("results %+v", rs)
	}
	if got := rs[1].Score.Percent(); got != 50 {
		t.Errorf("4 wins, 30 draws, 4 losses: %v%%, want 50", got)
	}
}

func TestReadResultsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"empty", "", "first line"},
		{"header", "set,depth,wins,losses,draws\n", "first line"},
		{"no rows", "set,depth,wins,draws,losses\n", "no results"},
		{"fields", "set,depth,wins,draws,losses\na,1,2,3\n", "line 2: 4 fields, want 5"},
		{"quotes", "set,depth,wins,draws,losses\n\"a,1,2,3,4\n", "quote"},
		{"no set", "set,depth,wins,draws,losses\n,1,2,3,4\n", "no set name"},
		{"depth 0", "set,depth,wins,draws,losses\na,0,2,3,4\n", "depth 0"},
		{"negative", "set,depth,wins,draws,losses\na,1,-2,3,4\n", `wins "-2"`},
		{"not a number", "set,depth,wins,draws,losses\na,1,2,x,4\n", `draws "x"`},
		{"twice", "set,depth,wins,draws,losses\na,1,2,3,4\na,01,2,3,4\n", "given twice"},
		{"too large", "set,depth,wins,draws,losses\n" + strings.Repeat("a,1,2,3,4\n", MaxResultsBytes/10+1), "larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadResults(strings.NewReader(tc.text))
			if !errors.Is(err, ErrResults) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrResults mentioning %q", err, tc.want)
			}
		})
	}
}

// FuzzReadResults: no input makes the reader panic, and what it reads makes a table
// and a chart that plot accepts.
func FuzzReadResults(f *testing.F) {
	f.Add([]byte(sampleResults))
	f.Add([]byte("set,depth,wins,draws,losses\n\"a,b\",2,0,0,0\n"))
	f.Add([]byte("set,depth,wins,draws,losses\na,1,0,0,0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := ReadResults(bytes.NewReader(data))
		if err != nil {
			return
		}
		if tab := DepthTable(rs); !strings.HasPrefix(tab, "| depth |") {
			t.Fatalf("table %q", tab)
		}
		if err := plot.WriteSVG(&bytes.Buffer{}, DepthChart(rs, "t")); err != nil {
			t.Fatalf("chart: %v", err)
		}
	})
}

func TestDepthTableAndChart(t *testing.T) {
	rs, err := ReadResults(strings.NewReader(sampleResults))
	if err != nil {
		t.Fatal(err)
	}
	want := `| depth | teacher-5 | zero |
|---:|---:|---:|
| 1 | 62.5% (+10 =20 -2) | - |
| 3 | 59.4% (+6 =26 -0) | - |
| 5 | 50.0% (+4 =30 -4) | 12.5% (+0 =10 -30) |
`
	if got := DepthTable(rs); got != want {
		t.Errorf("table\n%s\nwant\n%s", got, want)
	}
	ch := DepthChart(rs, "title")
	if len(ch.Series) != 3 || ch.Series[0].Name != "teacher-5" || ch.Series[2].Name != "even (50%)" {
		t.Fatalf("series %+v", ch.Series)
	}
	// Sorted by depth, whatever the file's order.
	if x := ch.Series[0].X; len(x) != 3 || x[0] != 1 || x[1] != 3 || x[2] != 5 {
		t.Errorf("teacher-5 depths %v", x)
	}
	if even := ch.Series[2]; even.X[0] != 1 || even.X[1] != 5 || even.Y[0] != 50 {
		t.Errorf("even line %+v", even)
	}
	if err := plot.WriteSVG(&bytes.Buffer{}, ch); err != nil {
		t.Error(err)
	}
}

// TestCurve: points every Every games, at test passes and at the last game, the
// training score tallied in teacher mode only.
func TestCurve(t *testing.T) {
	w := make([]float64, minimax.CheckersTerms)
	events := []Event{
		{Game: 0, Test: &Score{Losses: 2}, Weights: w},
		{Game: 1, Result: 1, Learned: 10, Weights: w},
		{Game: 2, Result: 0, Learned: 12, Cut: 1, Weights: w},
		{Game: 3, Result: -1, Learned: 8, Weights: w, Test: &Score{Wins: 1, Losses: 1}},
		{Game: 4, Result: 1, Learned: 9, Weights: w},
		{Game: 5, Result: 1, Learned: 9, Weights: w},
	}
	for _, teacher := range []bool{true, false} {
		c := &Curve{Every: 2, Last: 5, Teacher: teacher}
		for _, ev := range events {
			c.Add(ev)
		}
		var games []int
		for _, p := range c.Points {
			games = append(games, p.Game)
		}
		if len(games) != 5 || games[0] != 0 || games[1] != 2 || games[2] != 3 || games[3] != 4 || games[4] != 5 {
			t.Fatalf("points at games %v, want 0 2 3 4 5", games)
		}
		p := c.Points[1]
		if p.Learned != 22 || p.Cut != 1 {
			t.Errorf("point at 2: %+v", p)
		}
		wantTrain := Score{Wins: 1, Draws: 1}
		if !teacher {
			wantTrain = Score{}
		}
		if p.Train != wantTrain {
			t.Errorf("teacher %v: training score %+v, want %+v", teacher, p.Train, wantTrain)
		}
		var buf bytes.Buffer
		if err := c.WriteCSV(&buf); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil || len(rows) != 6 || len(rows[0]) != 11+minimax.CheckersTerms || rows[1][8] != "0" || rows[4][8] != "" {
			t.Errorf("CSV %v (%v)", rows, err)
		}
		ch, err := c.Chart("t")
		if err != nil {
			t.Fatal(err)
		}
		wantSeries := 2
		if !teacher {
			wantSeries = 1
		}
		if len(ch.Series) != wantSeries {
			t.Errorf("teacher %v: %d series", teacher, len(ch.Series))
		}
		base := filepath.Join(t.TempDir(), "w")
		if err := c.WriteFiles(base, "t"); err != nil {
			t.Fatal(err)
		}
		for _, ext := range []string{".csv", ".svg"} {
			if b, err := os.ReadFile(base + ext); err != nil || len(b) == 0 {
				t.Errorf("%s%s: %d bytes (%v)", base, ext, len(b), err)
			}
		}
	}
	if _, err := (&Curve{}).Chart("t"); err == nil {
		t.Error("an empty curve charted")
	}
}
