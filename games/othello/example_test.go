package othello_test

import (
	"fmt"
	"strings"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

func Example() {
	g, err := game.Lookup("othello")
	if err != nil {
		panic(err)
	}
	s := g.NewState()
	var legal []string
	for _, m := range s.LegalMoves(s.ToMove(), nil) {
		legal = append(legal, s.MoveString(m))
	}
	fmt.Println(strings.Join(legal, " "))

	m, _ := s.ParseMove("d3")
	if err := s.Play(m); err != nil {
		panic(err)
	}
	fmt.Println(s)
	black, white := s.(*othello.State).DiscCounts()
	fmt.Println("black", black, "white", white, "to move:", g.Seats()[s.ToMove()])
	// Output:
	// d3 c4 f5 e6
	// -------------------X-------XX------XO--------------------------- O
	// black 4 white 1 to move: white
}

func ExamplePerft() {
	s := othello.NewState()
	for depth := 1; depth <= 6; depth++ {
		fmt.Println(depth, othello.Perft(s, depth, othello.PerftLeaves))
	}
	// Output:
	// 1 4
	// 2 12
	// 3 56
	// 4 244
	// 5 1396
	// 6 8200
}

// The smaller boards are game options; their positions and moves use the same notation
// over fewer squares.
func Example_sizes() {
	for _, spec := range []string{"othello:size=6", "othello:size=4"} {
		g, err := game.Lookup(spec)
		if err != nil {
			panic(err)
		}
		s := g.NewState()
		var legal []string
		for _, m := range s.LegalMoves(s.ToMove(), nil) {
			legal = append(legal, s.MoveString(m))
		}
		fmt.Println(g.Name(), s, strings.Join(legal, " "))
	}
	// Output:
	// othello:size=6 --------------OX----XO-------------- X c2 b3 e4 d5
	// othello:size=4 -----OX--XO----- X b1 a2 d3 c4
}
