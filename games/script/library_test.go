package script

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/gametest"
)

// TestLibrary runs the conformance suite on every game of the library, with its options
// at their defaults and at other values, and checks that each file names its game as it is
// called.
func TestLibrary(t *testing.T) {
	specs := map[string][]string{
		"fourinarow":   {"fourinarow", "fourinarow:height=4,width=5"},
		"gomoku":       {"gomoku", "gomoku:size=7", "gomoku:exact=true,size=9", "gomoku:captures=true,size=7", "gomoku:captures=true"},
		"breakthrough": {"breakthrough", "breakthrough:height=5,width=3"},
		"quixo":        {"quixo", "quixo:limit=40"},
		"quoridor":     {"quoridor:size=5,walls=3", "quoridor"},
	}
	for _, name := range Library() {
		if _, err := LibraryProgram(name); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(specs[name]) == 0 {
			t.Errorf("library game %s has no specs to check here", name)
		}
		for _, spec := range specs[name] {
			t.Run(spec, func(t *testing.T) {
				g, err := game.Lookup(spec)
				if err != nil {
					t.Fatal(err)
				}
				if g.Name() != spec {
					t.Errorf("Name() = %q, want %q", g.Name(), spec)
				}
				playouts := 20
				if strings.HasPrefix(spec, "quoridor") || spec == "gomoku" || spec == "gomoku:captures=true" {
					playouts = 5
				}
				gametest.Run(t, g, gametest.Playouts(playouts))
			})
		}
	}
}

// ruleCase plays moves (by text) on a game and checks where it ends up.
type ruleCase struct {
	name    string
	spec    string
	from    string   // a position's text to start from; "" for the initial position
	moves   []string // played in turn; the last may be refused (refused)
	refused bool     // the last move is not legal
	over    bool
	returns []float64 // when over
	text    string    // the position after, when not ""
	legal   []string  // moves that must be legal after, by text
	illegal []string  // moves that must not be
}

func (c ruleCase) run(t *testing.T) {
	t.Helper()
	g, err := game.Lookup(c.spec)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewState()
	if c.from != "" {
		if s, err = g.ParseState(c.from); err != nil {
			t.Fatal(err)
		}
	}
	for i, text := range c.moves {
		m, err := s.ParseMove(text)
		if err == nil && game.IsLegal(s, s.ToMove(), m) {
			err = s.Play(m)
		} else if err == nil {
			err = game.ErrIllegalMove
		}
		last := i == len(c.moves)-1
		switch {
		case last && c.refused && err == nil:
			t.Fatalf("%s was accepted at %s", text, s)
		case last && c.refused:
			return
		case err != nil:
			t.Fatalf("move %d %s at %s: %v", i+1, text, s, err)
		}
	}
	if s.IsTerminal() != c.over || (c.over && !slices.Equal(s.Returns(nil), c.returns)) {
		t.Errorf("over %v, returns %v; want %v %v (%s)", s.IsTerminal(), s.Returns(nil), c.over, c.returns, s)
	}
	if c.text != "" && s.String() != c.text {
		t.Errorf("position %q, want %q", s.String(), c.text)
	}
	legal := map[string]bool{}
	for _, m := range s.LegalMoves(s.ToMove(), nil) {
		legal[s.MoveString(m)] = true
	}
	for _, m := range c.legal {
		if !legal[m] {
			t.Errorf("%s is not legal at %s", m, s)
		}
	}
	for _, m := range c.illegal {
		if legal[m] {
			t.Errorf("%s is legal at %s", m, s)
		}
	}
}

func runRules(t *testing.T, cases []ruleCase) {
	for _, c := range cases {
		t.Run(c.name, c.run)
	}
}

