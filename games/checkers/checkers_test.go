package checkers_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/gametest"
	"github.com/arenaref/arena/games/checkers"
)

const initialText = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

var variants = []checkers.Variant{checkers.Standard, checkers.Giveaway}

// parse reads a position of variant v or fails the test.
func parse(t testing.TB, v checkers.Variant, text string) *checkers.State {
	t.Helper()
	s, err := checkers.New(v).Parse(text)
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return s
}

// texts returns the text of each move, sorted.
func texts(ms []game.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = checkers.MoveString(m)
	}
	slices.Sort(out)
	return out
}

// mv builds a move value by the documented encoding: the start square, then the
// direction of each step, and whether it is a capture.
func mv(from int, capture bool, dirs ...int) game.Move {
	m := uint32(from - 1)
	if capture {
		m |= uint32(len(dirs)) << 5
	}
	for i, d := range dirs {
		m |= uint32(d) << (9 + 2*i)
	}
	return game.Move(m)
}

// Directions of the encoding.
const (
	dl = 0 // down-left: 10-14
	dr = 1 // down-right: 10-15
	ul = 2 // up-left: 15-10
	ur = 3 // up-right: 15-11
)

func TestConformance(t *testing.T) {
	for _, v := range variants {
		t.Run(v.String(), func(t *testing.T) {
			g, err := game.Lookup(v.String())
			if err != nil {
				t.Fatal(err)
			}
			gametest.Run(t, g, gametest.Playouts(40), gametest.Seed(5), gametest.MaxPlies(20000))
		})
	}
}

func TestRegistered(t *testing.T) {
	for _, tt := range []struct {
		spec string
		v    checkers.Variant
	}{{"checkers", checkers.Standard}, {"giveaway", checkers.Giveaway}} {
		g, err := game.Lookup(tt.spec)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", tt.spec, err)
		}
		cg, ok := g.(*checkers.Game)
		if !ok || cg.Name() != tt.spec || cg.Variant() != tt.v || !slices.Equal(g.Seats(), []string{"black", "white"}) {
			t.Errorf("Lookup(%q) = %T %q %v %v", tt.spec, g, g.Name(), cg.Variant(), g.Seats())
		}
		if s := g.NewState().(*checkers.State); s.Variant() != tt.v || s.String() != initialText {
			t.Errorf("Lookup(%q).NewState() = %v, variant %v", tt.spec, s, s.Variant())
		}
		if _, err := game.Lookup(tt.spec + ":size=10"); !errors.Is(err, game.ErrBadGameOption) {
			t.Errorf("Lookup(%q) with an option: %v, want ErrBadGameOption", tt.spec, err)
		}
	}
	if checkers.Name != "checkers" || checkers.GiveawayName != "giveaway" || checkers.Black != 0 || checkers.White != 1 {
		t.Error("the contract's constants changed")
	}
}

func TestInitialPosition(t *testing.T) {
	for _, v := range variants {
		s := checkers.New(v).Initial()
		if s.String() != initialText || s.ToMove() != checkers.Black || s.Side() != checkers.Black ||
			s.Ply() != 0 || s.Quiet() != 0 || s.IsTerminal() || s.MustCapture() {
			t.Errorf("%v: %v, ToMove %v, Ply %d, Quiet %d", v, s, s.ToMove(), s.Ply(), s.Quiet())
		}
		black, white, kings := s.Pieces()
		if black != 0x00000fff || white != 0xfff00000 || kings != 0 {
			t.Errorf("Pieces() = %#x, %#x, %#x", black, white, kings)
		}
		want := []string{"10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"}
		if got := texts(s.LegalMoves(checkers.Black, nil)); !slices.Equal(got, want) {
			t.Errorf("legal moves %v, want %v", got, want)
		}
		if ms := s.LegalMoves(checkers.White, nil); len(ms) != 0 {
			t.Errorf("white, not to move, has moves %v", texts(ms))
		}
		// White's moves as if it were to move, for mobility.
		want = []string{"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"}
		if got := texts(s.MovesOf(checkers.White, nil)); !slices.Equal(got, want) {
			t.Errorf("MovesOf(White) = %v, want %v", got, want)
		}
	}
}

