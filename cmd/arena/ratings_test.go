package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/export/exporttest"
)

// TestRatingsGamesExport runs a tournament, then rates it, lists its games and exports
// them in every format, reading each export back.
func TestRatingsGamesExport(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	code, _, stderr := runCLI(t, "tournament", "--game", "othello:size=6", "--players", "random,hp1,hp2",
		"--rounds", "4", "--tc", "1s", "--db", db, "--seed", "5")
	if code != 0 {
		t.Fatalf("tournament: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := runCLI(t, "ratings", "--db", db, "--json")
	if code != 0 {
		t.Fatalf("ratings: exit %d\n%s", code, stderr)
	}
	var table organizer.RatingTable
	if err := json.Unmarshal([]byte(stdout), &table); err != nil {
		t.Fatal(err)
	}
	if table.Games != 24 || len(table.Rows) != 3 {
		t.Fatalf("ratings: %d games, %d rows", table.Games, len(table.Rows))
	}
	mean := 0.0
	for i, r := range table.Rows {
		mean += r.Rating / 3
		if r.Games != 16 || r.Wins+r.Draws+r.Losses != 16 {
			t.Errorf("%s: %+v", r.Player, r)
		}
		if i > 0 && r.Rating > table.Rows[i-1].Rating {
			t.Errorf("rows not by rating: %+v", table.Rows)
		}
		for _, o := range table.Rows {
			if o.Player != r.Player && math.Abs(table.LOS[r.Player][o.Player]+table.LOS[o.Player][r.Player]-1) > 1e-9 {
				t.Errorf("LOS %s/%s does not add up to 1", r.Player, o.Player)
			}
		}
	}
	if math.Abs(mean-organizer.RatingCenter) > 1e-6 {
		t.Errorf("mean rating %v, want %v", mean, organizer.RatingCenter)
	}
	code, stdout, _ = runCLI(t, "ratings", "--db", db)
	for _, want := range []string{"maximum-likelihood ratings", "Likelihood of superiority", "Crosstable"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("ratings table lacks %q:\n%s", want, stdout)
		}
	}

	code, stdout, _ = runCLI(t, "games", "--db", db)
	if code != 0 || strings.Count(stdout, "\n") != 25 {
		t.Errorf("games: exit %d, %d lines\n%s", code, strings.Count(stdout, "\n"), stdout)
	}

	for _, format := range []string{"pgn", "ggf", "json", "csv"} {
		out := filepath.Join(dir, "games."+format)
		if code, _, stderr := runCLI(t, "export", "--db", db, "--format", format, "--out", out); code != 0 {
			t.Fatalf("export %s: exit %d\n%s", format, code, stderr)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		switch format {
		case "pgn":
			recs, err := exporttest.ReadPGN(f)
			if err != nil {
				t.Fatal(err)
			}
			n = len(recs)
			points := map[string]float64{}
			for _, r := range recs {
				switch r.Result {
				case "1-0":
					points[r.White]++
				case "0-1":
					points[r.Black]++
				case "1/2-1/2":
					points[r.White] += 0.5
					points[r.Black] += 0.5
				}
			}
			for _, row := range table.Rows {
				if points[row.Player] != row.Points {
					t.Errorf("PGN gives %s %v points, the ratings %v", row.Player, points[row.Player], row.Points)
				}
			}
		case "ggf":
			recs, err := exporttest.ReadGGF(f)
			if err != nil {
				t.Fatal(err)
			}
			n = len(recs)
		case "json":
			games, err := exporttest.ReadJSON(f)
			if err != nil {
				t.Fatal(err)
			}
			n = len(games)
		case "csv":
			recs, err := exporttest.ReadCSV(f)
			if err != nil {
				t.Fatal(err)
			}
			n = len(recs)
		}
		f.Close()
		if n != 24 {
			t.Errorf("%s export holds %d games, want 24", format, n)
		}
	}
	if code, _, stderr := runCLI(t, "export", "--db", db, "--format", "sgf"); code != 2 || !strings.Contains(stderr, "want pgn") {
		t.Errorf("unknown format: exit %d %s", code, stderr)
	}
}

// TestMatchSPRT plays a match that an SPRT stops as soon as it decides.
func TestMatchSPRT(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	code, stdout, stderr := runCLI(t, "match", "hp1", "random", "--game", "othello:size=6", "--tc", "1s",
		"--sprt", "elo0=0,elo1=50", "--games", "400", "--db", db, "--seed", "2")
	if code != 0 {
		t.Fatalf("match: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "SPRT: H1 accepted") {
		t.Fatalf("hp1 against random: %s", stdout)
	}
	code, out, _ := runCLI(t, "games", "--db", db)
	if n := strings.Count(out, "\n") - 1; code != 0 || n < 4 || n >= 400 {
		t.Errorf("the match recorded %d games; an SPRT stop should come well before 400", n)
	}
	for _, bad := range []string{"elo0=5,elo1=0", "elo1=5", "elo0=0,elo1=5,alpha=0.7", "elo0=0,elo1=5,model=x", "elo0=0,elo1=5,gamma=1"} {
		if code, _, stderr := runCLI(t, "match", "hp1", "random", "--sprt", bad, "--db", db); code != 2 {
			t.Errorf("--sprt %s: exit %d %s", bad, code, stderr)
		}
	}
}

// TestRatingsAnchor checks that arena ratings says what its ratings are relative to: the
// anchor named by --anchor, in the heading and in JSON, or else the pool's average.
func TestRatingsAnchor(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	recordTestGames(t, db, []testGame{
		{"random", "hp1", store.ResultSecondWins, protocol.ReasonNormal},
		{"hp1", "random", store.ResultDraw, protocol.ReasonNormal},
		{"hp2", "random", store.ResultFirstWins, protocol.ReasonNormal},
		{"random", "hp2", store.ResultFirstWins, protocol.ReasonNormal},
		{"hp1", "hp2", store.ResultFirstWins, protocol.ReasonNormal},
		{"hp2", "hp1", store.ResultDraw, protocol.ReasonNormal},
	})
	tests := []struct {
		name        string
		args        []string
		wantHeading string
		wantAnchor  *organizer.RatingAnchor
	}{
		{"pool average", nil, "(logistic, pool average 1500)", nil},
		{"anchored", []string{"--anchor", "random"}, "(logistic, random fixed at 1500)", &organizer.RatingAnchor{Player: "random", Rating: 1500}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"ratings", "--db", db}, tc.args...)
			code, stdout, stderr := runCLI(t, args...)
			if code != 0 || !strings.Contains(stdout, tc.wantHeading) {
				t.Errorf("ratings %v: exit %d, want a heading with %q:\n%s%s", tc.args, code, tc.wantHeading, stdout, stderr)
			}
			code, stdout, stderr = runCLI(t, append(args, "--json")...)
			if code != 0 {
				t.Fatalf("ratings --json: exit %d\n%s", code, stderr)
			}
			var table organizer.RatingTable
			if err := json.Unmarshal([]byte(stdout), &table); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(table.Anchor, tc.wantAnchor) {
				t.Errorf("JSON anchor = %+v, want %+v:\n%s", table.Anchor, tc.wantAnchor, stdout)
			}
			if tc.wantAnchor != nil && !strings.Contains(stdout, `"anchor": {`) {
				t.Errorf("JSON without an anchor object:\n%s", stdout)
			}
			for _, r := range table.Rows {
				if tc.wantAnchor != nil && r.Player == tc.wantAnchor.Player && r.Rating != tc.wantAnchor.Rating {
					t.Errorf("anchor %s rated %v, want %v", r.Player, r.Rating, tc.wantAnchor.Rating)
				}
			}
		})
	}
}
