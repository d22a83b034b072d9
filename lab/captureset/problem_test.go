package captureset

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// The ladder of the gnugo tests on a 9x9 board: white D4 in a working ladder, black
// to move captures (D5 starts it), white to move escapes.
const ladder = "........./........./........./........./........./..XO...../...XX..../........./........."

func TestParseProblem(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ok   bool
	}{
		{"an attack problem", "p1\t" + ladder + " b target=D4\tD5\tattack\tgnugo-9x9-game1-ply9", true},
		{"a defence problem", "p2\t" + ladder + " w target=D4\tD5\tdefend\tgnugo-9x9-game1-ply9", true},
		{"the defender to move in an attack problem", "p3\t" + ladder + " w target=D4\tD5\tattack\tsrc", false},
		{"the attacker to move in a defence problem", "p4\t" + ladder + " b target=D4\tD5\tdefend\tsrc", false},
		{"a move on a stone", "p5\t" + ladder + " b target=D4\tD4\tattack\tsrc", false},
		{"a move off the board", "p6\t" + ladder + " b target=D4\tK5\tattack\tsrc", false},
		{"a move that is no point", "p7\t" + ladder + " b target=D4\tpass\tattack\tsrc", false},
		{"a move in lower case", "p7\t" + ladder + " b target=D4\td5\tattack\tsrc", false},
		{"a target of one liberty", "p8\t...../...../.XO../X.XO./.XO.. w target=C2\tB2\tattack\tsrc", false},
		{"a target of four liberties", "p9\t...../...../..X../...../..... w target=C3\tC4\tattack\tsrc", false},
		{"retaking the ko", "p10\t...../...../.XO../X.XO./.XO.. w ko=B2 target=C3\tB2\tdefend\tsrc", false},
		{"a ko", "p11\t...../...../.XO../X.XO./.XO.. w ko=B2 target=C3\tD3\tdefend\tsrc", true},
		{"an unknown kind", "p12\t" + ladder + " b target=D4\tD5\tcapture\tsrc", false},
		{"four fields", "p13\t" + ladder + " b target=D4\tD5\tattack", false},
		{"six fields", "p14\t" + ladder + " b target=D4\tD5\tattack\tsrc\textra", false},
		{"an empty id", "\t" + ladder + " b target=D4\tD5\tattack\tsrc", false},
		{"an id with a space", "p 15\t" + ladder + " b target=D4\tD5\tattack\tsrc", false},
		{"a bad position", "p16\t" + ladder + " b target=A1\tD5\tattack\tsrc", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseProblem(tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("ParseProblem: %v, want ok %v", err, tt.ok)
			}
			if err != nil {
				if !errors.Is(err, ErrBadProblem) {
					t.Errorf("%v does not wrap ErrBadProblem", err)
				}
				return
			}
			if p.String() != tt.in {
				t.Errorf("String() = %q, want %q", p.String(), tt.in)
			}
		})
	}
}

func TestReadProblems(t *testing.T) {
	good := "p1\t" + ladder + " b target=D4\tD5\tattack\tsrc\n"
	tests := []struct {
		name string
		in   string
		n    int
		err  string // in the error; "" for none
	}{
		{"comments and blank lines", "# a header\n\n" + good + "# more\n", 1, ""},
		{"carriage returns", strings.ReplaceAll("# h\n"+good, "\n", "\r\n"), 1, ""},
		{"no final newline", strings.TrimSuffix(good, "\n"), 1, ""},
		{"empty", "", 0, ""},
		{"a bad line is named", "# h\n" + good + "junk\n", 0, "line 3"},
		{"duplicate ids", good + good, 0, "already on line 1"},
		{"a line too long", strings.Repeat("x", maxLine+1) + "\n", 0, "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, err := ReadProblems(strings.NewReader(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %v, want an error saying %q", err, tt.err)
				}
				return
			}
			if err != nil || len(ps) != tt.n {
				t.Fatalf("got %d problems, %v; want %d", len(ps), err, tt.n)
			}
		})
	}
}

func TestWriteProblemsReadsBack(t *testing.T) {
	var ps []Problem
	for _, line := range []string{
		"p1\t" + ladder + " b target=D4\tD5\tattack\tgnugo-9x9-game1-ply9",
		"p2\t" + ladder + " w target=D4\tD5\tdefend\tgnugo-9x9-game1-ply9",
		"p3\t...../...../.XO../X.XO./.XO.. w ko=B2 target=C3\tD3\tdefend\tsrc",
	} {
		p, err := ParseProblem(line)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	var buf bytes.Buffer
	if err := WriteProblems(&buf, []string{"made by a test", "second line"}, ps); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "# made by a test\n# second line\np1\t") {
		t.Errorf("file starts %q", buf.String()[:40])
	}
	back, err := ReadProblems(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(ps) {
		t.Fatalf("%d problems back, want %d", len(back), len(ps))
	}
	for i := range ps {
		if back[i].String() != ps[i].String() {
			t.Errorf("problem %d back as %q, want %q", i, back[i], ps[i])
		}
	}
}

// FuzzParseProblem checks that every record read prints back the same and keeps the
// set's promises: the side to move is the kind's winner, the target has 2 or 3
// liberties, the move is an empty point.
func FuzzParseProblem(f *testing.F) {
	f.Add("p1\t" + ladder + " b target=D4\tD5\tattack\tgnugo-9x9-game1-ply9")
	f.Add("p2\t" + ladder + " w target=D4\tD5\tdefend\tgnugo-9x9-game1-ply9")
	f.Add("p11\t...../...../.XO../X.XO./.XO.. w ko=B2 target=C3\tD3\tdefend\tsrc")
	f.Add("p3\t" + ladder + " w target=D4\tD5\tattack\tsrc")
	f.Add("\t\t\t\t")
	f.Fuzz(func(t *testing.T, in string) {
		p, err := ParseProblem(in)
		if err != nil {
			return
		}
		if p.String() != in {
			t.Fatalf("%q prints as %q", in, p.String())
		}
		pos := p.Position
		if pos.ToMove != p.Kind.Winner(pos.Board.At(pos.Target)) {
			t.Fatalf("%q: %s to move in a %s problem", in, pos.ToMove, p.Kind)
		}
		if n := len(pos.Board.Liberties(pos.Target)); n < MinLiberties || n > MaxLiberties {
			t.Fatalf("%q: %d liberties", in, n)
		}
		if pos.Board.At(p.Move) != 0 {
			t.Fatalf("%q: a move on a stone", in)
		}
	})
}
