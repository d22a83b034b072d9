package atarigo_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
)

// TestProblems checks every answer the notes of problems.txt give, by exhaustive search.
func TestProblems(t *testing.T) {
	ps := atarigo.Problems()
	titles := []string{"ladder", "ladder breakers", "net (geta)", "snapback", "ko", "escape", "three liberties on the edge"}
	if len(ps) != len(titles) {
		t.Fatalf("%d problems, want %d", len(ps), len(titles))
	}
	for i, p := range ps {
		if p.Number != i+1 || p.Title != titles[i] {
			t.Errorf("problem %d is %d %q, want %q", i+1, p.Number, p.Title, titles[i])
		}
		if p.Start.IsTerminal() || !p.Start.IsCapture() || p.Start.Ply() != 0 {
			t.Errorf("problem %d %q does not start a capture game", p.Number, p.Start)
		}
	}

	// captures checks that the attacker to move takes the target within k moves, exactly
	// with the moves keys, and with none within k-1.
	captures := func(t *testing.T, s *atarigo.State, k int, keys ...string) {
		t.Helper()
		bf := newBruteForce(s)
		if got := bf.winningMoves(s, k); !sameMoves(got, keys) {
			t.Errorf("moves that take the target within %d: %v, want %v", k, got, keys)
		}
		if bf.captures(s, k-1) {
			t.Errorf("the target falls within %d moves already", k-1)
		}
		t.Logf("%d nodes", bf.nodes)
	}
	play := func(t *testing.T, s *atarigo.State, moves ...string) *atarigo.State {
		t.Helper()
		c := s.Clone().(*atarigo.State)
		for _, text := range moves {
			m, err := c.ParseMove(text)
			if err == nil {
				err = c.Play(m)
			}
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
		}
		return c
	}

	t.Run("ladder", func(t *testing.T) { captures(t, ps[0].Start, 5, "C4", "D3") })
	t.Run("ladder breakers", func(t *testing.T) {
		s := ps[1].Start
		if bf := newBruteForce(s); bf.captures(s, 6) {
			t.Errorf("Black takes C3 within 6 moves")
		}
	})
	t.Run("net", func(t *testing.T) { captures(t, ps[2].Start, 3, "E5") })
	t.Run("snapback", func(t *testing.T) {
		s := ps[3].Start
		captures(t, s, 2, "B1")
		taken := play(t, s, "B1", "A1")
		if taken.Ko() != atarigo.NoPoint || !taken.IsLegal(game.Move(mustPoint(t, "B1", 7))) {
			t.Fatalf("after B1 A1, %q: the retake at B1 is not legal", taken)
		}
		end := play(t, taken, "B1")
		if end.Winner() != atarigo.Black || countStones(taken)-countStones(end) != 2 {
			t.Errorf("the retake at B1 gives %q", end)
		}
	})
	t.Run("ko", func(t *testing.T) {
		s := ps[4].Start
		bf := newBruteForce(s)
		if got := bf.winningMoves(s, 4); !sameMoves(got, []string{"D2"}) {
			t.Errorf("white moves that hold C1 for 4 black moves: %v, want D2", got)
		}
		after := play(t, s, "D2")
		if after.Ko() != mustPoint(t, "C2", 6) {
			t.Fatalf("after D2, %q has no ko at C2", after)
		}
		lifted, err := game.Lookup("capture")
		if err != nil {
			t.Fatal(err)
		}
		free, err := lifted.ParseState(strings.Replace(after.String(), " ko=C2", "", 1))
		if err != nil {
			t.Fatal(err)
		}
		if !newBruteForce(after).captures(free.(*atarigo.State), 2) {
			t.Errorf("without the ko rule's ban, Black does not take C1 within 2 moves of %q", free)
		}
	})
	t.Run("escape", func(t *testing.T) {
		s := ps[5].Start
		bf := newBruteForce(s)
		if bf.escapes(s, 2) || !bf.escapes(s, 3) {
			t.Fatalf("White does not reach 5 liberties in exactly 3 moves")
		}
		var ways []string
		for _, m := range s.LegalMoves(s.ToMove(), nil) {
			if bf.escapes(play(t, s, s.MoveString(m)), 2) {
				ways = append(ways, s.MoveString(m))
			}
		}
		if !sameMoves(ways, []string{"E5", "E6"}) {
			t.Errorf("first moves that escape: %v, want E5 and E6", ways)
		}
	})
	t.Run("three liberties", func(t *testing.T) { captures(t, ps[6].Start, 3, "C2") })
}

// TestProblemDiagrams checks that the diagram in each problem's note shows its position.
func TestProblemDiagrams(t *testing.T) {
	row := regexp.MustCompile(`^\s*(\d+) ((?:[.XO] )*[.XO])$`)
	for _, p := range atarigo.Problems() {
		var rows []string
		for _, line := range strings.Split(p.Note, "\n") {
			if m := row.FindStringSubmatch(line); m != nil {
				rows = append(rows, strings.ReplaceAll(m[2], " ", ""))
			}
		}
		board, _, _ := strings.Cut(p.Start.String(), " ")
		if got := strings.Join(rows, "/"); got != board {
			t.Errorf("problem %d %q: the diagram shows %q, the position is %q", p.Number, p.Title, got, board)
		}
	}
}

func TestProblemsOption(t *testing.T) {
	for _, p := range atarigo.Problems() {
		g, err := game.Lookup("capture:problem=" + strconv.Itoa(p.Number))
		if err != nil {
			t.Fatal(err)
		}
		if g.NewState().String() != p.Start.String() {
			t.Errorf("capture:problem=%d starts at %q, want %q", p.Number, g.NewState(), p.Start)
		}
	}
	def, err := game.Lookup("capture")
	if err != nil {
		t.Fatal(err)
	}
	if def.NewState().String() != atarigo.Problems()[0].Start.String() {
		t.Errorf("capture starts at %q, not problem 1", def.NewState())
	}
	// Problems returns copies: playing on one leaves the game's start alone.
	s := atarigo.Problems()[0].Start
	if err := s.Play(s.PassMove()); err != nil {
		t.Fatal(err)
	}
	if def.NewState().String() == s.String() {
		t.Errorf("playing on a problem's start changed the game's")
	}
}

func sameMoves(got, want []string) bool {
	a, b := slices.Clone(got), slices.Clone(want)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func mustPoint(t *testing.T, text string, size int) atarigo.Point {
	t.Helper()
	p, err := atarigo.ParsePoint(text, size)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
