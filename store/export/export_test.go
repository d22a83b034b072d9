package export_test

import (
	"bytes"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/export"
	"github.com/arenaref/arena/store/export/exporttest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var t0 = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

// othelloGame is a game of Othello played by the othello package, so that its moves,
// passes and final position are real.
type othelloGame struct {
	start, final string
	moves        []string
	seats        []int // the seat that played each move
	margin       int
	over         bool
}

// playRandom plays a game of Othello on an n by n board from seed, choosing among the legal
// moves at random, for at most limit plies (0: to the end).
func playRandom(tb testing.TB, n int, seed uint64, limit int) othelloGame {
	tb.Helper()
	g, err := othello.NewSize(n)
	if err != nil {
		tb.Fatal(err)
	}
	s := g.Initial()
	og := othelloGame{start: s.String()}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for !s.IsTerminal() && (limit == 0 || len(og.moves) < limit) {
		side := s.Side()
		legal := s.LegalMoves(side, nil)
		m := legal[rng.IntN(len(legal))]
		og.moves = append(og.moves, s.MoveString(m))
		og.seats = append(og.seats, int(side))
		if err := s.Play(m); err != nil {
			tb.Fatal(err)
		}
	}
	og.final, og.margin, og.over = s.String(), s.Margin(), s.IsTerminal()
	return og
}

// findRandom returns the first game from seed 1 on that ok accepts.
func findRandom(tb testing.TB, n int, ok func(othelloGame) bool) othelloGame {
	tb.Helper()
	for seed := uint64(1); seed < 10000; seed++ {
		if og := playRandom(tb, n, seed, 0); ok(og) {
			return og
		}
	}
	tb.Fatalf("no %dx%d game found", n, n)
	return othelloGame{}
}

// storeGame makes a store.Game of og: the first opening moves as the opening, the rest as
// the players' moves with made-up times.
func storeGame(og othelloGame, spec string, opening int, players ...string) store.Game {
	g := store.Game{
		Game: spec, Players: players, StartPosition: og.start, FinalPosition: og.final,
		Opening: slices.Clone(og.moves[:opening]),
	}
	if opening == 0 {
		g.Opening = nil
	}
	for i := opening; i < len(og.moves); i++ {
		g.Moves = append(g.Moves, store.Move{
			Ply: i, Seat: og.seats[i], Move: og.moves[i],
			Elapsed: time.Duration(37*(i+1)%250+5)*time.Millisecond + 123*time.Microsecond,
		})
	}
	switch {
	case og.margin > 0:
		g.Result, g.Scores, g.Returns = store.ResultFirstWins, []float64{1, 0}, []float64{1, -1}
	case og.margin < 0:
		g.Result, g.Scores, g.Returns = store.ResultSecondWins, []float64{0, 1}, []float64{-1, 1}
	default:
		g.Result, g.Scores, g.Returns = store.ResultDraw, []float64{0.5, 0.5}, []float64{0, 0}
	}
	g.Reason = "normal"
	return g
}

func hasPass(og othelloGame) bool { return slices.Contains(og.moves, "pass") }

// fixtures are the games of the golden files: a played-out 8x8 game with an opening and
// search information, a 4x4 draw, a time forfeit, a 6x6 game with a pass, a prisoner's
// dilemma with a joint opening, and an aborted game between players with hostile names.
func fixtures(tb testing.TB) []store.Game {
	tb.Helper()
	var games []store.Game

	g := storeGame(playRandom(tb, 8, 1, 0), "othello", 2, "alice", "bob")
	g.ID, g.TournamentID, g.Round, g.Index = 101, 3, 1, 1
	g.Started, g.Ended = t0, t0.Add(41*time.Second)
	g.Moves[0].Depth, g.Moves[0].Nodes, g.Moves[0].Score = 6, 12345, 1.5
	g.Moves[0].PV, g.Moves[0].Note = []string{g.Moves[0].Move, g.Moves[1].Move}, "book"
	g.Ratings = []store.RatingChange{{Player: "alice", Before: 1500, After: 1508}, {Player: "bob", Before: 1500, After: 1492}}
	games = append(games, g)

	g = storeGame(findRandom(tb, 4, func(og othelloGame) bool { return og.margin == 0 }), "othello:size=4", 0, "bob", "alice")
	g.ID, g.TournamentID, g.Round, g.Index = 102, 3, 1, 2
	g.Started, g.Ended = t0.Add(time.Minute), t0.Add(time.Minute+3*time.Second)
	games = append(games, g)

	g = storeGame(playRandom(tb, 8, 2, 11), "othello", 0, "carol", "alice")
	loser := 1 - g.Moves[len(g.Moves)-1].Seat // the seat to play the twelfth move
	g.Result, g.Reason, g.Detail = store.ResultFirstWins, "time_forfeit", "no reply within 100ms; it came 12.5ms after that"
	g.Late = 12500 * time.Microsecond
	g.Scores, g.Returns = []float64{1, 0}, []float64{1, -1}
	if loser == 0 {
		g.Result, g.Scores, g.Returns = store.ResultSecondWins, []float64{0, 1}, []float64{-1, 1}
	}
	g.ID, g.TournamentID, g.Round, g.Index = 103, 3, 2, 3
	g.Started, g.Ended = t0.Add(2*time.Minute), t0.Add(2*time.Minute+5*time.Second)
	games = append(games, g)

	g = storeGame(findRandom(tb, 6, hasPass), "othello:size=6", 0, "dave", "erin")
	g.ID, g.TournamentID, g.Round, g.Index = 104, 4, 1, 1
	g.Started, g.Ended = t0.Add(time.Hour), t0.Add(time.Hour+9*time.Second)
	games = append(games, g)

	ipd := store.Game{
		ID: 105, TournamentID: 5, Round: 1, Index: 1, Game: "ipd:rounds=6",
		Players: []string{"tit-for-tat", "grim"}, Result: store.ResultSecondWins, Reason: "normal",
		Scores: []float64{0, 1}, Returns: []float64{10, 15},
		StartPosition: "0/6 -", FinalPosition: "6/6 CC,CD,DD,DC,CD,DD",
		Started: t0.Add(2 * time.Hour), Ended: t0.Add(2*time.Hour + time.Second),
		Opening: []string{"C,C"},
	}
	for ply, round := range []string{"CD", "DD", "DC", "CD", "DD"} {
		for seat := range 2 {
			ipd.Moves = append(ipd.Moves, store.Move{
				Ply: ply + 1, Seat: seat, Move: round[seat : seat+1], Elapsed: time.Duration(ply+seat+1) * time.Millisecond,
			})
		}
	}
	games = append(games, ipd)

	g = storeGame(playRandom(tb, 8, 3, 5), "othello", 0, `Dr. "Q" \ [x]`, "ünïcødé 名前 ;) {y} %z")
	g.ID = 106
	g.Result, g.Reason, g.Scores, g.Returns = store.ResultNone, "aborted", nil, nil
	games = append(games, g)
	return games
}

// othelloOnly returns the Othello games of games.
func othelloOnly(games []store.Game) []store.Game {
	var out []store.Game
	for _, g := range games {
		if strings.HasPrefix(g.Game, "othello") {
			out = append(out, g)
		}
	}
	return out
}

func TestGolden(t *testing.T) {
	games := fixtures(t)
	meta := export.Meta{Site: "arena"}
	tests := []struct {
		file  string
		write func(*bytes.Buffer) error
		read  func(*bytes.Buffer) (int, error)
	}{
		{"games.pgn", func(b *bytes.Buffer) error { return export.WritePGN(b, games, meta) },
			func(b *bytes.Buffer) (int, error) { r, err := exporttest.ReadPGN(b); return len(r), err }},
		{"games.ggf", func(b *bytes.Buffer) error { return export.WriteGGF(b, othelloOnly(games)) },
			func(b *bytes.Buffer) (int, error) { r, err := exporttest.ReadGGF(b); return len(r), err }},
		{"games.json", func(b *bytes.Buffer) error { return export.WriteJSON(b, games) },
			func(b *bytes.Buffer) (int, error) { r, err := exporttest.ReadJSON(b); return len(r), err }},
		{"games.csv", func(b *bytes.Buffer) error { return export.WriteCSV(b, games) },
			func(b *bytes.Buffer) (int, error) { r, err := exporttest.ReadCSV(b); return len(r), err }},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tt.write(&buf); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tt.file)
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("output differs from %s; if the change is intended, run go test -run TestGolden -update\n%s", golden, buf.Bytes())
			}
			n, err := tt.read(bytes.NewBuffer(want))
			if err != nil {
				t.Fatalf("reading %s: %v", golden, err)
			}
			if wantN := strings.Count(tt.file, ".ggf")*len(othelloOnly(games)) + (1-strings.Count(tt.file, ".ggf"))*len(games); n != wantN {
				t.Errorf("read %d games from %s, want %d", n, golden, wantN)
			}
		})
	}
}

