package report

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// TestStandingsExplainRatingColumns checks that a table with both rating columns says what
// each is, and that one without the maximum-likelihood rating does not.
func TestStandingsExplainRatingColumns(t *testing.T) {
	rows := []protocol.StandingsRow{
		{Rank: 1, Player: "hp2", Games: 2, Wins: 2, Pct: 100, Rating: 1600, RatingError: 300, Elo: 1516},
		{Rank: 2, Player: "random", Games: 2, Losses: 2, Pct: 0, Rating: 1400, RatingError: 300, Elo: 1484},
	}
	for _, tc := range []struct {
		name  string
		rated bool
	}{{"rated", true}, {"unrated", false}} {
		t.Run(tc.name, func(t *testing.T) {
			rs := slices.Clone(rows)
			if !tc.rated {
				for i := range rs {
					rs[i].Rating, rs[i].RatingError = 0, 0
				}
			}
			var out bytes.Buffer
			if err := WriteStandings(&out, rs); err != nil {
				t.Fatal(err)
			}
			explained := strings.Contains(out.String(), "Rating: this tournament's maximum-likelihood rating") &&
				strings.Contains(out.String(), "Elo: the running Elo")
			if explained != tc.rated {
				t.Errorf("columns explained: %v, want %v:\n%s", explained, tc.rated, out.String())
			}
		})
	}
}

// TestStandingsUnratedPlayer checks that a player without a rated game (one that never
// came, whose games were forfeits) shows no rating beside the others'.
func TestStandingsUnratedPlayer(t *testing.T) {
	rows := []protocol.StandingsRow{
		{Rank: 1, Player: "hp2", Games: 3, Wins: 3, Pct: 100, Rating: 1600, RatingError: 300, Elo: 1516},
		{Rank: 2, Player: "ghost", Games: 1, Losses: 1, Pct: 0, Elo: 1500},
	}
	var out bytes.Buffer
	if err := WriteStandings(&out, rows); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[1] == "ghost" {
			if got := strings.Join(f[2:], " "); got != "1 0 0 1 0.0 - - 1500" {
				t.Errorf("ghost's row %q, want its rating shown as -", got)
			}
			return
		}
	}
	t.Errorf("no row for ghost:\n%s", out.String())
}

// TestRatingTable checks the rating table's three parts: the ratings with an infinite
// error shown as "-", the LOS matrix and the crosstable, with long names cut short in the
// column headings.
func TestRatingTable(t *testing.T) {
	tab := organizer.RatingTable{
		Rows: []organizer.RatingRow{
			{Rank: 1, Player: "a-very-long-name", Rating: 1600, Error: 120, Games: 2, Wins: 2, Pct: 100},
			{Rank: 2, Player: "b", Rating: 1400, Error: math.Inf(1), Games: 2, Losses: 2},
		},
		LOS: map[string]map[string]float64{"a-very-long-name": {"b": 0.975}, "b": {"a-very-long-name": 0.025}},
		Cross: organizer.Crosstable{
			"a-very-long-name": {"b": {Points: 2, Wins: 2}},
			"b":                {"a-very-long-name": {Losses: 2}},
		},
	}
	var out bytes.Buffer
	if err := WriteRatingTable(&out, tab); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"1600  120", "1400    -", "a-very-.", "97.5", "2/2", "0/2", "Likelihood of superiority", "Crosstable"} {
		if !strings.Contains(text, want) {
			t.Errorf("rating table lacks %q:\n%s", want, text)
		}
	}
}

func TestWriteGames(t *testing.T) {
	games := []store.Game{
		{ID: 1, TournamentID: 2, Round: 1, Players: []string{"alice", "bob"}, Result: "1-0", Reason: "normal", Moves: make([]store.Move, 3)},
		{ID: 2, TournamentID: 2, Round: 1, Players: []string{"bob", "alice"}, Result: "0-1", Reason: "time_forfeit", Detail: "bob: no reply"},
	}
	var all, late strings.Builder
	if err := WriteGames(&all, games, ""); err != nil {
		t.Fatal(err)
	}
	if err := WriteGames(&late, games, "time_forfeit"); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(all.String()), "\n"); len(lines) != 3 || !strings.Contains(lines[1], "alice") || !strings.Contains(lines[1], " 3 ") {
		t.Errorf("all games:\n%s", all.String())
	}
	if lines := strings.Split(strings.TrimSpace(late.String()), "\n"); len(lines) != 2 || !strings.Contains(lines[1], "bob: no reply") {
		t.Errorf("the games lost on time:\n%s", late.String())
	}
}

