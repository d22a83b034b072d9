package features_test

import (
	"fmt"

	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/learn/features"
)

func ExampleCompute() {
	s := othello.NewState() // black to move
	black, white := s.Bitboards()
	var phi [features.Count]float64
	features.Compute(black, white, s.BoardMask(), true, phi[:])
	for k, name := range features.Names {
		if phi[k] != 0 {
			fmt.Println(name, phi[k])
		}
	}
	// Output:
	// discs_own 0.25
	// discs_opp 0.25
	// mobility_own 2
	// mobility_opp 2
	// empties 7.5
	// parity -1
	// to_move 1
}