func TestGomokuRules(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "five in a row", spec: "gomoku", moves: []string{"a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"},
			over: true, returns: []float64{1, -1}},
		{name: "four is not five", spec: "gomoku", moves: []string{"a1", "a2", "b1", "b2", "c1", "c2", "d1"},
			legal: []string{"e1", "h8"}, illegal: []string{"a1", "d1", "p1", "a16"}},
		{name: "column for white", spec: "gomoku", moves: []string{"a1", "h1", "b1", "h2", "c1", "h3", "d2", "h4", "o15", "h5"},
			over: true, returns: []float64{-1, 1}},
		{name: "diagonal", spec: "gomoku", moves: []string{"a1", "a2", "b2", "a3", "c3", "a4", "d4", "a6", "e5"},
			over: true, returns: []float64{1, -1}},
		{name: "anti-diagonal", spec: "gomoku", moves: []string{"o1", "a2", "n2", "a3", "m3", "a4", "l4", "a6", "k5"},
			over: true, returns: []float64{1, -1}},
		{name: "six wins free-style", spec: "gomoku", moves: []string{"a1", "a5", "b1", "b5", "c1", "c5", "e1", "d5", "f1", "f5", "d1"},
			over: true, returns: []float64{1, -1}},
		{name: "six does not win exact", spec: "gomoku:exact=true", moves: []string{"a1", "a5", "b1", "b5", "c1", "c5", "e1", "d5", "f1", "f5", "d1"},
			over: false},
		{name: "full small board is a draw", spec: "gomoku:size=5", from: "xxoox/ooxxo/xxoox/ooxxo/xxoo.",
			moves: []string{"e1"}, over: true, returns: []float64{0, 0}},
		{name: "text", spec: "gomoku:size=5", moves: []string{"c3", "a5"}, text: "o..../...../..x../...../....."},
	})
}

// pente7 is a position of gomoku:captures=true,size=7 (its text, pairs taken 0 0): stones at
// the points named, x for black, o for white.
func pente7(stones map[string]byte) string {
	rows := make([]string, 7)
	for r := range rows {
		row := []byte(".......")
		for c := range row {
			if v, ok := stones[square(7, 7, r*7+c)]; ok {
				row[c] = v
			}
		}
		rows[r] = string(row)
	}
	return strings.Join(rows, "/") + " 0 0"
}

// TestPenteCaptures: black at d4 takes a pair of white stones in each of the eight
// directions, and the pair's points may be played again.
func TestPenteCaptures(t *testing.T) {
	var cases []ruleCase
	for _, d := range [][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}} {
		at := func(k int) string { return fmt.Sprintf("%c%d", 'd'+k*d[0], 4+k*d[1]) }
		// b3 is on no line through d4: black's second stone, so that black is to move.
		before := map[string]byte{at(1): 'o', at(2): 'o', at(3): 'x', "b3": 'x'}
		after := map[string]byte{"d4": 'x', at(3): 'x', "b3": 'x'}
		cases = append(cases, ruleCase{name: fmt.Sprintf("towards %s", at(3)), spec: "gomoku:captures=true,size=7",
			from: pente7(before), moves: []string{"d4"}, text: strings.Replace(pente7(after), " 0 0", " 1 0", 1),
			legal: []string{at(1), at(2)}, illegal: []string{"d4", at(3)}})
	}
	runRules(t, cases)
}

func TestPenteRules(t *testing.T) {
	const spec = "gomoku:captures=true,size=7"
	runRules(t, []ruleCase{
		{name: "white captures too", spec: spec, from: "......./......./......./oxx..../......./......./....... 0 0",
			moves: []string{"d4"}, text: "......./......./......./o..o.../......./......./....... 0 1", legal: []string{"b4", "c4"}},
		{name: "two pairs at once", spec: spec, from: "......./......./......./xoo.oox/......./......./x.....x 0 0",
			moves: []string{"d4"}, text: "......./......./......./x..x..x/......./......./x.....x 2 0"},
		{name: "three is not a pair", spec: spec, from: "......./......./......./xooo.../......./......./x.....x 0 0",
			moves: []string{"e4"}, text: "......./......./......./xooox../......./......./x.....x 0 0"},
		{name: "placing between two of the other's is safe", spec: spec, from: "......./......./......./x.ox.../......./......./....... 0 0",
			moves: []string{"b4"}, text: "......./......./......./xoox.../......./......./....... 0 0"},
		{name: "so is the other end", spec: spec, from: "......./......./......./xo.x.../......./......./....... 0 0",
			moves: []string{"c4", "g7"}, text: "......x/......./......./xoox.../......./......./....... 0 0"},
		{name: "five pairs win", spec: spec, from: "xoo..../......./......./......./......./......./......x 4 4",
			moves: []string{"d7"}, over: true, returns: []float64{1, -1}, text: "x..x.../......./......./......./......./......./......x 5 4"},
		{name: "four pairs do not", spec: spec, from: "xoo..../......./......./......./......./......./......x 3 3",
			moves: []string{"d7"}, over: false, text: "x..x.../......./......./......./......./......./......x 4 3"},
		{name: "five pairs win for white", spec: spec, from: "oxx..../......./......./......./......./......./x.....o 4 4",
			moves: []string{"d7"}, over: true, returns: []float64{-1, 1}},
		{name: "five in a row wins", spec: spec, moves: []string{"a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"},
			over: true, returns: []float64{1, -1}},
		{name: "a full board is a draw", spec: "gomoku:captures=true,size=5", from: "oxooo/oxxxx/xxxoo/oooox/xxox. 0 0",
			moves: []string{"e1"}, over: true, returns: []float64{0, 0}},
	})
}

