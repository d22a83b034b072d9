package organizer_test

import (
	"context"
	"testing"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/store"
)

// TestLadderOfBuiltins runs a short ladder of built-in entrants through validation, the
// open phase, the deadline and the final phase, and checks what the store holds.
func TestLadderOfBuiltins(t *testing.T) {
	ctx := context.Background()
	d, db := newDirector(t)
	s := organizer.DefaultSpec()
	s.Format = organizer.FormatLadder
	s.Players = []string{"random", "hp2", "d1", "d2"}
	s.Agents = map[string]organizer.AgentSpec{
		"d1": {Agent: "minimax", Params: map[string]string{"depth": "1"}},
		"d2": {Agent: "minimax", Params: map[string]string{"depth": "2"}},
	}
	s.ValidationOpponent = "validator"
	s.Agents["validator"] = organizer.AgentSpec{Agent: "random"}
	s.Deadline = "3s"
	s.FinalTop = 3
	s.FinalRounds = 1
	s.TimeControl = "1s"
	s.Concurrency = 2
	s.Seed = 3
	id, _, err := d.Create(ctx, s, "", true)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Run(ctx, id, nil, nil); err != nil {
		t.Fatal(err)
	}
	b, err := organizer.LadderBoard(ctx, db, id)
	if err != nil {
		t.Fatal(err)
	}
	if b.Phase != store.LadderFinished || !b.Frozen || len(b.Final) != 3 {
		t.Fatalf("after the run: phase %s, frozen %v, finalists %v", b.Phase, b.Frozen, b.Final)
	}
	if len(b.Rows) != 4 {
		t.Fatalf("%d entries, want 4: %+v", len(b.Rows), b.Rows)
	}
	for _, r := range b.Rows {
		t.Logf("%d %s %s %s rating %.0f ± %.0f games %d (+%d =%d -%d) validation %d final %.1f/%d",
			r.Rank, r.Player, r.Version, r.Status, r.Rating, r.Error, r.Games, r.Wins, r.Draws, r.Losses, r.Validation, r.FinalPoints, r.FinalGames)
		if r.Status != store.EntryActive || r.Validation != 2 || r.Rank == 0 || r.Games == 0 {
			t.Errorf("%s: %+v", r.Player, r)
		}
	}
	if b.Rows[len(b.Rows)-1].Player != "random" {
		t.Errorf("random is not last: %+v", b.Rows)
	}
}
