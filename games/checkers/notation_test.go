package checkers_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
)

func TestMoveEncoding(t *testing.T) {
	s := checkers.New(checkers.Standard).Initial()
	// The documented layout: start-1 in bits 0-4, jumps in 5-8, directions from bit 9.
	for _, tt := range []struct {
		m    game.Move
		text string
		from int
		to   int
		caps int
	}{
		{8, "9-13", 9, 13, 0},
		{8 | 1<<9, "9-14", 9, 14, 0},
		{mv(11, false, dr), "11-16", 11, 16, 0},
		{mv(15, false, ul), "15-10", 15, 10, 0},
		{mv(15, false, ur), "15-11", 15, 11, 0},
		{14 | 2<<5 | 1<<9 | 0<<11, "15x24x31", 15, 31, 2},
		{mv(15, true, dr, dl), "15x24x31", 15, 31, 2},
		{mv(15, true, dl, ul, ur, dr, dr), "15x22x13x6x15x24", 15, 24, 5},
	} {
		if got := s.MoveString(tt.m); got != tt.text {
			t.Errorf("MoveString(%d) = %q, want %q", tt.m, got, tt.text)
		}
		if checkers.MoveFrom(tt.m) != tt.from || checkers.MoveTo(tt.m) != tt.to || checkers.MoveCaptures(tt.m) != tt.caps {
			t.Errorf("%s: MoveFrom %d, MoveTo %d, MoveCaptures %d", tt.text, checkers.MoveFrom(tt.m), checkers.MoveTo(tt.m), checkers.MoveCaptures(tt.m))
		}
		if got := checkers.MovePath(tt.m, nil); len(got) != max(tt.caps, 1)+1 || got[0] != tt.from || got[len(got)-1] != tt.to {
			t.Errorf("%s: MovePath = %v", tt.text, got)
		}
	}
	// Values that are no move on the board.
	for _, m := range []game.Move{-1, mv(4, false, dr), mv(29, false, dl), mv(1, true, dl), mv(9, false, dl) | 1<<11, 10 << 5, 1 << 30} {
		if got := s.MoveString(m); !strings.HasPrefix(got, "invalid(") {
			t.Errorf("MoveString(%d) = %q", m, got)
		}
		if checkers.MoveFrom(m) != 0 || checkers.MoveTo(m) != 0 || checkers.MoveCaptures(m) != 0 || len(checkers.MovePath(m, nil)) != 0 {
			t.Errorf("%d: MoveFrom %d, MoveTo %d, MoveCaptures %d", m, checkers.MoveFrom(m), checkers.MoveTo(m), checkers.MoveCaptures(m))
		}
	}
}

// TestLongestCapture checks MaxJumps against the rules: a king on any square, with
// opposing men on every square it could take a piece on (the squares off the edge, of the
// rank parity it does not land on), has every capture path the board allows, and none
// takes more than MaxJumps pieces or needs more than 27 bits.
func TestLongestCapture(t *testing.T) {
	longest := 0
	var longestMove game.Move
	for start := 1; start <= 32; start++ {
		var white uint32
		for sq := 1; sq <= 32; sq++ {
			r, f := rowFile(sq - 1)
			sr, _ := rowFile(start - 1)
			if r%2 != sr%2 && r > 0 && r < 7 && f > 0 && f < 7 {
				white |= 1 << (sq - 1)
			}
		}
		s, err := checkers.FromPieces(checkers.Standard, 1<<(start-1), white, 1<<(start-1), checkers.Black)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(refMoves(refFromState(s), checkers.Black)); n == 0 {
			t.Fatalf("%v: no capture", s)
		}
		for _, m := range s.LegalMoves(checkers.Black, nil) {
			if m < 0 || m >= 1<<27 {
				t.Errorf("%s = %#x needs more than 27 bits", checkers.MoveString(m), m)
			}
			if n := checkers.MoveCaptures(m); n > longest {
				longest, longestMove = n, m
			}
		}
	}
	t.Logf("longest capture: %d pieces, %s", longest, checkers.MoveString(longestMove))
	if longest > checkers.MaxJumps {
		t.Errorf("a capture of %d pieces: %s, more than MaxJumps = %d", longest, checkers.MoveString(longestMove), checkers.MaxJumps)
	}
	if longest < checkers.MaxJumps {
		t.Errorf("no capture takes MaxJumps = %d pieces; the longest takes %d: lower MaxJumps", checkers.MaxJumps, longest)
	}
}

