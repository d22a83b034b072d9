package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// learningCurves is a typical chart: two engines' win rates over a few hundred games.
func learningCurves() Chart {
	var a, b Series
	a.Name, b.Name = "td-lambda", "baseline (random)"
	for g := 0; g <= 400; g += 20 {
		x := float64(g)
		a.X = append(a.X, x)
		a.Y = append(a.Y, 100-50*math.Exp(-x/120))
		b.X = append(b.X, x)
		b.Y = append(b.Y, 50+3*math.Sin(x/37))
	}
	return Chart{
		Title:  "Learning curve: othello",
		XLabel: "game",
		YLabel: "win rate (%)",
		Series: []Series{a, b},
		YMin:   0, YMax: 100,
	}
}

func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSVG(&buf, learningCurves()); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "two_series.svg")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("output differs from %s; if the change is intended, run go test -run TestGolden -update", golden)
	}
	// The same chart must come out the same every time.
	var again bytes.Buffer
	if err := WriteSVG(&again, learningCurves()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("two writes of the same chart differ")
	}
}

func TestWellFormed(t *testing.T) {
	many := make([]Series, 12)
	for i := range many {
		many[i] = Series{Name: strings.Repeat("x", i), X: []float64{0, 1}, Y: []float64{float64(i), float64(i + 1)}}
	}
	tests := []struct {
		name  string
		chart Chart
		texts []string // must appear as text content, unescaped
	}{
		{"two series", learningCurves(), []string{"td-lambda", "baseline (random)", "Learning curve: othello"}},
		{"markup in text", Chart{
			Title:  `<script>alert("x")</script> & co`,
			XLabel: "a < b",
			YLabel: `it's "quoted"`,
			Series: []Series{
				{Name: `<b>&amp; "me" 'you'`, X: []float64{1, 2, 3}, Y: []float64{3, 1, 2}},
				{Name: "]]> <!-- -->", X: []float64{1, 3}, Y: []float64{0, 0}},
			},
		}, []string{`<script>alert("x")</script> & co`, "a < b", `it's "quoted"`, `<b>&amp; "me" 'you'`, "]]> <!-- -->"}},
		{"control and invalid bytes", Chart{
			Series: []Series{{Name: "bell\a nul\x00 bad\xff", X: []float64{0, 1}, Y: []float64{0, 1}}},
		}, nil},
		{"single point", Chart{Series: []Series{{Name: "dot", X: []float64{5}, Y: []float64{0.5}}}}, []string{"dot"}},
		{"empty series", Chart{Series: []Series{
			{Name: "none"},
			{Name: "some", X: []float64{0, 1}, Y: []float64{2, 3}},
		}}, []string{"none", "some"}},
		{"only empty series", Chart{Series: []Series{{Name: "none"}}}, []string{"none"}},
		{"unnamed", Chart{Series: []Series{{X: []float64{0, 1}, Y: []float64{2, 3}}}}, nil},
		{"flat line", Chart{Series: []Series{{Name: "flat", X: []float64{0, 1, 2}, Y: []float64{7, 7, 7}}}}, nil},
		{"outside fixed range", Chart{YMin: 0, YMax: 1, Series: []Series{{Name: "wild", X: []float64{0, 1, 2}, Y: []float64{-1e300, 0.5, 1e300}}}}, nil},
		{"extreme range", Chart{Series: []Series{{Name: "huge", X: []float64{-math.MaxFloat64, math.MaxFloat64}, Y: []float64{-math.MaxFloat64, math.MaxFloat64}}}}, nil},
		{"tiny range", Chart{Series: []Series{{Name: "tiny", X: []float64{0, 5e-324}, Y: []float64{1, 1 + 1e-15}}}}, nil},
		{"many series", Chart{Series: many, Width: 300, Height: 120}, nil},
		{"long name", Chart{Series: []Series{{Name: strings.Repeat("long ", 100), X: []float64{0, 1}, Y: []float64{0, 1}}}}, nil},
		{"tiny canvas", Chart{Width: 1, Height: 1, Title: "t", XLabel: "x", YLabel: "y", Series: []Series{{Name: "s", X: []float64{0, 1}, Y: []float64{0, 1}}}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteSVG(&buf, tt.chart); err != nil {
				t.Fatal(err)
			}
			texts := parseXML(t, buf.Bytes())
			for _, want := range tt.texts {
				if !strings.Contains(texts, want) {
					t.Errorf("text %q missing from the document", want)
				}
			}
		})
	}
}

// parseXML reads doc to its end as XML and returns its text content.
func parseXML(t *testing.T, doc []byte) string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	var texts strings.Builder
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, doc)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
			}
		case xml.CharData:
			texts.Write(tok)
			texts.WriteByte('\n')
		}
	}
	if root != "svg" {
		t.Fatalf("root element %q, want svg", root)
	}
	return texts.String()
}

