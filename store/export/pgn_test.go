package export_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/export"
	"github.com/arenaref/arena/store/export/exporttest"
)

var sevenTagRoster = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// TestPGNLayout checks the tag order and the width of the movetext of every game.
func TestPGNLayout(t *testing.T) {
	games := append(fixtures(t), randomGames(t, 30)...)
	var buf bytes.Buffer
	if err := export.WritePGN(&buf, games, export.Meta{}); err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(strings.TrimSuffix(buf.String(), "\n\n"), "\n\n")
	if len(blocks) != 2*len(games) {
		t.Fatalf("%d blocks for %d games", len(blocks), len(games))
	}
	for i, g := range games {
		tags, movetext := strings.Split(blocks[2*i], "\n"), strings.Split(blocks[2*i+1], "\n")
		for k, name := range sevenTagRoster {
			if !strings.HasPrefix(tags[k], "["+name+` "`) {
				t.Errorf("game %d: tag %d is %s, want %s", i+1, k+1, tags[k], name)
			}
		}
		for _, line := range movetext {
			if len(line) >= 80 {
				t.Errorf("game %d: movetext line of %d bytes: %s", i+1, len(line), line)
			}
		}
		if last := movetext[len(movetext)-1]; !strings.HasSuffix(last, " "+g.Result) && last != g.Result {
			t.Errorf("game %d: movetext ends %q, not with the result %s", i+1, last, g.Result)
		}
	}
}

func TestPGNTags(t *testing.T) {
	tests := []struct {
		name string
		g    store.Game
		m    export.Meta
		want []string // tag lines that must be present
		not  []string // tag names that must be absent
	}{
		{"tournament defaults", store.Game{TournamentID: 7, Round: 2, Index: 9, Game: "othello", Players: []string{"a", "b"}, Result: "1-0", Reason: "normal"},
			export.Meta{}, []string{`[Event "Arena tournament 7"]`, `[Site "?"]`, `[Date "????.??.??"]`, `[Round "2.9"]`, `[WhiteSeat "black"]`, `[PlyCount "0"]`},
			[]string{"ArenaGame", "ArenaOpeningPlies"}},
		{"meta", store.Game{ID: 4, Game: "othello:size=6", Players: []string{"a", "b"}, Result: "*"},
			export.Meta{Event: "club night", Site: "garage"}, []string{`[Event "club night"]`, `[Site "garage"]`, `[Round "-"]`, `[GameSpec "othello:size=6"]`, `[ArenaGame "4"]`},
			[]string{"Termination", "ArenaReason"}},
		{"not othello", store.Game{Game: "ipd", Players: []string{"a", "b"}, Result: "1/2-1/2", Opening: []string{"C,C"}},
			export.Meta{}, []string{`[Variant "ipd"]`, `[GameSpec "ipd"]`, `[ArenaOpeningPlies "1"]`, `[PlyCount "1"]`},
			[]string{"WhiteSeat", "BlackSeat"}},
		{"escapes", store.Game{Players: []string{`a "b" \c`, `]`}, Result: "0-1"},
			export.Meta{}, []string{`[White "a \"b\" \\c"]`, `[Black "]"]`}, []string{"Variant", "GameSpec"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := export.WritePGN(&buf, []store.Game{tt.g}, tt.m); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w+"\n") {
					t.Errorf("no %s in\n%s", w, out)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(out, "["+n+" ") {
					t.Errorf("tag %s in\n%s", n, out)
				}
			}
		})
	}
}

func TestPGNTermination(t *testing.T) {
	tests := []struct{ reason, want string }{
		{"normal", "normal"}, {"resigned", "normal"}, {"time_forfeit", "time forfeit"},
		{"illegal_move", "rules infraction"}, {"protocol_error", "rules infraction"},
		{"disconnected", "abandoned"}, {"no_responders", "abandoned"}, {"absent", "abandoned"},
		{"max_plies", "adjudication"}, {"aborted", "unterminated"}, {"something_new", "something_new"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			var buf bytes.Buffer
			g := store.Game{Players: []string{"a", "b"}, Result: "1-0", Reason: tt.reason}
			if err := export.WritePGN(&buf, []store.Game{g}, export.Meta{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), `[Termination "`+tt.want+`"]`+"\n"+`[ArenaReason "`+tt.reason+`"]`) {
				t.Errorf("reason %s:\n%s", tt.reason, buf.String())
			}
		})
	}
}

