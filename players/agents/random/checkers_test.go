package random_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/players/player/local"
)

// TestPlaysCheckers: random plays whole games of checkers and giveaway, looked up by
// name as a tournament does, against itself; players/player/local refuses any illegal move. Each
// game ends with a result the rules allow: a win for one side, or a draw by the draw rule.
func TestPlaysCheckers(t *testing.T) {
	for k, name := range []string{checkers.Name, checkers.GiveawayName} {
		t.Run(name, func(t *testing.T) {
			g, err := game.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			results, plies := map[string]int{}, 0
			for i := range 30 {
				seats := []local.Player{{Name: "a", Agent: newAgent(t, int64(100*k+2*i))}, {Name: "b", Agent: newAgent(t, int64(100*k+2*i+1))}}
				res, err := local.Play(context.Background(), g, nil, seats, fmt.Sprintf("g%d", i))
				if err != nil {
					t.Fatal(err)
				}
				s := res.Final.(*checkers.State)
				r := res.Returns
				switch {
				case !s.IsTerminal() || len(r) != 2 || r[0]+r[1] != 0:
					t.Fatalf("game %d ended at %s with returns %v", i, s, r)
				case r[0] == 0 && s.Quiet() < checkers.DrawPlies:
					t.Fatalf("game %d drawn at %s before the draw rule", i, s)
				case r[0] != 0 && len(s.LegalMoves(s.Side(), nil)) != 0:
					t.Fatalf("game %d decided at %s, where the side to move can move", i, s)
				}
				results[fmt.Sprint(r)]++
				plies += len(res.Moves)
			}
			t.Logf("%s: results %v, %d plies a game", name, results, plies/30)
		})
	}
}
