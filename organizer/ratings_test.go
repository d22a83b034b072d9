package organizer

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// game2 is a finished two-player game; score is the first seat's.
func game2(a, b string, score float64, reason string) store.Game {
	res := map[float64]string{1: store.ResultFirstWins, 0: store.ResultSecondWins, 0.5: store.ResultDraw}[score]
	return store.Game{Players: []string{a, b}, Scores: []float64{score, 1 - score}, Result: res, Reason: reason}
}

func TestRateGames(t *testing.T) {
	// a beats b 3 to 1 with a draw, b beats c 2 to 0, and an aborted game and a game that
	// ghost forfeited by never coming count for nobody.
	games := []store.Game{
		game2("ghost", "a", 0, protocol.ReasonAbsent),
		game2("a", "b", 1, protocol.ReasonNormal), game2("b", "a", 0, protocol.ReasonNormal),
		game2("a", "b", 1, protocol.ReasonNormal), game2("b", "a", 1, protocol.ReasonNormal),
		game2("a", "b", 0.5, protocol.ReasonNormal),
		game2("b", "c", 1, protocol.ReasonNormal), game2("c", "b", 0, protocol.ReasonTimeForfeit),
		{Players: []string{"a", "c"}, Scores: []float64{0.5, 0.5}, Result: store.ResultNone, Reason: protocol.ReasonAborted},
	}
	tests := []struct {
		name       string
		players    []string
		opt        RateOptions
		wantOrder  []string
		wantAnchor *RatingAnchor
		wantErr    error
	}{
		{"pool average", nil, RateOptions{}, []string{"a", "b", "c"}, nil, nil},
		{"anchored", nil, RateOptions{Anchor: "c"}, []string{"a", "b", "c"}, &RatingAnchor{Player: "c", Rating: RatingCenter}, nil},
		{"a listed player without games", []string{"z"}, RateOptions{}, []string{"a", "b", "c", "z"}, nil, nil},
		{"anchor without games", nil, RateOptions{Anchor: "nobody"}, nil, nil, ErrNoAnchor},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table, err := RateGames(games, tt.players, tt.opt)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("error %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if table.Games != 7 {
				t.Errorf("%d games rated, want 7 (the aborted and absent ones left out)", table.Games)
			}
			var order []string
			for i, r := range table.Rows {
				order = append(order, r.Player)
				if r.Rank != i+1 {
					t.Errorf("%s ranked %d at row %d", r.Player, r.Rank, i+1)
				}
			}
			// z has no games, so its place says nothing: only the others' order counts.
			played := slices.DeleteFunc(slices.Clone(order), func(p string) bool { return p == "z" })
			if !reflect.DeepEqual(played, tt.wantOrder[:3]) || len(order) != len(tt.wantOrder) {
				t.Errorf("order %v, want %v", order, tt.wantOrder)
			}
			if !reflect.DeepEqual(table.Anchor, tt.wantAnchor) {
				t.Errorf("anchor %+v, want %+v", table.Anchor, tt.wantAnchor)
			}
			if tt.wantAnchor != nil {
				for _, r := range table.Rows {
					if r.Player == tt.wantAnchor.Player && math.Abs(r.Rating-RatingCenter) > 1e-6 {
						t.Errorf("anchor %s rated %v, want %v", r.Player, r.Rating, RatingCenter)
					}
				}
			}
			if c := table.Cross["a"]["b"]; c != (CrossCell{Wins: 3, Draws: 1, Losses: 1, Points: 3.5}) {
				t.Errorf("crosstable a v b %+v, want +3 =1 -1, 3.5 points", c)
			}
			if c := table.Cross["c"]["b"]; c != (CrossCell{Losses: 2}) {
				t.Errorf("crosstable c v b %+v, want two losses", c)
			}
			if _, ok := table.Cross["a"]["c"]; ok {
				t.Error("the aborted game between a and c is in the crosstable")
			}
			if los := table.LOS["a"]["c"]; los <= 0.5 || los > 1 {
				t.Errorf("LOS a over c %v, want above 0.5", los)
			}
		})
	}
}

func TestRateGamesNothingToRate(t *testing.T) {
	ipd := store.Game{Players: []string{"a", "b", "c"}, Scores: []float64{1, 0, 0}, Result: store.ResultFirstWins}
	if _, err := RateGames([]store.Game{ipd}, nil, RateOptions{}); err == nil {
		t.Fatal("RateGames rated no two-player games without an error")
	}
}

func TestEndings(t *testing.T) {
	games := []store.Game{
		game2("a", "b", 1, protocol.ReasonNormal),
		game2("a", "b", 1, protocol.ReasonTimeForfeit), // b lost on time
		game2("b", "a", 1, protocol.ReasonIllegalMove), // a played an illegal move
	}
	got := Endings(games)
	want := map[string]map[string]int{
		"a": {protocol.ReasonNormal: 1, protocol.ReasonIllegalMove: 1},
		"b": {protocol.ReasonNormal: 1, protocol.ReasonTimeForfeit: 1},
	}
	for p, ended := range want {
		if !reflect.DeepEqual(got[p].Ended, ended) {
			t.Errorf("%s ended %v, want %v", p, got[p].Ended, ended)
		}
	}
	if got["a"].WonBy[protocol.ReasonTimeForfeit] != 1 || got["b"].WonBy[protocol.ReasonIllegalMove] != 1 {
		t.Errorf("won by faults: a %v, b %v", got["a"].WonBy, got["b"].WonBy)
	}
}

