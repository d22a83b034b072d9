package checkers_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
)

func FuzzParseState(f *testing.F) {
	for _, seed := range []string{
		initialText,
		"W:WK3,18:B14,K27:Q6",
		"B:W:B",
		"B:WK29:BK4:Q80",
		"B:W9,10,17,18,19:BK15",
		"W:WK1,K2,K3,K4:BK29,K30,K31,K32:Q80",
		"B:W21:B29",
		"B:W22,21:B1",
		"B:W21,21:B1",
		"B:W21:B1:Q81",
		"B:W21:B1:Q07",
		"B:W:B1,2,3,4,5,6,7,8,9,10,11,12,13",
		"",
		":::",
		"B:W" + strings.Repeat("K", 40),
		"B:W99999999999999999999:B1",
		"é:W:B",
	} {
		f.Add(seed)
	}
	games := []*checkers.Game{checkers.New(checkers.Standard), checkers.New(checkers.Giveaway)}
	f.Fuzz(func(t *testing.T, text string) {
		for _, g := range games {
			gs, err := g.ParseState(text)
			if err != nil {
				if !errors.Is(err, game.ErrBadPosition) {
					t.Fatalf("ParseState(%q): error %v does not wrap ErrBadPosition", text, err)
				}
				continue
			}
			s := gs.(*checkers.State)
			// The notation is strict, so anything accepted is already in canonical form.
			if s.String() != text {
				t.Fatalf("ParseState(%q).String() = %q", text, s.String())
			}
			b, w, k := s.Pieces()
			again, err := checkers.FromPieces(g.Variant(), b, w, k, s.Side())
			if err != nil {
				t.Fatalf("FromPieces of %q: %v", text, err)
			}
			if again.Quiet() == 0 && s.Quiet() == 0 && again.String() != text {
				t.Fatalf("FromPieces of %q: %v", text, again)
			}
			// Whatever the pieces, the rules hold up.
			ms := s.MovesOf(s.Side(), nil)
			if s.IsTerminal() != (len(ms) == 0 || s.Quiet() >= checkers.DrawPlies) {
				t.Fatalf("%q: IsTerminal %v with %d moves", text, s.IsTerminal(), len(ms))
			}
			for _, m := range ms {
				c := *s
				back, err := c.ParseMove(s.MoveString(m))
				if s.IsTerminal() {
					continue
				}
				if err != nil || back != m {
					t.Fatalf("%q: ParseMove(%s) = %d, %v", text, s.MoveString(m), back, err)
				}
				if err := c.Play(m); err != nil {
					t.Fatalf("%q: Play(%s): %v", text, s.MoveString(m), err)
				}
				b, w, k := c.Pieces()
				if _, err := checkers.FromPieces(g.Variant(), b, w, k, c.Side()); err != nil {
					t.Fatalf("%q: after %s: %v", text, s.MoveString(m), err)
				}
			}
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, seed := range []string{
		"11-15", "9-13", "15x31", "15x24x31", "2x18", "6x15", "15x6x13x22x15x24", "15x24",
		"", "x", "-", "1-", "-1", "1--5", "11-15-19", "0-4", "32-33", "09-13", "11 - 15",
		"11X15", "pass", "1x10x1x10x1x10x1x10x1x10x1", "99999999999999999999-1", "é",
	} {
		f.Add(seed)
	}
	positions := []string{
		initialText,
		"B:W19,27:B15",
		"B:W6,7,14,15:B2",
		"B:W9,10,17,18,19:BK15",
		"B:W10,19:B6",
		"B:W32:B28",
	}
	var states []*checkers.State
	for _, p := range positions {
		states = append(states, parse(f, checkers.Standard, p))
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range states {
			before := *s
			m, err := s.ParseMove(text)
			if *s != before {
				t.Fatalf("%v: ParseMove(%q) changed the state", s, text)
			}
			if err != nil {
				if !errors.Is(err, game.ErrBadMove) && !errors.Is(err, game.ErrIllegalMove) && !errors.Is(err, game.ErrGameOver) {
					t.Fatalf("%v: ParseMove(%q): error %v wraps none of ErrBadMove, ErrIllegalMove, ErrGameOver", s, text, err)
				}
				continue
			}
			// Only legal moves are accepted, written in full or from and to only.
			if !slices.Contains(s.LegalMoves(s.ToMove(), nil), m) {
				t.Fatalf("%v: ParseMove(%q) = %s, not a legal move", s, text, s.MoveString(m))
			}
			full := s.MoveString(m)
			short := full
			if checkers.MoveCaptures(m) > 1 {
				short = strings.Join([]string{full[:strings.IndexByte(full, 'x')], full[strings.LastIndexByte(full, 'x')+1:]}, "x")
			}
			if text != full && text != short {
				t.Fatalf("%v: ParseMove(%q) = %s", s, text, full)
			}
		}
	})
}

// FuzzPlay feeds arbitrary move values to Play: each is either in the legal list and
// played, or refused with the state unchanged.
func FuzzPlay(f *testing.F) {
	for _, seed := range []int32{0, 8, 520, -1, 1 << 30, mvSeed(15, 1, 0), mvSeed(6, 1), 14 | 2<<5 | 1<<9} {
		f.Add(0, seed)
		f.Add(3, seed)
	}
	positions := []string{
		initialText,
		"B:W19,27:B15",
		"B:W6,7,14,15:B2",
		"B:W9,10,17,18,19:BK15",
		"B:W10,19:B6",
		"B:W26,27:B22",
		"W:WK3,18:B14,K27:Q6",
	}
	var states []*checkers.State
	for _, p := range positions {
		states = append(states, parse(f, checkers.Standard, p))
	}
	f.Fuzz(func(t *testing.T, i int, v int32) {
		if i < 0 {
			i = -(i + 1)
		}
		s := *states[i%len(states)]
		before := s
		legal := slices.Contains(s.LegalMoves(s.ToMove(), nil), game.Move(v))
		err := s.Play(game.Move(v))
		switch {
		case legal && err != nil:
			t.Fatalf("%v: Play(%s) of a legal move: %v", &before, before.MoveString(game.Move(v)), err)
		case !legal && err == nil:
			t.Fatalf("%v: Play(%d) = %s accepted, not in the legal list", &before, v, before.MoveString(game.Move(v)))
		case !legal && (s != before || !errors.Is(err, game.ErrIllegalMove)):
			t.Fatalf("%v: Play(%d): %v, state now %v", &before, v, err, &s)
		}
	})
}

func mvSeed(from int, dirs ...int) int32 { return int32(mv(from, true, dirs...)) }
