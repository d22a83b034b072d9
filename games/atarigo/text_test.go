package atarigo_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
)

func TestParseStateErrors(t *testing.T) {
	empty5 := "...../...../...../...../....."
	for _, tc := range []struct {
		name, game, text, want string
	}{
		{"nothing", "atari-go:size=5", "", "want the rows"},
		{"no side", "atari-go:size=5", empty5, "want the rows"},
		{"four rows", "atari-go:size=5", "..../..../..../.... b", "4 rows"},
		{"twenty rows", "capture", strings.Repeat(strings.Repeat(".", 20)+"/", 19) + strings.Repeat(".", 20) + " b target=A1", "20 rows"},
		{"a short row", "atari-go:size=5", "...../..../...../...../..... b", "row 4 has 4 characters"},
		{"a bad point", "atari-go:size=5", "...../...../..x../...../..... b", "row 3 holds 'x'"},
		{"the wrong size", "atari-go", strings.Repeat(strings.Repeat(".", 13)+"/", 12) + strings.Repeat(".", 13) + " b", "a 13x13 position, but this game is played on 9x9"},
		{"a bad side", "atari-go:size=5", empty5 + " x", "colour to move"},
		{"a field without =", "atari-go:size=5", empty5 + " b ko", "not key=value"},
		{"an empty value", "atari-go:size=5", empty5 + " b passes=", "not key=value"},
		{"an unknown key", "atari-go:size=5", empty5 + " b komi=6", "unknown key"},
		{"a key twice", "atari-go:size=5", empty5 + " b passes=1 passes=1", "twice"},
		{"passes=3", "atari-go:size=5", empty5 + " b passes=3", "passes="},
		{"a stone without liberties", "atari-go:size=5", "...../...../...../O..../XO... b", "no liberties"},
		{"target in atari-go", "atari-go:size=5", "...../...../..X../...../..... b target=C3", "capture positions"},
		{"played in atari-go", "atari-go:size=5", empty5 + " b played=3", "capture positions"},
		{"no target", "capture", "...../...../..X../...../..... b", "needs target="},
		{"target on an empty point", "capture", "...../...../..X../...../..... b target=D3", "empty point"},
		{"target off the board", "capture", "...../...../..X../...../..... b target=F3", "target="},
		{"played past the limit", "capture:moves=10", "...../...../..X../...../..... b target=C3 played=11", "move limit"},
		{"played not a number", "capture", "...../...../..X../...../..... b target=C3 played=x", "played="},
		{"a bad winner", "atari-go:size=5", empty5 + " w winner=x", "winner="},
		{"a winner still to move", "atari-go:size=5", empty5 + " b winner=b", "so w is to move"},
		{"a winner after a pass", "atari-go:size=5", empty5 + " w passes=1 winner=b", "passes= together"},
		{"a winner with the target on the board", "capture", "...../...../..X../...../..... b target=C3 winner=w", "still on the board"},
		{"a ko on a stone", "capture", "...../...../.XO../X.XO./.XO.. w ko=C2 target=C3", "not empty"},
		{"a ko no stone could have made", "capture", "...../...../.XO../X..O./.XO.. w ko=B2 target=C3", "next to it is not"},
		{"a ko with the wrong colours", "capture", "...../...../.XO../X.XO./.XO.. b ko=B2 target=C3", "next to it is not"},
		{"a ko with a pass", "capture", "...../...../.XO../X.XO./.XO.. w ko=B2 passes=1 target=C3", "not a pass"},
		{"a ko in a finished game", "capture:moves=3", "...../...../.XO../X.XO./.XO.. w ko=B2 target=C3 played=3", "finished game"},
		{"a huge text", "capture", strings.Repeat(".", 1000), "longer than any position"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := game.Lookup(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			s, err := g.ParseState(tc.text)
			if err == nil {
				t.Fatalf("ParseState(%q) = %q, want an error", tc.text, s)
			}
			if !errors.Is(err, game.ErrBadPosition) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseState(%q): %v, want an error wrapping ErrBadPosition that mentions %q", tc.text, err, tc.want)
			}
		})
	}
}

