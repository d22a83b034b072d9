package othello_test

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/games/othello"
)

// Initial position texts of the smaller boards.
const (
	initialText6 = "--------------OX----XO-------------- X"
	initialText4 = "-----OX--XO----- X"
)

func mustSize(t testing.TB, n int) *othello.Game {
	t.Helper()
	g, err := othello.NewSize(n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestInitialPositionSizes(t *testing.T) {
	tests := []struct {
		size    int
		text    string
		moves   []string
		empties int
	}{
		{8, initialText, []string{"d3", "c4", "f5", "e6"}, 60},
		{6, initialText6, []string{"c2", "b3", "e4", "d5"}, 32},
		{4, initialText4, []string{"b1", "a2", "d3", "c4"}, 12},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.size), func(t *testing.T) {
			g := mustSize(t, tt.size)
			s := g.Initial()
			if got := s.String(); got != tt.text {
				t.Errorf("String() = %q, want %q", got, tt.text)
			}
			if g.NewState().String() != tt.text || s.Size() != tt.size || g.Size() != tt.size {
				t.Errorf("NewState %q, State.Size %d, Game.Size %d", g.NewState(), s.Size(), g.Size())
			}
			if got := moveStrings(s, s.LegalMoves(othello.Black, nil)); !slices.Equal(got, tt.moves) {
				t.Errorf("legal moves %v, want %v", got, tt.moves)
			}
			if b, w := s.DiscCounts(); b != 2 || w != 2 || s.Empties() != tt.empties {
				t.Errorf("DiscCounts %d %d, Empties %d", b, w, s.Empties())
			}
			if bits.OnesCount64(s.BoardMask()) != tt.size*tt.size {
				t.Errorf("BoardMask %016x", s.BoardMask())
			}
			if s.Game().Name() != g.Name() {
				t.Errorf("State.Game().Name() = %q, want %q", s.Game().Name(), g.Name())
			}
		})
	}
}

func TestMoveNotationSizes(t *testing.T) {
	tests := []struct {
		size      int
		good, bad []string
	}{
		{6, []string{"a1", "f1", "a6", "F6", " c3 ", "pass"}, []string{"g1", "a7", "h8", "g7", "f7"}},
		{4, []string{"a1", "d1", "a4", "D4", "pass"}, []string{"e1", "a5", "e5", "f6", "h8"}},
	}
	for _, tt := range tests {
		s := mustSize(t, tt.size).Initial()
		for _, text := range tt.good {
			m, err := s.ParseMove(text)
			if err != nil {
				t.Errorf("%dx%d: ParseMove(%q): %v", tt.size, tt.size, text, err)
				continue
			}
			if !strings.EqualFold(strings.TrimSpace(text), s.MoveString(m)) {
				t.Errorf("%dx%d: ParseMove(%q) prints as %q", tt.size, tt.size, text, s.MoveString(m))
			}
		}
		for _, text := range tt.bad {
			if m, err := s.ParseMove(text); !errors.Is(err, game.ErrBadMove) {
				t.Errorf("%dx%d: ParseMove(%q) = %d, %v; want ErrBadMove", tt.size, tt.size, text, m, err)
			}
			// Off-board squares print as invalid and are never legal.
			m, _ := othello.ParseMove(text)
			if got := s.MoveString(m); !strings.HasPrefix(got, "invalid") {
				t.Errorf("%dx%d: MoveString(%s) = %q", tt.size, tt.size, text, got)
			}
			c := *s
			if err := c.Play(m); !errors.Is(err, game.ErrIllegalMove) {
				t.Errorf("%dx%d: Play(%s): %v, want ErrIllegalMove", tt.size, tt.size, text, err)
			}
		}
	}
}

