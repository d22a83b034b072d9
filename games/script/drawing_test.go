package script

import (
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/arenaref/arena/game"
)

// TestLibraryDrawings plays random games of every game of the library, with its options
// at their defaults and at other values, and draws every position: each draws, its
// drawing passes game.Drawing.Check, and it shows as many pieces as the position text has
// (Quoridor: two pawns and the walls its text lists).
func TestLibraryDrawings(t *testing.T) {
	specs := map[string][]string{
		"breakthrough": {"breakthrough", "breakthrough:height=5,width=3", "breakthrough:height=12,width=12"},
		"fourinarow":   {"fourinarow", "fourinarow:height=4,width=5"},
		"gomoku":       {"gomoku:size=7", "gomoku:size=19"},
		"quixo":        {"quixo:limit=40"},
		"quoridor":     {"quoridor:size=5,walls=3", "quoridor"},
	}
	for _, name := range Library() {
		if len(specs[name]) == 0 {
			t.Errorf("library game %s has no specs to draw here", name)
		}
		for _, spec := range specs[name] {
			t.Run(spec, func(t *testing.T) {
				g, err := game.Lookup(spec)
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(1, uint64(len(spec))))
				games, plies := 3, 60
				if strings.HasPrefix(spec, "quoridor") {
					games = 2
				}
				positions, named := 0, 0
				for range games {
					s := g.NewState()
					mover, moveText := game.Seat(-1), ""
					for ply := 0; ply <= plies; ply++ {
						d, err := game.Draw(s)
						if err != nil {
							t.Fatalf("%s: %v", s, err)
						}
						if got, want := drawnCount(d), textCount(name, s.String()); got != want {
							t.Fatalf("%s: %d pieces and walls drawn, the text has %d: %+v", s, got, want, d)
						}
						if d.ToMove != int(s.ToMove()) {
							t.Fatalf("%s: to_move %d, want %d", s, d.ToMove, s.ToMove())
						}
						if wantCoords := libraryCoords[name]; d.Coords != wantCoords {
							t.Fatalf("%s: coords %q, want %q", s, d.Coords, wantCoords)
						}
						if at, ok := placeNamed(d, moveText); ok {
							if seatAt(d, at) != int(mover) {
								t.Fatalf("%s: after %s the page's coordinates name %v, where seat %d has no piece: %+v", s, moveText, at, mover, d.Pieces)
							}
							named++
						}
						positions++
						if s.IsTerminal() {
							break
						}
						moves := s.LegalMoves(s.ToMove(), nil)
						m := moves[rng.IntN(len(moves))]
						mover, moveText = s.ToMove(), s.MoveString(m)
						if err := s.Play(m); err != nil {
							t.Fatal(err)
						}
					}
				}
				if libraryCoords[name] != "" && named == 0 {
					t.Errorf("no move's destination was found by the coordinates")
				}
				t.Logf("%d positions drawn, %d moves' destinations found by the coordinates", positions, named)
			})
		}
	}
}

// libraryCoords are the coordinates each library game's board shows: those its move text
// names places with.
var libraryCoords = map[string]string{"breakthrough": "bottom", "gomoku": "bottom", "quixo": "bottom", "quoridor": "bottom"}

// placeNamed is the place of d that the last square named by a move's text is at, read
// by d's coordinates: "h8" (gomoku), "a2-a3" and "b4xc5" (breakthrough, quixo: the
// square moved to), "e2" (a Quoridor pawn's step; a wall, "e2h", names no square). ok is
// false for a text that names no square, or on a board without coordinates.
func placeNamed(d game.Drawing, text string) (at [2]int, ok bool) {
	if i := strings.LastIndexAny(text, "-x"); i >= 0 {
		text = text[i+1:]
	}
	if d.Coords == "" || len(text) < 2 || text[0] < 'a' || text[0] > 'z' {
		return at, false
	}
	n, err := strconv.Atoi(text[1:])
	if err != nil || n < 1 || n > d.Height {
		return at, false
	}
	row := n - 1
	if d.Coords == game.CoordsBottom {
		row = d.Height - n
	}
	return [2]int{int(text[0] - 'a'), row}, true
}

// seatAt is the seat of d's piece at at, or -1.
func seatAt(d game.Drawing, at [2]int) int {
	for _, p := range d.Pieces {
		if p.At == at {
			return p.Seat
		}
	}
	return -1
}

// drawnCount counts a drawing's pieces and walls.
func drawnCount(d game.Drawing) int { return len(d.Pieces) + len(d.Walls) }