// TestPentePositions: a position's text carries the pairs taken, reads back as written,
// and is refused when its stones and pairs do not add up.
func TestPentePositions(t *testing.T) {
	runPositions(t, "gomoku:captures=true,size=5", []positionCase{
		{text: "...../...../...../...../..... 0 0"},
		{text: "x..x./...../..x../...../..... 1 0"}, // the file's example: white to move
		{text: "x..x./...../..x../....o/..... 1 0"}, // black to move
		{text: "x..x./...../..x../...../..... 5 4", over: true},
		{text: "x..x./oo.../..x../...oo/..... 4 5", refused: "white has taken 5 pairs, and black moved after it"},
		{text: "x..x./...../..x../...../..... 0 1", refused: "5 black and 0 white stones placed"},
		{text: "x..x./...../..x../...../..... 01 0", refused: "want the rows, then the pairs"},
		{text: "x..x./...../..x../...../..... -1 0", refused: "want the rows, then the pairs"},
		{text: "x..x./...../..x../...../..... 1", refused: "want the rows, then the pairs"},
		{text: "x..x./...../..x../...../..... 1 0 ", refused: "want the rows, then the pairs"},
		{text: "x..x./...../..x../...../.....", refused: "want the rows, then the pairs"},
	})
	runPositions(t, "gomoku:size=5", []positionCase{
		{text: "x..x./...../..x../....o/oo..."},
		{text: "x..x./...../..x../....o/oo... 0 0", refused: "row 5 has 9 points"}, // no pairs without captures
	})
}

func TestBreakthroughRules(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "opening moves", spec: "breakthrough", legal: []string{"a2-a3", "a2-b3", "h2-h3", "h2-g3"},
			illegal: []string{"a2-a4", "a1-a2", "a7-a6"}},
		{name: "no straight capture", spec: "breakthrough:width=3,height=5", from: ".bb/.../.b./.w./ww. w",
			legal: []string{"b2-a3", "b2-c3"}, illegal: []string{"b2-b3", "b2xb3"}},
		{name: "diagonal capture", spec: "breakthrough:width=3,height=5", from: ".bb/.../b.b/.w./ww. w",
			legal: []string{"b2xa3", "b2xc3", "b2-b3"}},
		{name: "reaching the far row wins", spec: "breakthrough:width=3,height=5", from: "..b/w../.../..b/... w",
			moves: []string{"a4-b5"}, over: true, returns: []float64{1, -1}},
		{name: "capturing the last pawn wins", spec: "breakthrough:width=3,height=5", from: ".../.../.b./w../... w",
			moves: []string{"a2xb3"}, over: true, returns: []float64{1, -1}},
		{name: "black wins on row 1", spec: "breakthrough:width=3,height=5", from: ".../w../.../.b./w.. b",
			moves: []string{"b2-b1"}, over: true, returns: []float64{-1, 1}},
	})
}

func TestQuixoRules(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "the first move: 44", spec: "quixo", legal: []string{"a1-e1", "a1-a5", "c1-a1", "c1-e1", "c1-c5"},
			illegal: []string{"c3-c1", "a1-a1", "a1-c1"}},
		{name: "a push slides the row", spec: "quixo", moves: []string{"a1-e1"}, text: "...../...../...../...../....x o 1"},
		{name: "a push along a column", spec: "quixo", moves: []string{"a1-e1", "e2-e5"}, text: "....o/...../...../...../....x x 2"},
		{name: "cannot take the other's cube", spec: "quixo", moves: []string{"a1-e1", "e1-a1"}, refused: true},
		{name: "a line of five", spec: "quixo", from: "o.o../...../...../...../xxxx. x 8", moves: []string{"e5-e1"},
			over: true, returns: []float64{1, -1}},
		{name: "five of the other's loses", spec: "quixo", from: "oooo./....o/...../...../xxx.. x 8", moves: []string{"e5-e1"},
			over: true, returns: []float64{-1, 1}},
		{name: "the ply limit draws", spec: "quixo:limit=10", from: "...../...../...../...../..... o 9", moves: []string{"a1-e1"},
			over: true, returns: []float64{0, 0}},
	})
}

