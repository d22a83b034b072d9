package heuristic_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/agents/heuristic"
)

func sizeGame(t testing.TB, n int) *othello.Game {
	t.Helper()
	g, err := othello.NewSize(n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// randomPositions plays random games on an n by n board and returns every position met
// where the side to move has a disc to place.
func randomPositions(t testing.TB, n, games int, seed uint64) []*othello.State {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	var out []*othello.State
	for range games {
		s := sizeGame(t, n).Initial()
		for !s.IsTerminal() {
			if s.MoveMask() != 0 {
				c := *s
				out = append(out, &c)
			}
			ms := s.LegalMoves(s.ToMove(), nil)
			if err := s.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// textTable is a weight table written as on a diagram, rank n first, read here square by
// square from the position text, independently of the package's bitboard indexing.
type textTable [][]int

var (
	// The seed paper's Fig. 11.
	fig11 = textTable{
		{4, -1, -1, 4},
		{-1, -1, -1, -1},
		{-1, -1, -1, -1},
		{4, -1, -1, 4},
	}
	table6 = textTable{
		{100, -25, 10, 10, -25, 100},
		{-25, -25, 2, 2, -25, -25},
		{10, 2, 1, 1, 2, 10},
		{10, 2, 1, 1, 2, 10},
		{-25, -25, 2, 2, -25, -25},
		{100, -25, 10, 10, -25, 100},
	}
)

// score sums the table over the position text: plus for the discs of the side that has
// just moved (the opposite of the side to move in the text), minus for the others.
func (tt textTable) score(text string, mover byte) int {
	n := len(tt)
	v := 0
	for i := range n * n {
		w := tt[n-1-i/n][i%n]
		switch text[i] {
		case mover:
			v += w
		case '-':
		default:
			v -= w
		}
	}
	return v
}

func TestTables(t *testing.T) {
	for _, tc := range []struct {
		size int
		want textTable
	}{{4, fig11}, {6, table6}} {
		tab := heuristic.TableFor(tc.size)
		if tab == nil {
			t.Fatalf("no table for %d", tc.size)
		}
		for sq := range othello.Squares {
			f, r := sq%8, sq/8
			want := 0
			if f < tc.size && r < tc.size {
				want = tc.want[tc.size-1-r][f]
			}
			if tab[sq] != want {
				t.Errorf("%dx%d table at %s = %d, want %d", tc.size, tc.size, othello.MoveString(game.Move(sq)), tab[sq], want)
			}
		}
	}
	if heuristic.TableFor(8) != &heuristic.Weights || heuristic.TableFor(5) != nil {
		t.Errorf("TableFor(8) is not Weights, or TableFor(5) is not nil")
	}
	// Every table takes the same value on the images of a square under the eight
	// symmetries of its board.
	for _, n := range []int{4, 6, 8} {
		tab := heuristic.TableFor(n)
		for sq := range n * n {
			f, r := sq%n, sq/n
			for sym := range 8 {
				g, s := f, r
				if sym&4 != 0 {
					g, s = s, g
				}
				if sym&2 != 0 {
					s = n - 1 - s
				}
				if sym&1 != 0 {
					g = n - 1 - g
				}
				if tab[r*8+f] != tab[s*8+g] {
					t.Fatalf("%dx%d table is not symmetric at %s", n, n, othello.MoveString(othello.Square(f, r)))
				}
			}
		}
	}
}

// TestHP2Sizes checks on positions of every size that HP2's move has the best table score
// of the size, computed from the position text.
func TestHP2Sizes(t *testing.T) {
	tables := map[int]textTable{4: fig11, 6: table6}
	for _, n := range []int{4, 6} {
		hp2 := heuristic.NewHP2(1, heuristic.TiesRandom)
		for _, s := range randomPositions(t, n, 30, 1) {
			mover := byte('X')
			if s.Side() == othello.White {
				mover = 'O'
			}
			best := -1 << 30
			for _, m := range s.LegalMoves(s.ToMove(), nil) {
				c := *s
				if err := c.Play(m); err != nil {
					t.Fatal(err)
				}
				best = max(best, tables[n].score(c.String(), mover))
			}
			d := choose(t, hp2, s)
			c := *s
			_ = c.Play(d.Move)
			if got := tables[n].score(c.String(), mover); got != best || d.Info.Score != float64(best) {
				t.Fatalf("%dx%d %s: HP2 played %s scoring %d (info %v), best is %d",
					n, n, s, s.MoveString(d.Move), got, d.Info.Score, best)
			}
		}
	}
}

// negamax is the exact final disc differential for the side to move, through the
// game.State API.
func negamax(s *othello.State) int {
	if s.IsTerminal() {
		if s.Side() == othello.Black {
			return s.Margin()
		}
		return -s.Margin()
	}
	best := -100
	for _, m := range s.LegalMoves(s.ToMove(), nil) {
		c := *s
		_ = c.Play(m)
		best = max(best, -negamax(&c))
	}
	return best
}

// TestHP1Sizes checks HP1 on the small boards: exact play from six empties, and corners
// first before that.
func TestHP1Sizes(t *testing.T) {
	for _, n := range []int{4, 6} {
		far := n - 1
		corners := []game.Move{othello.Square(0, 0), othello.Square(far, 0), othello.Square(0, far), othello.Square(far, far)}
		hp1 := heuristic.NewHP1(2, heuristic.TiesRandom)
		endgames, cornerChoices := 0, 0
		for _, s := range randomPositions(t, n, 40, 2) {
			d := choose(t, hp1, s)
			c := *s
			_ = c.Play(d.Move)
			if s.Empties() <= heuristic.EndgameEmpties {
				endgames++
				if want := negamax(s); -negamax(&c) != want || d.Info.Score != float64(want) || d.Info.Depth != s.Empties() {
					t.Fatalf("%dx%d %s: HP1 played %s worth %d (info %v at depth %d), best is %d",
						n, n, s, s.MoveString(d.Move), -negamax(&c), d.Info.Score, d.Info.Depth, want)
				}
				continue
			}
			legal := s.LegalMoves(s.ToMove(), nil)
			cornerOpen := slices.ContainsFunc(legal, func(m game.Move) bool { return slices.Contains(corners, m) })
			if cornerOpen {
				cornerChoices++
				if !slices.Contains(corners, d.Move) {
					t.Fatalf("%dx%d %s: HP1 played %s with a corner open", n, n, s, s.MoveString(d.Move))
				}
			}
		}
		if endgames == 0 || cornerChoices == 0 {
			t.Errorf("%dx%d: %d endgame and %d corner positions checked", n, n, endgames, cornerChoices)
		}
	}
}

// TestSmallBoardGames plays HP1 against HP2 on every size through the agent.Agent API,
// as the runtime does, with the game the referee would look up.
func TestSmallBoardGames(t *testing.T) {
	for _, spec := range []string{"othello:size=4", "othello:size=6", "othello"} {
		g, err := game.Lookup(spec)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 4 {
			agents := []agent.Agent{heuristic.NewHP1(int64(i), heuristic.TiesRandom), heuristic.NewHP2(int64(i), heuristic.TiesRandom)}
			if i%2 == 1 {
				agents[0], agents[1] = agents[1], agents[0]
			}
			s := g.NewState()
			for !s.IsTerminal() {
				seat := s.ToMove()
				d, err := agents[seat].Choose(context.Background(), agent.Turn{
					Game: g, State: s.Clone(), Seat: seat, Legal: s.LegalMoves(seat, nil),
				})
				if err != nil {
					t.Fatalf("%s %s: %v", spec, s, err)
				}
				if err := s.Play(d.Move); err != nil {
					t.Fatalf("%s %s: %v", spec, s, err)
				}
			}
		}
	}
}

// TestConcurrentUse shares one HP1 and one HP2 between goroutines playing games of every
// size at once; run with -race, it checks that the agents are safe for concurrent use.
func TestConcurrentUse(t *testing.T) {
	agents := []agent.Agent{heuristic.NewHP1(5, heuristic.TiesRandom), heuristic.NewHP2(5, heuristic.TiesRandom)}
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := []*othello.Game{sizeGame(t, 4), sizeGame(t, 6), othello.New()}[i%3]
			s := g.Initial()
			for !s.IsTerminal() {
				a := agents[(int(s.ToMove())+i)%2]
				c := *s
				d, err := a.Choose(context.Background(), agent.Turn{Game: g, State: &c, Seat: s.ToMove()})
				if err == nil {
					err = s.Play(d.Move)
				}
				if err != nil {
					errs <- fmt.Errorf("%s %s: %w", g.Name(), s, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestRegisteredForEverySize(t *testing.T) {
	for _, name := range []string{"hp1", "hp2"} {
		for _, spec := range []string{"othello", "othello:size=6", "othello:size=4"} {
			g, err := game.Lookup(spec)
			if err != nil {
				t.Fatal(err)
			}
			base, _, _ := strings.Cut(g.Name(), ":")
			if !slices.Contains(agent.Games(name), base) {
				t.Errorf("%s does not list %q, the name of %s without options", name, base, spec)
			}
		}
	}
}

// TestHP1EndgameTies: in endgames with several moves of the best final disc differential,
// HP1 plays each of them about as often, and never another, on every board size.
func TestHP1EndgameTies(t *testing.T) {
	const calls = 300
	found := 0
	for _, n := range []int{8, 6, 4} {
		sized := 0
		for _, s := range randomPositions(t, n, 30, 7) {
			if s.Empties() > heuristic.EndgameEmpties || sized >= 4 {
				continue
			}
			values := map[game.Move]int{}
			best := -100
			for _, m := range s.LegalMoves(s.ToMove(), nil) {
				c := *s
				_ = c.Play(m)
				values[m] = -negamax(&c)
				best = max(best, values[m])
			}
			tied := 0
			for _, v := range values {
				if v == best {
					tied++
				}
			}
			if tied < 2 {
				continue
			}
			found++
			sized++
			hp1 := heuristic.NewHP1(int64(found), heuristic.TiesRandom)
			count := map[game.Move]int{}
			for range calls {
				d := choose(t, hp1, s)
				if values[d.Move] != best || d.Info.Score != float64(best) {
					t.Fatalf("%s: played %s worth %d (info %+v), best %d", s, s.MoveString(d.Move), values[d.Move], d.Info, best)
				}
				count[d.Move]++
			}
			// Expected calls/tied each; the bounds are four standard deviations or more.
			for m, k := range count {
				if want := calls / tied; k < want/2 || k > want*3/2 {
					t.Errorf("%s: %s played %d times of %d, %d moves tied (all: %v)", s, s.MoveString(m), k, calls, tied, count)
				}
			}
			if len(count) != tied {
				t.Errorf("%s: played %v, %d moves tied", s, count, tied)
			}
		}
		if sized == 0 {
			t.Errorf("%dx%d: no endgame with tied best moves", n, n)
		}
	}
	t.Logf("%d endgames with tied best moves", found)
}
