package othello_test

import (
	"errors"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/gametest"
	"github.com/arenaref/arena/games/othello"
)

const initialText = "---------------------------OX------XO--------------------------- X"

// board builds position text from eight rows written as on a diagram, rank 8 first,
// files a to h left to right, and the side to move.
func board(t testing.TB, side string, rows ...string) *othello.State {
	t.Helper()
	if len(rows) != 8 {
		t.Fatalf("board: %d rows", len(rows))
	}
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		b.WriteString(rows[r])
	}
	b.WriteString(" " + side)
	s, err := othello.Parse(b.String())
	if err != nil {
		t.Fatalf("board: %v", err)
	}
	return s
}

func moveStrings(s game.State, ms []game.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = s.MoveString(m)
	}
	return out
}

// games returns the three board sizes, as game.Lookup builds them.
func games(t testing.TB) []*othello.Game {
	t.Helper()
	var gs []*othello.Game
	for _, spec := range []string{"othello:size=4", "othello:size=6", "othello"} {
		g, err := game.Lookup(spec)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", spec, err)
		}
		gs = append(gs, g.(*othello.Game))
	}
	return gs
}

func TestConformance(t *testing.T) {
	for _, g := range games(t) {
		t.Run(g.Name(), func(t *testing.T) {
			gametest.Run(t, g, gametest.Playouts(40), gametest.Seed(7))
		})
	}
}

func TestRegistered(t *testing.T) {
	for _, tt := range []struct{ spec, name string }{
		{"othello", "othello"},
		{"othello:size=8", "othello"},
		{"othello:size=6", "othello:size=6"},
		{"othello:size=4", "othello:size=4"},
	} {
		g, err := game.Lookup(tt.spec)
		if err != nil {
			t.Errorf("Lookup(%q): %v", tt.spec, err)
			continue
		}
		if g.Name() != tt.name || !slices.Equal(g.Seats(), []string{"black", "white"}) {
			t.Errorf("Lookup(%q): got %q with seats %v, want %q", tt.spec, g.Name(), g.Seats(), tt.name)
		}
		// The canonical name looks up the same game.
		again, err := game.Lookup(g.Name())
		if err != nil || again.Name() != g.Name() || again.NewState().String() != g.NewState().String() {
			t.Errorf("Lookup(%q) of the canonical name: %v", g.Name(), err)
		}
	}
	for _, spec := range []string{"othello:size=5", "othello:size=10", "othello:size=0", "othello:size=-6",
		"othello:size=06", "othello:size=six", "othello:size=6x6", "othello:variant=x", "othello:size=6,variant=x"} {
		_, err := game.Lookup(spec)
		if !errors.Is(err, game.ErrBadGameOption) {
			t.Errorf("Lookup(%q): error %v, want ErrBadGameOption", spec, err)
			continue
		}
		if strings.Contains(spec, "size") && !strings.Contains(spec, "variant") && !strings.Contains(err.Error(), "4, 6 or 8") {
			t.Errorf("Lookup(%q): error %q does not name the allowed sizes", spec, err)
		}
	}
	for _, n := range []int{0, 2, 5, 7, 9, 16} {
		if _, err := othello.NewSize(n); !errors.Is(err, game.ErrBadGameOption) {
			t.Errorf("NewSize(%d): error %v, want ErrBadGameOption", n, err)
		}
	}
}

func TestInitialPosition(t *testing.T) {
	s := othello.NewState()
	if got := s.String(); got != initialText {
		t.Errorf("String() = %q, want %q", got, initialText)
	}
	if s.ToMove() != othello.Black || s.Ply() != 0 || s.IsTerminal() {
		t.Errorf("ToMove %v, Ply %d, IsTerminal %v", s.ToMove(), s.Ply(), s.IsTerminal())
	}
	got := moveStrings(s, s.LegalMoves(othello.Black, nil))
	if want := []string{"d3", "c4", "f5", "e6"}; !slices.Equal(got, want) {
		t.Errorf("legal moves %v, want %v", got, want)
	}
	if ms := s.LegalMoves(othello.White, nil); len(ms) != 0 {
		t.Errorf("white, not to move, has moves %v", ms)
	}
	if b, w := s.DiscCounts(); b != 2 || w != 2 || s.Margin() != 0 || s.Empties() != 60 {
		t.Errorf("DiscCounts %d %d, Margin %d, Empties %d", b, w, s.Margin(), s.Empties())
	}
	if r := s.Returns(nil); !slices.Equal(r, []float64{0, 0}) {
		t.Errorf("Returns = %v", r)
	}
}

