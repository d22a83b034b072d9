package exporttest

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/arenaref/arena/store/export"
)

func TestReadGGF(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []export.Record
	}{
		{"empty", " \n", nil},
		{"ggs style", "(;GM[Othello]PC[GGS/os]DT[2003.12.15_10:51:11.MST]PB[Saio]PW[Zebra]RB[2237.27]RW[2459.39]TI[05:00//02:00]TY[8]RE[-16.000]" +
			"BO[8 ---------------------------O*------*O--------------------------- *]B[D3//0.01]W[c5/-1.5/2.0]B[pa]W[PASS];)\n" +
			"(;GM[othello]BO[10 ---------- ---------- ---------- ---------- ----O*---- ----*O---- ---------- ---------- ---------- ---------- O]W[e4]B[J10];)",
			[]export.Record{
				{Site: "GGS/os", Date: "2003.12.15_10:51:11.MST", White: "Saio", Black: "Zebra", Result: "0-1", Reason: "normal",
					Moves: []string{"d3", "c5", "pass", "pass"}, Game: "othello", Board: 8},
				{Result: "*", Moves: []string{"e4", "j10"}, Game: "othello:size=10", Board: 10},
			}},
		{"flags and escapes", `(;GM[Othello]PB[a\]b\\]PW[\c]RE[+64.00:t]BO[4 ---- -O*- -*O- ---- *];) (; GM[Othello] RE[0] BO[4 ----------------*] ;)`,
			[]export.Record{
				{White: `a]b\`, Black: "c", Result: "1-0", Reason: "time_forfeit", Game: "othello:size=4", Board: 4},
				{Result: "1/2-1/2", Reason: "normal", Game: "othello:size=4", Board: 4},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadGGF(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ReadGGF =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestReadGGFErrors(t *testing.T) {
	const bo = "BO[4 ---- -O*- -*O- ---- *]"
	tests := []struct{ name, in string }{
		{"not a game", "GM[Othello]"},
		{"amazons", "(;GM[Amazons]" + bo + ";)"},
		{"no GM", "(;" + bo + ";)"},
		{"no BO", "(;GM[Othello];)"},
		{"odd board", "(;GM[Othello]BO[5 ------------------------- *];)"},
		{"huge board", "(;GM[Othello]BO[99999999999999999999 *];)"},
		{"short board", "(;GM[Othello]BO[4 ---- *];)"},
		{"bad square mark", "(;GM[Othello]BO[4 ---- -O*- -*x- ---- *];)"},
		{"bad side", "(;GM[Othello]BO[4 ---- -O*- -*O- ---- -];)"},
		{"not alternating", "(;GM[Othello]" + bo + "B[c4]B[d3];)"},
		{"white first", "(;GM[Othello]" + bo + "W[c4];)"},
		{"off the board", "(;GM[Othello]" + bo + "B[e1];)"},
		{"empty move", "(;GM[Othello]" + bo + "B[];)"},
		{"rank zero", "(;GM[Othello]" + bo + "B[a0];)"},
		{"bad RE", "(;GM[Othello]" + bo + "RE[won];)"},
		{"NaN RE", "(;GM[Othello]" + bo + "RE[NaN];)"},
		{"bad flag", "(;GM[Othello]" + bo + "RE[+2:x];)"},
		{"unclosed value", "(;GM[Othello" + bo},
		{"unclosed game", "(;GM[Othello]" + bo},
		{"lower-case property", "(;gm[Othello]" + bo + ";)"},
		{"newline in a value", "(;GM[Othello]PB[a\nb]" + bo + ";)"},
		{"escaped newline", "(;GM[Othello]PB[a\\\nb]" + bo + ";)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := ReadGGF(strings.NewReader(tt.in))
			if !errors.Is(err, export.ErrMalformed) {
				t.Errorf("ReadGGF = %+v, %v; want an error wrapping export.ErrMalformed", recs, err)
			}
		})
	}
}