// textCount counts the pieces, and walls, of a library game's position text.
func textCount(name, text string) int {
	fields := strings.Fields(text)
	if name == "quoridor" { // two pawns, then the horizontal and the vertical walls
		n := 2
		for _, w := range fields[4:6] {
			if w != "-" {
				n += strings.Count(w, ",") + 1
			}
		}
		return n
	}
	n := 0
	for _, c := range fields[0] { // the rows; '.' is empty
		if c != '.' && c != '/' {
			n++
		}
	}
	return n
}

// withDraw is the tic-tac-toe of docs/examples with draw replaced by def, or without
// draw when def is "".
func withDraw(t *testing.T, def string) *Game {
	t.Helper()
	src, err := os.ReadFile("../../docs/examples/tictactoe.star")
	if err != nil {
		t.Fatal(err)
	}
	rules, _, ok := strings.Cut(string(src), "def draw(")
	if !ok {
		t.Fatal("docs/examples/tictactoe.star has no draw")
	}
	p, err := Parse("draw.star", []byte(rules+def))
	if err != nil {
		t.Fatal(err)
	}
	g, err := p.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestDraw reads drawings of every part, and refuses, in one line that names draw's file
// and line, every result that is not a drawing.
func TestDraw(t *testing.T) {
	tests := []struct {
		name   string
		result string // what draw returns (the board is "x.o/.x./o..")
		want   string // a part of the error; "" when it draws
	}{
		{"squares", `{"board": "squares", "width": 3, "height": 3, "pieces": [{"at": [0, 0], "seat": 0}, {"at": (2, 0), "seat": 1, "label": "K"}]}`, ""},
		{"everything", `{"board": "squares", "width": 3, "height": 3, "pieces": (), "markers": [{"at": [1, 1], "kind": "last"}, {"at": [0, 2], "kind": "cross"}],
			"walls": [{"at": [0, 0], "dir": "h"}, {"at": [1, 1], "dir": "v"}]}`, ""},
		{"intersections", `{"board": "intersections", "width": 9, "height": 9, "markers": [{"at": [4, 4], "kind": "dot"}]}`, ""},
		{"coords and labels", `{"board": "squares", "width": 3, "height": 3, "coords": "bottom", "markers": [{"at": [1, 1], "kind": "label", "label": "12"}]}`, ""},
		{"no coords", `{"board": "squares", "width": 3, "height": 3, "coords": ""}`, ""},

		{"no dict", `[1, 2]`, "the drawing is a list; want a dict with the keys board, width, height, coords, pieces, markers, walls"},
		{"none", `None`, "the drawing is a NoneType"},
		{"unknown key", `{"board": "squares", "width": 3, "height": 3, "colour": "red"}`, `the drawing has the key "colour"; want only board`},
		{"key not a string", `{"board": "squares", "width": 3, "height": 3, 1: 2}`, "the drawing has the key 1"},
		{"no board", `{"width": 3, "height": 3}`, `the drawing has no "board"`},
		{"no height", `{"board": "squares", "width": 3}`, `the drawing has no "height"`},
		{"board not a string", `{"board": 1, "width": 3, "height": 3}`, `the drawing: "board" is 1 (a int); want a string`},
		{"hex", `{"board": "hex", "width": 3, "height": 3}`, `board "hex" is not drawn yet`},
		{"width a float", `{"board": "squares", "width": 3.0, "height": 3}`, `"width" is 3.0 (a float); want an int`},
		{"width a bool", `{"board": "squares", "width": True, "height": 3}`, `"width" is True (a bool); want an int`},
		{"width huge", `{"board": "squares", "width": 1 << 40, "height": 3}`, `want an int of 32 bits`},
		{"width too big", `{"board": "squares", "width": 65, "height": 3}`, `a 65x3 board`},
		{"pieces a dict", `{"board": "squares", "width": 3, "height": 3, "pieces": {}}`, `"pieces" is {} (a dict); want a list`},
		{"pieces a string", `{"board": "squares", "width": 3, "height": 3, "pieces": "xo"}`, `want a list`},
		{"piece not a dict", `{"board": "squares", "width": 3, "height": 3, "pieces": [[0, 0]]}`, `pieces[0] is a list; want a dict with the keys at, seat, label`},
		{"piece unknown key", `{"board": "squares", "width": 3, "height": 3, "pieces": [{"at": [0, 0], "seat": 0, "king": True}]}`, `pieces[0] has the key "king"`},
		{"piece without seat", `{"board": "squares", "width": 3, "height": 3, "pieces": [{"at": [0, 0]}]}`, `pieces[0] has no "seat"`},
		{"at of three", `{"board": "squares", "width": 3, "height": 3, "pieces": [{"at": [0, 0, 0], "seat": 0}]}`, `pieces[0]: "at" is [0, 0, 0] (a list); want [column, row]`},
		{"at a string", `{"board": "squares", "width": 3, "height": 3, "pieces": [{"at": "a1", "seat": 0}]}`, `want [column, row]`},
		{"at of strings", `{"board": "squares", "width": 3, "height": 3, "pieces": [{"at": ["a", 1], "seat": 0}]}`, `want [column, row], two ints`},
		{"at off the board", `{"board": "squares", "width": 3, "height": 3, "pieces": [{"at": [0, 0], "seat": 0}, {"at": [3, 0], "seat": 1}]}`, `pieces[1] at [3, 0] is off the 3x3 board`},
		{"seat a string", `{"board": "squares", "width": 3, "height": 3, "pieces": [{"at": [0, 0], "seat": "x"}]}`, `pieces[0]: "seat" is "x" (a string); want an int`},
		{"label an int", `{"board": "squares", "width": 3, "height": 3, "pieces": [{"at": [0, 0], "seat": 0, "label": 1}]}`, `"label" is 1 (a int); want a string`},
		{"label long", `{"board": "squares", "width": 3, "height": 3, "pieces": [{"at": [0, 0], "seat": 0, "label": "<b>x</b>"}]}`, `8 characters`},
		{"two pieces", `{"board": "squares", "width": 3, "height": 3, "pieces": [{"at": [0, 0], "seat": 0}] * 2}`, `pieces[1] at [0, 0]: another piece is there`},
		{"too many pieces", `{"board": "squares", "width": 3, "height": 3, "pieces": [{"at": [0, 0], "seat": 0}] * 5000}`, `the drawing has 5000 pieces; at most 4096`},
		{"marker kind", `{"board": "squares", "width": 3, "height": 3, "markers": [{"at": [0, 0], "kind": "star"}]}`, `markers[0] kind "star"`},
		{"marker without kind", `{"board": "squares", "width": 3, "height": 3, "markers": [{"at": [0, 0]}]}`, `markers[0] has no "kind"`},
		{"coords an int", `{"board": "squares", "width": 3, "height": 3, "coords": 1}`, `the drawing: "coords" is 1 (a int); want a string`},
		{"coords None", `{"board": "squares", "width": 3, "height": 3, "coords": None}`, `"coords" is None (a NoneType); want a string`},
		{"coords left", `{"board": "squares", "width": 3, "height": 3, "coords": "left"}`, `coords "left": want "top", "bottom" or none`},
		{"to_move from the script", `{"board": "squares", "width": 3, "height": 3, "to_move": 0}`, `the drawing has the key "to_move"`},
		{"marker label an int", `{"board": "squares", "width": 3, "height": 3, "markers": [{"at": [0, 0], "kind": "label", "label": 7}]}`, `markers[0]: "label" is 7 (a int); want a string`},
		{"label marker without label", `{"board": "squares", "width": 3, "height": 3, "markers": [{"at": [0, 0], "kind": "label"}]}`, `markers[0] of kind "label" has no label`},
		{"dot with a label", `{"board": "squares", "width": 3, "height": 3, "markers": [{"at": [0, 0], "kind": "dot", "label": "1"}]}`, `markers[0] of kind "dot" has a label`},
		{"marker label long", `{"board": "squares", "width": 3, "height": 3, "markers": [{"at": [0, 0], "kind": "label", "label": "1000"}]}`, `markers[0] label "1000": 4 characters`},
		{"wall with a label", `{"board": "squares", "width": 3, "height": 3, "walls": [{"at": [0, 0], "dir": "v", "label": "1"}]}`, `walls[0] has the key "label"; want only at, dir`},
		{"wall dir", `{"board": "squares", "width": 3, "height": 3, "walls": [{"at": [0, 0], "dir": 1}]}`, `walls[0]: "dir" is 1 (a int); want a string`},
		{"wall off", `{"board": "squares", "width": 3, "height": 3, "walls": [{"at": [2, 0], "dir": "v"}]}`, `walls[0] at [2, 0]: want a crossing`},
		{"walls on intersections", `{"board": "intersections", "width": 3, "height": 3, "walls": [{"at": [0, 0], "dir": "v"}]}`, `walls on a board of intersections`},
		{"fails", `fail("no picture today")`, "draw.star:64:16: in draw: no picture today"},
		{"loops", `[0 for _ in range(1 << 30)]`, "stopped after 5000000 steps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := withDraw(t, "def draw(board):\n    return "+strings.ReplaceAll(tt.result, "\n", " ")+"\n")
			s, err := g.ParseState("x.o/.x./o..")
			if err != nil {
				t.Fatal(err)
			}
			d, err := s.(*State).Draw()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Draw() = %v", err)
			case tt.want == "":
				if err := d.Check(); err != nil {
					t.Errorf("Draw() gave a drawing that fails Check: %v", err)
				}
			case err == nil:
				t.Fatalf("Draw() = %+v, want an error with %q", d, tt.want)
			case !errors.Is(err, game.ErrRules) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n"):
				t.Fatalf("Draw() = %v\nwant one line wrapping game.ErrRules with %q", err, tt.want)
			case tt.name != "fails" && tt.name != "loops" && !strings.Contains(err.Error(), "draw.star:63:1: in draw:"):
				t.Errorf("Draw() = %v: the error does not name draw's line", err)
			}
		})
	}
}

