package atarigo_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
)

// rows writes a drawing of intersections back as a position text's rows: X for seat 0,
// O for seat 1, the top row first.
func rows(t *testing.T, d game.Drawing) string {
	t.Helper()
	if d.Board != game.BoardIntersections || d.Width != d.Height {
		t.Fatalf("drawing of a %dx%d %s board", d.Width, d.Height, d.Board)
	}
	cells := make([][]byte, d.Height)
	for y := range cells {
		cells[y] = []byte(strings.Repeat(".", d.Width))
	}
	for _, p := range d.Pieces {
		cells[p.At[1]][p.At[0]] = "XO"[p.Seat]
	}
	out := make([]string, len(cells))
	for y, r := range cells {
		out[y] = string(r)
	}
	return strings.Join(out, "/")
}

// TestDraw: random games of atari-go on every size draw the stones of the position text.
func TestDraw(t *testing.T) {
	for _, spec := range []string{"atari-go:size=5", "atari-go", "atari-go:size=19"} {
		t.Run(spec, func(t *testing.T) {
			g, err := game.Lookup(spec)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			for range 20 {
				s := g.NewState()
				for !s.IsTerminal() {
					d, err := game.Draw(s)
					if err != nil {
						t.Fatal(err)
					}
					if board, _, _ := strings.Cut(s.String(), " "); rows(t, d) != board {
						t.Fatalf("%s drawn as %s", s, rows(t, d))
					}
					moves := s.LegalMoves(s.ToMove(), nil)
					if err := s.Play(moves[rng.IntN(len(moves))]); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

// TestDrawMarkers: a capture problem with a ko crosses the ko point and dots the target.
func TestDrawMarkers(t *testing.T) {
	g, err := game.Lookup("capture")
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.ParseState("...../...../.XO../X.XO./.XO.. w ko=B2 target=C3 played=1")
	if err != nil {
		t.Fatal(err)
	}
	d, err := s.(*atarigo.State).Draw()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rows(t, d), "...../...../.XO../X.XO./.XO.."; got != want {
		t.Errorf("stones %s, want %s", got, want)
	}
	want := []game.Marker{{At: [2]int{1, 3}, Kind: game.MarkCross}, {At: [2]int{2, 2}, Kind: game.MarkDot}}
	if len(d.Markers) != len(want) || d.Markers[0] != want[0] || d.Markers[1] != want[1] {
		t.Errorf("markers %+v, want %+v", d.Markers, want)
	}
}

// TestDrawCoords: boards of at most eight columns number the rows from the bottom and
// letter the columns as the move text does (C3 is drawn in column c, row 3 from the
// bottom); from nine columns on, where GTP's letters skip I, no coordinates.
func TestDrawCoords(t *testing.T) {
	for _, tt := range []struct {
		spec   string
		coords string
	}{
		{"atari-go:size=5", game.CoordsBottom},
		{"atari-go:size=8", game.CoordsBottom},
		{"atari-go", ""},
		{"atari-go:size=19", ""},
	} {
		g, err := game.Lookup(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		s := g.NewState()
		m, err := s.ParseMove("C3")
		if err == nil {
			err = s.Play(m)
		}
		if err != nil {
			t.Fatal(err)
		}
		d, err := game.Draw(s)
		if err != nil {
			t.Fatal(err)
		}
		if d.Coords != tt.coords {
			t.Errorf("%s: coords %q, want %q", tt.spec, d.Coords, tt.coords)
		}
		if want := [2]int{2, d.Height - 3}; len(d.Pieces) != 1 || d.Pieces[0].At != want {
			t.Errorf("%s: C3 drawn as %+v, want a stone at %v", tt.spec, d.Pieces, want)
		}
	}
}