func TestWritePGNErrors(t *testing.T) {
	ok := store.Game{Game: "othello", Players: []string{"a", "b"}, Result: "1-0", Moves: []store.Move{{Move: "d3"}}}
	tests := []struct {
		name string
		edit func(*store.Game)
	}{
		{"three players", func(g *store.Game) { g.Players = []string{"a", "b", "c"} }},
		{"no players", func(g *store.Game) { g.Players = nil }},
		{"newline in a name", func(g *store.Game) { g.Players[0] = "a\nb" }},
		{"tab in the spec", func(g *store.Game) { g.Game = "othello\t" }},
		{"bad result", func(g *store.Game) { g.Result = "2-0" }},
		{"empty result", func(g *store.Game) { g.Result = "" }},
		{"space in a move", func(g *store.Game) { g.Moves[0].Move = "d 3" }},
		{"empty move", func(g *store.Game) { g.Moves[0].Move = "" }},
		{"number move", func(g *store.Game) { g.Moves[0].Move = "12" }},
		{"result move", func(g *store.Game) { g.Moves[0].Move = "1-0" }},
		{"brace move", func(g *store.Game) { g.Moves[0].Move = "d3{" }},
		{"unicode move", func(g *store.Game) { g.Moves[0].Move = "é" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := ok
			g.Players = append([]string(nil), ok.Players...)
			g.Moves = append([]store.Move(nil), ok.Moves...)
			tt.edit(&g)
			var buf bytes.Buffer
			err := export.WritePGN(&buf, []store.Game{ok, g}, export.Meta{})
			if !errors.Is(err, export.ErrUnsupported) {
				t.Errorf("WritePGN: %v, want an error wrapping ErrUnsupported", err)
			}
			if buf.Len() != 0 {
				t.Errorf("WritePGN wrote %d bytes before failing", buf.Len())
			}
		})
	}
}

// TestPDN checks that checkers and giveaway games are written as PDN, with the first
// mover (seat 0) as Black, a Result read from Black's side, and GameType 21, and that
// they read back with seat 0 in Record.White.
func TestPDN(t *testing.T) {
	tests := []struct {
		name   string
		game   string
		result string
		want   []string // tag lines
	}{
		{"checkers, first mover won", "checkers", store.ResultFirstWins,
			[]string{`[White "second"]`, `[Black "first"]`, `[Result "1-0"]`, `[Variant "checkers"]`, `[GameType "21"]`}},
		{"checkers, second mover won", "checkers", store.ResultSecondWins,
			[]string{`[White "second"]`, `[Black "first"]`, `[Result "0-1"]`, `[GameType "21"]`}},
		{"giveaway, draw", "giveaway", store.ResultDraw,
			[]string{`[White "second"]`, `[Black "first"]`, `[Result "1/2-1/2"]`, `[Variant "giveaway"]`, `[GameType "21"]`}},
		{"othello is PGN as before", "othello", store.ResultFirstWins,
			[]string{`[White "first"]`, `[Black "second"]`, `[Result "1-0"]`, `[WhiteSeat "black"]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := store.Game{Game: tt.game, Players: []string{"first", "second"}, Result: tt.result, Reason: "normal",
				Moves: []store.Move{{Ply: 0, Move: "11-15"}, {Ply: 1, Move: "22-18"}, {Ply: 2, Move: "15x22"}}}
			if tt.game == "othello" {
				g.Moves = []store.Move{{Ply: 0, Move: "d3"}}
			}
			var buf bytes.Buffer
			if err := export.WritePGN(&buf, []store.Game{g}, export.Meta{}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w+"\n") {
					t.Errorf("no %s in\n%s", w, out)
				}
			}
			if tt.game == "othello" && strings.Contains(out, "[GameType ") {
				t.Errorf("GameType in an Othello game:\n%s", out)
			}
			recs, err := exporttest.ReadPGN(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 || recs[0].White != "first" || recs[0].Black != "second" || recs[0].Result != tt.result || recs[0].Game != tt.game {
				t.Errorf("read back as %+v", recs)
			}
		})
	}
}
