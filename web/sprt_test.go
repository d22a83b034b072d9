package web

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/store"
)

// TestSPRTCurve: the curve counts each game from the first player's side, whichever seat
// it had, in the order the games ended, and its last point decides as the test does.
func TestSPRTCurve(t *testing.T) {
	test := ratings.SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}
	game := func(ended int, players []string, result string) store.Game {
		return store.Game{Players: players, Result: result, Ended: t0.Add(time.Duration(ended) * time.Second)}
	}
	ab, ba := []string{"a", "b"}, []string{"b", "a"}
	tests := []struct {
		name     string
		games    []store.Game
		wdl      [3]int
		decision string
	}{
		{"none", nil, [3]int{}, "continue"},
		{"a wins as either seat", []store.Game{game(1, ab, store.ResultFirstWins), game(2, ba, store.ResultSecondWins)}, [3]int{2, 0, 0}, "continue"},
		{"draw and loss", []store.Game{game(2, ab, store.ResultDraw), game(1, ba, store.ResultFirstWins)}, [3]int{0, 1, 1}, "continue"},
		{"a crushes b", func() []store.Game {
			var gs []store.Game
			for i := range 40 {
				gs = append(gs, game(i, ab, store.ResultFirstWins))
			}
			return gs
		}(), [3]int{40, 0, 0}, "H1"},
		{"b crushes a", func() []store.Game {
			var gs []store.Game
			for i := range 40 {
				gs = append(gs, game(i, ba, store.ResultFirstWins))
			}
			return gs
		}(), [3]int{0, 0, 40}, "H0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := sprtCurve(test, []string{"a", "b"}, tt.games)
			if len(c.Points) != len(tt.games) || c.Decision != tt.decision {
				t.Fatalf("%d points, decision %s; want %d and %s", len(c.Points), c.Decision, len(tt.games), tt.decision)
			}
			lo, hi := test.Bounds()
			if c.Lower != lo || c.Upper != hi {
				t.Errorf("bounds [%v, %v], want [%v, %v]", c.Lower, c.Upper, lo, hi)
			}
			if len(c.Points) == 0 {
				return
			}
			p := c.Points[len(c.Points)-1]
			if [3]int{p.Wins, p.Draws, p.Losses} != tt.wdl || p.Games != len(tt.games) {
				t.Errorf("last point %+v, want w/d/l %v", p, tt.wdl)
			}
			if want := test.LLR(p.Wins, p.Draws, p.Losses); math.Abs(p.LLR-want) > 1e-12 {
				t.Errorf("LLR %v, want %v", p.LLR, want)
			}
			if tt.name == "draw and loss" && c.Points[0].Losses != 1 {
				t.Errorf("first point %+v: the loss ended first", c.Points[0])
			}
		})
	}
}