func TestParseMove(t *testing.T) {
	tests := []struct {
		name, pos, text string
		want            string // the move's full text, or "" for an error
		err             error
		msg             string // in the error
	}{
		{"simple", initialText, "11-15", "11-15", nil, ""},
		{"capture", "B:W18:B9,14", "14x23", "14x23", nil, ""},
		{"full path", "B:W19,27:B15", "15x24x31", "15x24x31", nil, ""},
		{"short capture", "B:W19,27:B15", "15x31", "15x24x31", nil, ""},
		{"short capture of one path among several", "B:W8,10,18,19:B3,6", "6x22", "6x15x22", nil, ""},
		{"ambiguous short capture", "B:W6,7,14,15:B2", "2x18", "", checkers.ErrAmbiguousMove, "2x9x18, 2x11x18"},
		{"ambiguous is a bad move", "B:W6,7,14,15:B2", "2x18", "", game.ErrBadMove, "ambiguous"},
		{"full text wins over a short form", "B:W9,10,17,18,19:BK15", "15x24", "15x24", nil, ""},
		{"a king's long path", "B:W9,10,17,18,19:BK15", "15x6x13x22x15x24", "15x6x13x22x15x24", nil, ""},
		{"short form of two long paths", "B:W9,10,17,18,19:BK15", "15x6", "", game.ErrIllegalMove, ""},
		{"incomplete", "B:W10,19:B6", "6x15", "", game.ErrIllegalMove, "goes on"},
		{"simple move when a capture is on", "B:W18:B9,14", "9-13", "", game.ErrIllegalMove, "mandatory"},
		{"backwards", "B:W14:B18", "18-14", "", game.ErrIllegalMove, "forward"},
		{"white's piece", initialText, "22-18", "", game.ErrIllegalMove, "no piece"},
		{"no capture there", initialText, "9x18", "", game.ErrIllegalMove, "no piece of the opponent"},
		{"no path", "B:W19,27:B15", "15x30", "", game.ErrIllegalMove, "no capture from 15 to 30"},
		{"after the end", "B:W32:B28", "28-32", "", game.ErrGameOver, ""},
		{"not neighbours", initialText, "9-18", "", game.ErrBadMove, "diagonal"},
		{"same square", initialText, "9-9", "", game.ErrBadMove, "diagonal"},
		{"not a jump in a path", "B:W19,27:B15", "15x24x30", "", game.ErrBadMove, "not a jump"},
		{"hyphen path", initialText, "9-14-18", "", game.ErrBadMove, "two squares"},
		{"mixed", initialText, "9x14-18", "", game.ErrBadMove, "mixed"},
		{"upper case", "B:W18:B9,14", "14X23", "", game.ErrBadMove, ""},
		{"spaces", initialText, " 11-15", "", game.ErrBadMove, ""},
		{"leading zero", initialText, "09-13", "", game.ErrBadMove, ""},
		{"square 0", initialText, "0-5", "", game.ErrBadMove, ""},
		{"square 33", initialText, "33-29", "", game.ErrBadMove, ""},
		{"one square", initialText, "11", "", game.ErrBadMove, ""},
		{"trailing separator", initialText, "11-", "", game.ErrBadMove, ""},
		{"empty", initialText, "", "", game.ErrBadMove, ""},
		{"too many jumps", initialText, "1x10x1x10x1x10x1x10x1x10x1", "", game.ErrBadMove, "jumps"},
		{"pass", initialText, "pass", "", game.ErrBadMove, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := parse(t, checkers.Standard, tt.pos)
			m, err := s.ParseMove(tt.text)
			if tt.want != "" {
				if err != nil || s.MoveString(m) != tt.want {
					t.Fatalf("ParseMove(%q) = %s, %v, want %s", tt.text, s.MoveString(m), err, tt.want)
				}
				if err := s.Play(m); err != nil {
					t.Fatalf("Play(%s): %v", tt.want, err)
				}
				return
			}
			if !errors.Is(err, tt.err) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("ParseMove(%q) = %s, %v, want an error wrapping %v saying %q", tt.text, s.MoveString(m), err, tt.err, tt.msg)
			}
		})
	}
}

func TestPositionText(t *testing.T) {
	g := checkers.New(checkers.Standard)
	for _, text := range []string{
		initialText,
		"W:WK3,18:B14,K27:Q6",
		"B:W:B",
		"W:WK1,K2,K3,K4:BK29,K30,K31,K32:Q80",
		"B:W5,6,7,8:B1,2,3,4",
		"B:WK1,K2,K3,K4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,K29,K30,K31,K32",
	} {
		s, err := g.Parse(text)
		if err != nil {
			t.Errorf("Parse(%q): %v", text, err)
			continue
		}
		if s.String() != text {
			t.Errorf("Parse(%q).String() = %q", text, s.String())
		}
	}
	s, _ := g.Parse("W:WK3,18:B14,K27:Q6")
	if b, w, k := s.Pieces(); b != 1<<13|1<<26 || w != 1<<2|1<<17 || k != 1<<2|1<<26 || s.Quiet() != 6 || s.Side() != checkers.White || s.Ply() != 0 {
		t.Errorf("Pieces %#x %#x %#x, Quiet %d, Side %v", b, w, k, s.Quiet(), s.Side())
	}

	for _, tt := range []struct{ text, msg string }{
		{"", "fields"},
		{"B:W21:B1:Q3:X", "fields"},
		{"X:W21:B1", "side to move"},
		{"b:W21:B1", "side to move"},
		{"B:B1:W21", "want W"},
		{"B:W21,22:B1,", "square"},
		{"B:W21,,22:B1", "square"},
		{"B:W21 ,22:B1", "square"},
		{"B:W0:B1", "square"},
		{"B:W33:B1", "square"},
		{"B:W021:B1", "square"},
		{"B:W+21:B1", "square"},
		{"B:Wk21:B1", "square"},
		{"B:WKK21:B1", "square"},
		{"B:W22,21:B1", "ascending"},
		{"B:W21,21:B1", "twice"},
		{"B:W21,K21:B1", "twice"},
		{"B:W21:B1,21", "both colours"},
		{"B:W1:B1", "both colours"},
		{"B:W21:B29", "crowned"},
		{"B:W4:B1", "crowned"},
		{"B:W:B1,2,3,4,5,6,7,8,9,10,11,12,13", "13 pieces"},
		{"B:W21:B1:Q0", "draw counter"},
		{"B:W21:B1:Q81", "draw counter"},
		{"B:W21:B1:Q", "draw counter"},
		{"B:W21:B1:Q07", "draw counter"},
		{"B:W21:B1:q7", "draw counter"},
		{"B:W21:B1:", "draw counter"},
		{"B:W21:B1\n", "square"},
		{"[FEN \"B:W21:B1\"]", "side to move"},
		{strings.Repeat("B:W21:B1", 100), "too long"},
	} {
		_, err := g.Parse(tt.text)
		if !errors.Is(err, game.ErrBadPosition) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Parse(%q): %v, want ErrBadPosition saying %q", tt.text, err, tt.msg)
		}
	}
}
