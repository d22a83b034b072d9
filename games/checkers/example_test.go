package checkers_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
)

func Example() {
	g, err := game.Lookup("checkers")
	if err != nil {
		panic(err)
	}
	s := g.NewState()
	var legal []string
	for _, m := range s.LegalMoves(s.ToMove(), nil) {
		legal = append(legal, s.MoveString(m))
	}
	fmt.Println(strings.Join(legal, " "))

	for _, text := range []string{"11-15", "22-18", "15x22", "25x18"} {
		m, err := s.ParseMove(text)
		if err != nil {
			panic(err)
		}
		if err := s.Play(m); err != nil {
			panic(err)
		}
	}
	fmt.Println(s)
	fmt.Println("to move:", g.Seats()[s.ToMove()], "ply", s.Ply())
	// Output:
	// 9-13 9-14 10-14 10-15 11-15 11-16 12-16
	// B:W18,21,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12
	// to move: black ply 4
}

func ExampleState_MoveString() {
	// Black's man on 15 takes White's men on 19 and 27, landing on 24, then on 31, where
	// it is crowned.
	s, err := checkers.New(checkers.Standard).Parse("B:W19,27:B15")
	if err != nil {
		panic(err)
	}
	m := s.LegalMoves(s.ToMove(), nil)[0]
	fmt.Println(s.MoveString(m), checkers.MoveFrom(m), checkers.MoveTo(m), checkers.MoveCaptures(m))
	if err := s.Play(m); err != nil {
		panic(err)
	}
	fmt.Println(s, s.Returns(nil))
	// Output:
	// 15x24x31 15 31 2
	// W:W:BK31 [1 -1]
}

func ExampleState_ParseMove() {
	s, err := checkers.New(checkers.Standard).Parse("B:W6,7,14,15,19,27:B2")
	if err != nil {
		panic(err)
	}
	// Two paths lead from 2 to 18: the short form names neither.
	_, err = s.ParseMove("2x18")
	fmt.Println(errors.Is(err, checkers.ErrAmbiguousMove), err)
	m, err := s.ParseMove("2x9x18")
	fmt.Println(s.MoveString(m), err)
	// Output:
	// true game: malformed move: checkers: ambiguous move: "2x18" matches 2 captures: 2x9x18, 2x11x18
	// 2x9x18 <nil>
}

func ExampleGame_Parse() {
	g := checkers.New(checkers.Giveaway)
	s, err := g.Parse("W:WK3,18:B14,K27:Q6")
	if err != nil {
		panic(err)
	}
	black, white, kings := s.Pieces()
	fmt.Printf("black %#x white %#x kings %#x quiet %d\n", black, white, kings, s.Quiet())
	_, err = g.Parse("B:W21:B29")
	fmt.Println(errors.Is(err, game.ErrBadPosition), err)
	// Output:
	// black 0x4002000 white 0x20004 kings 0x4000004 quiet 6
	// true game: malformed position: checkers: a black man on square 29, where it would have been crowned
}

func ExamplePerft() {
	s := checkers.New(checkers.Standard).Initial()
	for depth := 1; depth <= 7; depth++ {
		fmt.Println(depth, checkers.Perft(s, depth, game.PerftLeaves))
	}
	// Output:
	// 1 7
	// 2 49
	// 3 302
	// 4 1469
	// 5 7361
	// 6 36768
	// 7 179740
}
