package game_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/testutil/testgame"
)

func TestDrawingCheck(t *testing.T) {
	squares := func(w, h int) game.Drawing { return game.Drawing{Board: game.BoardSquares, Width: w, Height: h} }
	with := func(d game.Drawing, f func(*game.Drawing)) game.Drawing { f(&d); return d }
	full := squares(2, 2)
	for y := range 2 {
		for x := range 2 {
			full.Pieces = append(full.Pieces, game.Piece{At: [2]int{x, y}, Seat: (x + y) % 2})
		}
	}
	tests := []struct {
		name string
		d    game.Drawing
		want string // a part of the error; "" for none
	}{
		{"empty squares", squares(1, 1), ""},
		{"largest", squares(64, 64), ""},
		{"intersections", game.Drawing{Board: game.BoardIntersections, Width: 19, Height: 19,
			Pieces: []game.Piece{{At: [2]int{3, 15}}, {At: [2]int{15, 3}, Seat: 1}}, Markers: []game.Marker{{At: [2]int{3, 15}, Kind: game.MarkLast}}}, ""},
		{"full board", full, ""},
		{"every seat and label", with(squares(8, 1), func(d *game.Drawing) {
			for s := range game.MaxDrawingSeats {
				d.Pieces = append(d.Pieces, game.Piece{At: [2]int{s, 0}, Seat: s, Label: []string{"K", "♔", "12", "Q+1", "", "é", "x", "*"}[s]})
			}
		}), ""},
		{"markers", with(squares(3, 3), func(d *game.Drawing) {
			d.Markers = []game.Marker{{At: [2]int{0, 0}, Kind: "last"}, {At: [2]int{0, 0}, Kind: "dot"}, {At: [2]int{2, 2}, Kind: "cross"}}
		}), ""},
		{"label markers", with(squares(8, 8), func(d *game.Drawing) {
			d.Markers = []game.Marker{{At: [2]int{1, 0}, Kind: "label", Label: "1"}, {At: [2]int{0, 7}, Kind: "label", Label: "32"}, {At: [2]int{0, 7}, Kind: "last"}}
		}), ""},
		{"coords top", with(squares(8, 8), func(d *game.Drawing) { d.Coords = "top" }), ""},
		{"coords bottom on the widest", with(squares(26, 64), func(d *game.Drawing) { d.Coords = "bottom" }), ""},
		{"over", with(squares(3, 3), func(d *game.Drawing) { d.ToMove = -1 }), ""},
		{"all at once", with(squares(3, 3), func(d *game.Drawing) { d.ToMove = -2 }), ""},
		{"last seat to move", with(squares(3, 3), func(d *game.Drawing) { d.ToMove = game.MaxDrawingSeats - 1 }), ""},
		{"quoridor walls", with(squares(9, 9), func(d *game.Drawing) {
			d.Walls = []game.Wall{{At: [2]int{0, 0}, Dir: "h"}, {At: [2]int{0, 0}, Dir: "v"}, {At: [2]int{7, 7}, Dir: "h"}}
		}), ""},

		{"no board", game.Drawing{Width: 3, Height: 3}, `board ""`},
		{"hex", game.Drawing{Board: "hex", Width: 3, Height: 3}, `"hex" is not drawn yet`},
		{"unknown board", game.Drawing{Board: "circle", Width: 3, Height: 3}, `board "circle"`},
		{"zero width", squares(0, 3), "a 0x3 board"},
		{"negative height", squares(3, -1), "a 3x-1 board"},
		{"too wide", squares(65, 3), "a 65x3 board"},
		{"too tall", squares(3, 65), "a 3x65 board"},
		{"too many pieces", with(full, func(d *game.Drawing) { d.Pieces = append(d.Pieces, d.Pieces[0]) }), "5 pieces on a board of 4 places"},
		{"piece off left", with(squares(3, 3), func(d *game.Drawing) { d.Pieces = []game.Piece{{At: [2]int{-1, 0}}} }), "pieces[0] at [-1, 0] is off the 3x3 board"},
		{"piece off right", with(squares(3, 3), func(d *game.Drawing) { d.Pieces = []game.Piece{{At: [2]int{3, 0}}} }), "is off"},
		{"piece off bottom", with(squares(3, 3), func(d *game.Drawing) { d.Pieces = []game.Piece{{At: [2]int{0, 0}}, {At: [2]int{0, 3}}} }), "pieces[1] at [0, 3] is off"},
		{"two pieces in one place", with(squares(3, 3), func(d *game.Drawing) {
			d.Pieces = []game.Piece{{At: [2]int{1, 2}}, {At: [2]int{2, 1}}, {At: [2]int{1, 2}, Seat: 1}}
		}), "pieces[2] at [1, 2]: another piece is there"},
		{"negative seat", with(squares(3, 3), func(d *game.Drawing) { d.Pieces = []game.Piece{{Seat: -1}} }), "seat -1"},
		{"seat too big", with(squares(3, 3), func(d *game.Drawing) { d.Pieces = []game.Piece{{Seat: game.MaxDrawingSeats}} }), "seat 8: want 0 to 7"},
		{"long label", with(squares(3, 3), func(d *game.Drawing) { d.Pieces = []game.Piece{{Label: "King"}} }), "4 characters"},
		{"label with space", with(squares(3, 3), func(d *game.Drawing) { d.Pieces = []game.Piece{{Label: "K "}} }), "not printable"},
		{"label with control", with(squares(3, 3), func(d *game.Drawing) { d.Pieces = []game.Piece{{Label: "\x1b"}} }), "not printable"},
		{"label not UTF-8", with(squares(3, 3), func(d *game.Drawing) { d.Pieces = []game.Piece{{Label: "\xff"}} }), "not UTF-8"},
		{"marker off", with(squares(3, 3), func(d *game.Drawing) { d.Markers = []game.Marker{{At: [2]int{0, -1}, Kind: "dot"}} }), "markers[0] at [0, -1] is off"},
		{"marker kind", with(squares(3, 3), func(d *game.Drawing) { d.Markers = []game.Marker{{Kind: "star"}} }), `markers[0] kind "star"`},
		{"label marker without label", with(squares(3, 3), func(d *game.Drawing) { d.Markers = []game.Marker{{Kind: "label"}} }), `markers[0] of kind "label" has no label`},
		{"dot with a label", with(squares(3, 3), func(d *game.Drawing) { d.Markers = []game.Marker{{Kind: "dot", Label: "1"}} }), `markers[0] of kind "dot" has a label`},
		{"long marker label", with(squares(3, 3), func(d *game.Drawing) { d.Markers = []game.Marker{{Kind: "label", Label: "1000"}} }), "markers[0] label \"1000\": 4 characters"},
		{"marker label with control", with(squares(3, 3), func(d *game.Drawing) {
			d.Markers = []game.Marker{{Kind: "dot"}, {At: [2]int{1, 1}, Kind: "label", Label: "a\n"}}
		}), "markers[1] label \"a\\n\": character U+000A is not printable"},
		{"coords left", with(squares(3, 3), func(d *game.Drawing) { d.Coords = "left" }), `coords "left": want "top", "bottom" or none`},
		{"coords in capitals", with(squares(3, 3), func(d *game.Drawing) { d.Coords = "Top" }), `coords "Top"`},
		{"coords past z", with(squares(27, 3), func(d *game.Drawing) { d.Coords = "top" }), "coords on a board 27 wide"},
		{"to_move too low", with(squares(3, 3), func(d *game.Drawing) { d.ToMove = -3 }), "to_move -3"},
		{"to_move past the seats", with(squares(3, 3), func(d *game.Drawing) { d.ToMove = game.MaxDrawingSeats }), "to_move 8: want a seat, 0 to 7"},
		{"too many markers", with(squares(1, 1), func(d *game.Drawing) { d.Markers = []game.Marker{{Kind: "dot"}, {Kind: "last"}} }), "2 markers on a board of 1 places"},
		{"walls on intersections", game.Drawing{Board: game.BoardIntersections, Width: 9, Height: 9, Walls: []game.Wall{{Dir: "h"}}}, "walls on a board of intersections"},
		{"wall on the right edge", with(squares(9, 9), func(d *game.Drawing) { d.Walls = []game.Wall{{At: [2]int{8, 0}, Dir: "v"}} }), "walls[0] at [8, 0]: want a crossing, [0 to 7, 0 to 7]"},
		{"wall on the bottom edge", with(squares(9, 9), func(d *game.Drawing) { d.Walls = []game.Wall{{At: [2]int{0, 8}, Dir: "h"}} }), "walls[0] at [0, 8]"},
		{"wall off", with(squares(9, 9), func(d *game.Drawing) { d.Walls = []game.Wall{{At: [2]int{-1, 0}, Dir: "h"}} }), "walls[0] at [-1, 0]"},
		{"wall on a board one wide", with(squares(1, 5), func(d *game.Drawing) { d.Walls = []game.Wall{{Dir: "h"}} }), "1 walls on a board of 0 crossings"},
		{"wall dir", with(squares(9, 9), func(d *game.Drawing) { d.Walls = []game.Wall{{Dir: "H"}} }), `walls[0] dir "H"`},
		{"wall twice", with(squares(9, 9), func(d *game.Drawing) {
			d.Walls = []game.Wall{{At: [2]int{3, 4}, Dir: "v"}, {At: [2]int{3, 4}, Dir: "h"}, {At: [2]int{3, 4}, Dir: "v"}}
		}), "walls[2] at [3, 4] v is there twice"},
		{"too many walls", with(squares(2, 2), func(d *game.Drawing) {
			d.Walls = []game.Wall{{Dir: "v"}, {Dir: "h"}, {Dir: "v"}}
		}), "3 walls on a board of 1 crossings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.d.Check()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Check() = %v, want nil", err)
			case tt.want == "":
			case err == nil:
				t.Fatalf("Check() = nil, want an error with %q", tt.want)
			case !errors.Is(err, game.ErrBadDrawing) || !strings.Contains(err.Error(), tt.want):
				t.Fatalf("Check() = %v, want an error wrapping ErrBadDrawing with %q", err, tt.want)
			}
		})
	}
}