func TestMoveNotation(t *testing.T) {
	tests := []struct {
		text string
		want game.Move
	}{
		{"a1", 0}, {"h1", 7}, {"a2", 8}, {"d3", 19}, {"h8", 63},
		{"D3", 19}, {" e6\n", 44}, {"\tH8 ", 63},
		{"pass", othello.Pass}, {"PASS", othello.Pass}, {" Pass ", othello.Pass},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, err := othello.ParseMove(tt.text)
			if err != nil || got != tt.want {
				t.Fatalf("ParseMove(%q) = %d, %v; want %d", tt.text, got, err, tt.want)
			}
			if back, _ := othello.ParseMove(othello.MoveString(got)); back != got {
				t.Errorf("MoveString(%d) = %q does not read back", got, othello.MoveString(got))
			}
		})
	}
	for _, bad := range []string{"", " ", "i1", "a0", "a9", "d", "d33", "3d", "pas", "passs", "p a s s", "d-3", "\u0101\u0031", "ｄ３"} {
		if m, err := othello.ParseMove(bad); !errors.Is(err, game.ErrBadMove) {
			t.Errorf("ParseMove(%q) = %d, %v; want ErrBadMove", bad, m, err)
		}
	}
	if got := othello.MoveString(othello.Square(3, 2)); got != "d3" {
		t.Errorf("Square(3, 2) prints %q", got)
	}
	if got := othello.MoveString(-5); !strings.Contains(got, "invalid") {
		t.Errorf("MoveString(-5) = %q", got)
	}
}

func TestPositionText(t *testing.T) {
	s := othello.NewState()
	for _, m := range []string{"d3", "c5", "f6", "f5"} {
		mv, _ := s.ParseMove(m)
		if err := s.Play(mv); err != nil {
			t.Fatalf("Play(%s): %v", m, err)
		}
	}
	text := s.String()
	p, err := othello.New().ParseState(text)
	if err != nil {
		t.Fatalf("ParseState(%q): %v", text, err)
	}
	if p.String() != text || p.ToMove() != s.ToMove() {
		t.Errorf("round trip: %q to move %v", p.String(), p.ToMove())
	}
	if p.Ply() != 0 || s.Ply() != 4 {
		t.Errorf("parsed Ply = %d (want 0, the text has no ply), played Ply = %d (want 4)", p.Ply(), s.Ply())
	}

	bad := map[string]string{
		"empty":           "",
		"short":           initialText[:65],
		"long":            initialText + " ",
		"lower-case disc": strings.Replace(initialText, "X", "x", 1),
		"bad char":        "." + initialText[1:],
		"no space":        initialText[:64] + "_X",
		"tab":             initialText[:64] + "\tX",
		"bad side":        initialText[:65] + "B",
		"side lower case": initialText[:65] + "x",
		"side empty":      initialText[:65] + "-",
		"multi-byte":      "é" + initialText[2:],
		"trailing nl":     initialText + "\n",
	}
	for name, text := range bad {
		if _, err := othello.Parse(text); !errors.Is(err, game.ErrBadPosition) {
			t.Errorf("%s: Parse(%q) error %v, want ErrBadPosition", name, text, err)
		}
	}
}

func TestPlayFlips(t *testing.T) {
	// Black plays d4: it brackets e4-f4 (east, by g4), d5 (north, by d6) and e5-f6-g7
	// (north-east, by h8). The lines west (c4 then empty b4), south-west (c3, b2, then
	// empty a1), south (d3, d2, d1, then the edge) and south-east (own disc e3) flip
	// nothing.
	s := board(t, "X",
		"-------X",
		"------O-",
		"---X-O--",
		"---OO---",
		"--O-OOX-",
		"--OOX---",
		"-O-O----",
		"---O----",
	)
	want := board(t, "O",
		"-------X",
		"------X-",
		"---X-X--",
		"---XX---",
		"--OXXXX-",
		"--OOX---",
		"-O-O----",
		"---O----",
	)
	m, _ := s.ParseMove("d4")
	if err := s.Play(m); err != nil {
		t.Fatalf("Play(d4): %v", err)
	}
	if s.String() != want.String() {
		t.Errorf("after d4:\n got %s\nwant %s", s, want)
	}
	if s.Ply() != 1 {
		t.Errorf("Ply = %d", s.Ply())
	}
}