func TestErrors(t *testing.T) {
	ok := Series{Name: "ok", X: []float64{0, 1}, Y: []float64{0, 1}}
	tests := []struct {
		name  string
		chart Chart
		want  error
	}{
		{"nil series", Chart{}, ErrNoSeries},
		{"no series", Chart{Series: []Series{}}, ErrNoSeries},
		{"length mismatch", Chart{Series: []Series{ok, {Name: "bad", X: []float64{0, 1}, Y: []float64{0}}}}, ErrLengthMismatch},
		{"x only", Chart{Series: []Series{{X: []float64{1}}}}, ErrLengthMismatch},
		{"NaN x", Chart{Series: []Series{{X: []float64{0, math.NaN()}, Y: []float64{0, 1}}}}, ErrNotFinite},
		{"NaN y", Chart{Series: []Series{{X: []float64{0, 1}, Y: []float64{math.NaN(), 1}}}}, ErrNotFinite},
		{"+Inf y", Chart{Series: []Series{ok, {X: []float64{0}, Y: []float64{math.Inf(1)}}}}, ErrNotFinite},
		{"-Inf x", Chart{Series: []Series{{X: []float64{math.Inf(-1)}, Y: []float64{0}}}}, ErrNotFinite},
		{"Inf YMax", Chart{Series: []Series{ok}, YMax: math.Inf(1)}, ErrNotFinite},
		{"NaN YMin", Chart{Series: []Series{ok}, YMin: math.NaN()}, ErrNotFinite},
		{"negative width", Chart{Series: []Series{ok}, Width: -1}, ErrSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := WriteSVG(&buf, tt.chart)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %d bytes before failing", buf.Len())
			}
		})
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	if err := WriteSVG(failWriter{}, learningCurves()); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("error %v, want the writer's", err)
	}
}

func TestSinglePointIsDot(t *testing.T) {
	var buf bytes.Buffer
	c := Chart{Series: []Series{{Name: "one", X: []float64{3}, Y: []float64{4}}}}
	if err := WriteSVG(&buf, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "<circle") || strings.Contains(buf.String(), "<polyline") {
		t.Errorf("a single point should be drawn as a circle only:\n%s", buf.String())
	}
}

func TestDefaultSize(t *testing.T) {
	tests := []struct {
		name          string
		width, height int
		want          string
	}{
		{"zero", 0, 0, `width="800" height="450"`},
		{"set", 640, 480, `width="640" height="480"`},
		{"width only", 1000, 0, `width="1000" height="450"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := learningCurves()
			c.Width, c.Height = tt.width, tt.height
			var buf bytes.Buffer
			if err := WriteSVG(&buf, c); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), tt.want) {
				t.Errorf("no %s in the svg element", tt.want)
			}
		})
	}
}

// TestPaletteDistinct checks that the first series of a chart never share a style.
func TestPaletteDistinct(t *testing.T) {
	seen := map[[2]string]int{}
	for i := range len(palette) * len(dashes) {
		c, d := style(i)
		if j, ok := seen[[2]string{c, d}]; ok {
			t.Fatalf("series %d and %d share colour %s and dash %q", j, i, c, d)
		}
		seen[[2]string{c, d}] = i
	}
}

func bigChart(n int) Chart {
	s := Series{Name: "big", X: make([]float64, n), Y: make([]float64, n)}
	for i := range n {
		s.X[i] = float64(i)
		s.Y[i] = 50 + 40*math.Sin(float64(i)/1000) + float64(i%7)
	}
	return Chart{Series: []Series{s}, YMin: 0, YMax: 100}
}

// TestAllocsIndependentOfPoints guards against allocating per point: a chart of 100k
// points must allocate no more than one of 100.
func TestAllocsIndependentOfPoints(t *testing.T) {
	small, big := bigChart(100), bigChart(100_000)
	allocs := func(c Chart) float64 {
		return testing.AllocsPerRun(3, func() {
			if err := WriteSVG(io.Discard, c); err != nil {
				t.Fatal(err)
			}
		})
	}
	if a, b := allocs(small), allocs(big); b > a+5 {
		t.Errorf("%v allocations for 100k points, %v for 100", b, a)
	}
}

func BenchmarkWriteSVG100k(b *testing.B) {
	c := bigChart(100_000)
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteSVG(io.Discard, c); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzWriteSVG(f *testing.F) {
	f.Add("a<b&c", 0.0, 1.0, 2.0, 3.0, 0.0, 0.0)
	f.Add("", 5.0, 5.0, 5.0, 5.0, 0.0, 100.0)
	f.Add("\xff\x00", -1e308, 1e308, 1e-320, 0.0, 1.0, 1.0)
	f.Fuzz(func(t *testing.T, name string, x0, x1, y0, y1, ymin, ymax float64) {
		c := Chart{Title: name, YMin: ymin, YMax: ymax, Series: []Series{
			{Name: name, X: []float64{x0, x1}, Y: []float64{y0, y1}},
			{Name: name, X: []float64{x0}, Y: []float64{y1}},
		}}
		var buf bytes.Buffer
		if err := WriteSVG(&buf, c); err != nil {
			if errors.Is(err, ErrNotFinite) {
				return
			}
			t.Fatal(err)
		}
		parseXML(t, buf.Bytes())
	})
}
