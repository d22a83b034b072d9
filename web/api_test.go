package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

func decode[T any](t *testing.T, resp *http.Response) T {
	t.Helper()
	var v T
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", resp.Request.URL, err)
	}
	return v
}

func TestTournaments(t *testing.T) {
	f := newFixture(t)
	hs := newTestServer(t, Config{Store: f.db})
	resp := get(t, hs.URL+"/api/tournaments")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	ts := decode[[]tournamentJSON](t, resp)
	if len(ts) != 4 {
		t.Fatalf("%d tournaments, want 4", len(ts))
	}
	var oth *tournamentJSON
	for i := range ts {
		if ts[i].ID == f.tid {
			oth = &ts[i]
		}
	}
	if oth == nil || oth.Game != "othello" || oth.Format != "round-robin" || oth.TimeControl != "100ms" ||
		oth.Status != "running" || oth.Played != 1 || oth.Players[0] != "alice" {
		t.Errorf("othello tournament = %+v", oth)
	}
}

func TestTournament(t *testing.T) {
	f := newFixture(t)
	t.Run("standings", func(t *testing.T) {
		hs := newTestServer(t, Config{Store: f.db, Standings: standingsOf(f.db)})
		d := decode[tournamentDetail](t, get(t, hs.URL+"/api/tournaments/"+strconv.FormatInt(f.tid, 10)))
		if d.Tournament.ID != f.tid || len(d.Games) != 1 || d.Games[0].ID != f.othello.ID || d.Games[0].Plies != len(f.othello.Moves) {
			t.Errorf("tournament %+v", d)
		}
		if len(d.Standings) != 2 || d.Standings[1].Player != "bob" || d.StandingsError != "" {
			t.Errorf("standings %+v, error %q", d.Standings, d.StandingsError)
		}
	})
	t.Run("no standings", func(t *testing.T) {
		hs := newTestServer(t, Config{Store: f.db})
		d := decode[tournamentDetail](t, get(t, hs.URL+"/api/tournaments/"+strconv.FormatInt(f.ipdTID, 10)))
		if d.Standings != nil || !strings.Contains(d.StandingsError, "not available") {
			t.Errorf("standings %+v, error %q", d.Standings, d.StandingsError)
		}
		// A simultaneous game records each ply once per seat; the list counts plies.
		if d.Games[0].Plies != len(f.ipd.Moves)/2 {
			t.Errorf("ipd plies %d, want %d", d.Games[0].Plies, len(f.ipd.Moves)/2)
		}
	})
}

