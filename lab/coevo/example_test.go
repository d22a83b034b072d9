package coevo_test

import (
	"context"
	"fmt"

	"github.com/arenaref/arena/lab/coevo"
)

func ExampleRun() {
	cfg := coevo.Config{Population: 10, Generations: 3, Seed: 1}
	res, err := coevo.Run(context.Background(), cfg, func(g coevo.Generation) {
		// Each game is won by one side or drawn, half a win to each.
		fmt.Printf("generation %d: mean fitnesses add up to %.2f\n", g.N, g.MeanFirst+g.MeanSecond)
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(res.Generations), "generations,", len(res.BestSecond.W), "weights per network")
	// Output:
	// generation 1: mean fitnesses add up to 1.00
	// generation 2: mean fitnesses add up to 1.00
	// generation 3: mean fitnesses add up to 1.00
	// 3 generations, 44 weights per network
}