// TestRules plays hand-built positions: the legal moves there, and the position after
// the first of them (in text order).
func TestRules(t *testing.T) {
	tests := []struct {
		name, pos string
		legal     []string
		after     string // after playing legal[0]
	}{
		{"capture is mandatory", "B:W18:B9,14", []string{"14x23"}, "W:W:B9,23"},
		{"every side's capture counts", "B:W16,17,18:B9,11,14", []string{"11x20", "14x21", "14x23"}, "W:W17,18:B9,14,20"},
		{"a multi-jump goes to its end", "B:W10,19:B6", []string{"6x15x24"}, "W:W:B24"},
		{"any capture sequence may be chosen", "B:W8,10,18,19:B3,6",
			[]string{"3x12", "6x15x22", "6x15x24"}, "W:W10,18,19:B6,12"},
		{"two paths to one square are two moves", "B:W6,7,14,15:B2", []string{"2x11x18", "2x9x18"}, "W:W6,14:B18"},
		{"crowning ends the move", "B:W26,27:B22", []string{"22x31"}, "W:W27:BK31"},
		{"crowning by a simple move", "W:W5:B20", []string{"5-1"}, "B:WK1:B20"},
		{"a king moves backwards", "B:W32:BK18", []string{"18-14", "18-15", "18-22", "18-23"}, "W:W32:BK14:Q1"},
		{"a king captures backwards", "B:W14:BK18", []string{"18x9"}, "W:W:BK9"},
		{"a man does not capture backwards", "B:W14:B18", []string{"18-22", "18-23"}, "W:W14:B22"},
		{"a white king captures backwards", "W:WK15:B19", []string{"15x24"}, "B:WK24:B"},
		{"a white man does not capture backwards", "W:W15:B19", []string{"15-10", "15-11"}, ""},
		{"a king may pass its own square", "B:W9,10,17,18,19:BK15",
			[]string{"15x22x13x6x15x24", "15x24", "15x6x13x22x15x24"}, "W:W:BK24"},
		{"a man may be blocked while others move", "B:W24,32:B19,28", []string{"19-23"}, ""},
		{"blocked", "B:W32:B28", nil, ""},
		{"no pieces", "W:W:B1", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range variants {
				s := parse(t, v, tt.pos)
				ms := s.LegalMoves(s.Side(), nil)
				got := texts(ms)
				if !slices.Equal(got, tt.legal) {
					t.Fatalf("%v: legal moves %v, want %v", v, got, tt.legal)
				}
				if ref := refMoves(refFromState(s), s.Side()); len(ref) != len(got) {
					t.Fatalf("the reference rules find %d moves", len(ref))
				}
				if n := checkers.Perft(s, 1, game.PerftExact); n != uint64(len(ms)) {
					t.Errorf("Perft(1) = %d, want %d", n, len(ms))
				}
				if tt.after == "" {
					continue
				}
				m, err := s.ParseMove(tt.legal[0])
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Play(m); err != nil {
					t.Fatal(err)
				}
				if s.String() != tt.after || s.Ply() != 1 {
					t.Errorf("%v: after %s: %v at ply %d, want %v", v, tt.legal[0], s, s.Ply(), tt.after)
				}
			}
		})
	}
}

func TestGameEnd(t *testing.T) {
	tests := []struct {
		name, pos string
		// Returns of Black and White in standard checkers; give-away's are the opposite
		// when the game is decided.
		black, white float64
		drawn        bool
	}{
		{"black blocked", "B:W32:B28", -1, 1, false},
		{"white blocked", "W:W5:BK1,9", 1, -1, false},
		{"white has no pieces", "W:W:B1", 1, -1, false},
		{"black has no pieces", "B:W30:B", -1, 1, false},
		{"nobody has pieces", "B:W:B", -1, 1, false},
		{"draw rule", "B:WK29:BK4:Q80", 0, 0, true},
		{"blocked at the draw count", "B:W32:B28:Q80", -1, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range variants {
				s := parse(t, v, tt.pos)
				if !s.IsTerminal() || s.ToMove() != game.Terminal {
					t.Fatalf("%v: %v is not over", v, s)
				}
				if ms := s.LegalMoves(s.Side(), nil); len(ms) != 0 {
					t.Errorf("%v: legal moves %v at the end", v, texts(ms))
				}
				want := []float64{tt.black, tt.white}
				if v == checkers.Giveaway {
					want = []float64{tt.white, tt.black}
				}
				if got := s.Returns(nil); !slices.Equal(got, want) {
					t.Errorf("%v: Returns() = %v, want %v", v, got, want)
				}
				if tt.drawn && len(s.MovesOf(s.Side(), nil)) == 0 {
					t.Errorf("%v: MovesOf is empty in a drawn position with pieces free to move", v)
				}
				before := s.String()
				err := s.Play(mv(4, false, dl))
				if !errors.Is(err, game.ErrGameOver) || s.String() != before {
					t.Errorf("%v: Play after the end: %v, position %v", v, err, s)
				}
			}
		})
	}
	// Capturing the last piece ends the game; in give-away the side left without pieces
	// has won.
	for _, v := range variants {
		s := parse(t, v, "B:W18:B14")
		if err := s.Play(mv(14, true, dr)); err != nil {
			t.Fatal(err)
		}
		want := []float64{1, -1}
		if v == checkers.Giveaway {
			want = []float64{-1, 1}
		}
		if got := s.Returns(nil); s.ToMove() != game.Terminal || !slices.Equal(got, want) {
			t.Errorf("%v: after 14x23: ToMove %v, Returns %v, want %v", v, s.ToMove(), got, want)
		}
	}
}

