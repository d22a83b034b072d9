package widening_test

import (
	"context"
	"fmt"

	"github.com/arenaref/arena/players/ai/widening"
)

// A ladder: White to move captures the black stone at D4 with an atari.
func ExampleSolve() {
	const (
		E = widening.Empty
		X = widening.Black
		O = widening.White
	)
	stones := []widening.Color{ // row 1 (the bottom) first
		E, E, E, E, E, E, E, E, E,
		E, E, E, E, E, E, E, E, E,
		E, E, E, E, O, E, E, E, E,
		E, E, O, X, E, E, E, E, E, // D4, the target, is index 3*9+3
		E, E, E, O, E, E, E, E, E,
		E, E, E, E, E, E, E, E, E,
		E, E, E, E, E, E, E, E, E,
		E, E, E, E, E, E, E, E, E,
		E, E, E, E, E, E, E, E, E,
	}
	p := widening.Problem{Size: 9, Stones: stones, ToMove: widening.White, Target: 3*9 + 3, Ko: -1}
	s, _ := widening.StrategyByName("OR2-2AND1-2")
	res, err := widening.Solve(context.Background(), p, widening.Options{Strategy: s})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Verdict, widening.PointName(res.Move, p.Size))
	// Output: won D3
}
