package atarigo_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
)

// fuzzGames are the games the position fuzzer reads every text with.
var fuzzGames = []string{"atari-go:size=5", "atari-go", "atari-go:size=19", "capture", "capture:safe=3,moves=20"}

func FuzzParseState(f *testing.F) {
	for _, p := range atarigo.Problems() {
		f.Add(p.Start.String())
	}
	for _, seed := range []string{
		"...../...../...../...../..... b",
		"...../...../.XO../X.XO./.XO.. w ko=B2 target=C3 played=1",
		"...../...../XX.../..X../X.X.. w target=A2 played=3 winner=b",
		"...../...../O..../.O.../OX... b winner=w",
		"...../...../..O../...../..... b passes=2",
		"...../...../...../O..../XO... b",
		"...../...../..X../...../..... b target=C3 played=999999999999",
		"...../...../..X../...../..... b target=C3 target=C3",
		strings.Repeat(".........", 9) + " b",
		"", "b", "/ b", "\xff", "...../...../...../...../..... b ko=A1",
	} {
		f.Add(seed)
	}
	var gs []game.Game
	for _, spec := range fuzzGames {
		g, err := game.Lookup(spec)
		if err != nil {
			f.Fatal(err)
		}
		gs = append(gs, g)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, g := range gs {
			s, err := g.ParseState(text)
			if err != nil {
				if !errors.Is(err, game.ErrBadPosition) {
					t.Fatalf("%s: ParseState(%q): %v does not wrap ErrBadPosition", g.Name(), text, err)
				}
				continue
			}
			checkPlayable(t, g, s.(*atarigo.State))
		}
	})
}

// checkPlayable checks a position that was read: its text is canonical and reads back,
// and a few moves from it keep it so.
func checkPlayable(t *testing.T, g game.Game, s *atarigo.State) {
	t.Helper()
	for ply := 0; ; ply++ {
		text := s.String()
		back, err := g.ParseState(text)
		if err != nil {
			t.Fatalf("%s: ParseState(String() = %q): %v", g.Name(), text, err)
		}
		if back.String() != text || back.IsTerminal() != s.IsTerminal() {
			t.Fatalf("%s: %q reads back as %q", g.Name(), text, back)
		}
		if s.IsTerminal() || ply == 3 {
			return
		}
		moves := s.LegalMoves(s.ToMove(), nil)
		if len(moves) == 0 {
			t.Fatalf("%s: %q is not over but has no legal move", g.Name(), text)
		}
		m := moves[(ply*7)%len(moves)]
		if err := s.Play(m); err != nil {
			t.Fatalf("%s: %q: Play(%s) of a legal move: %v", g.Name(), text, s.MoveString(m), err)
		}
	}
}

func FuzzParseMove(f *testing.F) {
	for _, seed := range []string{"pass", "PASS", "a1", "J9", "T19", "I5", "A10", " e5 ", "", "pas", "\x00"} {
		f.Add(seed, 9)
	}
	f.Fuzz(func(t *testing.T, text string, size int) {
		if size < atarigo.MinSize || size > atarigo.MaxSize {
			size = atarigo.MinSize + (size%15+15)%15
		}
		s, err := atarigo.NewAtariGoState(size)
		if err != nil {
			t.Fatal(err)
		}
		m, err := s.ParseMove(text)
		if err != nil {
			if !errors.Is(err, game.ErrBadMove) {
				t.Fatalf("ParseMove(%q): %v does not wrap ErrBadMove", text, err)
			}
			return
		}
		if m < 0 || m > atarigo.PassMove(size) {
			t.Fatalf("ParseMove(%q) = %d, no move of the %dx%d board", text, m, size, size)
		}
		if back, err := s.ParseMove(s.MoveString(m)); err != nil || back != m {
			t.Fatalf("ParseMove(MoveString(%d) = %q) = %d, %v", m, s.MoveString(m), back, err)
		}
		if !s.IsLegal(m) {
			t.Fatalf("%q: every point of the empty board is legal", text)
		}
	})
}

func FuzzParsePoint(f *testing.F) {
	for _, seed := range []string{"A1", "t19", "J9", "I1", "A0", "A01", "Z5", "", "K10"} {
		f.Add(seed, 19)
	}
	f.Fuzz(func(t *testing.T, text string, size int) {
		p, err := atarigo.ParsePoint(text, size)
		if err != nil {
			if !errors.Is(err, game.ErrBadMove) {
				t.Fatalf("ParsePoint(%q, %d): %v does not wrap ErrBadMove", text, size, err)
			}
			return
		}
		if p < 0 || int(p) >= size*size {
			t.Fatalf("ParsePoint(%q, %d) = %d, off the board", text, size, p)
		}
		if got := atarigo.PointString(p, size); got != strings.ToUpper(text) {
			t.Fatalf("PointString(ParsePoint(%q, %d)) = %q", text, size, got)
		}
	})
}

func FuzzParseSGF(f *testing.F) {
	for _, seed := range []string{
		"(;GM[1]FF[4]SZ[5]AB[aa][ce:de]AW[bb:bc])",
		"(;SZ[5]AB[bc][ad][be]AW[cc][dd][ce][bd];B[cd])",
		"(;SZ[5];B[cc];W[dd](;B[bb])(;B[ee]))",
		"(;SZ[5];B[];W[tt])",
		"(;SZ[7]AB[bc][cd]AW[cc]PL[W];W[dc];B[cb])",
		"(;SZ[5]AB[ab][ba];W[aa])",
		"(;SZ[5]C[\\]]AB[aa:ee]AE[cc])",
		"(;AB[ss]PL[B])",
		"((;))", "(;", "", "(;SZ[19:19])",
	} {
		f.Add(seed, "")
		f.Add(seed, "C3")
	}
	f.Fuzz(func(t *testing.T, sgf, target string) {
		s, err := atarigo.ParseSGF(sgf, target)
		if err != nil {
			if !errors.Is(err, game.ErrBadPosition) {
				t.Fatalf("ParseSGF(%q, %q): %v does not wrap ErrBadPosition", sgf, target, err)
			}
			return
		}
		if s.IsCapture() != (target != "") {
			t.Fatalf("ParseSGF(%q, %q): IsCapture() = %v", sgf, target, s.IsCapture())
		}
		spec := "capture"
		if !s.IsCapture() {
			spec = "atari-go:size=" + strconv.Itoa(s.Size())
		}
		g, err := game.Lookup(spec)
		if err != nil {
			t.Fatal(err)
		}
		checkPlayable(t, g, s)
	})
}