func TestPositionTextSizes(t *testing.T) {
	g6, g4 := mustSize(t, 6), mustSize(t, 4)
	for _, tt := range []struct {
		g    *othello.Game
		text string
	}{
		{g6, initialText6},
		{g6, strings.Repeat("X", 36) + " O"},
		{g4, initialText4},
		{g4, "OX--------------" + " X"},
	} {
		s, err := tt.g.ParseState(tt.text)
		if err != nil || s.String() != tt.text {
			t.Errorf("%s: ParseState(%q) = %v, %v", tt.g.Name(), tt.text, s, err)
		}
	}
	bad := []struct {
		g    *othello.Game
		text string
	}{
		{g6, initialText},
		{g6, initialText4},
		{g6, initialText6[:37]},
		{g6, initialText6 + " "},
		{g6, strings.Replace(initialText6, "-", ".", 1)},
		{g6, initialText6[:36] + "_X"},
		{g4, initialText6},
		{g4, initialText},
		{g4, initialText4[:16] + " -"},
		{othello.New(), initialText6},
		{othello.New(), initialText4},
	}
	for _, tt := range bad {
		if _, err := tt.g.ParseState(tt.text); !errors.Is(err, game.ErrBadPosition) {
			t.Errorf("%s: ParseState(%q): %v, want ErrBadPosition", tt.g.Name(), tt.text, err)
		}
	}
	if _, err := othello.Parse(initialText6); !errors.Is(err, game.ErrBadPosition) {
		t.Errorf("Parse (8x8) of a 6x6 text: %v", err)
	}
	// Discs off a small board are refused by FromBitboards.
	if _, err := g6.FromBitboards(1<<6, 0, othello.Black); !errors.Is(err, game.ErrBadPosition) {
		t.Errorf("FromBitboards with a disc on g1 of 6x6: %v", err)
	}
}

// TestSmallBoardsStayOnTheBoard plays random games on the small boards, checking that no
// disc ever lands off the board and that a full board ends the game.
func TestSmallBoardsStayOnTheBoard(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{4, 6} {
		g := mustSize(t, n)
		for range 500 {
			s := g.Initial()
			for !s.IsTerminal() {
				ms := s.LegalMoves(s.ToMove(), nil)
				if err := s.Play(ms[rng.IntN(len(ms))]); err != nil {
					t.Fatal(err)
				}
				b, w := s.Bitboards()
				if (b|w)&^s.BoardMask() != 0 {
					t.Fatalf("%dx%d: disc off the board in %s (%016x %016x)", n, n, s, b, w)
				}
			}
			if b, w := s.DiscCounts(); b+w+s.Empties() != n*n {
				t.Fatalf("%dx%d: %d + %d discs and %d empties", n, n, b, w, s.Empties())
			}
		}
	}
}

// Published perft counts of the smaller boards from their initial positions, in the
// leaves convention (a pass is a ply, a finished game one leaf).
var (
	perftLeaves6 = []uint64{1, 4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912, 14976792, 108820292}
	perftLeaves4 = []uint64{1, 4, 12, 44, 128, 424, 1256, 3624, 9116, 20044, 36540, 50704, 57436, 59564, 59980}
)

func TestPerftSizes(t *testing.T) {
	for _, tt := range []struct {
		size int
		want []uint64
	}{{6, perftLeaves6}, {4, perftLeaves4}} {
		s := mustSize(t, tt.size).Initial()
		for depth, want := range tt.want {
			t.Run(fmt.Sprintf("%dx%d/%d", tt.size, tt.size, depth), func(t *testing.T) {
				if got := othello.Perft(s, depth, othello.PerftLeaves); got != want {
					t.Errorf("Perft(%d) = %d, want %d", depth, got, want)
				}
			})
		}
	}
}

// The complete game tree of 4x4 Othello: every game from the start to its end, passes
// included, and how each ends.
const (
	games4          = 60060
	games4BlackWins = 24632
	games4WhiteWins = 30116
	games4Draws     = 5312
)

// TestCompleteGames4x4 walks every complete 4x4 game through the public State API and
// counts the outcomes.
func TestCompleteGames4x4(t *testing.T) {
	var black, white, draws, longest int
	var walk func(s *othello.State)
	walk = func(s *othello.State) {
		if s.IsTerminal() {
			switch d := s.Margin(); {
			case d > 0:
				black++
			case d < 0:
				white++
			default:
				draws++
			}
			longest = max(longest, s.Ply())
			return
		}
		var buf [16]game.Move
		for _, m := range s.LegalMoves(s.ToMove(), buf[:0]) {
			c := *s
			if err := c.Play(m); err != nil {
				t.Fatal(err)
			}
			walk(&c)
		}
	}
	walk(mustSize(t, 4).Initial())
	if total := black + white + draws; total != games4 || black != games4BlackWins || white != games4WhiteWins || draws != games4Draws {
		t.Errorf("%d games: black %d, white %d, draws %d; want %d: %d, %d, %d",
			total, black, white, draws, games4, games4BlackWins, games4WhiteWins, games4Draws)
	}
	// Past the longest game, perft in the leaves convention counts complete games.
	if got := othello.Perft(mustSize(t, 4).Initial(), longest+2, othello.PerftLeaves); got != games4 {
		t.Errorf("Perft(%d) = %d, want %d complete games", longest+2, got, games4)
	}
	t.Logf("longest 4x4 game: %d plies", longest)
}