func TestParseStateCanonical(t *testing.T) {
	for _, tc := range []struct {
		name, game, text, want string
	}{
		{"keys in any order, points in either case", "capture", "...../...../.XO../X.XO./.XO.. w target=c3 played=1 ko=b2", "...../...../.XO../X.XO./.XO.. w ko=B2 target=C3 played=1"},
		{"white space", "atari-go:size=5", "  ...../...../...../...../.....\tb  passes=1 \n", "...../...../...../...../..... b passes=1"},
		{"played=0 is not written", "capture", "...../...../..X../...../..... w target=C3 played=0", "...../...../..X../...../..... w target=C3"},
		{"a ko read in atari-go", "atari-go:size=5", "...../...../.XO../X.XO./.XO.. w ko=B2", "...../...../.XO../X.XO./.XO.. w ko=B2"},
		{"a captured target", "capture", "...../...../XX.../..X../X.X.. w target=A2 played=3 winner=b", "...../...../XX.../..X../X.X.. w target=A2 played=3 winner=b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := game.Lookup(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			s, err := g.ParseState(tc.text)
			if err != nil {
				t.Fatalf("ParseState(%q): %v", tc.text, err)
			}
			if s.String() != tc.want {
				t.Errorf("ParseState(%q) = %q, want %q", tc.text, s, tc.want)
			}
		})
	}
}

func TestParsedState(t *testing.T) {
	g, err := game.Lookup("capture:safe=6,moves=50")
	if err != nil {
		t.Fatal(err)
	}
	gs, err := g.ParseState("...../...../.XO../X.XO./.XO.. w ko=B2 target=C3 played=7")
	if err != nil {
		t.Fatal(err)
	}
	s := gs.(*atarigo.State)
	c3, b2 := mustPoint(t, "C3", 5), mustPoint(t, "B2", 5)
	for _, tc := range []struct {
		what      string
		got, want any
	}{
		{"Size", s.Size(), 5},
		{"Turn", s.Turn(), atarigo.White},
		{"ToMove", s.ToMove(), game.Seat(1)},
		{"Ko", s.Ko(), b2},
		{"Target", s.Target(), c3},
		{"Attacker", s.Attacker(), atarigo.Black},
		{"At target", s.At(c3), atarigo.White},
		{"Liberties of the target", s.Liberties(c3), 2},
		{"Liberties of an empty point", s.Liberties(b2), 0},
		{"Safe", s.Safe(), 6},
		{"MoveLimit", s.MoveLimit(), 50},
		{"Ply", s.Ply(), 7},
		{"Passes", s.Passes(), 0},
		{"IsCapture", s.IsCapture(), true},
		{"Winner", s.Winner(), atarigo.Empty},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.what, tc.got, tc.want)
		}
	}
	a, err := atarigo.NewAtariGoState(9)
	if err != nil {
		t.Fatal(err)
	}
	if a.Target() != atarigo.NoPoint || a.Attacker() != atarigo.Empty || a.IsCapture() || a.Safe() != 0 {
		t.Errorf("atari-go reports a capture problem: target %v, attacker %v, safe %d", a.Target(), a.Attacker(), a.Safe())
	}
}