func TestParseSPRT(t *testing.T) {
	tests := []struct {
		in      string
		elo1    float64
		alpha   float64
		wantErr bool
	}{
		{"elo0=0,elo1=5", 5, 0.05, false},
		{"elo0=0, elo1=10, alpha=0.01, model=normalized", 10, 0.01, false},
		{"elo1=5", 0, 0, true},
		{"elo0=0,elo1=x", 0, 0, true},
		{"elo0=0,elo1=5,gamma=1", 0, 0, true},
		{"elo0", 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			s, err := ParseSPRT(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseSPRT(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			}
			if err == nil && (s.Elo1 != tt.elo1 || s.Alpha != tt.alpha) {
				t.Errorf("ParseSPRT(%q) = %+v, want elo1 %v alpha %v", tt.in, s, tt.elo1, tt.alpha)
			}
		})
	}
}

func TestMatchGames(t *testing.T) {
	gs := MatchGames(2, 1, 3)
	var points float64
	for _, g := range gs {
		points += g.Score
		if g.First != 0 || g.Second != 1 {
			t.Fatalf("game %+v, want player 0 against 1", g)
		}
	}
	if len(gs) != 6 || points != 2.5 {
		t.Fatalf("%d games worth %v, want 6 worth 2.5", len(gs), points)
	}
}

// TestBoardRowsLeaveOutAbsent checks that a ladder's leaderboard counts a game forfeited
// as absent in its player's games but rates only the others: b, whose one game is absent,
// has no rating, and a's rating comes from its games with c alone.
func TestBoardRowsLeaveOutAbsent(t *testing.T) {
	entries := []store.LadderEntry{{ID: 1, Player: "a", Status: store.EntryActive}, {ID: 2, Player: "b", Status: store.EntryActive}, {ID: 3, Player: "c", Status: store.EntryActive}}
	games := []store.LadderGame{
		ladderGame(game2("a", "c", 1, protocol.ReasonNormal), 1, 3),
		ladderGame(game2("c", "a", 1, protocol.ReasonNormal), 3, 1),
		ladderGame(game2("b", "a", 0, protocol.ReasonAbsent), 2, 1),
	}
	rows := boardRows(entries, games, ladderData{})
	byName := map[string]LeaderRow{}
	for _, r := range rows {
		byName[r.Player] = r
	}
	if a, b, c := byName["a"], byName["b"], byName["c"]; a.Games != 3 || a.Wins != 2 || b.Games != 1 || b.Losses != 1 ||
		b.Rating != 0 || math.Abs(a.Rating-c.Rating) > 1e-6 || a.Rating == 0 {
		t.Errorf("a %+v, b %+v, c %+v: want b's absent game counted but unrated, a and c rated equal", a, b, c)
	}
}

// TestBoardRowsLeaveOutRemovedAndAway checks that a game lost by disconnecting counts as
// a loss but is not rated, and that the games of a removed entry count for nothing.
func TestBoardRowsLeaveOutRemovedAndAway(t *testing.T) {
	entries := []store.LadderEntry{{ID: 1, Player: "a", Status: store.EntryActive}, {ID: 2, Player: "b", Status: store.EntryActive},
		{ID: 3, Player: "c", Status: store.EntryActive}, {ID: 4, Player: "x", Status: store.EntryRemoved}}
	games := []store.LadderGame{
		ladderGame(game2("a", "c", 1, protocol.ReasonNormal), 1, 3),
		ladderGame(game2("c", "a", 1, protocol.ReasonNormal), 3, 1),
		ladderGame(game2("b", "a", 0, protocol.ReasonDisconnected), 2, 1),
		ladderGame(game2("x", "a", 1, protocol.ReasonNormal), 4, 1),
		ladderGame(game2("x", "c", 0, protocol.ReasonNormal), 4, 3),
	}
	byName := map[string]LeaderRow{}
	for _, r := range boardRows(entries, games, ladderData{}) {
		byName[r.Player] = r
	}
	a, b, c, x := byName["a"], byName["b"], byName["c"], byName["x"]
	if a.Games != 3 || b.Games != 1 || b.Losses != 1 || b.Rating != 0 || c.Games != 2 {
		t.Errorf("a %+v, b %+v, c %+v: want b's disconnected loss counted but unrated, x's games left out", a, b, c)
	}
	if math.Abs(a.Rating-c.Rating) > 1e-6 || a.Rating == 0 {
		t.Errorf("a rated %v, c %v: want equal, from their own games alone", a.Rating, c.Rating)
	}
	if x.Games != 0 || x.Rank != 0 {
		t.Errorf("removed x: %+v, want no games and no rank", x)
	}
}

// ladderGame is g as a game of a ladder's open phase between entries ids.
func ladderGame(g store.Game, ids ...int64) store.LadderGame {
	return store.LadderGame{
		GameSummary: store.GameSummary{Players: g.Players, Scores: g.Scores, Result: g.Result, Reason: g.Reason},
		LadderTag:   store.LadderTag{Phase: store.PhaseLadder, Entries: ids},
	}
}