// TestDrawingJSON: the JSON names are the ones a game file's dict uses, and the optional
// lists are left out when empty.
func TestDrawingJSON(t *testing.T) {
	d := game.Drawing{Board: "squares", Width: 9, Height: 9, Coords: "bottom", ToMove: 1,
		Pieces:  []game.Piece{{At: [2]int{4, 8}, Seat: 0}, {At: [2]int{4, 0}, Seat: 1, Label: "K"}},
		Markers: []game.Marker{{At: [2]int{4, 8}, Kind: "last"}, {At: [2]int{0, 0}, Kind: "label", Label: "12"}},
		Walls:   []game.Wall{{At: [2]int{0, 7}, Dir: "h"}}}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"board":"squares","width":9,"height":9,"coords":"bottom","to_move":1,"pieces":[{"at":[4,8],"seat":0},{"at":[4,0],"seat":1,"label":"K"}],` +
		`"markers":[{"at":[4,8],"kind":"last"},{"at":[0,0],"kind":"label","label":"12"}],"walls":[{"at":[0,7],"dir":"h"}]}`
	if string(b) != want {
		t.Errorf("JSON\n got  %s\n want %s", b, want)
	}
	if b, _ := json.Marshal(game.Drawing{Board: "intersections", Width: 5, Height: 5}); string(b) != `{"board":"intersections","width":5,"height":5,"to_move":0}` {
		t.Errorf("empty drawing: %s", b)
	}
}

// drawer is a state that draws itself as it is told.
type drawer struct {
	game.State
	d   game.Drawing
	err error
}

func (s drawer) Draw() (game.Drawing, error) { return s.d, s.err }

func TestDraw(t *testing.T) {
	st := testgame.NewCount(3).NewState()
	if _, err := game.Draw(st); !errors.Is(err, game.ErrNoDrawing) {
		t.Errorf("a state that is no Drawer: %v, want ErrNoDrawing", err)
	}
	good := game.Drawing{Board: "squares", Width: 3, Height: 1, Pieces: []game.Piece{{At: [2]int{2, 0}}}, ToMove: 5}
	if d, err := game.Draw(drawer{st, good, nil}); err != nil || len(d.Pieces) != 1 || d.ToMove != 0 {
		t.Errorf("a good drawing at the start: %+v, %v; want seat 0 to move, whatever the Draw says", d, err)
	}
	next := st.Clone()
	if err := next.Play(next.LegalMoves(0, nil)[0]); err != nil {
		t.Fatal(err)
	}
	if d, err := game.Draw(drawer{next, good, nil}); err != nil || d.ToMove != int(next.ToMove()) || d.ToMove != 1 {
		t.Errorf("a good drawing after a move: to_move %d, %v; want %d", d.ToMove, err, next.ToMove())
	}
	over := st.Clone()
	for !over.IsTerminal() {
		if err := over.Play(over.LegalMoves(over.ToMove(), nil)[0]); err != nil {
			t.Fatal(err)
		}
	}
	if d, err := game.Draw(drawer{over, good, nil}); err != nil || d.ToMove != int(game.Terminal) {
		t.Errorf("a good drawing at the end: to_move %d, %v; want %d", d.ToMove, err, game.Terminal)
	}
	if d, err := game.Draw(drawer{testgame.NewPennies(3).NewState(), good, nil}); err != nil || d.ToMove != int(game.Simultaneous) {
		t.Errorf("a good drawing of a simultaneous turn: to_move %d, %v; want %d", d.ToMove, err, game.Simultaneous)
	}
	if _, err := game.Draw(drawer{st, game.Drawing{Board: "squares"}, nil}); !errors.Is(err, game.ErrBadDrawing) {
		t.Errorf("a bad drawing: %v, want ErrBadDrawing", err)
	}
	failed := fmt.Errorf("%w: draw failed", game.ErrRules)
	if _, err := game.Draw(drawer{st, good, failed}); !errors.Is(err, game.ErrRules) {
		t.Errorf("a failing Draw: %v, want its error", err)
	}
}

func ExampleDrawing_Check() {
	d := game.Drawing{Board: game.BoardSquares, Width: 3, Height: 3,
		Pieces: []game.Piece{{At: [2]int{1, 1}, Seat: 0}, {At: [2]int{1, 3}, Seat: 1}}}
	fmt.Println(d.Check())
	d.Pieces[1].At = [2]int{1, 2}
	fmt.Println(d.Check())
	// Output:
	// game: bad drawing: pieces[1] at [1, 3] is off the 3x3 board
	// <nil>
}

// TestDrawingMarshalJSON: Drawing's own encoder writes what encoding/json writes of the
// struct by its tags, for drawings of every part and strings that need escaping.
func TestDrawingMarshalJSON(t *testing.T) {
	type plain game.Drawing // the same struct without the MarshalJSON method
	rng := rand.New(rand.NewPCG(7, 8))
	labels := []string{"", "K", "<b>", "&", `"`, `\`, "é", "♔", "\x01", "\xff", "a\u2028"}
	words := []string{"squares", "intersections", "hex", "", "h", "v", "last", "dot", "label", "top", "bottom", `x"y`, "<"}
	for i := range 500 {
		d := game.Drawing{Board: words[rng.IntN(len(words))], Width: rng.IntN(130) - 1, Height: rng.IntN(70),
			Coords: words[rng.IntN(len(words))], ToMove: rng.IntN(12) - 3}
		for range rng.IntN(5) {
			d.Pieces = append(d.Pieces, game.Piece{At: [2]int{rng.IntN(200) - 100, rng.IntN(64)}, Seat: rng.IntN(10) - 1, Label: labels[rng.IntN(len(labels))]})
		}
		for range rng.IntN(3) {
			d.Markers = append(d.Markers, game.Marker{At: [2]int{rng.IntN(64), rng.IntN(64)}, Kind: words[rng.IntN(len(words))], Label: labels[rng.IntN(len(labels))]})
		}
		for range rng.IntN(3) {
			d.Walls = append(d.Walls, game.Wall{At: [2]int{rng.IntN(64), -rng.IntN(64)}, Dir: words[rng.IntN(len(words))]})
		}
		got, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(plain(d))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("drawing %d:\n got  %s\n want %s", i, got, want)
		}
	}
}

func BenchmarkDrawingMarshalJSON(b *testing.B) {
	d := game.Drawing{Board: game.BoardSquares, Width: 8, Height: 8}
	for i := range 64 {
		d.Pieces = append(d.Pieces, game.Piece{At: [2]int{i % 8, i / 8}, Seat: i % 2})
	}
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		buf = d.AppendJSON(buf[:0])
	}
}
