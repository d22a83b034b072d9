package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/organizer/report"
)

// TestIPDTournament plays the prisoner's dilemma over NATS: simultaneous turns, both moves
// of every round stored, standings ranked by total payoff that match the stored games.
func TestIPDTournament(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "ipd.db")
	code, stdout, stderr := runCLI(t, "tournament", "--game", "ipd:rounds=20", "--players", "tit-for-tat,always-defect,satisficing",
		"--rounds", "1", "--tc", "200ms", "--db", dbPath, "--json", "--seed", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc report.StandingsDoc
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	games, err := openDB(t, dbPath).Games(context.Background(), doc.Tournament)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 6 {
		t.Fatalf("%d games, want 6", len(games))
	}
	for _, g := range games {
		if g.Reason != "normal" || len(g.Moves) != 40 {
			t.Errorf("game %d: %s with %d moves, want normal with 2 moves in each of 20 rounds", g.Index, g.Reason, len(g.Moves))
		}
	}
	totals := organizer.PayoffTotals(games)
	for i, r := range doc.Standings {
		if r.Payoff != totals[r.Player] || r.Payoff == 0 {
			t.Errorf("%s: standings payoff %v, stored games give %v", r.Player, r.Payoff, totals[r.Player])
		}
		if i > 0 && r.Payoff > doc.Standings[i-1].Payoff {
			t.Errorf("rank %d (%s, %v) above rank %d with less payoff", r.Rank, r.Player, r.Payoff, doc.Standings[i-1].Rank)
		}
	}
	// Over 20 rounds, tit-for-tat against always-defect: 19 and 24.
	for _, g := range games {
		if g.Players[0] == "tit-for-tat" && g.Players[1] == "always-defect" && (g.Returns[0] != 19 || g.Returns[1] != 24) {
			t.Errorf("tit-for-tat v always-defect returns %v, want [19 24]", g.Returns)
		}
	}
}