func TestDrawCounter(t *testing.T) {
	play := func(t *testing.T, s *checkers.State, text string, quiet int) {
		t.Helper()
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Play(m); err != nil {
			t.Fatal(err)
		}
		if s.Quiet() != quiet {
			t.Fatalf("after %s: Quiet() = %d, want %d (%v)", text, s.Quiet(), quiet, s)
		}
	}
	t.Run("king moves count, the 80th draws", func(t *testing.T) {
		s := parse(t, checkers.Standard, "B:WK29:BK4:Q78")
		play(t, s, "4-8", 79)
		if s.IsTerminal() {
			t.Fatal("over at 79")
		}
		play(t, s, "29-25", 80)
		if s.ToMove() != game.Terminal || !slices.Equal(s.Returns(nil), []float64{0, 0}) {
			t.Errorf("at 80: ToMove %v, Returns %v", s.ToMove(), s.Returns(nil))
		}
		if s.String() != "B:WK25:BK8:Q80" {
			t.Errorf("String() = %q", s.String())
		}
	})
	t.Run("a man's move resets", func(t *testing.T) {
		s := parse(t, checkers.Standard, "B:WK29:B4,K10:Q50")
		play(t, s, "10-15", 51)
		play(t, s, "29-25", 52)
		play(t, s, "4-8", 0)
		play(t, s, "25-22", 1)
	})
	t.Run("a capture resets, a king's included", func(t *testing.T) {
		s := parse(t, checkers.Standard, "B:W14,K29:BK1,K18:Q30")
		play(t, s, "18x9", 0)
		play(t, s, "29-25", 1)
		play(t, s, "1-5", 2)
	})
	t.Run("crowning resets", func(t *testing.T) {
		s := parse(t, checkers.Standard, "W:W5,K32:BK10:Q7")
		play(t, s, "5-1", 0)
	})
	t.Run("a whole game ends", func(t *testing.T) {
		// Two kings each cannot catch the other: the draw rule ends it.
		s := parse(t, checkers.Giveaway, "B:WK32:BK1")
		var buf []game.Move
		for n := 0; !s.IsTerminal(); n++ {
			if n > checkers.DrawPlies {
				t.Fatalf("not over after %d plies: %v", n, s)
			}
			buf = s.LegalMoves(s.ToMove(), buf[:0])
			// Keep away from each other, towards each side's own corner.
			m := buf[0]
			for _, c := range buf {
				if d := checkers.MoveTo(c); (s.Side() == checkers.Black && d <= 8) || (s.Side() == checkers.White && d >= 25) {
					m = c
				}
			}
			if err := s.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if s.Quiet() != checkers.DrawPlies || s.Ply() != checkers.DrawPlies || !slices.Equal(s.Returns(nil), []float64{0, 0}) {
			t.Errorf("ended at ply %d, Quiet %d, Returns %v: %v", s.Ply(), s.Quiet(), s.Returns(nil), s)
		}
	})
}

func TestIllegalMoves(t *testing.T) {
	tests := []struct {
		name, pos string
		m         game.Move
		why       string // in the error
	}{
		{"a man backwards", initialText, mv(12, false, ur), "forward"},
		{"onto a piece", initialText, mv(8, false, dr), "not empty"},
		{"the opponent's piece", initialText, mv(21, false, ur), "no piece"},
		{"an empty square", initialText, mv(13, false, dr), "no piece"},
		{"off the board", "B:W:B12", mv(12, false, dr), "off the board"},
		{"a jump over nothing", initialText, mv(9, true, dr), "no piece of the opponent"},
		{"a jump over one's own piece", "B:W30:B14,18", mv(14, true, dr), "no piece of the opponent"},
		{"a simple move when a capture is on", "B:W18:B9,14", mv(9, false, dl), "mandatory"},
		{"a multi-jump stopped half way", "B:W10,19:B6", mv(6, true, dr), "goes on"},
		{"a multi-jump too long", "B:W10,19:B6", mv(6, true, dr, dr, dr), "off the board"},
		{"a crowned man jumps on", "B:W26,27:B22", mv(22, true, dr, ur), "crowned"},
		{"a man captures backwards", "B:W14:B18", mv(18, true, ul), "forward"},
		{"a piece taken twice", "B:W9,10,17,18,19:BK15", mv(15, true, ul, dr), "no piece of the opponent"},
		{"a jump onto a piece", "B:W18,27:B14,K32", mv(14, true, dr, dr), "not empty"},
		{"bits above the path", initialText, mv(9, false, dl) | 1<<12, "not a move"},
		{"more jumps than possible", initialText, game.Move(8 | 10<<5), "not a move"},
		{"negative", initialText, -1, "not a move"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := parse(t, checkers.Standard, tt.pos)
			before := *s
			err := s.Play(tt.m)
			if !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), tt.why) {
				t.Errorf("Play(%s): %v, want ErrIllegalMove saying %q", checkers.MoveString(tt.m), err, tt.why)
			}
			if *s != before {
				t.Errorf("Play changed the state to %v", s)
			}
			if slices.Contains(s.LegalMoves(s.Side(), nil), tt.m) {
				t.Errorf("%s is listed as legal", checkers.MoveString(tt.m))
			}
		})
	}
	s := parse(t, checkers.Standard, initialText)
	if err := s.PlayJoint([]game.Move{mv(9, false, dl)}); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("PlayJoint of one move: %v", err)
	}
	if err := s.PlayJoint([]game.Move{mv(9, false, dl), mv(21, false, ur)}); err != nil || s.String() != "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13" {
		t.Errorf("PlayJoint: %v, %v", err, s)
	}
}

