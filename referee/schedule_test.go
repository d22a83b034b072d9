package referee

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/internal/testutil/testgame"
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
		{"too many rounds", []string{"a", "b", "c"}, MaxScheduledGames/6 + 1, "more than 1000000 games in one tournament: a round robin of 166667 rounds of 6 games"},
		{"rounds that overflow", []string{"a", "b", "c"}, math.MaxInt / 2, "more than 1000000 games"},
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
		// beyond maxSearchedPlayers: the circle method, even and odd (a bye)
		{maxSearchedPlayers + 1, 2, 2 * 65 * 64, 1},
		{maxSearchedPlayers + 2, 1, 66 * 65, 1},
		{301, 1, 301 * 300, 1},
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
	tour := Tournament{ID: "t1", Game: lookup(t, testgame.CountName), Schedule: sched, TC: clock.TimeControl{PerMove: perMove}}

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

func TestGauntlet(t *testing.T) {
	s, err := Gauntlet([]string{"s1", "s2"}, []string{"a", "b", "c"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 2*2*2*3 {
		t.Fatalf("%d games, want 24", len(s))
	}
	seat := map[[3]string]int{} // round, seat 0, seat 1
	for i, p := range s {
		if p.Index != i+1 || p.Round != i/12+1 {
			t.Errorf("pairing %d: %+v", i, p)
		}
		seat[[3]string{strconv.Itoa(p.Round), p.Players[0], p.Players[1]}]++
		isSeed := func(n string) bool { return n == "s1" || n == "s2" }
		if isSeed(p.Players[0]) == isSeed(p.Players[1]) {
			t.Errorf("pairing %d: %v is not a seed against another player", i, p.Players)
		}
		// The two games of an encounter follow each other, colours swapped.
		if i%2 == 1 && (s[i-1].Players[0] != p.Players[1] || s[i-1].Players[1] != p.Players[0]) {
			t.Errorf("pairings %d and %d: %v then %v", i-1, i, s[i-1].Players, p.Players)
		}
	}
	for k, n := range seat {
		if n != 1 {
			t.Errorf("%v played %d times", k, n)
		}
	}
	if len(seat) != 24 {
		t.Errorf("%d distinct games, want 24", len(seat))
	}
}

func TestGauntletErrors(t *testing.T) {
	cases := []struct {
		name          string
		seeds, others []string
		rounds        int
		want          string
	}{
		{"no seeds", nil, []string{"a"}, 1, "at least 1 seed"},
		{"no others", []string{"s"}, nil, 1, "besides the seeds"},
		{"no rounds", []string{"s"}, []string{"a"}, 0, "at least 1 round"},
		{"seed twice", []string{"s", "s"}, []string{"a"}, 1, `seed "s" listed twice`},
		{"player twice", []string{"s"}, []string{"a", "a"}, 1, `player "a" listed twice`},
		{"overlap", []string{"s", "a"}, []string{"a"}, 1, `"a" is both a seed and a player`},
		{"bad name", []string{"s"}, []string{"a.b"}, 1, `player name "a.b"`},
		{"too many rounds", []string{"s"}, []string{"a", "b"}, MaxScheduledGames, "more than 1000000 games in one tournament: a gauntlet of 1000000 rounds of 4 games"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Gauntlet(tc.seeds, tc.others, tc.rounds)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestAssignOpenings(t *testing.T) {
	openings := [][]string{{"1"}, {"2"}, {"1", "1"}}
	rr, _ := RoundRobin([]string{"a", "b", "c"}, 2) // 6 encounters
	g, _ := Gauntlet([]string{"s"}, []string{"a", "b"}, 1)
	cases := []struct {
		name     string
		schedule []Pairing
		random   bool
		seed     int64
		want     []int // OpeningIndex by game
	}{
		// Round robin: 1 a-b, 2 b-c, 3 c-a, 4 b-a, 5 c-b, 6 a-c in each round.
		{"round robin in order", rr, false, 0, []int{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3}},
		{"gauntlet in order", g, false, 0, []int{1, 1, 2, 2}},
		{"no openings", g, false, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ops := openings
			if tc.want == nil {
				ops = nil
			}
			out := AssignOpenings(tc.schedule, ops, tc.random, tc.seed)
			var got []int
			for i, p := range out {
				if tc.want == nil {
					if p.OpeningIndex != 0 || p.Opening != nil {
						t.Errorf("game %d has opening %d", i, p.OpeningIndex)
					}
					continue
				}
				got = append(got, p.OpeningIndex)
				if !reflect.DeepEqual(p.Opening, openings[p.OpeningIndex-1]) {
					t.Errorf("game %d: opening %v for index %d", i, p.Opening, p.OpeningIndex)
				}
			}
			if tc.want != nil && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("openings %v, want %v", got, tc.want)
			}
			if tc.schedule[0].Opening != nil {
				t.Error("the schedule given was changed")
			}
		})
	}

	t.Run("random", func(t *testing.T) {
		many := make([][]string, 10)
		for i := range many {
			many[i] = []string{strconv.Itoa(i)}
		}
		sched, _ := RoundRobin([]string{"a", "b", "c", "d", "e"}, 1) // 10 encounters
		a := AssignOpenings(sched, many, true, 42)
		b := AssignOpenings(sched, many, true, 42)
		c := AssignOpenings(sched, many, true, 43)
		if !reflect.DeepEqual(a, b) {
			t.Error("the same seed gave two orders")
		}
		if reflect.DeepEqual(a, c) {
			t.Error("seeds 42 and 43 gave the same order")
		}
		used := map[int]int{}
		byPair := map[string]int{}
		for _, p := range a {
			used[p.OpeningIndex]++
			key := strings.Join(slices.Sorted(slices.Values(p.Players)), "-")
			if o, ok := byPair[key]; ok && o != p.OpeningIndex {
				t.Errorf("%s plays openings %d and %d", key, o, p.OpeningIndex)
			}
			byPair[key] = p.OpeningIndex
		}
		for i := 1; i <= 10; i++ {
			if used[i] != 2 {
				t.Errorf("opening %d used %d times, want 2 (each once per encounter)", i, used[i])
			}
		}
		inOrder := AssignOpenings(sched, many, false, 42)
		if reflect.DeepEqual(a, inOrder) {
			t.Error("random order is the sequential order")
		}
	})
}
