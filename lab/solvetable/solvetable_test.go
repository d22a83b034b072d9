package solvetable

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/games/atarigo"
	"github.com/arenaref/arena/lab/captureset"
	"github.com/arenaref/arena/players/ai/widening"
)

// set holds an attack problem and the defence problem of the same string.
const set = "9x9-001\t........./..XO...../.OOX..X../........./..O.X.O../...X...../..X..O.../........./......... w target=C8\tB8\tattack\tgnugo-9x9-game2-ply12\n" +
	"9x9-002\t........./..XO...../.OOX..X../........./..O.X.O../...X...../..X..O.../........./......... b target=C8\tE8\tdefend\tgnugo-9x9-game2-ply12\n"

func TestReadAndConvert(t *testing.T) {
	ps, err := Read(strings.NewReader(set))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 {
		t.Fatalf("%d problems, want 2", len(ps))
	}
	for _, p := range ps {
		n := p.State.Size()
		if p.Input.Size != n || p.Input.Target != int(p.State.Target()) || p.Input.Ko != -1 {
			t.Errorf("%s: input %+v does not match the position", p.ID, p.Input)
		}
		for q := range n * n {
			want := map[atarigo.Color]widening.Color{atarigo.Empty: widening.Empty, atarigo.Black: widening.Black, atarigo.White: widening.White}[p.State.At(atarigo.Point(q))]
			if p.Input.Stones[q] != want {
				t.Fatalf("%s: point %d is %v, want %v", p.ID, q, p.Input.Stones[q], want)
			}
		}
	}
	if ps[0].Input.ToMove != widening.White || ps[1].Input.ToMove != widening.Black {
		t.Errorf("sides to move %v, %v; want white then black", ps[0].Input.ToMove, ps[1].Input.ToMove)
	}
	if _, err := Read(strings.NewReader("1\tjunk\tA1\tattack\tx\n")); !errors.Is(err, captureset.ErrBadProblem) {
		t.Errorf("junk: %v; want ErrBadProblem", err)
	}
}

func TestSameString(t *testing.T) {
	g, err := atarigo.NewCaptureGame(1, atarigo.DefaultSafe, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.Parse("...../.XX../..X../X..../..... b target=B4")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) atarigo.Point {
		p, err := atarigo.ParsePoint(s, 5)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tt := range []struct {
		a, b string
		want bool
	}{{"B4", "C3", true}, {"C4", "B4", true}, {"B4", "A2", false}, {"B4", "D4", false}, {"A1", "A1", false}} {
		if got := SameString(st, at(tt.a), at(tt.b)); got != tt.want {
			t.Errorf("SameString(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestRunAndMarkdown(t *testing.T) {
	ps, err := Read(strings.NewReader(set))
	if err != nil {
		t.Fatal(err)
	}
	all := widening.Strategies()
	calls := 0
	rows, err := Run(context.Background(), ps, Config{Strategies: []widening.Strategy{all[0], all[2]}, Limits: []time.Duration{time.Second}, KeepTable: []bool{false, true}, Progress: func(done, total int) {
		calls++
		if total != 8 || done != calls {
			t.Errorf("progress %d/%d at call %d", done, total, calls)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	for _, r := range rows {
		if r.Solved != 2 || r.Nodes <= 0 || r.Sizes[9] != [2]int{2, 2} || !r.SolvedIDs["9x9-002"] {
			t.Errorf("%s keep=%v: %+v; want both solved", r.Strategy, r.KeepTable, r)
		}
	}
	var out bytes.Buffer
	if err := Markdown(&out, "set", rows); err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), "| 3 | OR2-2AND1-2 |") != 2 || !strings.Contains(out.String(), "100.00% | 2 |") {
		t.Errorf("markdown:\n%s", out.String())
	}
}