// TestPerftSizesAgainstGenericPerft counts the small trees again through the game.State
// interface, passes and game ends included, in both conventions.
func TestPerftSizesAgainstGenericPerft(t *testing.T) {
	for _, tt := range []struct{ size, depth int }{{4, 16}, {6, 7}} {
		g := mustSize(t, tt.size)
		for _, mode := range []game.PerftMode{game.PerftLeaves, game.PerftExact} {
			for depth := 1; depth <= tt.depth; depth++ {
				fast := game.Perft(g.NewState(), depth, mode)
				slow := game.Perft(slowState{g.NewState()}, depth, mode)
				if fast != slow {
					t.Errorf("%s %s depth %d: fast %d, through game.State %d", g.Name(), mode, depth, fast, slow)
				}
			}
		}
	}
}

// imagesN is images for an n by n board text.
func imagesN(text string, n int) []string {
	var out []string
	for sym := range 8 {
		b := []byte(text)
		for sq := range n * n {
			f, r := sq%n, sq/n
			if sym&4 != 0 {
				f, r = r, f
			}
			if sym&2 != 0 {
				r = n - 1 - r
			}
			if sym&1 != 0 {
				f = n - 1 - f
			}
			b[r*n+f] = text[sq]
		}
		out = append(out, string(b))
	}
	return out
}

// TestCanonicalKeySizes checks on the small boards, over every position within a few
// plies, that two positions share a key exactly when one is an image of the other, and
// that the key is one of the images.
func TestCanonicalKeySizes(t *testing.T) {
	for _, tt := range []struct{ size, depth int }{{4, 6}, {6, 4}} {
		g := mustSize(t, tt.size)
		byText := map[string]*othello.State{}
		var walk func(s *othello.State, depth int)
		walk = func(s *othello.State, depth int) {
			byText[s.String()] = s
			if depth == 0 || s.IsTerminal() {
				return
			}
			for _, m := range s.LegalMoves(s.ToMove(), nil) {
				c := *s
				if err := c.Play(m); err != nil {
					t.Fatal(err)
				}
				walk(&c, depth-1)
			}
		}
		walk(g.Initial(), tt.depth)
		for _, p := range byText {
			key := p.CanonicalKey()
			imgs := map[string]bool{}
			for _, img := range imagesN(p.String(), tt.size) {
				imgs[img] = true
			}
			if !imgs[key] {
				t.Fatalf("%s: key %s of %s is none of its images", g.Name(), key, p)
			}
			if k, err := g.Parse(key); err != nil || k.CanonicalKey() != key {
				t.Fatalf("%s: key %q does not read back as a position with that key (%v)", g.Name(), key, err)
			}
			for _, q := range byText {
				if same := key == q.CanonicalKey(); same != imgs[q.String()] {
					t.Fatalf("%s: %s and %s: same key %v, images of each other %v", g.Name(), p, q, same, imgs[q.String()])
				}
			}
		}
		if len(byText) < 100 {
			t.Fatalf("%s: only %d positions checked", g.Name(), len(byText))
		}
	}
}

// TestOpeningsSizes generates openings for the small boards, folded by symmetry: the four
// first moves are one opening on every size, and each opening reads back as a position of
// its board.
func TestOpeningsSizes(t *testing.T) {
	for _, n := range []int{4, 6} {
		g := mustSize(t, n)
		one, err := opening.Generate(g, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(one) != 1 {
			t.Errorf("%s: %d openings after one ply, want 1", g.Name(), len(one))
		}
		ops, err := opening.Generate(g, 4)
		if err != nil {
			t.Fatal(err)
		}
		keys := map[string]bool{}
		for _, op := range ops {
			s := g.Initial()
			for _, text := range op.Moves {
				m, err := s.ParseMove(text)
				if err == nil {
					err = s.Play(m)
				}
				if err != nil {
					t.Fatalf("%s: opening %s: %v", g.Name(), op, err)
				}
			}
			if keys[s.CanonicalKey()] {
				t.Errorf("%s: opening %s repeats a position up to symmetry", g.Name(), op)
			}
			keys[s.CanonicalKey()] = true
		}
		var file strings.Builder
		if err := opening.Write(&file, opening.GeneratedHeader(g, 4, len(ops)), ops); err != nil {
			t.Fatal(err)
		}
		back, err := opening.Parse(strings.NewReader(file.String()), g)
		if err != nil || len(back) != len(ops) {
			t.Fatalf("%s: the written openings read back as %d, %v", g.Name(), len(back), err)
		}
		t.Logf("%s: %d openings after 4 plies", g.Name(), len(ops))
	}
}
