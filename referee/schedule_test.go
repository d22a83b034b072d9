package referee

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/arenaref/arena/internal/testgame"
	"github.com/arenaref/arena/protocol"
)

func TestRoundRobinErrors(t *testing.T) {
	cases := []struct {
		name    string
		players []string
		rounds  int
		want    string
	}{
		{"no players", nil, 1, "at least 2 players, got 0"},
		{"one player", []string{"a"}, 1, "at least 2 players, got 1"},
		{"no rounds", []string{"a", "b"}, 0, "at least 1 round, got 0"},
		{"duplicate", []string{"a", "b", "a"}, 1, `player "a" listed twice`},
		{"bad name", []string{"a", "b.c"}, 1, `player name "b.c"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := RoundRobin(tc.players, tc.rounds)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestRoundRobin(t *testing.T) {
	cases := []struct {
		players, rounds, games int
		maxRun                 int // the longest run of consecutive games of one player
	}{
		{2, 1, 2, 2},
		{2, 3, 6, 6},
		{3, 2, 12, 2},
		{4, 1, 12, 2},
		{4, 3, 36, 2},
		{5, 2, 40, 1},
		{6, 2, 60, 1},
		{8, 1, 56, 1},
		{11, 2, 220, 1},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%dx%d", tc.players, tc.rounds), func(t *testing.T) {
			var names []string
			for i := range tc.players {
				names = append(names, fmt.Sprintf("p%d", i))
			}
			s, err := RoundRobin(names, tc.rounds)
			if err != nil {
				t.Fatal(err)
			}
			if len(s) != tc.games {
				t.Fatalf("%d games, want %d", len(s), tc.games)
			}
			perRound := tc.players * (tc.players - 1)
			type key struct {
				round int
				a, b  string
			}
			met := map[key]int{}
			whites := map[string]int{}
			blacks := map[string]int{}
			run := map[string]int{}
			longest := 0
			for i, p := range s {
				if p.Index != i+1 || p.Round != i/perRound+1 || len(p.Players) != 2 || p.Players[0] == p.Players[1] {
					t.Fatalf("pairing %d: %+v", i, p)
				}
				met[key{p.Round, p.Players[0], p.Players[1]}]++
				whites[p.Players[0]]++
				blacks[p.Players[1]]++
				for _, n := range names {
					if n == p.Players[0] || n == p.Players[1] {
						run[n]++
						longest = max(longest, run[n])
					} else {
						run[n] = 0
					}
				}
			}
			// Each ordered pair exactly once a round: every pair meets once with each colour.
			if len(met) != tc.rounds*perRound {
				t.Errorf("%d distinct (round, seat 0, seat 1), want %d", len(met), tc.rounds*perRound)
			}
			for k, n := range met {
				if n != 1 {
					t.Errorf("%v played %d times", k, n)
				}
			}
			for _, n := range names {
				if want := tc.rounds * (tc.players - 1); whites[n] != want || blacks[n] != want {
					t.Errorf("%s has seat 0 %d times and seat 1 %d times, want %d each", n, whites[n], blacks[n], want)
				}
			}
			if longest > tc.maxRun {
				t.Errorf("a player plays %d games in a row, want at most %d", longest, tc.maxRun)
			}
			again, _ := RoundRobin(names, tc.rounds)
			if !reflect.DeepEqual(s, again) {
				t.Error("two schedules of the same players differ")
			}
		})
	}
}

func ExampleRoundRobin() {
	s, err := RoundRobin([]string{"ann", "bob", "cat"}, 1)
	if err != nil {
		panic(err)
	}
	for _, p := range s {
		fmt.Printf("%d: %s - %s\n", p.Index, p.Players[0], p.Players[1])
	}
	// Output:
	// 1: ann - bob
	// 2: bob - cat
	// 3: cat - ann
	// 4: bob - ann
	// 5: cat - bob
	// 6: ann - cat
}

func TestRunTournament(t *testing.T) {
	e := newEnv(t)
	e.player("alice", lastLegal)
	e.player("bob", firstLegal)
	// carol never shows up: each of her games is a forfeit, and the tournament goes on.
	sched, err := RoundRobin([]string{"alice", "bob", "carol"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	tour := Tournament{ID: "t1", Game: lookup(t, testgame.CountName), Schedule: sched, TC: TimeControl{PerMove: perMove}}

	t.Run("forfeits do not stop it", func(t *testing.T) {
		var got []Result
		err := e.ref.RunTournament(context.Background(), tour, func(ctx context.Context, p Pairing, res Result) error {
			if !reflect.DeepEqual(res.Players, p.Players) {
				t.Errorf("game %d: result for %v, pairing %v", p.Index, res.Players, p.Players)
			}
			got = append(got, res)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 6 {
			t.Fatalf("%d results, want 6", len(got))
		}
		for i, res := range got {
			if want := fmt.Sprintf("t1-%d", i+1); res.GameID != want {
				t.Errorf("game id %q, want %q", res.GameID, want)
			}
			carol := -1
			for seat, p := range res.Players {
				if p == "carol" {
					carol = seat
				}
			}
			switch {
			case carol >= 0 && (res.Reason != protocol.ReasonNoResponders || res.Forfeit != carol):
				t.Errorf("%s: carol's game ended %q, forfeit %d", res.GameID, res.Reason, res.Forfeit)
			case carol < 0 && res.Reason != protocol.ReasonNormal:
				t.Errorf("%s: ended %q", res.GameID, res.Reason)
			}
		}
	})

	t.Run("onResult error stops it", func(t *testing.T) {
		stop := errors.New("disk full")
		calls := 0
		err := e.ref.RunTournament(context.Background(), tour, func(context.Context, Pairing, Result) error {
			calls++
			return stop
		})
		if !errors.Is(err, stop) || calls != 1 || !strings.Contains(err.Error(), "t1-1") {
			t.Errorf("error %v after %d calls, want disk full after 1 naming t1-1", err, calls)
		}
	})

	t.Run("invalid", func(t *testing.T) {
		cases := []struct {
			name   string
			change func(t *Tournament)
		}{
			{"bad id", func(t *Tournament) { t.ID = "t 1" }},
			{"id too long", func(t *Tournament) { t.ID = strings.Repeat("t", 63) }},
			{"no game", func(t *Tournament) { t.Game = nil }},
			{"duplicate index", func(t *Tournament) { t.Schedule = []Pairing{sched[0], sched[0]} }},
			{"three players", func(t *Tournament) {
				t.Schedule = []Pairing{{Index: 1, Round: 1, Players: []string{"alice", "bob", "carol"}}}
			}},
			{"no time", func(t *Tournament) { t.TC.PerMove = 0 }},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				bad := tour
				tc.change(&bad)
				called := false
				err := e.ref.RunTournament(context.Background(), bad, func(context.Context, Pairing, Result) error {
					called = true
					return nil
				})
				if !errors.Is(err, ErrInvalidTournament) || called {
					t.Errorf("error %v (game played: %v), want ErrInvalidTournament before any game", err, called)
				}
			})
		}
	})

	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := e.ref.RunTournament(ctx, tour, nil)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	})
}

// TestOrdererFallsBack asks for runs no schedule of four players allows, so that the search
// exhausts itself, backtracking all the way, and the greedy order is used instead.
func TestOrdererFallsBack(t *testing.T) {
	o := newOrderer(4, 1)
	games := o.round()
	seen := map[pair]bool{}
	for _, p := range games {
		seen[p] = true
	}
	if len(games) != 12 || len(seen) != 12 {
		t.Fatalf("%d games, %d distinct, want 12: %v", len(games), len(seen), games)
	}
	if o.placed != 12 {
		t.Errorf("orderer placed %d games, want 12", o.placed)
	}
}