// sprtMatch records a match of alice against bob with an SPRT in f's store: alice wins,
// wins with the other colour, and draws.
func sprtMatch(t *testing.T, f *fixture) int64 {
	t.Helper()
	ctx := context.Background()
	cfg, _ := json.Marshal(map[string]any{"players": []string{"alice", "bob"},
		"sprt": ratings.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}})
	tid, err := f.db.CreateTournament(ctx, store.Tournament{Game: "othello", Format: "round-robin", TimeControl: "100ms",
		Rounds: 2, Seed: 1, Players: []string{"alice", "bob"}, Created: t0, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range []string{store.ResultFirstWins, store.ResultSecondWins, store.ResultDraw} {
		players := []string{"alice", "bob"}
		if i == 1 { // alice has the second seat, and wins
			players = []string{"bob", "alice"}
		}
		g := f.othello
		g.ID, g.TournamentID, g.Index, g.Players, g.Result, g.Ended = 0, tid, i+1, players, r, t0.Add(time.Duration(i)*time.Minute)
		g.Scores = map[string][]float64{store.ResultFirstWins: {1, 0}, store.ResultSecondWins: {0, 1}, store.ResultDraw: {0.5, 0.5}}[r]
		if _, err := f.db.RecordGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	return tid
}

// TestSPRTAPI: a match recorded with its SPRT has a curve; any other tournament is 404.
func TestSPRTAPI(t *testing.T) {
	f := newFixture(t)
	tid := sprtMatch(t, f)
	hs := newTestServer(t, Config{Store: f.db})
	resp := get(t, hs.URL+"/api/tournaments/"+strconv.FormatInt(tid, 10)+"/sprt")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	c := decode[sprtJSON](t, resp)
	if len(c.Points) != 3 || c.Test.Elo1 != 50 || c.Players[0] != "alice" {
		t.Fatalf("curve %+v", c)
	}
	if p := c.Points[2]; p.Wins != 2 || p.Losses != 0 || p.Draws != 1 {
		t.Errorf("after 3 games %+v, want +2 =1 -0 for alice", p)
	}
	if resp := get(t, hs.URL+"/api/tournaments/"+strconv.FormatInt(f.tid, 10)+"/sprt"); resp.StatusCode != 404 {
		t.Errorf("a tournament without an SPRT: status %d, want 404", resp.StatusCode)
	}
}

// TestBrowserSPRT: the tournament page of a match with an SPRT draws the test's curve, one
// point per game after the start, between its bounds.
func TestBrowserSPRT(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	tid := sprtMatch(t, f)
	hs := newTestServer(t, Config{Store: f.db, Standings: standingsOf(f.db)})
	open(t, ctx, hs.URL+"/tournament.html?id="+strconv.FormatInt(tid, 10), "#sprt-graph polyline")
	if n := eval[int](t, ctx, `document.querySelector("#sprt-graph polyline").getAttribute("points").trim().split(" ").length`); n != 4 {
		t.Errorf("the curve has %d points, want 4 (the start and 3 games)", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#sprt-graph line.bound").length`); n != 2 {
		t.Errorf("%d bound lines, want 2", n)
	}
	if text := eval[string](t, ctx, `document.getElementById("sprt").textContent`); !strings.Contains(text, "+2 =1 -0 for alice") {
		t.Errorf("SPRT text: %s", text)
	}
	// The crosstable: alice 2.5 of 3 against bob, bob 0.5 of 3 against alice.
	cells := eval[[]string](t, ctx, `[...document.querySelectorAll("#crosstable td")].map(td => td.textContent)`)
	if strings.Join(cells, "|") != "1. alice|\u2014|2.5/3|2. bob|0.5/3|\u2014" {
		t.Errorf("crosstable cells %q", cells)
	}
	// A tournament without an SPRT shows no such section.
	open(t, ctx, hs.URL+"/tournament.html?id="+strconv.FormatInt(f.tid, 10), "main table")
	if n := eval[int](t, ctx, `document.querySelectorAll("#sprt").length`); n != 0 {
		t.Errorf("an SPRT section on a tournament without one")
	}
}

// TestTournamentGamesListed: a tournament's JSON lists its last games, as many as asked
// (200 unless asked), or all, and counts them all.
func TestTournamentGamesListed(t *testing.T) {
	f := newFixture(t)
	tid := sprtMatch(t, f)
	hs := newTestServer(t, Config{Store: f.db})
	for _, tc := range []struct {
		query   string
		indices []int
	}{
		{"", []int{1, 2, 3}},
		{"?games=2", []int{2, 3}},
		{"?games=1", []int{3}},
		{"?games=all", []int{1, 2, 3}},
	} {
		resp := get(t, hs.URL+"/api/tournaments/"+strconv.FormatInt(tid, 10)+tc.query)
		d := decode[tournamentDetail](t, resp)
		var got []int
		for _, g := range d.Games {
			got = append(got, g.Index)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.indices) || d.GamesTotal != 3 {
			t.Errorf("%q: games %v of %d, want %v of 3", tc.query, got, d.GamesTotal, tc.indices)
		}
	}
}

// TestAddClocks: on a game clock each move carries what its mover had left; under a time
// per move none does.
func TestAddClocks(t *testing.T) {
	moves := func(elapsed ...float64) []moveJSON {
		out := make([]moveJSON, len(elapsed))
		for i, e := range elapsed {
			out[i] = moveJSON{Seat: i % 2, ElapsedMS: e}
		}
		return out
	}
	tests := []struct {
		tc   string
		in   []moveJSON
		want []float64 // -1: no clock
	}{
		{"100ms", moves(50, 60), []float64{-1, -1}},
		{"1+0.1", moves(300, 200, 400), []float64{800, 900, 500}},
		{"2/1", moves(100, 100, 100, 100, 100), []float64{900, 900, 1800, 1800, 1700}},
		// A reply inside the margin, after the clock ran out: the referee stops the clock at
		// zero before the increment.
		{"1+0.1", moves(1200, 200, 50.5), []float64{100, 900, 149.5}},
		{"nonsense", moves(1), []float64{-1}},
	}
	for _, tt := range tests {
		addClocks(tt.in, tt.tc, 2)
		for i, m := range tt.in {
			got := -1.0
			if m.ClockMS != nil {
				got = *m.ClockMS
			}
			if math.Abs(got-tt.want[i]) > 1e-9 {
				t.Errorf("%s move %d: clock %v, want %v", tt.tc, i, got, tt.want[i])
			}
		}
	}
}