// TestFixtures checks that the fixtures have what the golden files are meant to show.
func TestFixtures(t *testing.T) {
	games := fixtures(t)
	var draw, forfeit, six, pass, ipd, hostile bool
	for _, g := range games {
		flat := export.FlatMoves(g)
		draw = draw || g.Result == store.ResultDraw
		forfeit = forfeit || g.Reason == "time_forfeit"
		six = six || g.Game == "othello:size=6"
		pass = pass || slices.Contains(flat, "pass")
		ipd = ipd || strings.HasPrefix(g.Game, "ipd")
		hostile = hostile || strings.ContainsAny(strings.Join(g.Players, ""), `"\[`)
	}
	if !draw || !forfeit || !six || !pass || !ipd || !hostile {
		t.Errorf("fixtures lack a case: draw %v, time forfeit %v, 6x6 %v, pass %v, ipd %v, hostile names %v",
			draw, forfeit, six, pass, ipd, hostile)
	}
}

func TestOthelloSize(t *testing.T) {
	tests := []struct {
		spec string
		want int
	}{
		{"othello", 8}, {"othello:size=6", 6}, {"othello:size=4", 4}, {"othello:size=10", 10},
		{"othello:size=5", 0}, {"othello:size=2", 0}, {"othello:size=28", 0}, {"othello:size=x", 0},
		{"othello:depth=3", 0}, {"othellox", 0}, {"ipd", 0}, {"", 0},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			n, ok := export.OthelloSize(tt.spec)
			if n != tt.want || ok != (tt.want > 0) {
				t.Errorf("othelloSize(%q) = %d, %v, want %d", tt.spec, n, ok, tt.want)
			}
		})
	}
}

