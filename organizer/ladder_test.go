package organizer_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// TestLadderOfBuiltins runs a short ladder of built-in entrants through validation, the
// open phase, the deadline and the final phase, and checks what the store holds.
func TestLadderOfBuiltins(t *testing.T) { runners(t, testLadderOfBuiltins) }

func testLadderOfBuiltins(t *testing.T, d *organizer.Director, db *sqlite.DB) {
	ctx := context.Background()
	s := organizer.DefaultSpec()
	s.Format = organizer.FormatLadder
	s.Players = []string{"random", "hp2", "d1", "d2"}
	s.Agents = map[string]agent.Spec{
		"d1": {Agent: "minimax", Params: map[string]string{"depth": "1"}},
		"d2": {Agent: "minimax", Params: map[string]string{"depth": "2"}},
	}
	s.ValidationOpponent = "validator"
	s.Agents["validator"] = agent.Spec{Agent: "random"}
	s.Deadline = "3s"
	s.GamesPerHour = 36000
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
	// Both minimax entrants beat random in every pairing the ladder makes, so random ranks
	// below them. Whether it ranks below hp2 too depends on whether the two met before the
	// 3-second deadline, which matchmaking under load does not promise: two entrants that
	// never met and lost all else are ranked by a coin of the fit (seen under load in CI).
	rank := map[string]int{}
	for _, r := range b.Rows {
		rank[r.Player] = r.Rank
	}
	for _, strong := range []string{"d1", "d2"} {
		if rank["random"] <= rank[strong] {
			t.Errorf("random ranks %d, above or level with %s (%d): %+v", rank["random"], strong, rank[strong], b.Rows)
		}
	}
}

// TestLadderResumes stops a ladder in its open phase (as a referee's shutdown does) and
// runs it again: the same entries carry on, no game is recorded twice, and it finishes.
func TestLadderResumes(t *testing.T) { runners(t, testLadderResumes) }