func TestGame(t *testing.T) {
	f := newFixture(t)
	hs := newTestServer(t, Config{Store: f.db})
	for _, tc := range []struct {
		name string
		id   int64
		want func(t *testing.T, g gameJSON)
	}{
		{"othello", f.othello.ID, func(t *testing.T, g gameJSON) {
			m := g.Moves[5]
			w := f.othello.Moves[5]
			if m.Move != w.Move || m.Seat != w.Seat || m.Depth != w.Depth || m.Nodes != w.Nodes || m.Score != w.Score ||
				m.Note != w.Note || len(m.PV) != 1 || m.ElapsedMS != 6 {
				t.Errorf("move 5 = %+v, recorded %+v", m, w)
			}
		}},
		{"ipd", f.ipd.ID, func(t *testing.T, g gameJSON) {
			// Both seats' entries of a round share the position after the round.
			if g.Moves[0].Position != g.Moves[1].Position || !strings.HasPrefix(g.Moves[0].Position, "1/") {
				t.Errorf("ipd round 1 positions %q, %q", g.Moves[0].Position, g.Moves[1].Position)
			}
		}},
		{"checkers", f.checker.ID, func(t *testing.T, g gameJSON) {
			if !strings.HasPrefix(g.StartPosition, "B:W21,22") {
				t.Errorf("checkers start %q", g.StartPosition)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := decode[gameJSON](t, get(t, hs.URL+"/api/games/"+strconv.FormatInt(tc.id, 10)))
			if g.ReplayError != "" {
				t.Fatalf("replay error %q", g.ReplayError)
			}
			if g.ID != tc.id || g.Result != "1-0" || g.Reason != "normal" || len(g.Players) != 2 {
				t.Errorf("game %+v", g)
			}
			if len(g.Moves) == 0 || g.Moves[len(g.Moves)-1].Position != g.FinalPosition {
				t.Errorf("last move's position %q, final %q", g.Moves[len(g.Moves)-1].Position, g.FinalPosition)
			}
			for i, m := range g.Moves {
				if m.Position == "" {
					t.Fatalf("move %d has no position", i)
				}
			}
			tc.want(t, g)
		})
	}
}

func TestPlayer(t *testing.T) {
	f := newFixture(t)
	hs := newTestServer(t, Config{Store: f.db})
	p := decode[playerJSON](t, get(t, hs.URL+"/api/players/alice"))
	if len(p.Games) != 2 || p.Games[0].ID != f.othello.ID || p.Games[1].ID != f.ipd.ID {
		t.Errorf("alice's games %+v", p.Games)
	}
	if len(p.Opponents) != 2 || p.Opponents[0].Opponent != "bob" || p.Opponents[0].Wins != 1 || p.Opponents[1].Opponent != "carol" {
		t.Errorf("alice's opponents %+v", p.Opponents)
	}
	if p.Terminations["normal"] != 2 {
		t.Errorf("terminations %v", p.Terminations)
	}
	if len(p.Ratings) != 2 || p.Ratings[0].After != 1510 {
		t.Errorf("ratings %+v", p.Ratings)
	}
	bob := decode[playerJSON](t, get(t, hs.URL+"/api/players/bob"))
	if len(bob.Opponents) != 3 || bob.Opponents[0].Losses != 1 {
		t.Errorf("bob's opponents %+v", bob.Opponents)
	}
}

func TestErrors(t *testing.T) {
	f := newFixture(t)
	hs := newTestServer(t, Config{Store: f.db})
	for _, tc := range []struct {
		method, path string
		code         int
	}{
		{"GET", "/api/tournaments/0", 400},
		{"GET", "/api/tournaments/abc", 400},
		{"GET", "/api/tournaments/-3", 400},
		{"GET", "/api/tournaments/99999999999999999999", 400},
		{"GET", "/api/tournaments/999", 404},
		{"GET", "/api/tournaments/1?games=0", 400},
		{"GET", "/api/tournaments/1?games=many", 400},
		{"GET", "/api/games/x", 400},
		{"GET", "/api/games/999", 404},
		{"GET", "/api/players/nobody", 404},
		{"GET", "/api/players/" + url.PathEscape("a b"), 400},
		{"GET", "/api/live/games/t1-1", 404},
		{"GET", "/api/live?tournament=x", 400},
		{"GET", "/api/live?game=" + url.QueryEscape("a.b"), 400},
		{"GET", "/api/nothing", 404},
		{"POST", "/api/tournaments", 405},
		{"DELETE", "/api/games/1", 405},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, hs.URL+tc.path, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.code {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.code, body)
			}
			if tc.code != 405 {
				var e errorBody
				if err := json.Unmarshal(body, &e); err != nil || e.Error == "" {
					t.Errorf("body %q: want a JSON error", body)
				}
			}
		})
	}
}

// TestHostileNameJSON: a name is data in JSON, escaped by the encoder, and the response
// is JSON, never HTML.
func TestHostileNameJSON(t *testing.T) {
	f := newFixture(t)
	hs := newTestServer(t, Config{Store: f.db})
	resp := get(t, hs.URL+"/api/tournaments/"+strconv.FormatInt(f.hostTID, 10))
	body, _ := io.ReadAll(resp.Body)
	if strings.Contains(string(body), "<script>") {
		t.Errorf("raw <script> in JSON: %s", body)
	}
	var d tournamentDetail
	if err := json.Unmarshal(body, &d); err != nil || d.Tournament.Players[0] != hostile {
		t.Errorf("players %v (%v), want the name back intact", d.Tournament.Players, err)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q", ct)
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
		t.Errorf("headers %v", resp.Header)
	}
}
