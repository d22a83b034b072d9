package export_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/export"
	"github.com/arenaref/arena/store/export/exporttest"
)

// hostileNames are player names that need escaping or quoting in one format or another.
var hostileNames = []string{
	`plain`, `"quoted"`, `back\slash\`, `\`, `[bracket]`, `]`, `[`, `with space`, ` lead and trail `,
	`ünïcødé 名前 🎲`, `\"]`, `;)`, `(;`, `{comment}`, `%percent`, `a,b`, `'single'`, `$1`, `*`, `1-0`,
	`GM[Othello]`, ``,
}

// randomGames plays count random Othello games of every size, some played out and some
// forfeited or aborted halfway, between players with hostile names.
func randomGames(tb testing.TB, count int) []store.Game {
	tb.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	sizes := []struct {
		n    int
		spec string
	}{{4, "othello:size=4"}, {6, "othello:size=6"}, {8, "othello"}}
	var games []store.Game
	for i := range count {
		n, spec := sizes[i%len(sizes)].n, sizes[i%len(sizes)].spec
		limit := 0
		if rng.IntN(3) == 0 {
			limit = 1 + rng.IntN(n*n-4)
		}
		og := playRandom(tb, n, uint64(1000+i), limit)
		opening := 0
		if len(og.moves) > 0 && rng.IntN(2) == 0 {
			opening = rng.IntN(min(len(og.moves), 4))
		}
		g := storeGame(og, spec, opening, hostileNames[rng.IntN(len(hostileNames))], hostileNames[rng.IntN(len(hostileNames))])
		if !og.over {
			reasons := []string{"time_forfeit", "illegal_move", "resigned", "disconnected", "aborted", "max_plies"}
			g.Reason = reasons[rng.IntN(len(reasons))]
			switch g.Reason {
			case "aborted":
				g.Result = store.ResultNone
			case "max_plies":
				g.Result = store.ResultDraw
			default:
				g.Result = []string{store.ResultFirstWins, store.ResultSecondWins}[rng.IntN(2)]
			}
		}
		g.ID, g.TournamentID, g.Round, g.Index = int64(i+1), 9, 1+i/4, i+1
		g.Started = t0.Add(time.Duration(rng.Int64N(int64(1000 * time.Hour))))
		g.Ended = g.Started.Add(time.Duration(rng.Int64N(int64(time.Hour))))
		games = append(games, g)
	}
	return games
}

func TestRoundTrip(t *testing.T) {
	games := append(fixtures(t), randomGames(t, 60)...)
	t.Run("pgn", func(t *testing.T) {
		var buf bytes.Buffer
		if err := export.WritePGN(&buf, games, export.Meta{Event: "Arena tournament 9", Site: "arena"}); err != nil {
			t.Fatal(err)
		}
		recs, err := exporttest.ReadPGN(&buf)
		if err != nil {
			t.Fatal(err)
		}
		checkRecords(t, games, recs, true)
		for i, rec := range recs {
			if rec.Event != "Arena tournament 9" || rec.Site != "arena" || rec.Round != export.RoundTag(games[i].Round, games[i].Index) {
				t.Errorf("game %d: event %q, site %q, round %q", i+1, rec.Event, rec.Site, rec.Round)
			}
		}
	})
	t.Run("ggf", func(t *testing.T) {
		othello := othelloOnly(games)
		var buf bytes.Buffer
		if err := export.WriteGGF(&buf, othello); err != nil {
			t.Fatal(err)
		}
		if lines := bytes.Count(buf.Bytes(), []byte("\n")); lines != len(othello) {
			t.Errorf("%d lines for %d games", lines, len(othello))
		}
		recs, err := exporttest.ReadGGF(&buf)
		if err != nil {
			t.Fatal(err)
		}
		checkRecords(t, othello, recs, false)
		for i, rec := range recs {
			if want := ggfReason(othello[i]); rec.Reason != want {
				t.Errorf("game %d: reason %q read back as %q, want %q", i+1, othello[i].Reason, rec.Reason, want)
			}
		}
	})
	t.Run("csv", func(t *testing.T) {
		var buf bytes.Buffer
		if err := export.WriteCSV(&buf, games); err != nil {
			t.Fatal(err)
		}
		recs, err := exporttest.ReadCSV(&buf)
		if err != nil {
			t.Fatal(err)
		}
		checkRecords(t, games, recs, true)
		for i, rec := range recs {
			if rec.Round != export.RoundTag(games[i].Round, games[i].Index) || rec.Date != export.CSVTime(games[i].Started) {
				t.Errorf("game %d: round %q, date %q", i+1, rec.Round, rec.Date)
			}
		}
	})
	t.Run("json", func(t *testing.T) {
		var buf bytes.Buffer
		if err := export.WriteJSON(&buf, games); err != nil {
			t.Fatal(err)
		}
		got, err := exporttest.ReadJSON(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, games) {
			for i := range min(len(got), len(games)) {
				if !reflect.DeepEqual(got[i], games[i]) {
					t.Fatalf("game %d read back as\n%+v\nwant\n%+v", i+1, got[i], games[i])
				}
			}
			t.Fatalf("read %d games, wrote %d", len(got), len(games))
		}
	})
}

