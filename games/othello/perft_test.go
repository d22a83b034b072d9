package othello_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// Published perft counts from the initial position. Under the leaves convention a pass is
// a ply and a game over before the depth is one leaf; under the exact convention only
// nodes at exactly the depth count. The two first differ at depth 10, where the first
// games end (the shortest Othello game lasts nine plies).
var (
	perftLeaves = []uint64{1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800}
	perftExact  = map[int]uint64{10: 24571056, 11: 212258216}
)

func TestPerft(t *testing.T) {
	for depth, want := range perftLeaves {
		t.Run(fmt.Sprintf("leaves/%d", depth), func(t *testing.T) {
			start := time.Now()
			if got := othello.Perft(othello.NewState(), depth, othello.PerftLeaves); got != want {
				t.Errorf("Perft(%d, leaves) = %d, want %d", depth, got, want)
			}
			t.Logf("%v", time.Since(start))
		})
	}
	for depth := range perftLeaves {
		t.Run(fmt.Sprintf("exact/%d", depth), func(t *testing.T) {
			want, ok := perftExact[depth]
			if !ok {
				// No game ends within nine plies, so below depth 10 the conventions agree.
				want = perftLeaves[depth]
			}
			start := time.Now()
			if got := othello.Perft(othello.NewState(), depth, othello.PerftExact); got != want {
				t.Errorf("Perft(%d, exact) = %d, want %d", depth, got, want)
			}
			t.Logf("%v", time.Since(start))
		})
	}
}

// TestPerftAgainstPlay counts the tree again through the public State API, passes and
// game ends included, to check the bitboard shortcuts of Perft on positions with passes.
func TestPerftAgainstPlay(t *testing.T) {
	passes := 0
	var count func(s *othello.State, depth int, mode othello.PerftMode) uint64
	count = func(s *othello.State, depth int, mode othello.PerftMode) uint64 {
		if depth == 0 {
			return 1
		}
		if s.IsTerminal() {
			if mode == othello.PerftLeaves {
				return 1
			}
			return 0
		}
		var n uint64
		for _, m := range s.LegalMoves(s.ToMove(), nil) {
			if m == othello.Pass {
				passes++
			}
			c := *s
			if err := c.Play(m); err != nil {
				t.Fatal(err)
			}
			n += count(&c, depth-1, mode)
		}
		return n
	}
	check := func(s *othello.State, maxDepth int) {
		t.Helper()
		for _, mode := range []othello.PerftMode{othello.PerftLeaves, othello.PerftExact} {
			for depth := 0; depth <= maxDepth; depth++ {
				if got, want := othello.Perft(s, depth, mode), count(s, depth, mode); got != want {
					t.Fatalf("%s: Perft(%d, %v) = %d, counted %d", s, depth, mode, got, want)
				}
			}
		}
	}
	check(othello.NewState(), 6)
	// Black must pass, then white's c1 ends the game.
	forced, _ := othello.Parse("OX" + strings.Repeat("-", 62) + " X")
	check(forced, 4)
	// Endgames from random games, searched past their end, where passes and early ends
	// are common.
	rng := rand.New(rand.NewPCG(3, 4))
	for range 30 {
		s := othello.NewState()
		for !s.IsTerminal() && s.Empties() > 8 {
			ms := s.LegalMoves(s.ToMove(), nil)
			if err := s.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		if s.IsTerminal() {
			continue
		}
		check(s, 10)
	}
	if passes == 0 {
		t.Error("no tree had a pass in it; pick other positions")
	}
}

func TestPerftNoAllocations(t *testing.T) {
	for _, g := range games(t) {
		s := g.Initial()
		if n := testing.AllocsPerRun(5, func() { othello.Perft(s, 5, othello.PerftLeaves) }); n != 0 {
			t.Errorf("%s: Perft allocates %v times per run", g.Name(), n)
		}
		if n := testing.AllocsPerRun(5, func() { othello.Perft(s, 5, othello.PerftExact) }); n != 0 {
			t.Errorf("%s: Perft allocates %v times per run", g.Name(), n)
		}
	}
}

func BenchmarkPerft(b *testing.B) {
	for _, mode := range []othello.PerftMode{othello.PerftLeaves, othello.PerftExact} {
		b.Run(fmt.Sprintf("%v/9", mode), func(b *testing.B) {
			b.ReportAllocs()
			s := othello.NewState()
			var leaves uint64
			for b.Loop() {
				leaves += othello.Perft(s, 9, mode)
			}
			b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
	// The smaller boards share the move generator, masked to their squares.
	for _, n := range []int{6, 4} {
		g, err := othello.NewSize(n)
		if err != nil {
			b.Fatal(err)
		}
		depth := map[int]int{6: 9, 4: 14}[n]
		b.Run(fmt.Sprintf("%dx%d/leaves/%d", n, n, depth), func(b *testing.B) {
			b.ReportAllocs()
			s := g.Initial()
			var leaves uint64
			for b.Loop() {
				leaves += othello.Perft(s, depth, othello.PerftLeaves)
			}
			b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}

func BenchmarkLegalMoves(b *testing.B) {
	b.ReportAllocs()
	s, _ := othello.Parse("XXXXXXXXOOOOOOOXOOXXOOOXOXOXOOOXOOXOXOOX-OOOXOOX--OOOO-X---O-OO- X")
	buf := make([]game.Move, 0, 64)
	for b.Loop() {
		buf = s.LegalMoves(s.ToMove(), buf[:0])
	}
}

// slowState hides the fast Perfter so that game.Perft walks the tree through the
// game.State interface: Play, Clone and LegalMoves, as the referee uses them.
type slowState struct{ game.State }

func TestGenericPerftAgreesWithFastPerft(t *testing.T) {
	for _, mode := range []game.PerftMode{game.PerftLeaves, game.PerftExact} {
		for depth := 1; depth <= 7; depth++ {
			fast := game.Perft(othello.NewState(), depth, mode)
			slow := game.Perft(slowState{othello.NewState()}, depth, mode)
			if fast != slow {
				t.Errorf("%s depth %d: fast %d, through game.State %d", mode, depth, fast, slow)
			}
		}
	}
}