func TestGameNames(t *testing.T) {
	for _, tc := range []struct{ spec, name string }{
		{"atari-go", "atari-go"},
		{"atari-go:size=9", "atari-go"},
		{"atari-go:size=5", "atari-go:size=5"},
		{"atari-go:size=19", "atari-go:size=19"},
		{"capture", "capture"},
		{"capture:problem=1,safe=5", "capture"},
		{"capture:moves=100,problem=3", "capture:problem=3,moves=100"},
		{"capture:safe=2", "capture:safe=2"},
	} {
		g, err := game.Lookup(tc.spec)
		if err != nil {
			t.Errorf("Lookup(%q): %v", tc.spec, err)
			continue
		}
		if g.Name() != tc.name {
			t.Errorf("Lookup(%q).Name() = %q, want %q", tc.spec, g.Name(), tc.name)
		}
		again, err := game.Lookup(g.Name())
		if err != nil || again.Name() != g.Name() || again.NewState().String() != g.NewState().String() {
			t.Errorf("Lookup(%q) does not give the same game back: %v", g.Name(), err)
		}
		if seats := g.Seats(); len(seats) != 2 || seats[0] != "black" || seats[1] != "white" {
			t.Errorf("%s: seats %v", tc.spec, seats)
		}
	}
	for _, spec := range []string{
		"atari-go:size=4", "atari-go:size=20", "atari-go:size=09", "atari-go:size=x", "atari-go:target=C3",
		"capture:problem=0", "capture:problem=99", "capture:safe=1", "capture:safe=21", "capture:moves=0",
		"capture:moves=10001", "capture:size=9",
	} {
		if _, err := game.Lookup(spec); !errors.Is(err, game.ErrBadGameOption) {
			t.Errorf("Lookup(%q): %v, want an error wrapping ErrBadGameOption", spec, err)
		}
	}
}

