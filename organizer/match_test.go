package organizer_test

import (
	"context"
	"errors"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
)

func TestMatchScoreAdd(t *testing.T) {
	tests := []struct {
		name    string
		players []string
		result  string
		counted bool
		want    organizer.MatchScore
	}{
		{"first player wins with the first move", []string{"a", "b"}, store.ResultFirstWins, true, organizer.MatchScore{Wins: 1}},
		{"first player wins with the second move", []string{"b", "a"}, store.ResultSecondWins, true, organizer.MatchScore{Wins: 1}},
		{"first player loses with the first move", []string{"a", "b"}, store.ResultSecondWins, true, organizer.MatchScore{Losses: 1}},
		{"first player loses with the second move", []string{"b", "a"}, store.ResultFirstWins, true, organizer.MatchScore{Losses: 1}},
		{"draw", []string{"b", "a"}, store.ResultDraw, true, organizer.MatchScore{Draws: 1}},
		{"no result", []string{"a", "b"}, "", false, organizer.MatchScore{}},
		{"not two players", []string{"a", "b", "c"}, store.ResultFirstWins, false, organizer.MatchScore{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s organizer.MatchScore
			if counted := s.Add("a", tt.players, tt.result); counted != tt.counted || s != tt.want {
				t.Errorf("Add = %v, score %+v; want %v, %+v", counted, s, tt.counted, tt.want)
			}
			if s.Games() != tt.want.Wins+tt.want.Draws+tt.want.Losses {
				t.Errorf("Games = %d", s.Games())
			}
		})
	}
}

// matchSpec is a match of minimax at depth 1 against random over up to 2*rounds games.
func matchSpec(rounds int, test *ratings.SPRT) organizer.Spec {
	s := organizer.DefaultSpec()
	s.Players = []string{"d1", "random"}
	s.Agents = map[string]agent.Spec{"d1": {Agent: "minimax", Params: map[string]string{"depth": "1"}}}
	s.TimeControl = "2s"
	s.Rounds = rounds
	s.Concurrency = 2
	s.Seed = 11
	s.SPRT = test
	return s
}

// An SPRT match stops starting games once the test decides, counts the games that were
// running then, and ends without error, so that it is finished.
func TestDirectorRunMatchStopsOnDecision(t *testing.T) {
	ctx := context.Background()
	d, db := newDirector(t)
	test := &ratings.SPRT{Elo0: 0, Elo1: 300, Alpha: 0.1, Beta: 0.1, Model: ratings.ModelLogistic}
	id, scheduled, err := d.Create(ctx, matchSpec(100, test), "", false)
	if err != nil {
		t.Fatal(err)
	}
	var calls int
	var last organizer.MatchScore
	decidedAt := -1
	score, decision, err := d.RunMatch(ctx, id, nil, func(done, total int, res referee.Result, s organizer.MatchScore, dec ratings.Decision) {
		calls++
		if s.Games() != last.Games()+1 || done != calls || total != scheduled {
			t.Errorf("progress %d of %d with score %+v after %+v", done, total, s, last)
		}
		last = s
		if dec != ratings.Continue && decidedAt < 0 {
			decidedAt = s.Games()
		}
	})
	if err != nil {
		t.Fatalf("RunMatch: %v", err)
	}
	if decision == ratings.Continue || decidedAt < 0 {
		t.Fatalf("no decision after %+v", score)
	}
	if want := test.Decide(score.Wins, score.Draws, score.Losses); decidedAt == score.Games() && decision != want {
		t.Errorf("decision %v, want %v", decision, want)
	}
	if score != last || score.Games() >= scheduled || score.Games() > decidedAt+2 {
		t.Errorf("score %+v (decided after %d games, last progress %+v): want the games of the decision and at most the one running besides", score, decidedAt, last)
	}
	games, err := db.Games(ctx, id)
	if err != nil || len(games) != score.Games() {
		t.Fatalf("%d games stored (%v), score counts %d", len(games), err, score.Games())
	}
	var replay organizer.MatchScore
	for _, g := range games {
		replay.Add("d1", g.Players, g.Result)
	}
	if replay != score {
		t.Errorf("stored games count %+v, RunMatch %+v", replay, score)
	}
	if status, err := d.Finish(ctx, id, err); status != store.StatusFinished || err != nil {
		t.Errorf("Finish = %s, %v; want finished", status, err)
	}
}

// A match drained by its caller before the test decides ends with referee.ErrDrained: a
// shutdown parks it.
func TestDirectorRunMatchDrained(t *testing.T) {
	ctx := context.Background()
	d, _ := newDirector(t)
	id, _, err := d.Create(ctx, matchSpec(5, nil), "", false)
	if err != nil {
		t.Fatal(err)
	}
	drain := make(chan struct{})
	score, decision, err := d.RunMatch(ctx, id, drain, func(done, _ int, _ referee.Result, _ organizer.MatchScore, _ ratings.Decision) {
		if done == 1 {
			close(drain)
		}
	})
	if !errors.Is(err, referee.ErrDrained) || decision != ratings.Continue || score.Games() == 0 || score.Games() >= 10 {
		t.Fatalf("RunMatch = %+v, %v, %v; want some games, no decision and ErrDrained", score, decision, err)
	}
	if status := organizer.StoppedStatus(ctx, err); status != store.StatusRunning {
		t.Errorf("StoppedStatus = %s, want running (parked)", status)
	}
}

func TestDirectorRunMatchRefusesTournaments(t *testing.T) {
	ctx := context.Background()
	d, _ := newDirector(t)
	s := organizer.DefaultSpec()
	s.Players = []string{"random", "hp1", "hp2"}
	id, _, err := d.Create(ctx, s, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.RunMatch(ctx, id, nil, nil); err == nil {
		t.Fatal("RunMatch played a tournament of three players")
	}
}

func TestMatchRounds(t *testing.T) {
	tests := []struct {
		name            string
		games, openings int
		wantRounds      int
		wantCut         bool
	}{
		{"even", 1000, 0, 500, false},
		{"odd rounded up", 3, 0, 2, false},
		{"odd rounded up, 9", 9, 0, 5, false},
		{"openings: one round each", 1000, 3, 3, true},
		{"openings as many as rounds", 6, 3, 3, false},
		{"more openings than games", 4, 322, 2, false},
		{"more openings than games, odd", 3, 322, 2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rounds, cut := organizer.MatchRounds(tc.games, tc.openings)
			if rounds != tc.wantRounds || cut != tc.wantCut {
				t.Errorf("MatchRounds(%d, %d) = %d, %v; want %d, %v", tc.games, tc.openings, rounds, cut, tc.wantRounds, tc.wantCut)
			}
		})
	}
}
