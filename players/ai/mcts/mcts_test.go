package mcts

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/connect4"
	"github.com/arenaref/arena/internal/testutil/testgame"
)

func position(t *testing.T, text string) game.State {
	t.Helper()
	g, _ := connect4.New(7, 6)
	s, err := g.ParseState(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTactics: the search takes a win in one without searching, and stops the opponent's.
func TestTactics(t *testing.T) {
	tests := []struct {
		name       string
		pos        string
		want       game.Move
		iterations int
	}{
		// Red (x, to move) has three in the first column: the fourth wins.
		{"win", "......./......./......./x....../xo...../xo.o...", 0, 0},
		// Red to move; yellow (o) threatens the fourth in row 1 at column 5.
		{"block", "......./......./......./......./......./xooo.xx", 4, 3000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := position(t, tt.pos)
			res, err := Search(context.Background(), s, 2, Config{Iterations: 3000, Rand: rand.New(rand.NewPCG(1, 2))})
			if err != nil {
				t.Fatal(err)
			}
			if res.Move != tt.want || res.Iterations != tt.iterations {
				t.Errorf("chose column %d after %d iterations (value %.2f), want %d after %d", res.Move+1, res.Iterations, res.Value, tt.want+1, tt.iterations)
			}
			if s.String() != tt.pos {
				t.Errorf("the search changed the position to %s", s)
			}
		})
	}
}

// TestSafest: the most visited move is passed over when a reply wins at once, for the
// next most visited one after which none does; when every move tried loses, the most
// visited is played.
func TestSafest(t *testing.T) {
	tests := []struct {
		name   string
		visits map[game.Move]int // the root's moves and their visits
		want   game.Move
	}{
		{"the most visited loses", map[game.Move]int{0: 10, 4: 5, 6: 1}, 4},
		{"the most visited is safe", map[game.Move]int{4: 10, 0: 5}, 4},
		{"all lose", map[game.Move]int{0: 10, 1: 5, 2: 3}, 0},
		{"only the fourth is safe", map[game.Move]int{0: 10, 1: 5, 2: 3, 4: 1}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Red to move; yellow threatens the fourth in row 1 at column 5.
			s := position(t, "......./......./......./......./......./xooo.xx")
			sr := &searcher{ctx: context.Background()}
			root := &node{slots: []slot{{seat: 0}}}
			for m, v := range tt.visits {
				root.slots[0].arms = append(root.slots[0].arms, arm{move: m, visits: v})
			}
			a, err := sr.safest(root, s, 0, time.Time{})
			if err != nil || a.move != tt.want {
				t.Errorf("safest = column %d (%v), want %d", a.move+1, err, tt.want+1)
			}
		})
	}
}

func TestSeeded(t *testing.T) {
	s := position(t, "......./......./......./......./......./.......")
	var moves []game.Move
	for range 2 {
		res, err := Search(context.Background(), s, 2, Config{Iterations: 500, Rand: rand.New(rand.NewPCG(7, 7))})
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, res.Move)
	}
	if moves[0] != moves[1] {
		t.Errorf("the same seed chose %v", moves)
	}
}

// TestSimultaneous: a simultaneous game is searched with a move per seat.
func TestSimultaneous(t *testing.T) {
	g, err := game.Lookup(testgame.PenniesName)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewState()
	res, err := Search(context.Background(), s, len(g.Seats()), Config{Iterations: 200, Rand: rand.New(rand.NewPCG(1, 1))})
	if err != nil || !game.IsLegal(s, 0, res.Move) {
		t.Errorf("move %d (%v)", res.Move, err)
	}
}

func TestGameOver(t *testing.T) {
	s := position(t, "......./......./......./x....../xo...../xo.o...")
	if err := s.Play(0); err != nil {
		t.Fatal(err)
	}
	if _, err := Search(context.Background(), s, 2, Config{Iterations: 1, Rand: rand.New(rand.NewPCG(1, 1))}); err == nil {
		t.Error("searched a finished game")
	}
}
