package game_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/testutil/testgame"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		spec    string
		wantErr error
		target  int
	}{
		{"testcount", nil, 10},
		{" testcount ", nil, 10},
		{"testcount:target=4", nil, 4},
		{"testcount: target = 4 ", nil, 4},
		{"testcount:target=0", game.ErrBadGameOption, 0},
		{"testcount:size=4", game.ErrBadGameOption, 0},
		{"testcount:target", game.ErrBadGameOption, 0},
		{"testcount:target=3,target=4", game.ErrBadGameOption, 0},
		{"testcount:", game.ErrBadGameOption, 0},
		{"chess", game.ErrUnknownGame, 0},
		{"", game.ErrUnknownGame, 0},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			g, err := game.Lookup(tt.spec)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Lookup(%q) error = %v, want %v", tt.spec, err, tt.wantErr)
			}
			if err == nil && g.(*testgame.Count).Target() != tt.target {
				t.Fatalf("target = %d, want %d", g.(*testgame.Count).Target(), tt.target)
			}
		})
	}
}

func TestRegisterRejectsDuplicatesAndBadNames(t *testing.T) {
	for _, name := range []string{testgame.CountName, "", "a:b", "a b"} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatalf("Register(%q) did not panic", name)
				}
			}()
			game.Register(name, nil)
		})
	}
}

func TestPerftGeneric(t *testing.T) {
	// With target n, the complete games are the ways of writing n as a sum of 1s and 2s:
	// the Fibonacci number F(n+1).
	fib := []uint64{1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89}
	for target := 1; target <= 9; target++ {
		t.Run(fmt.Sprintf("target=%d", target), func(t *testing.T) {
			g, err := game.Lookup(fmt.Sprintf("testcount:target=%d", target))
			if err != nil {
				t.Fatal(err)
			}
			// Every game lasts at most target plies, so a deep perft counts complete games.
			if got := game.Perft(g.NewState(), target, game.PerftLeaves); got != fib[target] {
				t.Errorf("leaves perft = %d, want %d", got, fib[target])
			}
			// Exactly `target` plies happen only when every move adds 1.
			if got := game.Perft(g.NewState(), target, game.PerftExact); got != 1 {
				t.Errorf("exact perft = %d, want 1", got)
			}
			// Depth 1 has one move per legal option.
			want := uint64(2)
			if target == 1 {
				want = 1
			}
			if got := game.Perft(g.NewState(), 1, game.PerftExact); got != want {
				t.Errorf("perft(1) = %d, want %d", got, want)
			}
		})
	}
}

// TestPerftSimultaneous counts joint moves: every round of matching pennies has four.
func TestPerftSimultaneous(t *testing.T) {
	g, err := game.Lookup("testpennies:rounds=3")
	if err != nil {
		t.Fatal(err)
	}
	for depth, want := range []uint64{1, 4, 16, 64} {
		for _, mode := range []game.PerftMode{game.PerftLeaves, game.PerftExact} {
			if got := game.Perft(g.NewState(), depth, mode); got != want {
				t.Errorf("%v perft(%d) = %d, want %d", mode, depth, got, want)
			}
		}
	}
	// Past the end, only leaves count.
	if got := game.Perft(g.NewState(), 4, game.PerftLeaves); got != 64 {
		t.Errorf("leaves perft(4) = %d, want 64", got)
	}
	if got := game.Perft(g.NewState(), 4, game.PerftExact); got != 0 {
		t.Errorf("exact perft(4) = %d, want 0", got)
	}
}

func TestSeatString(t *testing.T) {
	for seat, want := range map[game.Seat]string{0: "0", 1: "1", game.Terminal: "terminal", game.Simultaneous: "simultaneous"} {
		if got := seat.String(); got != want {
			t.Errorf("Seat(%d).String() = %q, want %q", int(seat), got, want)
		}
	}
}
