package atarigo_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
)

func TestParseSGF(t *testing.T) {
	for _, tc := range []struct {
		name, sgf, target, want string
	}{
		{
			name: "set-up points and a rectangle, Black to move by default",
			sgf:  "(;GM[1]FF[4]SZ[5]AB[aa][ce:de]AW[bb:bc])",
			want: "X..../.O.../.O.../...../..XX. b",
		},
		{
			name: "PL, and unknown properties ignored",
			sgf:  "(;SZ[5]C[a comment with \\] inside]AB[cc]PL[W])",
			want: "...../...../..X../...../..... w",
		},
		{
			name: "moves of the main line, the side to move after them",
			sgf:  "(;SZ[5];B[cc];W[dd](;B[bb])(;B[ee]))",
			want: "...../.X.../..X../...O./..... w",
		},
		{
			name: "a capture removes stones; a ko binds the side to move",
			sgf:  "(;SZ[5]AB[bc][ad][be]AW[cc][dd][ce][bd];B[cd])",
			want: "...../...../.XO../X.XO./.XO.. w ko=B2",
		},
		{
			name: "the ko binds only the opponent of the player who took",
			sgf:  "(;SZ[5]AB[bc][ad][be]AW[cc][dd][ce][bd];B[cd];PL[B])",
			want: "...../...../.XO../X.XO./.XO.. b",
		},
		{
			name: "a node of PL alone keeps the ko",
			sgf:  "(;SZ[5]AB[bc][ad][be]AW[cc][dd][ce][bd];B[cd];PL[W])",
			want: "...../...../.XO../X.XO./.XO.. w ko=B2",
		},
		{
			name: "set-up stones lift the ko",
			sgf:  "(;SZ[5]AB[bc][ad][be]AW[cc][dd][ce][bd];B[cd];AB[ee])",
			want: "...../...../.XO../X.XO./.XO.X w",
		},
		{
			name: "passes, empty and tt",
			sgf:  "(;SZ[5];B[];W[tt])",
			want: "...../...../...../...../..... b passes=2",
		},
		{
			name:   "a target makes a capture problem",
			sgf:    "(;SZ[5]AB[bc][cd]AW[cc]PL[B])",
			target: "c3",
			want:   "...../...../.XO../..X../..... b target=C3",
		},
		{
			name: "white space between the parts, several game trees",
			sgf:  " ( ; SZ [5] \n AB [aa] ) (;SZ[9])",
			want: "X..../...../...../...../..... b",
		},
		{
			name: "the default size is 19",
			sgf:  "(;AB[ss])",
			want: strings.Repeat(strings.Repeat(".", 19)+"/", 18) + strings.Repeat(".", 18) + "X b",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := atarigo.ParseSGF(tc.sgf, tc.target)
			if err != nil {
				t.Fatalf("ParseSGF: %v", err)
			}
			if s.String() != tc.want {
				t.Errorf("ParseSGF = %q, want %q", s.String(), tc.want)
			}
			if s.IsCapture() != (tc.target != "") {
				t.Errorf("IsCapture() = %v with target %q", s.IsCapture(), tc.target)
			}
		})
	}
}

func TestParseSGFErrors(t *testing.T) {
	for _, tc := range []struct {
		name, sgf, target, want string
	}{
		{"empty", "", "", "starts with"},
		{"no node", "()", "", "starts with a node"},
		{"unclosed tree", "(;SZ[5]", "", "ends inside"},
		{"unclosed value", "(;SZ[5", "", "not closed"},
		{"junk after", "(;SZ[5])x", "", "after the last game tree"},
		{"lower-case property", "(;sz[5])", "", "unexpected"},
		{"property without value", "(;SZ)", "", "no value"},
		{"property twice", "(;SZ[5]SZ[5])", "", "twice"},
		{"not Go", "(;GM[2])", "", "GM[1]"},
		{"size too small", "(;SZ[4])", "", "SZ[4]"},
		{"size too large", "(;SZ[21])", "", "SZ[21]"},
		{"rectangular board", "(;SZ[9:7])", "", "SZ[9:7]"},
		{"SZ later", "(;AB[aa];SZ[5])", "", "SZ outside"},
		{"point off the board", "(;SZ[5]AB[ff])", "", "not a point"},
		{"point too short", "(;SZ[5]AB[a])", "", "not a point"},
		{"pass as set-up", "(;SZ[5]AB[])", "", "no point to set up"},
		{"black and white on one point", "(;SZ[5]AB[aa]AW[aa])", "", "same node"},
		{"set-up leaves a dead stone", "(;SZ[5]AB[aa]AW[ab][ba])", "", "without liberties"},
		{"set-up and a move in one node", "(;SZ[5]AB[aa]B[bb])", "", "in one node"},
		{"two moves in one node", "(;SZ[5];B[aa]W[bb])", "", "both B and W"},
		{"move on a stone", "(;SZ[5];B[aa];W[aa])", "", "taken"},
		{"suicide", "(;SZ[5]AB[ab][ba];W[aa])", "", "suicide"},
		{"ko retaken at once", "(;SZ[5]AB[bc][ad][be]AW[cc][dd][ce][bd];B[cd];W[bd])", "", "ko"},
		{"bad PL", "(;SZ[5]PL[X])", "", "PL[X]"},
		{"target on an empty point", "(;SZ[5]AB[aa])", "C3", "empty point"},
		{"target off the board", "(;SZ[5]AB[aa])", "Z9", "target"},
		{"too deep", strings.Repeat("(;", 2000), "", "nested"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := atarigo.ParseSGF(tc.sgf, tc.target)
			if err == nil {
				t.Fatalf("ParseSGF(%q) = %q, want an error", tc.sgf, s)
			}
			if !errors.Is(err, game.ErrBadPosition) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseSGF(%q) = %v, want an error wrapping ErrBadPosition that mentions %q", tc.sgf, err, tc.want)
			}
		})
	}
}