func TestQuoridorRules(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "the first move: 3 steps and 128 walls", spec: "quoridor", legal: []string{"e2", "d1", "f1", "a1h", "h8v"},
			illegal: []string{"e3", "d2", "i1h"}},
		{name: "black after a wall", spec: "quoridor", moves: []string{"d1h"}, legal: []string{"d9", "f9", "e8", "b1h", "f1h"}, illegal: []string{"d1h", "c1h", "e1h", "d1v"}},
		{name: "a wall stops the pawn", spec: "quoridor", moves: []string{"e1h", "e8"}, illegal: []string{"e2"}, legal: []string{"d1", "f1"}},
		{name: "walls may not overlap or cross", spec: "quoridor", moves: []string{"d4h", "e8"}, illegal: []string{"d4h", "c4h", "e4h", "d4v"},
			legal: []string{"f4h", "b4h", "d3v", "d5h"}},
		{name: "jump over the other pawn", spec: "quoridor", from: "e4 e5 10 10 - - w 0", legal: []string{"e6", "d4", "f4", "e3"}, illegal: []string{"e5", "d5"}},
		{name: "a wall behind: step to the sides", spec: "quoridor", from: "e4 e5 10 9 e5 - w 2", legal: []string{"d5", "f5"}, illegal: []string{"e6"}},
		{name: "no wall may cut a pawn off", spec: "quoridor:size=5,walls=3", from: "a1 c5 1 3 - a1,c1 w 4",
			illegal: []string{"a2h"}, legal: []string{"b2h", "a3v"}},
		{name: "reaching the far row wins", spec: "quoridor", from: "e8 a5 10 10 - - w 0", moves: []string{"e9"}, over: true, returns: []float64{1, -1}},
		{name: "black's goal is row 1", spec: "quoridor", from: "a5 e2 10 10 - - b 1", moves: []string{"e1"}, over: true, returns: []float64{-1, 1}},
		{name: "text", spec: "quoridor", moves: []string{"e2", "a1h"}, text: "e2 e9 10 9 a1 - w 2"},
	})
}

// TestLibraryPerft checks the first perft counts, which follow from the rules by hand:
// breakthrough's 22 first moves (six pawns with three, two at the edges with two) and 22
// replies, quixo's 44 (four corners with two ends, twelve edges with three), quoridor's 3
// steps and 128 walls, gomoku's 225 points, four in a row's 7 columns and 49.
func TestLibraryPerft(t *testing.T) {
	tests := []struct {
		spec  string
		depth int
		want  uint64
	}{
		{"breakthrough", 1, 22}, {"breakthrough", 2, 484},
		{"quixo", 1, 44},
		{"quoridor", 1, 131},
		{"gomoku", 1, 225},
		{"fourinarow", 2, 49},
	}
	for _, tt := range tests {
		g, err := game.Lookup(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := game.PerftChecked(g.NewState(), tt.depth, game.PerftLeaves); n != tt.want || err != nil {
			t.Errorf("%s perft(%d) = %d (%v), want %d", tt.spec, tt.depth, n, err, tt.want)
		}
	}
}

// TestQuoridorPositions: a position's walls follow the placing rule, as moves do.
func TestQuoridorPositions(t *testing.T) {
	runPositions(t, "quoridor", []positionCase{
		{text: "e1 e9 9 9 a1,c1 - w 2"},
		{text: "e1 e9 9 9 a1 a2 w 2"},
		{text: "e1 e9 9 9 a1,b1 - w 2", refused: "overlap"},
		{text: "e1 e9 9 9 a1 a1 w 2", refused: "cross"},
		{text: "e1 e9 9 9 - a1,a2 w 2", refused: "overlap"},
	})
}

// positionCase is a position's text, read back as written, or refused.
type positionCase struct {
	text    string
	refused string // a part of the error, when the text is refused
	over    bool
}

func runPositions(t *testing.T, spec string, cases []positionCase) {
	t.Helper()
	g, err := game.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		s, err := g.ParseState(c.text)
		switch {
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s: ParseState(%q): %v, want an error with %q", spec, c.text, err, c.refused)
		case c.refused == "" && err != nil:
			t.Errorf("%s: ParseState(%q): %v", spec, c.text, err)
		case err == nil && (s.String() != c.text || s.IsTerminal() != c.over):
			t.Errorf("%s: ParseState(%q) = %q, over %v; want over %v", spec, c.text, s.String(), s.IsTerminal(), c.over)
		}
	}
}
