package export

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/arenaref/arena/store"
)

var sevenTagRoster = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// TestPGNLayout checks the tag order and the width of the movetext of every game.
func TestPGNLayout(t *testing.T) {
	games := append(fixtures(t), randomGames(t, 30)...)
	var buf bytes.Buffer
	if err := WritePGN(&buf, games, Meta{}); err != nil {
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
		m    Meta
		want []string // tag lines that must be present
		not  []string // tag names that must be absent
	}{
		{"tournament defaults", store.Game{TournamentID: 7, Round: 2, Index: 9, Game: "othello", Players: []string{"a", "b"}, Result: "1-0", Reason: "normal"},
			Meta{}, []string{`[Event "Arena tournament 7"]`, `[Site "?"]`, `[Date "????.??.??"]`, `[Round "2.9"]`, `[WhiteSeat "black"]`, `[PlyCount "0"]`},
			[]string{"ArenaGame", "ArenaOpeningPlies"}},
		{"meta", store.Game{ID: 4, Game: "othello:size=6", Players: []string{"a", "b"}, Result: "*"},
			Meta{Event: "club night", Site: "garage"}, []string{`[Event "club night"]`, `[Site "garage"]`, `[Round "-"]`, `[GameSpec "othello:size=6"]`, `[ArenaGame "4"]`},
			[]string{"Termination", "ArenaReason"}},
		{"not othello", store.Game{Game: "ipd", Players: []string{"a", "b"}, Result: "1/2-1/2", Opening: []string{"C,C"}},
			Meta{}, []string{`[Variant "ipd"]`, `[GameSpec "ipd"]`, `[ArenaOpeningPlies "1"]`, `[PlyCount "1"]`},
			[]string{"WhiteSeat", "BlackSeat"}},
		{"escapes", store.Game{Players: []string{`a "b" \c`, `]`}, Result: "0-1"},
			Meta{}, []string{`[White "a \"b\" \\c"]`, `[Black "]"]`}, []string{"Variant", "GameSpec"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WritePGN(&buf, []store.Game{tt.g}, tt.m); err != nil {
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
			if err := WritePGN(&buf, []store.Game{g}, Meta{}); err != nil {
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
			err := WritePGN(&buf, []store.Game{ok, g}, Meta{})
			if !errors.Is(err, ErrUnsupported) {
				t.Errorf("WritePGN: %v, want an error wrapping ErrUnsupported", err)
			}
			if buf.Len() != 0 {
				t.Errorf("WritePGN wrote %d bytes before failing", buf.Len())
			}
		})
	}
}

func TestReadPGN(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Record
	}{
		{"empty", "", nil},
		{"annotated", "\uFEFF% an escape line\n[Event \"e\"]\n[Site \"s\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Foo \"ignored\"]\n\n" +
			"1.d3 {a comment} c5 $1 2. f6!? (2. e6 f4 (2... c3)) f5?? ; a line comment\n3... c4 1-0\n",
			[]Record{{Event: "e", Site: "s", White: "w", Black: "b", Result: "1-0", Moves: []string{"d3", "c5", "f6", "f5", "c4"}}}},
		{"two games, markers only", "1. d3 *\n\n[White \"x\"] 1. C/D D/D 0-1",
			[]Record{{Result: "*", Moves: []string{"d3"}}, {White: "x", Result: "0-1", Moves: []string{"C/D", "D/D"}}}},
		{"no marker", "[Result \"1/2-1/2\"]\n1. d3\n[Result \"*\"]\n",
			[]Record{{Result: "1/2-1/2", Moves: []string{"d3"}}, {Result: "*"}}},
		{"escapes and spec", `[White "a \"b\" \\c \x"] [GameSpec "othello:size=6"] [Variant "reversi"] [ArenaReason "time_forfeit"] [Termination "time forfeit"] *`,
			[]Record{{White: `a "b" \c \x`, Result: "*", Game: "othello:size=6", Board: 6, Reason: "time_forfeit"}}},
		{"variant and termination only", `[Variant "othello"] [Termination "time forfeit"] [Result "0-1"]`,
			[]Record{{Result: "0-1", Game: "othello", Board: 8, Reason: "time forfeit"}}},
		{"crlf", "[Result \"1-0\"]\r\n\r\n1. a1 1-0\r\n", []Record{{Result: "1-0", Moves: []string{"a1"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadPGN(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ReadPGN =\n%+v\nwant\n%+v", got, tt.want)
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
			if err := WritePGN(&buf, []store.Game{g}, Meta{}); err != nil {
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
			recs, err := ReadPGN(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 || recs[0].White != "first" || recs[0].Black != "second" || recs[0].Result != tt.result || recs[0].Game != tt.game {
				t.Errorf("read back as %+v", recs)
			}
		})
	}
}

// TestReadPDN reads PDN as other programs write it: the first mover in the Black tag when
// the GameType says Black begins.
func TestReadPDN(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Record
	}{
		{"english draughts", "[White \"w\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[GameType \"21\"]\n1. 11-15 22-18 2. 15x22 1-0",
			Record{White: "b", Black: "w", Result: "1-0", Game: "checkers", Moves: []string{"11-15", "22-18", "15x22"}}},
		{"long game type", "[White \"w\"]\n[Black \"b\"]\n[GameType \"21,B,8,8,N1,0\"]\n0-1",
			Record{White: "b", Black: "w", Result: "0-1", Game: "checkers"}},
		{"international draughts: white begins", "[White \"w\"]\n[Black \"b\"]\n[GameType \"20\"]\n1. 32-28 *",
			Record{White: "w", Black: "b", Result: "*", Moves: []string{"32-28"}}},
		{"start colour given", "[White \"w\"]\n[Black \"b\"]\n[GameType \"25,W,8,8,A0,0\"]\n*",
			Record{White: "w", Black: "b", Result: "*"}},
		{"an older Arena file: no GameType", "[White \"first\"]\n[Black \"second\"]\n[GameSpec \"checkers\"]\n1-0",
			Record{White: "first", Black: "second", Result: "1-0", Game: "checkers"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadPGN(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || !reflect.DeepEqual(got[0], tt.want) {
				t.Errorf("ReadPGN =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestReadPGNErrors(t *testing.T) {
	tests := []struct{ name, in string }{
		{"results differ", "[Result \"1-0\"] 0-1"},
		{"no result", "[White \"a\"] 1. d3"},
		{"bad result tag", "[Result \"2-0\"] *"},
		{"unterminated comment", "1. d3 { *"},
		{"unterminated string", "[White \"a] *"},
		{"newline in a string", "[White \"a\nb\"] *"},
		{"tab in a string", "[White \"a\tb\"] *"},
		{"unexpected character", "1. d3 & *"},
		{"unicode move", "1. é *"},
		{"close paren", "1. d3 ) *"},
		{"open variation", "1. d3 ( c5 *"},
		{"tag in a variation", "1. d3 ( [White \"x\"] ) *"},
		{"string in movetext", "1. d3 \"x\" *"},
		{"bad tag pair", "[White a] *"},
		{"short tag pair", "[White \"a\""},
		{"lone dollar", "1. d3 $ *"},
		{"percent not at line start", "1. d3 % *"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := ReadPGN(strings.NewReader(tt.in))
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("ReadPGN = %+v, %v; want an error wrapping ErrMalformed", recs, err)
			}
		})
	}
}
