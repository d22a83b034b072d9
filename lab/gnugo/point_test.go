package gnugo

import (
	"errors"
	"strings"
	"testing"
)

func TestParsePoint(t *testing.T) {
	tests := []struct {
		in   string
		want Point
		ok   bool
	}{
		{"A1", Point{0, 0}, true},
		{"a1", Point{0, 0}, true},
		{"D4", Point{3, 3}, true},
		{"H8", Point{7, 7}, true},
		{"J9", Point{8, 8}, true}, // no I: J is the ninth column
		{"T19", Point{18, 18}, true},
		{"Z25", Point{24, 24}, true},
		{"I5", Point{}, false},
		{"A0", Point{}, false},
		{"A01", Point{}, false},
		{"A26", Point{}, false},
		{"A", Point{}, false},
		{"", Point{}, false},
		{"5A", Point{}, false},
		{"A1x", Point{}, false},
		{"A+1", Point{}, false},
		{"pass", Point{}, false},
	}
	for _, tt := range tests {
		got, err := ParsePoint(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParsePoint(%q) = %v, %v; want %v (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrBadPoint) {
			t.Errorf("ParsePoint(%q): %v does not wrap ErrBadPoint", tt.in, err)
		}
		if err == nil && got.String() != strings.ToUpper(tt.in) {
			t.Errorf("ParsePoint(%q).String() = %q", tt.in, got.String())
		}
	}
}

func TestParseMove(t *testing.T) {
	tests := []struct {
		in   string
		want Move
		text string
	}{
		{"PASS", PassMove, "pass"},
		{"pass", PassMove, "pass"},
		{"resign", Move{Resign: true}, "resign"},
		{"q16", At(Point{15, 15}), "Q16"},
	}
	for _, tt := range tests {
		got, err := ParseMove(tt.in)
		if err != nil || got != tt.want || got.String() != tt.text {
			t.Errorf("ParseMove(%q) = %v (%q), %v; want %v (%q)", tt.in, got, got.String(), err, tt.want, tt.text)
		}
	}
	if _, err := ParseMove("passe"); err == nil {
		t.Error(`ParseMove("passe") succeeded`)
	}
}

func TestColor(t *testing.T) {
	if Black.String() != "black" || White.String() != "white" || Black.Opponent() != White || White.Opponent() != Black {
		t.Errorf("colours: %s %s %s %s", Black, White, Black.Opponent(), White.Opponent())
	}
}

// FuzzParseMove checks that every move read prints as text that reads back the same.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"A1", "t19", "pass", "RESIGN", "I5", "A0", "Z25", "z26", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		m, err := ParseMove(in)
		if err != nil {
			return
		}
		if !m.Pass && !m.Resign && !m.Point.OnBoard(MaxSize) {
			t.Fatalf("%q read as %v, off every board", in, m)
		}
		back, err := ParseMove(m.String())
		if err != nil || back != m || !strings.EqualFold(m.String(), in) {
			t.Fatalf("%q read as %v, printed %q, read back as %v, %v", in, m, m.String(), back, err)
		}
	})
}
