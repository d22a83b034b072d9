package opening_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/games/othello"
)

func ExampleParse() {
	file := `# two Othello openings
d3 C5 f6
f5, d6
`
	ops, err := opening.Parse(strings.NewReader(file), othello.New())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range ops {
		fmt.Println(o.Line, o.Moves)
	}

	_, err = opening.Parse(strings.NewReader("d3 c5 f6\nd3 c5 a1\n"), othello.New())
	fmt.Println(err)
	// Output:
	// 2 [d3 c5 f6]
	// 3 [f5 d6]
	// openings line 2: move 3 "a1": not a legal move
}

func ExampleGenerate() {
	g := othello.New()
	ops, err := opening.Generate(g, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := opening.Write(os.Stdout, []string{"Othello after 2 plies"}, ops); err != nil {
		fmt.Println(err)
	}
	// Output:
	// # Othello after 2 plies
	// c4 c3
	// c4 c5
	// c4 e3
}
