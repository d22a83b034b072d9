package atarigo_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
)

// seen counts the rule situations a differential run met, so that the tests can check
// they were exercised at all.
type seen struct {
	games, plies     int
	kos              int // positions where ko forbade a point
	koRetakes        int // positions where the ko point became legal again one move later
	suicides         int // empty points refused as suicide (not ko)
	captures         int // moves that took stones and the game went on (capture game)
	multiCaptures    int // moves that took more than one stone
	passEnds         int // games ended by two passes
	captureEnds      int // games ended by a capture (atari-go) or the target's capture
	safeEnds, limits int // capture game: ended by the target's liberties, by the move limit
}

// compare checks that s and g are the same position under both implementations: the same
// text, legal moves, end and returns.
func compare(s *atarigo.State, g *naive) error {
	if a, b := s.String(), g.text(); a != b {
		return fmt.Errorf("text %q, naive %q", a, b)
	}
	over, _ := g.result()
	if s.IsTerminal() != over {
		return fmt.Errorf("%q: IsTerminal() = %v, naive %v", s, s.IsTerminal(), over)
	}
	if a, b := s.Returns(nil), g.returns(); !slices.Equal(a, b) {
		return fmt.Errorf("%q: Returns() = %v, naive %v", s, a, b)
	}
	n := s.Size()
	var want []game.Move
	for _, p := range g.legal() {
		want = append(want, game.Move(atarigo.PointAt(p.col, p.row, n)))
	}
	if !over {
		want = append(want, atarigo.PassMove(n))
	}
	var got []game.Move
	if seat := s.ToMove(); seat != game.Terminal {
		got = s.LegalMoves(seat, nil)
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("%q: legal moves %v, naive %v", s, moveTexts(s, got), moveTexts(s, want))
	}
	return nil
}

func moveTexts(s *atarigo.State, ms []game.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = s.MoveString(m)
	}
	return out
}

// playBoth plays a random game from s and g, comparing them at every ply, and adds what
// it met to count. passOdds is the chance of a pass among the moves when a stone is
// legal, kept low so that games fill the board.
func playBoth(rng *rand.Rand, s *atarigo.State, g *naive, count *seen) error {
	n := s.Size()
	var buf []game.Move
	count.games++
	prevKo := atarigo.NoPoint
	for {
		if err := compare(s, g); err != nil {
			return fmt.Errorf("ply %d: %v", s.Ply(), err)
		}
		if s.IsTerminal() {
			break
		}
		count.plies++
		buf = s.LegalMoves(s.ToMove(), buf[:0])
		if ko := s.Ko(); ko != atarigo.NoPoint {
			count.kos++
		}
		if prevKo != atarigo.NoPoint && slices.Contains(buf, game.Move(prevKo)) {
			count.koRetakes++
		}
		isLegal := make([]bool, n*n+1)
		for _, m := range buf {
			isLegal[m] = true
		}
		for p := atarigo.Point(0); int(p) < n*n; p++ {
			if s.At(p) == atarigo.Empty && p != s.Ko() && !isLegal[p] {
				count.suicides++
			}
		}
		m := buf[len(buf)-1] // the pass
		if len(buf) == 1 || rng.IntN(40) != 0 {
			m = buf[rng.IntN(len(buf))]
		}
		// Two moves ago's ko: legal again now unless it was retaken or filled.
		prevKo = atarigo.NoPoint
		if s.Ko() != atarigo.NoPoint && m != game.Move(s.Ko()) {
			prevKo = s.Ko()
		}
		stones := countStones(s)
		if err := s.Play(m); err != nil {
			return fmt.Errorf("ply %d: Play(%s) of a legal move: %v", s.Ply(), s.MoveString(m), err)
		}
		if m == atarigo.PassMove(n) {
			g.play(spot{}, true)
		} else {
			col, row := atarigo.Coords(atarigo.Point(m), n)
			g.play(spot{row, col}, false)
			if taken := stones + 1 - countStones(s); taken > 0 {
				if !s.IsTerminal() {
					count.captures++
				}
				if taken > 1 {
					count.multiCaptures++
				}
			}
		}
	}
	switch {
	case s.Passes() == 2:
		count.passEnds++
	case s.Winner() != atarigo.Empty && (!s.IsCapture() || s.At(s.Target()) == atarigo.Empty):
		count.captureEnds++
	case s.IsCapture() && s.Liberties(s.Target()) >= s.Safe():
		count.safeEnds++
	case s.IsCapture() && s.Ply() >= s.MoveLimit():
		count.limits++
	}
	return nil
}

// games returns n, or a tenth of it (at least 10) under go test -short.
func games(n int) int {
	if testing.Short() {
		return max(n/10, 10)
	}
	return n
}

func countStones(s *atarigo.State) int {
	k := 0
	for p := atarigo.Point(0); int(p) < s.Size()*s.Size(); p++ {
		if s.At(p) != atarigo.Empty {
			k++
		}
	}
	return k
}

