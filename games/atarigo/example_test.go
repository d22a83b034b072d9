package atarigo_test

import (
	"fmt"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
)

// A capture problem read from an SGF record: the snapback of problem 4, set up with AB
// and AW, the target given by the caller. Black throws in at B1, White takes, and Black
// takes three stones back at once.
func ExampleParseSGF() {
	s, err := atarigo.ParseSGF("(;GM[1]FF[4]SZ[7]AB[ae][be][cf]AW[af][bf][cg][dg]PL[B])", "A2")
	if err != nil {
		panic(err)
	}
	fmt.Println(s)
	fmt.Println("attacker:", s.Attacker(), "target liberties:", s.Liberties(s.Target()))
	for _, text := range []string{"B1", "A1", "B1"} {
		m, err := s.ParseMove(text)
		if err != nil {
			panic(err)
		}
		if err := s.Play(m); err != nil {
			panic(err)
		}
	}
	fmt.Println(s)
	fmt.Println("winner:", s.Winner(), s.Returns(nil))
	// Output:
	// ......./......./......./......./XX...../OOX..../..OO... b target=A2
	// attacker: black target liberties: 2
	// ......./......./......./......./XX...../..X..../.XOO... w target=A2 played=3 winner=b
	// winner: black [1 -1]
}

// The same kind of problem read from its text, the ko of problem 5: White saves C1 by
// taking at D2, and Black may not take back at once.
func ExampleGame_ParseState() {
	g, err := game.Lookup("capture")
	if err != nil {
		panic(err)
	}
	s, err := g.ParseState("....../....../..O.../.XOX../XOX.X./..OX.. w target=C1")
	if err != nil {
		panic(err)
	}
	m, _ := s.ParseMove("d2")
	if err := s.Play(m); err != nil {
		panic(err)
	}
	fmt.Println(s)
	retake, _ := s.ParseMove("C2")
	fmt.Println(s.Play(retake))
	// Output:
	// ....../....../..O.../.XOX../XO.OX./..OX.. b ko=C2 target=C1 played=1
	// game: illegal move: atarigo: black may not play C2: it retakes the ko at once
}

// Atari-go: the first capture wins.
func Example() {
	g, err := game.Lookup("atari-go:size=5")
	if err != nil {
		panic(err)
	}
	s := g.NewState()
	for _, text := range []string{"C3", "C2", "B2", "A1", "D2", "A2", "C1"} {
		m, _ := s.ParseMove(text)
		if err := s.Play(m); err != nil {
			panic(err)
		}
	}
	fmt.Println(s, s.IsTerminal(), s.Returns(nil))
	// Output:
	// ...../...../..X../OX.X./O.X.. w winner=b true [1 -1]
}
