package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// hostile is a player name that would run script if a page put it into markup. It is not
// a valid protocol name, but the store keeps whatever it is given, and a page must be safe
// with any string.
const hostile = "<script>window.pwned=1</script>"

// fixture is a store with recorded games.
type fixture struct {
	db      *sqlite.DB
	tid     int64 // an Othello tournament: one finished game
	othello store.Game
	ipdTID  int64
	ipd     store.Game
	chTID   int64
	checker store.Game
	hostTID int64 // a tournament whose player has a hostile name
	hostile store.Game
}

var t0 = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)

// playOut plays a game from its start, picking each seat's move with pick, and records
// every move with made-up search information.
func playOut(t testing.TB, name string, maxPlies int, pick func(st game.State, seat game.Seat, legal []game.Move) game.Move) (start, final string, moves []store.Move, returns []float64) {
	t.Helper()
	g, err := game.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	st := g.NewState()
	start = st.String()
	for ply := 0; !st.IsTerminal() && ply < maxPlies; ply++ {
		if st.ToMove() == game.Simultaneous {
			joint := make([]game.Move, len(g.Seats()))
			for s := range joint {
				legal := st.LegalMoves(game.Seat(s), nil)
				joint[s] = pick(st, game.Seat(s), legal)
				moves = append(moves, store.Move{Ply: ply, Seat: s, Move: st.MoveString(joint[s]), Elapsed: time.Millisecond})
			}
			if err := st.PlayJoint(joint); err != nil {
				t.Fatal(err)
			}
			continue
		}
		seat := st.ToMove()
		m := pick(st, seat, st.LegalMoves(seat, nil))
		text := st.MoveString(m)
		moves = append(moves, store.Move{
			Ply: ply, Seat: int(seat), Move: text, Elapsed: time.Duration(ply+1) * time.Millisecond,
			Depth: 3 + ply%4, Nodes: int64(1000 * (ply + 1)), Score: float64(ply%7) - 3, PV: []string{text}, Note: "ply " + text,
		})
		if err := st.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return start, st.String(), moves, st.Returns(nil)
}

func first(_ game.State, _ game.Seat, legal []game.Move) game.Move { return legal[0] }
func last(_ game.State, _ game.Seat, legal []game.Move) game.Move  { return legal[len(legal)-1] }

func newFixture(t testing.TB) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, n := range []string{"alice", "bob", "carol", hostile} {
		if err := db.EnsurePlayer(ctx, store.Player{Name: n, Agent: "minimax", Version: "1"}); err != nil {
			t.Fatal(err)
		}
	}
	f := &fixture{db: db}
	record := func(gameName string, players []string, maxPlies int, pick func(game.State, game.Seat, []game.Move) game.Move) (int64, store.Game) {
		t.Helper()
		tid, err := db.CreateTournament(ctx, store.Tournament{
			Game: gameName, Format: "round-robin", TimeControl: "100ms", Rounds: 1, Seed: 1, Players: players, Created: t0,
		})
		if err != nil {
			t.Fatal(err)
		}
		start, final, moves, returns := playOut(t, gameName, maxPlies, pick)
		g := store.Game{
			TournamentID: tid, Index: 1, Round: 1, Game: gameName, Players: players,
			Result: store.ResultFirstWins, Reason: "normal", Scores: []float64{1, 0}, Returns: returns,
			StartPosition: start, FinalPosition: final, Started: t0, Ended: t0.Add(time.Minute), Moves: moves,
			Ratings: []store.RatingChange{{Player: players[0], Before: 1500, After: 1510}, {Player: players[1], Before: 1500, After: 1490}},
		}
		if g.ID, err = db.RecordGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		return tid, g
	}
	f.tid, f.othello = record("othello", []string{"alice", "bob"}, 1000, first)
	f.ipdTID, f.ipd = record("ipd", []string{"alice", "carol"}, 1000, last)
	f.chTID, f.checker = record("checkers", []string{"bob", "carol"}, 30, first)
	f.hostTID, f.hostile = record("othello", []string{hostile, "bob"}, 10, last)
	return f
}

// standingsOf is a stand-in for the application layer's standings: one row per player.
func standingsOf(db store.Store) func(context.Context, store.Tournament, []store.GameSummary) ([]protocol.StandingsRow, error) {
	return func(ctx context.Context, t store.Tournament, _ []store.GameSummary) ([]protocol.StandingsRow, error) {
		rows := make([]protocol.StandingsRow, len(t.Players))
		for i, p := range t.Players {
			rows[i] = protocol.StandingsRow{Rank: i + 1, Player: p, Games: 1}
		}
		return rows, nil
	}
}

func newTestServer(t testing.TB, cfg Config) *httptest.Server {
	t.Helper()
	cfg.Log = zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	t.Cleanup(func() {
		s.Close()
		hs.Close()
	})
	return hs
}

// boardOf is the squares of an Othello position text, without the side to move.
func boardOf(pos string) string {
	b, _, _ := strings.Cut(pos, " ")
	return b
}

func get(t testing.TB, url string) *http.Response {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}