// refFlips is a plain square-by-square version of the rules on an n by n board, to check
// the bitboard code against: the discs the side with discs own turns over by playing sq.
func refFlips(own, opp uint64, sq, n int) uint64 {
	if (own|opp)&(1<<sq) != 0 || sq%8 >= n || sq/8 >= n {
		return 0
	}
	on := func(f, r int) bool { return f >= 0 && f < n && r >= 0 && r < n }
	var all uint64
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		f, r := sq%8+d[0], sq/8+d[1]
		var run uint64
		for on(f, r) && opp&(1<<(r*8+f)) != 0 {
			run |= 1 << (r*8 + f)
			f, r = f+d[0], r+d[1]
		}
		if run != 0 && on(f, r) && own&(1<<(r*8+f)) != 0 {
			all |= run
		}
	}
	return all
}

func checkAgainstReference(t *testing.T, s *othello.State) {
	t.Helper()
	black, white := s.Bitboards()
	own, opp := black, white
	if s.Side() == othello.White {
		own, opp = white, black
	}
	n := s.Size()
	var want uint64
	for sq := range 64 {
		if refFlips(own, opp, sq, n) != 0 {
			want |= 1 << sq
		}
	}
	if got := s.MoveMask(); got != want {
		t.Fatalf("%s: MoveMask %016x, reference %016x", s, got, want)
	}
	for m := want; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		f := refFlips(own, opp, sq, n)
		c := *s
		if err := c.Play(game.Move(sq)); err != nil {
			t.Fatalf("%s: Play(%d): %v", s, sq, err)
		}
		b2, w2 := c.Bitboards()
		wantOwn, wantOpp := own|f|1<<sq, opp&^f
		gotOwn, gotOpp := b2, w2
		if s.Side() == othello.White {
			gotOwn, gotOpp = w2, b2
		}
		if gotOwn != wantOwn || gotOpp != wantOpp {
			t.Fatalf("%s: after %s got %016x/%016x, reference %016x/%016x",
				s, othello.MoveString(game.Move(sq)), gotOwn, gotOpp, wantOwn, wantOpp)
		}
	}
}

func TestRulesAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// Positions from random games.
	var buf []game.Move
	for i := range 300 {
		s := games(t)[i%3].Initial()
		for !s.IsTerminal() {
			checkAgainstReference(t, s)
			buf = s.LegalMoves(s.ToMove(), buf[:0])
			if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Random boards, which reach edge cases games rarely do (long lines along edges).
	gs := games(t)
	for i := range 30000 {
		g := gs[i%3]
		board := g.Initial().BoardMask()
		a, b := rng.Uint64()&board, rng.Uint64()
		black, white := a&b, a&^b
		if rng.IntN(2) == 0 {
			black &= rng.Uint64() | rng.Uint64()
		}
		side := othello.Black
		if rng.IntN(2) == 0 {
			side = othello.White
		}
		s, err := g.FromBitboards(black, white, side)
		if err != nil {
			t.Fatal(err)
		}
		checkAgainstReference(t, s)
	}
}

func TestForcedPass(t *testing.T) {
	// White a1, black b1, black to move: black brackets nothing, white can take c1.
	s := board(t, "X",
		"--------",
		"--------",
		"--------",
		"--------",
		"--------",
		"--------",
		"--------",
		"OX------",
	)
	if s.ToMove() != othello.Black || s.IsTerminal() {
		t.Fatalf("ToMove %v, IsTerminal %v", s.ToMove(), s.IsTerminal())
	}
	if got := s.LegalMoves(othello.Black, nil); !slices.Equal(got, []game.Move{othello.Pass}) {
		t.Fatalf("legal moves %v, want [pass]", moveStrings(s, got))
	}
	before := s.String()
	if err := s.Play(othello.Square(2, 0)); !errors.Is(err, game.ErrIllegalMove) || s.String() != before {
		t.Fatalf("Play(c1) by black: %v, state %s", err, s)
	}
	if err := s.Play(othello.Pass); err != nil {
		t.Fatalf("Play(pass): %v", err)
	}
	if s.ToMove() != othello.White || s.Ply() != 1 {
		t.Fatalf("after pass: ToMove %v, Ply %d", s.ToMove(), s.Ply())
	}
	if err := s.Play(othello.Pass); !errors.Is(err, game.ErrIllegalMove) {
		t.Fatalf("pass by white, who can move: %v", err)
	}
	if got := moveStrings(s, s.LegalMoves(othello.White, nil)); !slices.Equal(got, []string{"c1"}) {
		t.Fatalf("white's moves %v", got)
	}
	if err := s.PlayJoint([]game.Move{othello.Pass, othello.Square(2, 0)}); err != nil {
		t.Fatalf("PlayJoint with white's c1: %v", err)
	}
	// Black has no disc left: the game is over with 61 empty squares.
	if !s.IsTerminal() || s.ToMove() != game.Terminal {
		t.Fatalf("not over: %s", s)
	}
	if s.Empties() != 61 || s.Margin() != -3 || s.Ply() != 2 {
		t.Errorf("Empties %d, Margin %d, Ply %d", s.Empties(), s.Margin(), s.Ply())
	}
	if r := s.Returns(nil); !slices.Equal(r, []float64{-1, 1}) {
		t.Errorf("Returns = %v, want [-1 1]", r)
	}
	for seat := range 2 {
		if ms := s.LegalMoves(game.Seat(seat), nil); len(ms) != 0 {
			t.Errorf("seat %d has moves %v after the end", seat, ms)
		}
	}
	for _, m := range []game.Move{othello.Pass, othello.Square(3, 0), 0} {
		if err := s.Play(m); !errors.Is(err, game.ErrGameOver) {
			t.Errorf("Play(%s) after the end: %v, want ErrGameOver", othello.MoveString(m), err)
		}
	}
	if _, err := othello.Parse(s.String()); err != nil {
		t.Errorf("terminal position does not parse: %v", err)
	}
}

func TestTerminalReturns(t *testing.T) {
	tests := []struct {
		name, text string
		want       []float64
		margin     int
	}{
		// Lone discs that bracket nothing: over with almost the whole board empty.
		{"draw", "X" + strings.Repeat("-", 62) + "O O", []float64{0, 0}, 0},
		{"black wins", "XX" + strings.Repeat("-", 61) + "O X", []float64{1, -1}, 1},
		{"white wins full board", strings.Repeat("O", 33) + strings.Repeat("X", 31) + " X", []float64{-1, 1}, -2},
		{"black wins no white", strings.Repeat("X", 10) + strings.Repeat("-", 54) + " O", []float64{1, -1}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := othello.Parse(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if !s.IsTerminal() || s.ToMove() != game.Terminal {
				t.Fatalf("not terminal")
			}
			if r := s.Returns(nil); !slices.Equal(r, tt.want) || s.Margin() != tt.margin {
				t.Errorf("Returns %v, Margin %d; want %v, %d", r, s.Margin(), tt.want, tt.margin)
			}
		})
	}
}

func TestIllegalMovesLeaveStateUnchanged(t *testing.T) {
	s := othello.NewState()
	before := s.String()
	for _, m := range []game.Move{othello.Square(0, 0), othello.Square(3, 3), othello.Pass, -1, 65, 1 << 30} {
		if err := s.Play(m); !errors.Is(err, game.ErrIllegalMove) {
			t.Errorf("Play(%s): %v, want ErrIllegalMove", othello.MoveString(m), err)
		}
		if s.String() != before || s.Ply() != 0 {
			t.Fatalf("Play(%s) changed the state to %s", othello.MoveString(m), s)
		}
	}
	if err := s.PlayJoint([]game.Move{19}); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("PlayJoint with one entry: %v", err)
	}
	if err := s.PlayJoint([]game.Move{19, 0}); err != nil || s.Ply() != 1 {
		t.Errorf("PlayJoint([d3, a1]) for black: %v", err)
	}
}

func TestNewStateFromBitboards(t *testing.T) {
	s, err := othello.NewStateFromBitboards(1<<28|1<<35, 1<<27|1<<36, othello.Black)
	if err != nil || s.String() != initialText {
		t.Fatalf("got %v, %v", s, err)
	}
	if _, err := othello.NewStateFromBitboards(1, 1, othello.Black); !errors.Is(err, game.ErrBadPosition) {
		t.Errorf("overlap: %v", err)
	}
	if _, err := othello.NewStateFromBitboards(1, 2, game.Terminal); !errors.Is(err, game.ErrBadPosition) {
		t.Errorf("bad side: %v", err)
	}
}

func TestNoAllocations(t *testing.T) {
	s := othello.NewState()
	buf := make([]game.Move, 0, 64)
	var ret []float64 = make([]float64, 0, 2)
	if n := testing.AllocsPerRun(100, func() {
		buf = s.LegalMoves(s.ToMove(), buf[:0])
		ret = s.Returns(ret[:0])
		c := *s
		_ = c.Play(buf[0])
	}); n != 0 {
		t.Errorf("LegalMoves/Returns/Play allocate %v times per run", n)
	}
}
