package checkers_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
)

// perftCounts are the published counts of move paths from the initial position (Aart
// Bik's table, OEIS A133046), depth 0 first. They hold for give-away too, which has the
// same moves, and under both counting conventions, since no game ends within 11 plies.
var perftCounts = []uint64{1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128}

// deep runs the perft depths that take seconds: go test ./games/checkers -run Perft -deep
var deep = flag.Bool("deep", false, "also check perft depths 10 and 11")

func TestPerft(t *testing.T) {
	for depth, want := range perftCounts {
		if depth > 9 && !*deep {
			continue
		}
		for _, mode := range []game.PerftMode{game.PerftLeaves, game.PerftExact} {
			t.Run(fmt.Sprintf("%v/%d", mode, depth), func(t *testing.T) {
				start := time.Now()
				s := checkers.New(checkers.Standard).Initial()
				if got := game.Perft(s, depth, mode); got != want {
					t.Errorf("Perft(%d) = %d, want %d", depth, got, want)
				}
				t.Logf("%v", time.Since(start))
			})
		}
	}
}

func TestPerftGiveaway(t *testing.T) {
	g, err := game.Lookup(checkers.GiveawayName)
	if err != nil {
		t.Fatal(err)
	}
	for depth := range 8 {
		if got := game.Perft(g.NewState(), depth, game.PerftLeaves); got != perftCounts[depth] {
			t.Errorf("giveaway Perft(%d) = %d, want %d", depth, got, perftCounts[depth])
		}
		if depth <= 5 {
			if got := game.Perft(slowState{g.NewState()}, depth, game.PerftLeaves); got != perftCounts[depth] {
				t.Errorf("giveaway Perft(%d) through game.State = %d, want %d", depth, got, perftCounts[depth])
			}
		}
	}
}

// slowState hides the fast Perfter so that game.Perft walks the tree through the
// game.State interface: LegalMoves, Clone and Play, as the referee uses them.
type slowState struct{ game.State }

// TestPerftAgainstPlay checks the fast counter against the game.State walk where it
// takes shortcuts: kings, multi-jumps, crowning, games that end, the draw counter.
func TestPerftAgainstPlay(t *testing.T) {
	check := func(s *checkers.State, depth int) {
		t.Helper()
		for _, mode := range []game.PerftMode{game.PerftLeaves, game.PerftExact} {
			for d := 0; d <= depth; d++ {
				if fast, slow := checkers.Perft(s, d, mode), game.Perft(slowState{s}, d, mode); fast != slow {
					t.Fatalf("%v: Perft(%d, %v) = %d, through game.State %d", s, d, mode, fast, slow)
				}
			}
		}
	}
	check(checkers.New(checkers.Standard).Initial(), 6)
	for _, text := range []string{
		"B:W9,10,17,18,19:BK15",    // king loops
		"B:W6,7,14,15:B2",          // two paths to one square
		"B:W26,27:B22",             // crowning mid-capture
		"B:WK29:BK4:Q76",           // the draw rule within the depth
		"W:WK1,K2:BK30,K31:Q70",    // kings only
		"B:W18:B14",                // a game that ends at once
		"W:W5,6,K30:B9,10,K20:Q10", // a bit of everything
	} {
		check(parse(t, checkers.Standard, text), 7)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 40 {
		check(randomState(rng, checkers.Standard), 4)
	}
}

func TestPerftNoAllocations(t *testing.T) {
	s := checkers.New(checkers.Standard).Initial()
	k := parse(t, checkers.Standard, "B:W9,10,17,18,19:BK15")
	if n := testing.AllocsPerRun(3, func() {
		checkers.Perft(s, 6, game.PerftLeaves)
		game.Perft(k, 4, game.PerftExact)
	}); n != 0 {
		t.Errorf("Perft allocates %v times per run", n)
	}
}

func BenchmarkPerft(b *testing.B) {
	for _, depth := range []int{7, 9, 11} {
		b.Run(fmt.Sprint(depth), func(b *testing.B) {
			b.ReportAllocs()
			s := checkers.New(checkers.Standard).Initial()
			var leaves uint64
			for b.Loop() {
				n := checkers.Perft(s, depth, game.PerftLeaves)
				if n != perftCounts[depth] {
					b.Fatalf("Perft(%d) = %d, want %d", depth, n, perftCounts[depth])
				}
				leaves += n
			}
			b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}