// checkRecords checks that recs are games: the same players, results, moves and game,
// and, when withReason, the same reason.
func checkRecords(t *testing.T, games []store.Game, recs []export.Record, withReason bool) {
	t.Helper()
	if len(recs) != len(games) {
		t.Fatalf("read %d games, wrote %d", len(recs), len(games))
	}
	for i, g := range games {
		rec := recs[i]
		want := export.FlatMoves(g)
		if len(want) == 0 {
			want = nil
		}
		board, _ := export.OthelloSize(g.Game)
		if rec.White != g.Players[0] || rec.Black != g.Players[1] || rec.Result != g.Result ||
			!slices.Equal(rec.Moves, want) || rec.Game != g.Game || rec.Board != board {
			t.Errorf("game %d read back as %+v\nwant players %q, result %q, game %q, board %d, moves %q",
				i+1, rec, g.Players, g.Result, g.Game, board, want)
		}
		if withReason && rec.Reason != g.Reason {
			t.Errorf("game %d: reason %q read back as %q", i+1, g.Reason, rec.Reason)
		}
	}
}

// ggfReason is the reason GGF's result flag keeps of a game's reason.
func ggfReason(g store.Game) string {
	switch {
	case g.Result == store.ResultNone:
		return ""
	case g.Reason == "time_forfeit" || g.Reason == "resigned":
		return g.Reason
	case g.Result == store.ResultDraw || g.Reason == "normal":
		return "normal"
	}
	return "resigned"
}

// TestRoundTripRecords writes records, not games, as the fuzz tests do, and reads them
// back unchanged.
func TestRoundTripRecords(t *testing.T) {
	for i, g := range append(fixtures(t), randomGames(t, 30)...) {
		t.Run(fmt.Sprint(i+1), func(t *testing.T) {
			rec, _, err := export.PGNRecord(g, export.Meta{})
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Moves) == 0 {
				rec.Moves = nil // as a reader gives them
			}
			var buf bytes.Buffer
			if err := export.WritePGNRecords(&buf, []export.Record{rec}); err != nil {
				t.Fatal(err)
			}
			got, err := exporttest.ReadPGN(&buf)
			if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], rec) {
				t.Errorf("pgn: wrote %+v, read %+v, %v", rec, got, err)
			}
			buf.Reset()
			if err := export.WriteCSVRecords(&buf, []export.Record{{Round: rec.Round, White: rec.White, Black: rec.Black, Result: rec.Result,
				Reason: rec.Reason, Moves: rec.Moves, Game: rec.Game, Board: rec.Board}}); err != nil {
				t.Fatal(err)
			}
			got, err = exporttest.ReadCSV(&buf)
			if err != nil || len(got) != 1 || got[0].Round != rec.Round || !slices.Equal(got[0].Moves, rec.Moves) {
				t.Errorf("csv: wrote %+v, read %+v, %v", rec, got, err)
			}
		})
	}
}
