package learned_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/lab/train"
	"github.com/arenaref/arena/players/agents/learned"
	_ "github.com/arenaref/arena/players/agents/random"
	"github.com/arenaref/arena/players/ai/boards"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// This file teaches the learned player a game it does not know, internal/testutil/testgame's
// counting game, as any package may: the features of its evaluation, a board of
// players/ai/boards, and learned.Register. Adding a game costs this one file; training,
// weights files and the agent then take it as they take Othello.

func init() { learned.Register(testgame.CountName, countGame{}) }

// countGame is what the player knows of the counting game. The side to move loses
// against best play when the count is a multiple of 3 short of the target: whatever it
// adds, the other side brings it back to one.
type countGame struct{}

func (countGame) Names() []string { return []string{"lost_to_move", "to_move"} }

// Compute sees the game from seat: lost_to_move is -1 when seat is to move and lost, +1
// when its opponent is, 0 otherwise; to_move is +1 when seat is to move, -1 if not.
func (countGame) Compute(s game.State, seat game.Seat, dst []float64) {
	c := s.(*testgame.CountState)
	target := c.Target
	if target == 0 {
		target = testgame.DefaultTarget
	}
	mover := 1.0
	if c.Next != seat {
		mover = -1
	}
	dst[0] = 0
	if (target-c.Count)%3 == 0 {
		dst[0] = -mover
	}
	dst[1] = mover
}

func (countGame) NewBoard() learned.Board {
	return learned.On[game.State](new(boards.Generic), boards.GenericMoveIndices, nil)
}

// TestCountGame trains a tanh-linear evaluation of the counting game by TD(lambda)
// against the random player, saves it, and plays it with the agent: from every count
// where the side to move can win, it must leave its opponent a count a multiple of 3
// short of the target, at depth 1 by its learned evaluation and deeper too.
func TestCountGame(t *testing.T) {
	if !slices.Contains(agent.Games(learned.Name), testgame.CountName) {
		t.Fatalf("the agent plays %v, not %s", agent.Games(learned.Name), testgame.CountName)
	}
	tr, err := train.New(train.Config{Game: testgame.CountName, Method: train.MethodTD, Seed: 1, Games: 300,
		Opponents: []train.Opponent{{Name: "random", Agent: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	f, err := tr.File("test")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("weights %v after %d games (%d won)", f.Weights, f.Training.Games, f.Training.Wins)
	if !slices.Equal(f.Names, countGame{}.Names()) || f.Weights[0] <= 0 {
		t.Fatalf("file names %v weights %v: lost_to_move not learned", f.Names, f.Weights)
	}
	path := filepath.Join(t.TempDir(), "count.json")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	g := testgame.NewCount(testgame.DefaultTarget)
	for _, depth := range []string{"1", "3"} {
		t.Run("depth"+depth, func(t *testing.T) {
			a, err := agent.New(learned.Name, agent.Config{Seed: 1, Params: map[string]string{"weights": path, "depth": depth}})
			if err != nil {
				t.Fatal(err)
			}
			for count := range testgame.DefaultTarget {
				for _, seat := range []game.Seat{0, 1} {
					s := &testgame.CountState{Count: count, Next: seat}
					d, err := a.Choose(context.Background(), agent.Turn{Game: g, State: s.Clone(), Seat: seat, Legal: s.LegalMoves(seat, nil)})
					if err != nil {
						t.Fatal(err)
					}
					if err := s.Play(d.Move); err != nil {
						t.Fatalf("count %d: %v", count, err)
					}
					if winnable := (testgame.DefaultTarget-count)%3 != 0; winnable && (testgame.DefaultTarget-s.Count)%3 != 0 {
						t.Errorf("count %d: added %d, leaving the opponent a winning count", count, d.Move)
					}
				}
			}
		})
	}
	othello, err := game.Lookup("othello")
	if err != nil {
		t.Fatal(err)
	}
	a, err := learned.FromFile(f, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CheckGame(othello); err == nil {
		t.Error("testcount weights accepted for othello")
	}
	if err := a.CheckGame(g); err != nil {
		t.Errorf("CheckGame(%s): %v", g.Name(), err)
	}
	if _, err := model.NewFile("testcount:target=20", model.NewTanhLinear(2), model.Training{}); err != nil {
		t.Errorf("weights for testcount:target=20: %v", err)
	}
}