// TestWrite checks that Write writes each format as its own writer does, and refuses a
// format it does not know.
func TestWrite(t *testing.T) {
	games := othelloOnly(fixtures(t))
	m := export.Meta{Event: "Arena tournament 1", Site: "arena"}
	direct := map[string]func(*bytes.Buffer) error{
		export.FormatPGN:  func(b *bytes.Buffer) error { return export.WritePGN(b, games, m) },
		export.FormatJSON: func(b *bytes.Buffer) error { return export.WriteJSON(b, games) },
		export.FormatCSV:  func(b *bytes.Buffer) error { return export.WriteCSV(b, games) },
		export.FormatGGF:  func(b *bytes.Buffer) error { return export.WriteGGF(b, games) },
	}
	for _, format := range export.Formats {
		t.Run(format, func(t *testing.T) {
			var got, want bytes.Buffer
			if err := export.Write(&got, format, games, m); err != nil {
				t.Fatal(err)
			}
			if err := direct[format](&want); err != nil {
				t.Fatal(err)
			}
			if got.Len() == 0 || !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("Write wrote %d bytes, the format's writer %d", got.Len(), want.Len())
			}
		})
	}
	if err := export.Write(&bytes.Buffer{}, "sgf", games, m); err == nil {
		t.Error("Write of an unknown format: no error")
	}
}