func TestAgainstNaiveAtariGo(t *testing.T) {
	for _, tc := range []struct{ size, games int }{{5, 2000}, {7, 2000}, {9, 2000}, {13, 100}, {19, 100}} {
		t.Run(fmt.Sprintf("%dx%d", tc.size, tc.size), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.size), 7))
			var count seen
			for i := range games(tc.games) {
				s, err := atarigo.NewAtariGoState(tc.size)
				if err != nil {
					t.Fatal(err)
				}
				if err := playBoth(rng, s, newNaiveAtariGo(tc.size), &count); err != nil {
					t.Fatalf("game %d: %v", i, err)
				}
			}
			t.Logf("%+v", count)
			if count.captureEnds == 0 || count.suicides == 0 {
				t.Errorf("the games met no capture or no suicide: %+v", count)
			}
		})
	}
}

// randomCapture returns a random capture problem on an n by n board, the same under both
// implementations: stones placed at random with the given density, strings left without
// liberties removed, a random stone as the target, a random colour to move.
func randomCapture(rng *rand.Rand, n int, density float64, safe, limit int) (*atarigo.State, *naive, error) {
	grid := make([][]byte, n)
	for r := range grid {
		grid[r] = make([]byte, n)
		for c := range grid[r] {
			switch x := rng.Float64(); {
			case x < density/2:
				grid[r][c] = 'X'
			case x < density:
				grid[r][c] = 'O'
			default:
				grid[r][c] = '.'
			}
		}
	}
	g := &naive{n: n}
	for r := range n {
		for c := range n {
			if grid[r][c] == '.' {
				continue
			}
			if stones, libs := g.group(grid, spot{r, c}); libs == 0 {
				for _, s := range stones {
					grid[s.row][s.col] = '.'
				}
			}
		}
	}
	var black, white, all []atarigo.Point
	for r := range n {
		for c := range n {
			p := atarigo.PointAt(c, r, n)
			switch grid[r][c] {
			case 'X':
				black = append(black, p)
			case 'O':
				white = append(white, p)
			}
			if grid[r][c] != '.' {
				all = append(all, p)
			}
		}
	}
	if len(all) == 0 {
		return nil, nil, fmt.Errorf("no stone left")
	}
	target := all[rng.IntN(len(all))]
	toMove := atarigo.Black
	if rng.IntN(2) == 1 {
		toMove = atarigo.White
	}
	start, err := atarigo.NewCapture(n, black, white, toMove, target)
	if err != nil {
		return nil, nil, err
	}
	g2, err := atarigo.CaptureGame(start, safe, limit)
	if err != nil {
		return nil, nil, err
	}
	col, row := atarigo.Coords(target, n)
	side := byte('X')
	if toMove == atarigo.White {
		side = 'O'
	}
	return g2.Initial(), newNaiveCapture(grid, side, spot{row, col}, safe, g2.Initial().MoveLimit()), nil
}

func TestAgainstNaiveCapture(t *testing.T) {
	for _, tc := range []struct {
		size, games, safe, moves int
		density                  float64
	}{
		{5, 2000, 20, 0, 0.5},
		{7, 2000, 20, 0, 0.5},
		{9, 2000, 20, 150, 0.5},
		{9, 1000, 5, 0, 0.7},
		{19, 50, 20, 400, 0.5},
	} {
		name := fmt.Sprintf("%dx%d/safe=%d,moves=%d", tc.size, tc.size, tc.safe, tc.moves)
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.size), uint64(tc.safe)))
			var count seen
			for i := 0; count.games < games(tc.games); i++ {
				s, g, err := randomCapture(rng, tc.size, tc.density, tc.safe, tc.moves)
				if err != nil {
					continue // an empty board: draw again
				}
				if err := playBoth(rng, s, g, &count); err != nil {
					t.Fatalf("problem %d: %v", i, err)
				}
			}
			t.Logf("%+v", count)
			if count.kos == 0 || count.koRetakes == 0 || count.suicides == 0 || count.captures == 0 ||
				count.multiCaptures == 0 || count.captureEnds == 0 {
				t.Errorf("the games missed a rule: %+v", count)
			}
		})
	}
}

func TestAgainstNaiveProblems(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, p := range atarigo.Problems() {
		t.Run(fmt.Sprint(p.Number), func(t *testing.T) {
			var count seen
			for range 300 {
				n := p.Start.Size()
				grid := make([][]byte, n)
				for r := range n {
					grid[r] = make([]byte, n)
					for c := range n {
						grid[r][c] = ".XO"[p.Start.At(atarigo.PointAt(c, r, n))]
					}
				}
				col, row := atarigo.Coords(p.Start.Target(), n)
				side := byte('X')
				if p.Start.Turn() == atarigo.White {
					side = 'O'
				}
				g := newNaiveCapture(grid, side, spot{row, col}, p.Start.Safe(), p.Start.MoveLimit())
				if err := playBoth(rng, p.Start.Clone().(*atarigo.State), g, &count); err != nil {
					t.Fatalf("%s: %v", p.Title, err)
				}
			}
			t.Logf("%+v", count)
		})
	}
}
