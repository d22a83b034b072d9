package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/organizer/report"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// TestTerminationsBlameTheFault records games that ended by a time forfeit and by an
// absence and checks that the standings charge each fault to the player at fault, in the
// table and in JSON, and say who won by it.
func TestTerminationsBlameTheFault(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "arena.db")
	tid := recordTestGames(t, path, []testGame{
		{"hp2", "minimax", store.ResultFirstWins, protocol.ReasonTimeForfeit}, // minimax's fault
		{"ghost", "random", store.ResultSecondWins, protocol.ReasonAbsent},    // ghost's
		{"random", "ghost", store.ResultFirstWins, protocol.ReasonAbsent},     // ghost's
		{"minimax", "random", store.ResultFirstWins, protocol.ReasonNormal},
	})
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := organizer.Standings(ctx, db, tid)
	if err != nil {
		t.Fatal(err)
	}

	type ends struct{ Ended, WonBy map[string]int }
	want := map[string]ends{
		"hp2":     {WonBy: map[string]int{"time_forfeit": 1}},
		"minimax": {Ended: map[string]int{"time_forfeit": 1, "normal": 1}},
		"random":  {Ended: map[string]int{"normal": 1}, WonBy: map[string]int{"absent": 2}},
		"ghost":   {Ended: map[string]int{"absent": 2}},
	}
	got := map[string]ends{}
	for _, r := range rows {
		got[r.Player] = ends{r.Ends, r.WonBy}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("standings rows' endings:\n got  %v\n want %v", got, want)
	}

	var js bytes.Buffer
	if err := report.WriteStandingsJSON(&js, store.Tournament{ID: tid}, 0, rows); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Standings []struct {
			Player       string         `json:"player"`
			Terminations map[string]int `json:"terminations"`
			WonByFault   map[string]int `json:"won_by_fault"`
		} `json:"standings"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Standings {
		if w := want[r.Player]; !reflect.DeepEqual(r.Terminations, w.Ended) || !reflect.DeepEqual(r.WonByFault, w.WonBy) {
			t.Errorf("JSON %s: terminations %v, won_by_fault %v; want %v, %v", r.Player, r.Terminations, r.WonByFault, w.Ended, w.WonBy)
		}
	}

	var out bytes.Buffer
	if err := report.WriteStandings(&out, rows); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	_, table, ok := strings.Cut(text, "Games by how they ended")
	if !ok {
		t.Fatalf("no termination table:\n%s", text)
	}
	lines := strings.Split(strings.TrimSpace(table), "\n")
	for len(lines) > 0 && !strings.HasPrefix(strings.TrimSpace(lines[0]), "Player") {
		lines = lines[1:]
	}
	if len(lines) == 0 {
		t.Fatalf("termination table without a header:\n%s", text)
	}
	header := strings.Fields(strings.ReplaceAll(lines[0], "won by opponent's fault", "won_by"))
	wantHeader := []string{"Player", "normal", "absent", "time_forfeit", "won_by"}
	if !reflect.DeepEqual(header, wantHeader) {
		t.Fatalf("termination table header %q, want %q:\n%s", header, wantHeader, text)
	}
	wantCells := map[string][]string{
		"hp2":     {"0", "0", "0", "1"},
		"minimax": {"1", "0", "1", "0"},
		"random":  {"1", "0", "0", "2"},
		"ghost":   {"0", "2", "0", "0"},
	}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if w, ok := wantCells[f[0]]; !ok || !reflect.DeepEqual(f[1:], w) {
			t.Errorf("termination row %q, want %s %q:\n%s", l, f[0], w, text)
		}
		delete(wantCells, f[0])
	}
	if len(wantCells) > 0 {
		t.Errorf("termination table lacks rows for %v:\n%s", wantCells, text)
	}
}

// testGame is a finished two-player game for recordTestGames.
type testGame struct {
	a, b   string
	result string // store.ResultFirstWins, ResultSecondWins or ResultDraw
	reason string
}

// recordTestGames records games as one Othello tournament in the database at path and
// returns the tournament's id.
func recordTestGames(t *testing.T, path string, games []testGame) int64 {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var names []string
	for _, g := range games {
		for _, n := range []string{g.a, g.b} {
			if !slices.Contains(names, n) {
				names = append(names, n)
				if err := db.EnsurePlayer(ctx, store.Player{Name: n}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	tid, err := db.CreateTournament(ctx, store.Tournament{Game: "othello", Format: "round-robin", TimeControl: "100ms", Rounds: 1, Seed: 1, Players: names})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	scores := map[string][]float64{store.ResultFirstWins: {1, 0}, store.ResultSecondWins: {0, 1}, store.ResultDraw: {0.5, 0.5}}
	for i, g := range games {
		_, err := db.RecordGame(ctx, store.Game{
			TournamentID: tid, Index: i, Game: "othello", Players: []string{g.a, g.b},
			Result: g.result, Reason: g.reason, Scores: scores[g.result], StartPosition: "s", FinalPosition: "f",
			Started: start, Ended: start.Add(time.Second),
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return tid
}
