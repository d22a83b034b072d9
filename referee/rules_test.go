package referee

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	_ "github.com/arenaref/arena/games/script" // game files
	"github.com/arenaref/arena/protocol"
)

// TestPlayRulesFail plays a script game whose rules fail on a legal move: the game ends
// with no result, charged to neither player.
func TestPlayRulesFail(t *testing.T) {
	e := newEnv(t)
	e.player("alice", firstLegal)
	e.player("bob", firstLegal)
	g := lookup(t, "testdata/breaks.star")
	res, err := e.ref.Play(context.Background(), Match{GameID: "r1", Game: g, Players: []string{"alice", "bob"}, TC: clock.TimeControl{PerMove: perMove}})
	if !errors.Is(err, game.ErrRules) {
		t.Fatalf("error %v, want one wrapping game.ErrRules", err)
	}
	if res.Reason != protocol.ReasonAborted || res.Result != "" || res.Forfeit >= 0 || len(res.Moves) != 2 {
		t.Errorf("result %+v: want aborted after two moves, with no result and no forfeit", res)
	}
	if !strings.Contains(res.Detail, "breaks.star:12:13: in play: the rules break here") {
		t.Errorf("detail %q does not say where the rules failed", res.Detail)
	}
}