func TestFromPieces(t *testing.T) {
	s, err := checkers.FromPieces(checkers.Giveaway, 1<<13, 1<<17|1<<0, 1<<0, checkers.White)
	if err != nil {
		t.Fatal(err)
	}
	if s.String() != "W:WK1,18:B14" || s.Variant() != checkers.Giveaway || s.Side() != checkers.White {
		t.Errorf("FromPieces: %v %v %v", s, s.Variant(), s.Side())
	}
	if b, w, k := s.Pieces(); b != 1<<13 || w != 1<<17|1 || k != 1 {
		t.Errorf("Pieces() = %#x %#x %#x", b, w, k)
	}
	for _, tt := range []struct {
		name               string
		v                  checkers.Variant
		black, white, king uint32
		side               game.Seat
	}{
		{"overlap", checkers.Standard, 1, 1, 0, checkers.Black},
		{"lone king", checkers.Standard, 1, 2, 4, checkers.Black},
		{"thirteen pieces", checkers.Standard, 0x1fff, 0, 0, checkers.Black},
		{"black man on 29", checkers.Standard, 1 << 28, 0, 0, checkers.Black},
		{"white man on 4", checkers.Standard, 0, 1 << 3, 0, checkers.Black},
		{"bad side", checkers.Standard, 1, 2, 0, game.Terminal},
		{"bad variant", checkers.Variant(7), 1, 2, 0, checkers.Black},
	} {
		if _, err := checkers.FromPieces(tt.v, tt.black, tt.white, tt.king, tt.side); !errors.Is(err, game.ErrBadPosition) {
			t.Errorf("%s: %v, want ErrBadPosition", tt.name, err)
		}
	}
	// Kings may stand anywhere, men on their own first row too.
	if _, err := checkers.FromPieces(checkers.Standard, 1<<28|1, 1<<3|1<<31, 1<<28|1<<3, checkers.Black); err != nil {
		t.Error(err)
	}
}

