package experience_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/agents/experience"
)

func Example() {
	dir, err := os.MkdirTemp("", "experience")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	base, err := experience.Open(filepath.Join(dir, "gina.db"), "othello:size=4")
	if err != nil {
		log.Fatal(err)
	}
	defer base.Close()

	// A finished game, both sides playing their first legal move.
	g, _ := othello.NewSize(4)
	start := g.Initial()
	s := *start
	var moves []game.Move
	for !s.IsTerminal() {
		m := s.LegalMoves(s.ToMove(), nil)[0]
		s.Play(m)
		moves = append(moves, m)
	}
	res, err := base.Merge(start, moves, experience.Record{GameID: "g1", Seat: othello.Black})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("merged %d moves: %d new nodes, margin %+d\n", len(moves), res.NewNodes, res.Margin)

	// At the start the base knows one move, which lost for black, and black has others:
	// the fallback decides.
	fallback := func() (game.Move, error) { return othello.ParseMove("d3") }
	adv, err := base.Advise(start, fallback)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("start: %s (%s), %d of %d moves known\n", othello.MoveString(adv.Move), adv.Case, adv.Known, adv.Legal)

	// After black's first move, white knows a move that won for white.
	after := *start
	after.Play(moves[0])
	adv, err = base.Advise(&after, fallback)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("white: %s (%s), value %+d\n", othello.MoveString(adv.Move), adv.Case, adv.Value)
	// Output:
	// merged 12 moves: 13 new nodes, margin -4
	// start: d3 (fallback-unexplored), 1 of 4 moves known
	// white: a1 (good), value -4
}