// TestStandingsOfLadder checks a ladder's standings: no Elo column (a ladder keeps none),
// an unranked entry's rank as -, its status with the reason.
func TestStandingsOfLadder(t *testing.T) {
	rows := []protocol.StandingsRow{
		{Rank: 1, Player: "alice", Version: "s2", Status: "active", Games: 3, Wins: 3, Pct: 100, Rating: 1600, RatingError: 300},
		{Rank: 0, Player: "bob", Version: "s1", Status: "failed: crashed", Games: 0},
	}
	var out bytes.Buffer
	if err := WriteStandings(&out, rows); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	tests := []struct {
		name, line string
		want       []string
	}{
		{"header", "Rank", []string{"Rank", "Player", "Version", "Games", "Wins", "Draws", "Losses", "Score%", "Rating", "±", "Status"}},
		{"ranked", "alice", []string{"1", "alice", "s2", "3", "3", "0", "0", "100.0", "1600", "300", "active"}},
		{"unranked", "bob", []string{"-", "bob", "s1", "0", "0", "0", "0", "0.0", "-", "-", "failed:", "crashed"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, line := range strings.Split(text, "\n") {
				if f := strings.Fields(line); len(f) > 1 && (f[0] == tc.line || f[1] == tc.line) {
					if strings.Join(f, " ") != strings.Join(tc.want, " ") {
						t.Errorf("row %q, want %q", strings.Join(f, " "), strings.Join(tc.want, " "))
					}
					return
				}
			}
			t.Errorf("no row for %s:\n%s", tc.line, text)
		})
	}
}

func TestGamesCell(t *testing.T) {
	tests := []struct {
		played, total int
		want          string
	}{
		{3, 10, "3/10"},
		{3994, 0, "3994"},
		{0, 0, "0"},
	}
	for _, tc := range tests {
		if got := GamesCell(tc.played, tc.total); got != tc.want {
			t.Errorf("GamesCell(%d, %d) = %q, want %q", tc.played, tc.total, got, tc.want)
		}
	}
}

// TestWriteOverload: the standings say how many time forfeits an overloaded machine cost.
func TestWriteOverload(t *testing.T) {
	cases := []struct {
		name string
		o    organizer.Overload
		want string
	}{
		{"quiet", organizer.Overload{}, ""},
		{"late within the margin", organizer.Overload{Lateness: 30 * time.Millisecond, Margin: 50 * time.Millisecond}, ""},
		{"late past the margin", organizer.Overload{Lateness: 80 * time.Millisecond, Margin: 50 * time.Millisecond, Waiting: 0.1},
			"\nThe machine was overloaded: the referee's process waited for a core up to 10% of a game's time, and ran up to 80ms late (its margin is 50ms). No time forfeit had to be voided, but the players had less CPU than their time control gave them: the results are less reliable.\n"},
		{"waiting for a core", organizer.Overload{Lateness: 9 * time.Millisecond, Margin: 50 * time.Millisecond, Waiting: 0.4},
			"\nThe machine was overloaded: the referee's process waited for a core up to 40% of a game's time, and ran up to 9ms late (its margin is 50ms). No time forfeit had to be voided, but the players had less CPU than their time control gave them: the results are less reliable.\n"},
		{"waiting a little", organizer.Overload{Lateness: 9 * time.Millisecond, Margin: 50 * time.Millisecond, Waiting: 0.2}, ""},
		{"one", organizer.Overload{Voided: 1, Lateness: 41 * time.Millisecond},
			"\n1 time forfeit was voided and the games played again: the machine was overloaded (referee lateness up to 41ms).\n"},
		{"several", organizer.Overload{Voided: 3, Lateness: 1234 * time.Millisecond},
			"\n3 time forfeits were voided and the games played again: the machine was overloaded (referee lateness up to 1.23s).\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := WriteOverload(&out, tc.o); err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.want {
				t.Errorf("got %q, want %q", out.String(), tc.want)
			}
		})
	}
}

// TestWriteTournamentsProblem checks that a tournament that makes no progress is named
// under the table with its problem, and that the others are not.
func TestWriteTournamentsProblem(t *testing.T) {
	var out bytes.Buffer
	err := WriteTournaments(&out, []protocol.TournamentStatus{
		{ID: 1, Game: "othello", Format: "round-robin", Status: "running", Played: 2, Total: 6, Created: "c"},
		{ID: 2, Game: "othello", Format: "round-robin", Status: "running", Total: 6, Created: "c", Problem: "4 jobs wait and no worker runs"},
	})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 || lines[3] != "tournament 2 makes no progress: 4 jobs wait and no worker runs" {
		t.Fatalf("got\n%s", out.String())
	}
}