// TestDrawTicTacToe: the example of docs/games.md draws its position.
func TestDrawTicTacToe(t *testing.T) {
	g := loadGame(t, "../../docs/examples/tictactoe.star", nil)
	s, err := g.ParseState("x.o/.x./o..")
	if err != nil {
		t.Fatal(err)
	}
	d, err := game.Draw(s)
	if err != nil {
		t.Fatal(err)
	}
	want := []game.Piece{{At: [2]int{0, 0}, Seat: 0}, {At: [2]int{2, 0}, Seat: 1}, {At: [2]int{1, 1}, Seat: 0}, {At: [2]int{0, 2}, Seat: 1}}
	if d.Board != game.BoardSquares || d.Width != 3 || d.Height != 3 || len(d.Pieces) != len(want) {
		t.Fatalf("drawing %+v", d)
	}
	for i := range want {
		if d.Pieces[i] != want[i] {
			t.Errorf("pieces[%d] = %+v, want %+v", i, d.Pieces[i], want[i])
		}
	}
}

// TestNoDraw: a game file without draw says so with game.ErrNoDrawing, and nothing
// else.
func TestNoDraw(t *testing.T) {
	s := withDraw(t, "").NewState()
	if _, err := game.Draw(s); !errors.Is(err, game.ErrNoDrawing) || errors.Is(err, game.ErrRules) {
		t.Errorf("Draw() = %v, want ErrNoDrawing", err)
	}
}

