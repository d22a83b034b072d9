package captureset

import (
	"errors"
	"testing"

	"github.com/arenaref/arena/lab/gnugo"
)

func TestParsePosition(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ok   bool
	}{
		{"a target", "..O../XXO../...X./.X.X./O.... b target=A4", true},
		{"white to move", "..O../XXO../...X./.X.X./O.... w target=C5", true},
		// Black has just taken a white stone at B2 with C2, a lone stone in atari:
		// white may not retake at B2.
		{"a ko", "...../...../.XO../X.XO./.XO.. w ko=B2 target=C3", true},
		{"the ko forbids only its side", "...../...../.XO../X.XO./.XO.. b ko=B2 target=C3", false},
		{"a ko point with a stone", "...../...../.XO../X.XO./.XO.. w ko=C2 target=C3", false},
		{"a ko point that captures two", "...../...../XX.../..X../XX... w ko=A2 target=A1", false},
		{"lower case", "..o../XXO../...X./.X.X./O.... b target=A4", false},
		{"a point in lower case", "..O../XXO../...X./.X.X./O.... b target=a4", false},
		{"a short row", "..O./XXO../...X./.X.X./O.... b target=A4", false},
		{"not square", "..O../XXO../...X./.X.X. b target=A4", false},
		{"one point", "X b target=A1", false},
		{"no side", "..O../XXO../...X./.X.X./O.... target=A4", false},
		{"a bad side", "..O../XXO../...X./.X.X./O.... x target=A4", false},
		{"no target", "..O../XXO../...X./.X.X./O.... b", false},
		{"an empty target", "..O../XXO../...X./.X.X./O.... b target=E5", false},
		{"a target off the board", "..O../XXO../...X./.X.X./O.... b target=F1", false},
		{"a target in column I", "........./........./........./........./........./........./........./........./........X b target=I1", false},
		{"ko after target", "...../...../.XO../X.XO./.XO.. w target=C3 ko=B2", false},
		{"two spaces", "..O../XXO../...X./.X.X./O....  b target=A4", false},
		{"a string without liberties", "OX.../X..../...../...../..... b target=B5", false},
		{"trailing text", "..O../XXO../...X./.X.X./O.... b target=A4 x", false},
		{"", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePosition(tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("ParsePosition(%q): %v, want ok %v", tt.in, err, tt.ok)
			}
			if err != nil {
				if !errors.Is(err, ErrBadPosition) {
					t.Errorf("%v does not wrap ErrBadPosition", err)
				}
				return
			}
			if got := p.String(); got != tt.in {
				t.Errorf("String() = %q, want %q", got, tt.in)
			}
		})
	}
}

func TestPositionFields(t *testing.T) {
	p, err := ParsePosition("...../...../.XO../X.XO./.XO.. w ko=B2 target=C3")
	if err != nil {
		t.Fatal(err)
	}
	if p.Board.Size() != 5 || p.ToMove != gnugo.White || !p.HasKo || p.Ko != (gnugo.Point{Col: 1, Row: 1}) || p.Target != (gnugo.Point{Col: 2, Row: 2}) {
		t.Errorf("parsed %+v", p)
	}
	if c := p.Board.At(gnugo.Point{Col: 0, Row: 1}); c != gnugo.Black {
		t.Errorf("A2 is %v, want black", c)
	}
	if c := p.Board.At(gnugo.Point{Col: 2, Row: 0}); c != gnugo.White {
		t.Errorf("C1 is %v, want white", c)
	}
}

// FuzzParsePosition checks that every position read prints as the same text, and that
// what it promises holds: a stone on the target, a liberty for every string.
func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{
		"..O../XXO../...X./.X.X./O.... b target=A4",
		"...../...../.XO../X.XO./.XO.. w ko=B2 target=C3",
		"OX.../X..../...../...../..... b target=B5",
		"XO/.. b target=A2",
		"........./..XO...../.OOX..X../........./..O.X.O../...X...../..X..O.../........./......... w target=C8",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		p, err := ParsePosition(in)
		if err != nil {
			return
		}
		if p.String() != in {
			t.Fatalf("%q prints as %q", in, p.String())
		}
		if p.Board.At(p.Target) == 0 {
			t.Fatalf("%q: empty target", in)
		}
		for _, chain := range p.Board.Strings() {
			if len(p.Board.Liberties(chain[0])) == 0 {
				t.Fatalf("%q: %v has no liberty", in, chain[0])
			}
		}
	})
}