// TestAgainstReference compares the legal moves and what they do with the naive rules of
// ref_test.go on random positions, both seats, kings and all.
func TestAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	captures, multi := 0, 0
	for range 4000 {
		s := randomState(rng, checkers.Standard)
		for _, seat := range []game.Seat{checkers.Black, checkers.White} {
			ref := refMoves(refFromState(s), seat)
			ms := s.MovesOf(seat, nil)
			got := texts(ms)
			want := make([]string, len(ref))
			for i, r := range ref {
				want[i] = r.text
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%v: MovesOf(%v) = %v, want %v", s, seat, got, want)
			}
			if seat != s.Side() {
				continue
			}
			if s.MustCapture() != (len(ms) > 0 && checkers.MoveCaptures(ms[0]) > 0) {
				t.Fatalf("%v: MustCapture() = %v with moves %v", s, s.MustCapture(), got)
			}
			if s.IsTerminal() != (len(ms) == 0) {
				t.Fatalf("%v: IsTerminal() = %v with moves %v", s, s.IsTerminal(), got)
			}
			for _, m := range ms {
				c := *s
				if err := c.Play(m); err != nil {
					t.Fatalf("%v: Play(%s): %v", s, checkers.MoveString(m), err)
				}
				text := checkers.MoveString(m)
				i := slices.IndexFunc(ref, func(r refMove) bool { return r.text == text })
				b, w, k := ref[i].after.pieces()
				if cb, cw, ck := c.Pieces(); cb != b || cw != w || ck != k {
					t.Fatalf("%v: after %s: %v", s, text, &c)
				}
				if n := checkers.MoveCaptures(m); n > 0 {
					captures++
					if n > 1 {
						multi++
					}
				}
				back, err := s.ParseMove(text)
				if err != nil || back != m {
					t.Fatalf("%v: ParseMove(%q) = %s, %v", s, text, checkers.MoveString(back), err)
				}
			}
		}
	}
	if captures < 1000 || multi < 100 {
		t.Errorf("only %d captures, %d multi-jumps: make the positions busier", captures, multi)
	}
}

func TestNoAllocations(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var states []*checkers.State
	for range 50 {
		states = append(states, randomState(rng, checkers.Standard))
	}
	states = append(states, checkers.New(checkers.Standard).Initial(), parse(t, checkers.Standard, "B:W9,10,17,18,19:BK15"))
	buf := make([]game.Move, 0, 256)
	ret := make([]float64, 0, 2)
	for _, s := range states {
		if n := testing.AllocsPerRun(10, func() {
			buf = s.LegalMoves(s.ToMove(), buf[:0])
			buf = s.MovesOf(1-s.Side(), buf[:0])
			_ = s.MustCapture()
			_ = s.ToMove()
			ret = s.Returns(ret[:0])
		}); n != 0 {
			t.Errorf("%v: LegalMoves, MovesOf, MustCapture, Returns allocate %v times", s, n)
		}
		buf = s.LegalMoves(s.ToMove(), buf[:0])
		for _, m := range buf {
			if n := testing.AllocsPerRun(10, func() {
				c := *s
				if err := c.Play(m); err != nil {
					t.Fatal(err)
				}
			}); n != 0 {
				t.Errorf("%v: Play(%s) allocates %v times", s, checkers.MoveString(m), n)
			}
		}
	}
}

// BenchmarkLegalMovesPlay walks random games: at each ply the legal moves, then one of
// them played.
func BenchmarkLegalMovesPlay(b *testing.B) {
	b.ReportAllocs()
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]game.Move, 0, 64)
	s := checkers.New(checkers.Standard).Initial()
	start := *s
	plies := 0
	for b.Loop() {
		if s.IsTerminal() {
			*s = start
		}
		buf = s.LegalMoves(s.ToMove(), buf[:0])
		if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
			b.Fatal(err)
		}
		plies++
	}
	b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
}

func BenchmarkMoveString(b *testing.B) {
	b.ReportAllocs()
	m := mv(15, true, ul, dl, ur, dr, dr)
	for b.Loop() {
		_ = checkers.MoveString(m)
	}
}

func ExampleState_MovesOf() {
	s := checkers.New(checkers.Standard).Initial()
	// White's mobility, although Black is to move.
	fmt.Println(len(s.MovesOf(checkers.White, nil)), len(s.LegalMoves(checkers.White, nil)))
	// Output: 7 0
}