// TestDocsDrawing reads the drawing docs/games.md shows under "The drawing" as the
// value of a draw function: it must be a drawing.
func TestDocsDrawing(t *testing.T) {
	doc, err := os.ReadFile("../../docs/games.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "### The drawing\n")
	_, block, found := strings.Cut(section, "```python\n")
	block, _, ok := strings.Cut(block, "```\n")
	if !found || !ok {
		t.Fatal(`docs/games.md has no python block under "### The drawing"`)
	}
	thread := &starlark.Thread{Name: "docs"}
	v, err := starlark.EvalOptions(fileOptions, thread, "games.md", block, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := readDrawing(v)
	if err == nil {
		err = d.Check()
	}
	if err != nil {
		t.Fatalf("the drawing of docs/games.md: %v", err)
	}
	labelled := false
	for _, m := range d.Markers {
		labelled = labelled || m.Kind == game.MarkLabel && m.Label != ""
	}
	if len(d.Pieces) == 0 || len(d.Markers) == 0 || len(d.Walls) == 0 || d.Pieces[len(d.Pieces)-1].Label == "" || d.Coords == "" || !labelled {
		t.Errorf("the drawing of docs/games.md should show every part (coords, pieces, a label, markers, a label marker, walls): %+v", d)
	}
}

// TestDrawReadsEverything: coords and a label marker's label arrive in the drawing as
// the script wrote them, and to_move is the rules' (x to move in "x.o/.x./o.." is seat 0;
// a draw cannot say otherwise).
func TestDrawReadsEverything(t *testing.T) {
	g := withDraw(t, `def draw(board):
    return {"board": "squares", "width": 3, "height": 3, "coords": "top",
            "markers": [{"at": [2, 1], "kind": "label", "label": "a1"}, {"at": [0, 0], "kind": "dot"}]}
`)
	for _, tt := range []struct {
		pos    string
		toMove int
	}{{"x.o/.x./o..", 0}, {"xxo/.x./o..", 1}, {"xxx/oo./...", int(game.Terminal)}} {
		s, err := g.ParseState(tt.pos)
		if err != nil {
			t.Fatal(err)
		}
		d, err := game.Draw(s)
		if err != nil {
			t.Fatal(err)
		}
		want := []game.Marker{{At: [2]int{2, 1}, Kind: game.MarkLabel, Label: "a1"}, {At: [2]int{0, 0}, Kind: game.MarkDot}}
		if d.Coords != game.CoordsTop || len(d.Markers) != 2 || d.Markers[0] != want[0] || d.Markers[1] != want[1] || d.ToMove != tt.toMove {
			t.Errorf("%s: drawn as %+v; want coords top, markers %+v, to_move %d", tt.pos, d, want, tt.toMove)
		}
	}
}
