package minimax_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/players/agents/minimax"
	"github.com/arenaref/arena/players/ai/boards"
	"github.com/arenaref/arena/players/ai/search"
)

// This file teaches the minimax agent a game it does not know, internal/testutil/testgame's
// counting game, as any package may: a Game, a Position on a board of players/ai/boards with
// an evaluation, and minimax.Register. Adding a game costs this one file.

func init() { minimax.Register(testgame.CountName, countGame{}) }

// countGame is what the agent knows of the counting game.
type countGame struct{}

func (countGame) NewPosition() minimax.Position { return &countPosition{} }

func (countGame) MoveIndices() int { return boards.GenericMoveIndices }

// MovesLeft is a guess: a third of the counts to go, each side adding 1 or 2.
func (countGame) MovesLeft(s game.State) int {
	c := s.(*testgame.CountState)
	return max(c.Target-c.Count, 0)/3 + 1
}

// Score is 1 for a proven win, -1 for a proven loss, 0 otherwise.
func (countGame) Score(v int32) float64 { return float64(search.Proven(v)) }

// countPosition is the generic board with the only evaluation the game needs: who won
// once it is over, nothing before.
type countPosition struct{ boards.Generic }

func (p *countPosition) Reset(s game.State) error {
	if _, ok := s.(*testgame.CountState); !ok {
		return fmt.Errorf("not a counting game position: %T", s)
	}
	p.Generic.Reset(s)
	return nil
}

// Evaluate scores a finished game as lost for the side to move (the other side has just
// reached the target).
func (p *countPosition) Evaluate() (int32, bool) {
	if p.State().IsTerminal() {
		return -search.Win, true
	}
	return 0, false
}

// TestCountGame plays the counting game with the agent from every count, with a depth
// that sees the end and under a time limit: it must leave its opponent a count a multiple
// of 3 short of the target whenever it can, which wins, and know that it wins.
func TestCountGame(t *testing.T) {
	if !slices.Contains(agent.Games(minimax.Name), testgame.CountName) {
		t.Fatalf("the agent plays %v, not %s", agent.Games(minimax.Name), testgame.CountName)
	}
	for _, target := range []int{testgame.DefaultTarget, 20} {
		g := testgame.NewCount(target)
		for _, params := range []map[string]string{{"depth": strconv.Itoa(target)}, nil} {
			t.Run(fmt.Sprintf("%s/%v", g.Name(), params), func(t *testing.T) {
				a, err := agent.New(minimax.Name, agent.Config{Params: params})
				if err != nil {
					t.Fatal(err)
				}
				for count := range target {
					s := &testgame.CountState{Target: target, Count: count, Next: game.Seat(count % 2)}
					tu := agent.Turn{Game: g, State: s.Clone(), Seat: s.Next, Legal: s.LegalMoves(s.Next, nil),
						Deadline: time.Now().Add(time.Second)}
					d, err := a.Choose(context.Background(), tu)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Contains(tu.Legal, d.Move) {
						t.Fatalf("count %d: illegal move %d", count, d.Move)
					}
					wins := slices.ContainsFunc(tu.Legal, func(m game.Move) bool { return (target-count-int(m))%3 == 0 })
					left := target - count - int(d.Move)
					if wins && (left%3 != 0 || d.Info.Score != 1) {
						t.Errorf("count %d: played %d leaving %d to go (info %+v), want a multiple of 3 and a win", count, d.Move, left, d.Info)
					}
					if !wins && d.Info.Score != -1 {
						t.Errorf("count %d: info %+v, want a proven loss", count, d.Info)
					}
				}
			})
		}
	}
}
