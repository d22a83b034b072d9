package web

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/store"

	// The ladders' validation opponent.
	_ "github.com/arenaref/arena/players/agents/random"
)

// hostileVersion and hostileReason are what an entrant could make a ladder show: a
// version is whatever its player announces, and a failed entry's reason carries the
// engine's own words. Player names cannot carry markup (protocol names are letters,
// digits, '-' and '_'), so these are the markup a ladder's pages must show as text.
const (
	hostileVersion = `<img src=x onerror="window.pwned=1">`
	hostileReason  = `crashed: <img src=x onerror="window.pwned=2"><script>window.pwned=3</script>`
)

// ladderSpec is a short ladder of entrants (d1 is minimax at depth 1): two validation games each against
// random, rated games until deadline, then a round-robin final of the top two.
func ladderSpec(deadline string, entrants ...string) organizer.Spec {
	s := organizer.DefaultSpec()
	s.Format = organizer.FormatLadder
	s.Players = entrants
	if slices.Contains(entrants, "d1") {
		s.Agents = map[string]agent.Spec{"d1": {Agent: "minimax", Params: map[string]string{"depth": "1"}}}
	}
	s.Deadline = deadline
	s.GamesPerHour = 36000
	s.FinalTop = 2
	s.FinalRounds = 1
	s.TimeControl = "2s"
	s.Concurrency = 1
	s.Seed = 3
	return s
}