func testLadderResumes(t *testing.T, d *organizer.Director, db *sqlite.DB) {
	ctx := context.Background()
	s := organizer.DefaultSpec()
	s.Format = organizer.FormatLadder
	s.Players = []string{"hp1", "hp2", "d1"}
	s.Agents = map[string]agent.Spec{"d1": {Agent: "minimax", Params: map[string]string{"depth": "1"}}}
	s.Deadline = "2s"
	s.GamesPerHour = 36000
	s.FinalTop = 2
	s.FinalRounds = 1
	s.TimeControl = "1s"
	s.Concurrency = 2
	id, _, err := d.Create(ctx, s, "", true)
	if err != nil {
		t.Fatal(err)
	}
	drain := make(chan struct{})
	time.AfterFunc(700*time.Millisecond, func() { close(drain) })
	if err := d.Run(ctx, id, drain, nil); !errors.Is(err, referee.ErrDrained) {
		t.Fatalf("a drained ladder: %v, want ErrDrained", err)
	}
	before, err := db.LadderGames(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Run(ctx, id, nil, nil); err != nil {
		t.Fatal(err)
	}
	after, err := db.LadderGames(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := db.LadderEntries(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 || len(after) <= len(before) || len(before) == 0 {
		t.Fatalf("%d entries; %d games before the stop, %d after", len(entries), len(before), len(after))
	}
	seen := map[int]bool{}
	for _, g := range after {
		if seen[g.Index] {
			t.Errorf("index %d twice", g.Index)
		}
		seen[g.Index] = true
	}
	st, err := db.LadderState(ctx, id)
	if err != nil || st.Phase != store.LadderFinished {
		t.Errorf("state %+v, %v", st, err)
	}
}

func TestLadderSpecErrors(t *testing.T) {
	base := func() organizer.Spec {
		s := organizer.DefaultSpec()
		s.Format = organizer.FormatLadder
		s.Deadline = "1h"
		return s
	}
	tests := []struct {
		name string
		edit func(*organizer.Spec)
		err  string
	}{
		{"no deadline", func(s *organizer.Spec) { s.Deadline = "" }, "deadline: a ladder needs one"},
		{"a bad deadline", func(s *organizer.Spec) { s.Deadline = "next friday" }, "neither a time"},
		{"too few finalists", func(s *organizer.Spec) { s.FinalTop = 1 }, "final_top"},
		{"too many validation games", func(s *organizer.Spec) { s.ValidationGames = 50 }, "validation_games"},
		{"the validator enters", func(s *organizer.Spec) { s.Players = []string{"random", "bob"} }, "also an entrant"},
		{"an unknown validator", func(s *organizer.Spec) { s.ValidationOpponent = "nobody" }, "not a built-in agent"},
		{"ladder keys elsewhere", func(s *organizer.Spec) { s.Format = organizer.FormatRoundRobin; s.Players = []string{"a", "b"} }, "only a ladder"},
		{"a ladder without a bus", nil, "needs a NATS server"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := base()
			external := true
			if tc.edit != nil {
				tc.edit(&s)
			} else {
				external = false
			}
			_, err := s.Compile("", external)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Compile: %v, want an error containing %q", err, tc.err)
			}
		})
	}
	if _, err := base().Compile("", true); err != nil {
		t.Errorf("a ladder of anyone: %v", err)
	}
}

func TestValidationOf(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	game := func(at time.Duration, entries []int64, scores []float64, reason string) store.LadderGame {
		return store.LadderGame{
			GameSummary: store.GameSummary{Started: t0.Add(at), Scores: scores, Reason: reason},
			LadderTag:   store.LadderTag{Phase: store.PhaseValidation, Entries: entries},
		}
	}
	e := &store.LadderEntry{ID: 7, Updated: t0}
	tests := []struct {
		name  string
		games []store.LadderGame
		want  organizer.Validation
	}{
		{"none", nil, organizer.Validation{}},
		{"a win and a loss", []store.LadderGame{
			game(1, []int64{7, 0}, []float64{1, 0}, protocol.ReasonNormal),
			game(2, []int64{0, 7}, []float64{1, 0}, protocol.ReasonNormal),
		}, organizer.Validation{Played: 2}},
		{"lost on time: a strike, played again", []store.LadderGame{
			game(1, []int64{7, 0}, []float64{0, 1}, protocol.ReasonTimeForfeit),
			game(2, []int64{0, 7}, []float64{1, 0}, protocol.ReasonTimeForfeit),
		}, organizer.Validation{TimeLosses: 2}},
		{"the opponent lost on time", []store.LadderGame{
			game(1, []int64{7, 0}, []float64{1, 0}, protocol.ReasonTimeForfeit),
		}, organizer.Validation{Played: 1}},
		{"went away: played again, no strike", []store.LadderGame{
			game(1, []int64{7, 0}, []float64{0, 1}, protocol.ReasonDisconnected),
		}, organizer.Validation{}},
		{"before a fresh validation", []store.LadderGame{
			game(-time.Minute, []int64{7, 0}, []float64{0, 1}, protocol.ReasonTimeForfeit),
			game(1, []int64{7, 0}, []float64{1, 0}, protocol.ReasonNormal),
		}, organizer.Validation{Played: 1}},
		{"on a worker whose clock is behind", []store.LadderGame{
			game(-organizer.ValidationSlack+time.Millisecond, []int64{7, 0}, []float64{1, 0}, protocol.ReasonNormal),
		}, organizer.Validation{Played: 1}},
		{"another entry's", []store.LadderGame{
			game(1, []int64{8, 0}, []float64{0, 1}, protocol.ReasonTimeForfeit),
		}, organizer.Validation{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := organizer.ValidationOf(tc.games, e); got != tc.want {
				t.Errorf("ValidationOf = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestLadderRated(t *testing.T) {
	entries := []store.LadderEntry{{ID: 1, Status: store.EntryActive}, {ID: 2, Status: store.EntryActive}, {ID: 3, Status: store.EntryRemoved}}
	game := func(phase, reason string, a, b int64) store.LadderGame {
		return store.LadderGame{GameSummary: store.GameSummary{Reason: reason}, LadderTag: store.LadderTag{Phase: phase, Entries: []int64{a, b}}}
	}
	tests := []struct {
		name string
		g    store.LadderGame
		want bool
	}{
		{"a ladder game", game(store.PhaseLadder, protocol.ReasonNormal, 1, 2), true},
		{"lost on time", game(store.PhaseLadder, protocol.ReasonTimeForfeit, 1, 2), true},
		{"disconnected", game(store.PhaseLadder, protocol.ReasonDisconnected, 1, 2), false},
		{"absent", game(store.PhaseLadder, protocol.ReasonAbsent, 1, 2), false},
		{"nobody listening", game(store.PhaseLadder, protocol.ReasonNoResponders, 2, 1), false},
		{"a removed entry's", game(store.PhaseLadder, protocol.ReasonNormal, 1, 3), false},
		{"a final game lost by going away scores", game(store.PhaseFinal, protocol.ReasonDisconnected, 1, 2), true},
		{"absent in the final", game(store.PhaseFinal, protocol.ReasonAbsent, 1, 2), false},
		{"validation", game(store.PhaseValidation, protocol.ReasonNormal, 1, 0), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := organizer.LadderRated(tc.g, entries); got != tc.want {
				t.Errorf("LadderRated = %v, want %v", got, tc.want)
			}
		})
	}
}
