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
	f.Fuzz(func(t *testing.T, text string) {
		g := othello.New()
		s, err := g.ParseState(text)
		if err != nil {
			if !errors.Is(err, game.ErrBadPosition) {
				t.Fatalf("ParseState(%q): error %v does not wrap ErrBadPosition", text, err)
			}
			return
		}
		// The notation is strict, so anything accepted is already in canonical form.
		if s.String() != text {
			t.Fatalf("ParseState(%q).String() = %q", text, s.String())
		}
		again, err := g.ParseState(s.String())
		if err != nil || again.String() != text || again.ToMove() != s.ToMove() {
			t.Fatalf("round trip of %q: %v", text, err)
		}
		// Whatever the discs, the rules must hold up.
		seat := s.ToMove()
		if seat == game.Terminal {
			if len(s.Returns(nil)) != 2 {
				t.Fatal("no returns")
			}
			return
		}
		ms := s.LegalMoves(seat, nil)
		if len(ms) == 0 {
			t.Fatalf("%q: seat %v to move has no moves", text, seat)
		}
		if err := s.Play(ms[0]); err != nil {
			t.Fatalf("%q: Play(%s): %v", text, s.MoveString(ms[0]), err)
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, seed := range []string{"d3", "D3", " e6 ", "pass", "PASS", " Pass\n", "a1", "h8", "i9", "a0", "", "pa", "ｄ３", "\x00"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
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