// addEntry stores an entry of ladder id that its ladder never played, with status and
// reason.
func addEntry(t *testing.T, db store.Store, id int64, player, version, status, reason string) int64 {
	t.Helper()
	ctx := context.Background()
	e, err := db.AddLadderEntry(ctx, store.LadderEntry{Tournament: id, Player: player, Version: version})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetLadderEntry(ctx, e, status, reason); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestLadderAPI plays a real ladder of built-in agents to its frozen final standings,
// then reads it back through the API: the leaderboard, every entry with its games, the
// tournament list, and the errors.
func TestLadderAPI(t *testing.T) {
	ctx := context.Background()
	a := newArena(t)
	id := a.create(t, ladderSpec("2s", "hp1", "d1", "hp2"), true)
	if err := a.d.Run(a.ctx, id, nil, nil); err != nil {
		t.Fatal(err)
	}
	// An earlier version of hp1, replaced before it played, and an entry that failed
	// validation with an engine's markup for its version and reason.
	oldHP1 := addEntry(t, a.db, id, "hp1", "0.9", store.EntryRetired, "replaced by version test")
	failed := addEntry(t, a.db, id, "mallory", hostileVersion, store.EntryFailed, hostileReason)
	other, err := a.db.CreateTournament(ctx, store.Tournament{Game: "othello", Format: "round-robin", TimeControl: "1s", Players: []string{"hp1", "d1"}})
	if err != nil {
		t.Fatal(err)
	}
	hs := newTestServer(t, Config{Store: a.db})
	base := hs.URL + "/api/ladders/" + strconv.FormatInt(id, 10)

	b := decode[ladderJSON](t, get(t, base))
	t.Run("leaderboard", func(t *testing.T) {
		if b.Tournament != id || b.Phase != store.LadderFinished || !b.Frozen || len(b.Final) != 2 || b.Status != store.StatusFinished && b.Status != store.StatusRunning {
			t.Fatalf("ladder %d: phase %s, frozen %v, final %v, status %s", b.Tournament, b.Phase, b.Frozen, b.Final, b.Status)
		}
		if b.Validation.Games != organizer.DefaultValidationGames || b.Validation.Opponent != "random" || b.TimeControl != "2s" {
			t.Errorf("validation %+v, time control %q", b.Validation, b.TimeControl)
		}
		if len(b.Rows) != 5 {
			t.Fatalf("%d rows, want 5: %+v", len(b.Rows), b.Rows)
		}
		rated := 0
		for i, r := range b.Rows[:3] {
			t.Logf("%d %s %s: %.0f ± %.0f, %d games (+%d =%d -%d), final %.1f/%d", r.Rank, r.Player, r.Version, r.Rating, r.Error, r.Games, r.Wins, r.Draws, r.Losses, r.FinalPoints, r.FinalGames)
			if r.Rank != i+1 || r.Status != store.EntryActive || r.Games == 0 || r.Validation != 2 || r.Error <= 0 ||
				r.Wins+r.Draws+r.Losses != r.Games {
				t.Errorf("row %d: %+v", i, r)
			}
			rated += r.Games
		}
		// Every game but the validation ones is rated, and counted once for each side.
		if want := b.Games - 3*2; rated != 2*want {
			t.Errorf("rated games counted %d times, want %d (twice %d)", rated, 2*want, want)
		}
		// The finalists come first in the frozen standings.
		if !slices.Contains(b.Final, b.Rows[0].Entry) || !slices.Contains(b.Final, b.Rows[1].Entry) || b.Rows[0].FinalGames == 0 {
			t.Errorf("finalists %v, rows %+v", b.Final, b.Rows[:2])
		}
		if r := b.Rows[3]; r.Rank != 0 || r.Entry != oldHP1 || r.Status != store.EntryRetired {
			t.Errorf("retired entry %+v", r)
		}
		if r := b.Rows[4]; r.Rank != 0 || r.Entry != failed || r.Reason != hostileReason || r.Version != hostileVersion {
			t.Errorf("failed entry %+v", r)
		}
	})

	t.Run("entries", func(t *testing.T) {
		rows := map[int64]organizer.LeaderRow{}
		for _, r := range b.Rows {
			rows[r.Entry] = r
		}
		for _, r := range b.Rows {
			t.Run(r.Player+" "+r.Version, func(t *testing.T) {
				e := decode[ladderEntryJSON](t, get(t, base+"/entries/"+strconv.FormatInt(r.Entry, 10)+"?games=all"))
				if e.Entry != r || e.Ladder.Tournament != id || e.Ladder.Phase != store.LadderFinished || e.Ladder.Validation != b.Validation ||
					e.Ladder.FinalTop != b.FinalTop || len(e.Ladder.Final) != 2 {
					t.Errorf("entry %+v in %+v, want %+v", e.Entry, e.Ladder, r)
				}
				if want := r.Games + r.Validation; len(e.Games) != want || e.GamesTotal != want {
					t.Errorf("%d games listed of %d, want %d", len(e.Games), e.GamesTotal, want)
				}
				validation, final := 0, 0
				for i, g := range e.Games {
					if i > 0 && g.ID >= e.Games[i-1].ID {
						t.Fatalf("games not newest first: %d after %d", g.ID, e.Games[i-1].ID)
					}
					if g.Opponent == r.Player || (g.Colour != "black" && g.Colour != "white") || g.Ended == "" || g.Plies == 0 {
						t.Errorf("game %+v", g)
					}
					switch g.Phase {
					case store.PhaseValidation:
						validation++
						if g.Opponent != "random" || g.OpponentEntry != 0 || g.OpponentVersion != "" {
							t.Errorf("validation game %+v", g)
						}
					case store.PhaseLadder, store.PhaseFinal:
						if g.Phase == store.PhaseFinal {
							final++
						}
						if o := rows[g.OpponentEntry]; o.Player != g.Opponent || o.Version != g.OpponentVersion {
							t.Errorf("game %d: opponent %s %s (entry %d), whose entry is %s %s", g.ID, g.Opponent, g.OpponentVersion, g.OpponentEntry, o.Player, o.Version)
						}
					default:
						t.Errorf("game %d: phase %q", g.ID, g.Phase)
					}
				}
				if validation != r.Validation || final != r.FinalGames {
					t.Errorf("%d validation and %d final games listed, want %d and %d", validation, final, r.Validation, r.FinalGames)
				}
				// Each game is the recorded one, as its own route has it, from the entry's seat.
				if len(e.Games) > 0 {
					g := e.Games[len(e.Games)-1]
					rec := decode[gameJSON](t, get(t, hs.URL+"/api/games/"+strconv.FormatInt(g.ID, 10)))
					if rec.Players[g.Seat] != r.Player || rec.Result != g.Result || rec.Scores[g.Seat] != g.Score || rec.Format != organizer.FormatLadder {
						t.Errorf("game %d recorded as %+v, listed %+v", g.ID, rec, g)
					}
				}
				var others []int64
				for _, v := range e.Versions {
					others = append(others, v.Entry)
				}
				switch {
				case r.Player == "hp1" && r.Entry != oldHP1:
					if !slices.Equal(others, []int64{oldHP1}) {
						t.Errorf("hp1's other versions %v, want [%d]", others, oldHP1)
					}
				case r.Player == "hp1":
					if len(others) != 1 || others[0] == oldHP1 {
						t.Errorf("the old hp1's other versions %v", others)
					}
				case len(others) != 0:
					t.Errorf("other versions %v, want none", others)
				}
			})
		}
		// ?games= limits the list, newest first, and counts them all.
		top := b.Rows[0]
		e := decode[ladderEntryJSON](t, get(t, base+"/entries/"+strconv.FormatInt(top.Entry, 10)+"?games=3"))
		all := decode[ladderEntryJSON](t, get(t, base+"/entries/"+strconv.FormatInt(top.Entry, 10)+"?games=all"))
		if len(e.Games) != 3 || e.GamesTotal != top.Games+top.Validation || e.Games[0] != all.Games[0] {
			t.Errorf("?games=3: %d games of %d, first %+v; want 3 of %d, first %+v", len(e.Games), e.GamesTotal, e.Games[0], top.Games+top.Validation, all.Games[0])
		}
	})

	t.Run("tournaments", func(t *testing.T) {
		ts := decode[[]tournamentJSON](t, get(t, hs.URL+"/api/tournaments"))
		pages := map[int64]string{}
		for _, tj := range ts {
			pages[tj.ID] = tj.Page
			if tj.ID == id && (tj.Format != organizer.FormatLadder || tj.Played != b.Games || tj.Deadline == "") {
				t.Errorf("the ladder in the list: %+v", tj)
			}
		}
		if pages[id] != "ladder.html?id="+strconv.FormatInt(id, 10) || pages[other] != "tournament.html?id="+strconv.FormatInt(other, 10) {
			t.Errorf("pages %v", pages)
		}
	})

	t.Run("hostile JSON", func(t *testing.T) {
		for _, path := range []string{base, base + "/entries/" + strconv.FormatInt(failed, 10)} {
			body, _ := io.ReadAll(get(t, path).Body)
			if strings.Contains(string(body), "<img") || strings.Contains(string(body), "<script") {
				t.Errorf("%s: raw markup in JSON: %.300s", path, body)
			}
			var e struct {
				Entry organizer.LeaderRow `json:"entry"`
			}
			if err := json.Unmarshal(body, &e); err != nil {
				t.Fatal(err)
			}
			if path != base && (e.Entry.Version != hostileVersion || e.Entry.Reason != hostileReason) {
				t.Errorf("entry %+v: want the version and reason back intact", e.Entry)
			}
		}
	})

	t.Run("errors", func(t *testing.T) {
		for _, tc := range []struct {
			path string
			code int
		}{
			{"/api/ladders/" + strconv.FormatInt(other, 10), 404},
			{"/api/ladders/999", 404},
			{"/api/ladders/x", 400},
			{"/api/ladders/0", 400},
			{"/api/ladders/" + strconv.FormatInt(id, 10) + "/entries/0", 400},
			{"/api/ladders/" + strconv.FormatInt(id, 10) + "/entries/x", 400},
			{"/api/ladders/" + strconv.FormatInt(id, 10) + "/entries/999", 404},
			{"/api/ladders/" + strconv.FormatInt(id, 10) + "/entries/1?games=0", 400},
			{"/api/ladders/" + strconv.FormatInt(other, 10) + "/entries/1", 404},
		} {
			resp := get(t, hs.URL+tc.path)
			var e errorBody
			if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || resp.StatusCode != tc.code || e.Error == "" {
				t.Errorf("%s: %d %q (%v), want %d and a JSON error", tc.path, resp.StatusCode, e.Error, err, tc.code)
			}
		}
	})
}

// TestTTLCache: a value is filled once per ladder while it is fresh, again once it is
// not, and a failed fill is not kept.
func TestTTLCache(t *testing.T) {
	var c ttlCache[int]
	fills := 0
	fill := func(context.Context) (int, error) { fills++; return fills, nil }
	ctx := context.Background()
	for range 3 {
		if v, _ := c.get(ctx, 1, fill); v != 1 {
			t.Fatalf("got %d, want the first fill", v)
		}
	}
	if v, _ := c.get(ctx, 2, fill); v != 2 {
		t.Fatalf("another ladder got %d, want its own fill", v)
	}
	c.entries[1].at = time.Now().Add(-2 * ladderTTL)
	if v, _ := c.get(ctx, 1, fill); v != 3 {
		t.Errorf("stale value not refilled: got %d", v)
	}
	c.entries[1].at = time.Time{}
	if _, err := c.get(ctx, 1, func(context.Context) (int, error) { return 0, io.ErrUnexpectedEOF }); err == nil {
		t.Error("a failed fill returned no error")
	}
	if v, _ := c.get(ctx, 1, fill); v != 4 {
		t.Errorf("after a failed fill: got %d, want a new fill", v)
	}
}

func TestLastLogLine(t *testing.T) {
	long := strings.Repeat("é", 150) // 300 bytes
	tests := []struct {
		name, log, want string
	}{
		{"empty", "", ""},
		{"the last line", "a\nb\nexit status 3\n", "exit status 3"},
		{"blank lines after", "a\nerror: x\n\n  \n", "error: x"},
		{"cut on a rune", long, strings.Repeat("é", 100) + "…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := lastLogLine(tc.log); got != tc.want {
				t.Errorf("lastLogLine = %q, want %q", got, tc.want)
			}
		})
	}
}