func TestCaptureGame(t *testing.T) {
	start, err := atarigo.NewCapture(5, []atarigo.Point{mustPoint(t, "B3", 5)}, []atarigo.Point{mustPoint(t, "C3", 5)}, atarigo.White, mustPoint(t, "B3", 5))
	if err != nil {
		t.Fatal(err)
	}
	if start.Safe() != atarigo.DefaultSafe || start.MoveLimit() != atarigo.DefaultMoveLimit(5) || start.Attacker() != atarigo.White {
		t.Errorf("NewCapture: safe %d, limit %d, attacker %v", start.Safe(), start.MoveLimit(), start.Attacker())
	}
	g, err := atarigo.CaptureGame(start, 3, 20)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Initial()
	if s.Safe() != 3 || s.MoveLimit() != 20 || g.Name() != "capture:safe=3,moves=20" || !g.IsCapture() || g.Size() != 5 {
		t.Errorf("CaptureGame(start, 3, 20): safe %d, limit %d, name %q", s.Safe(), s.MoveLimit(), g.Name())
	}
	// B3 has four liberties, at least the three of safe=3: the game is over at once.
	if !s.IsTerminal() || s.Winner() != atarigo.Black {
		t.Errorf("a target with 4 liberties under safe=3: over %v, winner %v", s.IsTerminal(), s.Winner())
	}
	if start.IsTerminal() {
		t.Errorf("CaptureGame changed the start it was given")
	}
	for _, tc := range []struct {
		name         string
		black, white []atarigo.Point
		toMove       atarigo.Color
		target       atarigo.Point
	}{
		{"a point off the board", []atarigo.Point{25}, nil, atarigo.Black, 0},
		{"a point twice", []atarigo.Point{3}, []atarigo.Point{3}, atarigo.Black, 3},
		{"a dead stone", []atarigo.Point{1, 5}, []atarigo.Point{0}, atarigo.Black, 1},
		{"no colour to move", []atarigo.Point{3}, nil, atarigo.Empty, 3},
		{"an empty target", []atarigo.Point{3}, nil, atarigo.Black, 4},
		{"no target", []atarigo.Point{3}, nil, atarigo.Black, atarigo.NoPoint},
	} {
		if _, err := atarigo.NewCapture(5, tc.black, tc.white, tc.toMove, tc.target); !errors.Is(err, game.ErrBadPosition) {
			t.Errorf("NewCapture with %s: %v, want an error wrapping ErrBadPosition", tc.name, err)
		}
	}
	for _, tc := range []struct {
		name        string
		safe, moves int
	}{{"safe=1", 1, 0}, {"safe=21", 21, 0}, {"moves=-1", 5, -1}, {"moves=10001", 5, 10001}} {
		if _, err := atarigo.CaptureGame(start, tc.safe, tc.moves); !errors.Is(err, game.ErrBadGameOption) {
			t.Errorf("CaptureGame with %s: %v, want an error wrapping ErrBadGameOption", tc.name, err)
		}
	}
	atari, err := atarigo.NewAtariGoState(5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := atarigo.CaptureGame(atari, 5, 0); !errors.Is(err, game.ErrBadGameOption) {
		t.Errorf("CaptureGame of an atari-go position: %v", err)
	}
	if _, err := atarigo.NewAtariGoState(4); !errors.Is(err, game.ErrBadPosition) {
		t.Errorf("NewAtariGoState(4): %v", err)
	}
}

func TestPoints(t *testing.T) {
	for _, tc := range []struct {
		text string
		size int
		col  int
		row  int
	}{
		{"A1", 9, 0, 0}, {"J9", 9, 8, 8}, {"H8", 9, 7, 7}, {"d4", 5, 3, 3}, {"T19", 19, 18, 18}, {"K10", 19, 9, 9}, {"E5", 5, 4, 4},
	} {
		p, err := atarigo.ParsePoint(tc.text, tc.size)
		if err != nil {
			t.Errorf("ParsePoint(%q, %d): %v", tc.text, tc.size, err)
			continue
		}
		if want := atarigo.PointAt(tc.col, tc.row, tc.size); p != want || int(p) != tc.row*tc.size+tc.col {
			t.Errorf("ParsePoint(%q, %d) = %d, want %d", tc.text, tc.size, p, want)
		}
		if got := atarigo.PointString(p, tc.size); got != strings.ToUpper(tc.text) {
			t.Errorf("PointString(%d, %d) = %q, want %q", p, tc.size, got, strings.ToUpper(tc.text))
		}
		if col, row := atarigo.Coords(p, tc.size); col != tc.col || row != tc.row {
			t.Errorf("Coords(%d, %d) = %d, %d", p, tc.size, col, row)
		}
	}
	for _, tc := range []struct {
		text string
		size int
	}{
		{"", 9}, {"A", 9}, {"I5", 9}, {"A0", 9}, {"A10", 9}, {"K1", 9}, {"A01", 9}, {"Z1", 19}, {"A20", 19}, {"A1 ", 9},
		{"pass", 9}, {"A1", 4}, {"A1", 20}, {"é1", 9}, {"A-1", 9},
	} {
		if p, err := atarigo.ParsePoint(tc.text, tc.size); !errors.Is(err, game.ErrBadMove) {
			t.Errorf("ParsePoint(%q, %d) = %d, %v, want an error wrapping ErrBadMove", tc.text, tc.size, p, err)
		}
	}
	if atarigo.PointAt(5, 0, 5) != atarigo.NoPoint || atarigo.PointAt(0, -1, 5) != atarigo.NoPoint {
		t.Errorf("PointAt off the board is not NoPoint")
	}
	if got := atarigo.PointString(25, 5); got != "invalid(25)" {
		t.Errorf("PointString(25, 5) = %q", got)
	}
	if atarigo.PassMove(9) != 81 {
		t.Errorf("PassMove(9) = %d", atarigo.PassMove(9))
	}
}

func TestMoveText(t *testing.T) {
	s, err := atarigo.NewAtariGoState(9)
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]game.Move{"pass": 81, "PASS": 81, " Pass ": 81, "a1": 0, "J9": 80, "e5": 40} {
		if m, err := s.ParseMove(text); err != nil || m != want {
			t.Errorf("ParseMove(%q) = %d, %v, want %d", text, m, err, want)
		}
	}
	for _, text := range []string{"", "passes", "K9", "A10", "I1", "resign"} {
		if _, err := s.ParseMove(text); !errors.Is(err, game.ErrBadMove) {
			t.Errorf("ParseMove(%q): %v, want an error wrapping ErrBadMove", text, err)
		}
	}
	if got := s.MoveString(81); got != "pass" {
		t.Errorf("MoveString(81) = %q", got)
	}
	if got := s.MoveString(82); got != "invalid(82)" {
		t.Errorf("MoveString(82) = %q", got)
	}
	if err := s.Play(82); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("Play(82): %v", err)
	}
	if err := s.PlayJoint([]game.Move{40, 0}); err != nil || s.At(40) != atarigo.Black {
		t.Errorf("PlayJoint([E5, A1]) by black: %v", err)
	}
	if err := s.PlayJoint([]game.Move{40}); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("PlayJoint of one move: %v", err)
	}
}
