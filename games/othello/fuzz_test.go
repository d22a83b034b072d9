package othello_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

func FuzzParseState(f *testing.F) {
	f.Add(initialText)
	f.Add(strings.Replace(initialText, " X", " O", 1))
	f.Add("OX" + strings.Repeat("-", 62) + " X")
	f.Add(strings.Repeat("X", 64) + " O")
	f.Add("")
	f.Add(initialText[:65])
	f.Add(initialText + "\n")
	f.Add(strings.Repeat("é", 33))
	f.Add(initialText6)
	f.Add(strings.Replace(initialText6, " X", " O", 1))
	f.Add("OX" + strings.Repeat("-", 34) + " X")
	f.Add(strings.Repeat("O", 36) + " X")
	f.Add(initialText4)
	f.Add("-X--XO--X-------" + " O")
	f.Add(strings.Repeat("é", 9))
	gs := games(f)
	f.Fuzz(func(t *testing.T, text string) {
		// Every board size reads the text; at most the one of its length accepts it.
		accepted := 0
		for _, g := range gs {
			if checkParsed(t, g, text) {
				accepted++
			}
		}
		if accepted > 1 {
			t.Fatalf("%q is a position of %d board sizes", text, accepted)
		}
	})
}

// checkParsed reads text as a position of g and checks what it gets; it reports whether g
// accepted the text.
func checkParsed(t *testing.T, g *othello.Game, text string) bool {
	t.Helper()
	s, err := g.ParseState(text)
	if err != nil {
		if !errors.Is(err, game.ErrBadPosition) {
			t.Fatalf("%s: ParseState(%q): error %v does not wrap ErrBadPosition", g.Name(), text, err)
		}
		return false
	}
	if len(text) != g.Size()*g.Size()+2 {
		t.Fatalf("%s: ParseState accepted %q of %d bytes", g.Name(), text, len(text))
	}
	// The notation is strict, so anything accepted is already in canonical form.
	if s.String() != text {
		t.Fatalf("%s: ParseState(%q).String() = %q", g.Name(), text, s.String())
	}
	again, err := g.ParseState(s.String())
	if err != nil || again.String() != text || again.ToMove() != s.ToMove() {
		t.Fatalf("%s: round trip of %q: %v", g.Name(), text, err)
	}
	// Whatever the discs, the rules must hold up.
	seat := s.ToMove()
	if seat == game.Terminal {
		if len(s.Returns(nil)) != 2 {
			t.Fatal("no returns")
		}
		return true
	}
	ms := s.LegalMoves(seat, nil)
	if len(ms) == 0 {
		t.Fatalf("%s: %q: seat %v to move has no moves", g.Name(), text, seat)
	}
	if err := s.Play(ms[0]); err != nil {
		t.Fatalf("%s: %q: Play(%s): %v", g.Name(), text, s.MoveString(ms[0]), err)
	}
	b, w := s.(*othello.State).Bitboards()
	if (b|w)&^s.(*othello.State).BoardMask() != 0 {
		t.Fatalf("%s: %q: a disc off the board after %s", g.Name(), text, s.MoveString(ms[0]))
	}
	return true
}

func FuzzParseMove(f *testing.F) {
	for _, seed := range []string{"d3", "D3", " e6 ", "pass", "PASS", " Pass\n", "a1", "h8", "i9", "a0", "", "pa", "ｄ３", "\x00", "f6", "g6", "d4", "e4"} {
		f.Add(seed)
	}
	gs := games(f)
	f.Fuzz(func(t *testing.T, text string) {
		// Each board size accepts the squares of its board only, and prints them as 8x8 does.
		for _, g := range gs {
			s := g.Initial()
			m, err := s.ParseMove(text)
			if err != nil {
				if !errors.Is(err, game.ErrBadMove) {
					t.Fatalf("%s: ParseMove(%q): error %v does not wrap ErrBadMove", g.Name(), text, err)
				}
				continue
			}
			if m != othello.Pass && s.BoardMask()&(1<<uint(m)) == 0 {
				t.Fatalf("%s: ParseMove(%q) = %d, off the board", g.Name(), text, m)
			}
			if str := s.MoveString(m); str != othello.MoveString(m) {
				t.Fatalf("%s: MoveString(%d) = %q, 8x8 prints %q", g.Name(), m, str, othello.MoveString(m))
			}
		}

		m, err := othello.ParseMove(text)
		if err != nil {
			if !errors.Is(err, game.ErrBadMove) {
				t.Fatalf("ParseMove(%q): error %v does not wrap ErrBadMove", text, err)
			}
			return
		}
		if m != othello.Pass && (m < 0 || m >= othello.Squares) {
			t.Fatalf("ParseMove(%q) = %d, not a move", text, m)
		}
		str := othello.MoveString(m)
		if back, err := othello.ParseMove(str); err != nil || back != m {
			t.Fatalf("ParseMove(%q) = %d prints %q, which reads back as %d, %v", text, m, str, back, err)
		}
		if !strings.EqualFold(strings.TrimSpace(text), str) {
			t.Fatalf("ParseMove(%q) = %q: accepted something other than case and spacing", text, str)
		}
	})
}
