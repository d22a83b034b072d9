package organizer_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/store/sqlite"
	"github.com/arenaref/arena/tournament"
)

// kingOfTheHill is a format that pairs from results alone, as a Swiss system does, and
// lives only in this test: it shows that such a format needs nothing beyond its
// registration. The first two players play first; after that the winner of each game
// (the second seat on a draw) stays on, in the second seat, against the next challenger
// in the order of the players, until Rounds games are played. It ranks by points.
type kingOfTheHill struct{}

const kingName = "king-of-the-hill-test"

func init() { tournament.Register(kingOfTheHill{}) }

func (kingOfTheHill) Name() string                                       { return kingName }
func (kingOfTheHill) Defaults(s tournament.Settings) tournament.Settings { return s }

func (kingOfTheHill) Check(s tournament.Settings) error {
	if len(s.Players) < 3 || s.Rounds < 1 {
		return fmt.Errorf("players: need three, and rounds at least one")
	}
	return nil
}

func (kingOfTheHill) Schedule(tournament.Settings) ([]tournament.Pairing, error) { return nil, nil }

func (kingOfTheHill) Next(s tournament.Settings, played []tournament.Game) ([]tournament.Pairing, error) {
	if len(played) >= s.Rounds {
		return nil, nil
	}
	if len(played) == 0 {
		return []tournament.Pairing{{Index: 1, Round: 1, Players: []string{s.Players[0], s.Players[1]}}}, nil
	}
	last := slices.MaxFunc(played, func(a, b tournament.Game) int { return a.Index - b.Index })
	king := last.Players[1]
	if last.Scores[0] == 1 {
		king = last.Players[0]
	}
	n := len(played) + 1
	challenger := s.Players[n%len(s.Players)]
	if challenger == king {
		challenger = s.Players[(n+1)%len(s.Players)]
	}
	return []tournament.Pairing{{Index: n, Round: n, Players: []string{challenger, king}}}, nil
}

func (kingOfTheHill) Rank(_ tournament.Settings, played []tournament.Game) []string {
	points := map[string]float64{}
	for _, g := range played {
		for seat, p := range g.Players {
			points[p] += g.Scores[seat]
		}
	}
	var order []string
	for p := range points {
		order = append(order, p)
	}
	sort.Slice(order, func(i, j int) bool {
		if points[order[i]] != points[order[j]] {
			return points[order[i]] > points[order[j]]
		}
		return order[i] < order[j]
	})
	return order
}

// TestFormatPairedFromResults creates and runs a format registered by this test alone:
// the Director plays what it pairs from the results, game after game, and the standings
// follow its ranking.
func TestFormatPairedFromResults(t *testing.T) { runners(t, testFormatPairedFromResults) }

func testFormatPairedFromResults(t *testing.T, d *organizer.Director, db *sqlite.DB) {
	ctx := context.Background()
	s := organizer.DefaultSpec()
	s.Format = kingName
	s.Players = []string{"random", "hp1", "d1"}
	s.Agents = map[string]agent.Spec{"d1": {Agent: "minimax", Params: map[string]string{"depth": "1"}}}
	s.Rounds = 5
	s.TimeControl = "2s"
	id, scheduled, err := d.Create(ctx, s, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if scheduled != 0 {
		t.Fatalf("Create scheduled %d games, want none", scheduled)
	}
	if err := d.Run(ctx, id, nil, nil); err != nil {
		t.Fatal(err)
	}
	sums, err := db.GameSummaries(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != 5 {
		t.Fatalf("%d games recorded, want 5", len(sums))
	}
	sort.Slice(sums, func(i, j int) bool { return sums[i].Index < sums[j].Index })
	var played []tournament.Game
	for i, g := range sums {
		if g.Index != i+1 {
			t.Fatalf("game %d has index %d", i+1, g.Index)
		}
		want, _ := kingOfTheHill{}.Next(tournament.Settings{Players: s.Players, Rounds: s.Rounds}, played)
		if len(want) != 1 || !slices.Equal(g.Players, want[0].Players) {
			t.Errorf("game %d: %v, want %v", g.Index, g.Players, want)
		}
		played = append(played, tournament.Game{Index: g.Index, Round: g.Round, Players: g.Players, Scores: g.Scores})
	}
	// A second run finds nothing more to play.
	if err := d.Run(ctx, id, nil, nil); err != nil {
		t.Fatalf("second run: %v", err)
	}
	rows, err := d.Standings(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := kingOfTheHill{}.Rank(tournament.Settings{}, played)
	var got []string
	for i, r := range rows {
		if r.Rank != i+1 {
			t.Errorf("row %d has rank %d", i, r.Rank)
		}
		got = append(got, r.Player)
	}
	if !slices.Equal(got[:len(want)], want) {
		t.Errorf("standings %v, want the format's order %v", got, want)
	}
}
