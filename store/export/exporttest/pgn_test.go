package exporttest

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/arenaref/arena/store/export"
)

func TestReadPGN(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []export.Record
	}{
		{"empty", "", nil},
		{"annotated", "\uFEFF% an escape line\n[Event \"e\"]\n[Site \"s\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Foo \"ignored\"]\n\n" +
			"1.d3 {a comment} c5 $1 2. f6!? (2. e6 f4 (2... c3)) f5?? ; a line comment\n3... c4 1-0\n",
			[]export.Record{{Event: "e", Site: "s", White: "w", Black: "b", Result: "1-0", Moves: []string{"d3", "c5", "f6", "f5", "c4"}}}},
		{"two games, markers only", "1. d3 *\n\n[White \"x\"] 1. C/D D/D 0-1",
			[]export.Record{{Result: "*", Moves: []string{"d3"}}, {White: "x", Result: "0-1", Moves: []string{"C/D", "D/D"}}}},
		{"no marker", "[Result \"1/2-1/2\"]\n1. d3\n[Result \"*\"]\n",
			[]export.Record{{Result: "1/2-1/2", Moves: []string{"d3"}}, {Result: "*"}}},
		{"escapes and spec", `[White "a \"b\" \\c \x"] [GameSpec "othello:size=6"] [Variant "reversi"] [ArenaReason "time_forfeit"] [Termination "time forfeit"] *`,
			[]export.Record{{White: `a "b" \c \x`, Result: "*", Game: "othello:size=6", Board: 6, Reason: "time_forfeit"}}},
		{"variant and termination only", `[Variant "othello"] [Termination "time forfeit"] [Result "0-1"]`,
			[]export.Record{{Result: "0-1", Game: "othello", Board: 8, Reason: "time forfeit"}}},
		{"crlf", "[Result \"1-0\"]\r\n\r\n1. a1 1-0\r\n", []export.Record{{Result: "1-0", Moves: []string{"a1"}}}},
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

// TestReadPDN reads PDN as other programs write it: the first mover in the Black tag when
// the GameType says Black begins.
func TestReadPDN(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want export.Record
	}{
		{"english draughts", "[White \"w\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[GameType \"21\"]\n1. 11-15 22-18 2. 15x22 1-0",
			export.Record{White: "b", Black: "w", Result: "1-0", Game: "checkers", Moves: []string{"11-15", "22-18", "15x22"}}},
		{"long game type", "[White \"w\"]\n[Black \"b\"]\n[GameType \"21,B,8,8,N1,0\"]\n0-1",
			export.Record{White: "b", Black: "w", Result: "0-1", Game: "checkers"}},
		{"international draughts: white begins", "[White \"w\"]\n[Black \"b\"]\n[GameType \"20\"]\n1. 32-28 *",
			export.Record{White: "w", Black: "b", Result: "*", Moves: []string{"32-28"}}},
		{"start colour given", "[White \"w\"]\n[Black \"b\"]\n[GameType \"25,W,8,8,A0,0\"]\n*",
			export.Record{White: "w", Black: "b", Result: "*"}},
		{"an older Arena file: no GameType", "[White \"first\"]\n[Black \"second\"]\n[GameSpec \"checkers\"]\n1-0",
			export.Record{White: "first", Black: "second", Result: "1-0", Game: "checkers"}},
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
			if !errors.Is(err, export.ErrMalformed) {
				t.Errorf("ReadPGN = %+v, %v; want an error wrapping export.ErrMalformed", recs, err)
			}
		})
	}
}
