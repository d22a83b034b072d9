package export

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/store"
)

// TestGGFOrientation replays the GGF of games from the board of BO, read as Othello
// programs read it (the first row is rank 1, a1 first), with the othello package, and
// checks that it reaches each game's final position: the board and the moves agree.
func TestGGFOrientation(t *testing.T) {
	games := othelloOnly(append(fixtures(t), randomGames(t, 30)...))
	var buf bytes.Buffer
	if err := WriteGGF(&buf, games); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	recs, err := ReadGGF(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range games {
		_, bo, _ := strings.Cut(lines[i], "BO[")
		bo, _, _ = strings.Cut(bo, "]")
		fields := strings.Fields(bo)
		n := len(fields) - 2
		text := strings.ReplaceAll(strings.Join(fields[1:n+1], ""), "*", "X") + " " + strings.ReplaceAll(fields[n+1], "*", "X")
		og, err := othello.NewSize(n)
		if err != nil {
			t.Fatal(err)
		}
		s, err := og.Parse(text)
		if err != nil {
			t.Fatalf("game %d: BO %q: %v", i+1, bo, err)
		}
		for _, mv := range recs[i].Moves {
			m, err := s.ParseMove(mv)
			if err == nil {
				err = s.Play(m)
			}
			if err != nil {
				t.Fatalf("game %d: move %s: %v", i+1, mv, err)
			}
		}
		if s.String() != g.FinalPosition {
			t.Errorf("game %d: the GGF reaches %s, the game %s", i+1, s, g.FinalPosition)
		}
	}
}

func TestGGFResult(t *testing.T) {
	tests := []struct {
		name           string
		result, reason string
		margin         int
		known          bool
		n              int
		want           string
	}{
		{"black wins", "1-0", "normal", 12, true, 8, "+12.00"},
		{"white wins", "0-1", "normal", -4, true, 8, "-4.00"},
		{"draw", "1/2-1/2", "normal", 0, true, 8, "0.00"},
		{"margin unknown", "1-0", "normal", 0, false, 6, "+36.00"},
		{"margin disagrees", "0-1", "normal", 3, true, 8, "-64.00"},
		{"time forfeit", "1-0", "time_forfeit", -10, true, 8, "+64.00:t"},
		{"resigned", "0-1", "resigned", 10, true, 4, "-16.00:r"},
		{"illegal move", "1-0", "illegal_move", 10, true, 8, "+64.00:r"},
		{"disconnected", "0-1", "disconnected", 0, true, 8, "-64.00:r"},
		{"max plies draw", "1/2-1/2", "max_plies", 6, true, 8, "0.00"},
		{"mutual score", "1-0", "score", 0, false, 8, "+64.00:s"},
		{"aborted", "*", "aborted", 6, true, 8, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ggfResult(tt.result, tt.reason, tt.margin, tt.known, tt.n); got != tt.want {
				t.Errorf("ggfResult = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWriteGGFErrors(t *testing.T) {
	ok := store.Game{Game: "othello", Players: []string{"a", "b"}, Result: "1-0", Moves: []store.Move{{Seat: 0, Move: "d3"}, {Ply: 1, Seat: 1, Move: "c5"}}}
	tests := []struct {
		name string
		edit func(*store.Game)
	}{
		{"ipd", func(g *store.Game) { g.Game = "ipd" }},
		{"odd board", func(g *store.Game) { g.Game = "othello:size=5" }},
		{"one player", func(g *store.Game) { g.Players = g.Players[:1] }},
		{"off the board", func(g *store.Game) { g.Game = "othello:size=4"; g.Moves[0].Move = "e5" }},
		{"not a square", func(g *store.Game) { g.Moves[0].Move = "resign" }},
		{"bad opening", func(g *store.Game) { g.Opening = []string{"z9"} }},
		{"not alternating", func(g *store.Game) { g.Moves[1].Seat = 0 }},
		{"bad start", func(g *store.Game) { g.StartPosition = "start" }},
		{"newline in a name", func(g *store.Game) { g.Players[1] = "b\n" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := ok
			g.Players = append([]string(nil), ok.Players...)
			g.Moves = append([]store.Move(nil), ok.Moves...)
			tt.edit(&g)
			var buf bytes.Buffer
			if err := WriteGGF(&buf, []store.Game{ok, g}); !errors.Is(err, ErrUnsupported) {
				t.Errorf("WriteGGF: %v, want an error wrapping ErrUnsupported", err)
			}
			if buf.Len() != 0 {
				t.Errorf("WriteGGF wrote %d bytes before failing", buf.Len())
			}
		})
	}
}

func TestReadGGF(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Record
	}{
		{"empty", " \n", nil},
		{"ggs style", "(;GM[Othello]PC[GGS/os]DT[2003.12.15_10:51:11.MST]PB[Saio]PW[Zebra]RB[2237.27]RW[2459.39]TI[05:00//02:00]TY[8]RE[-16.000]" +
			"BO[8 ---------------------------O*------*O--------------------------- *]B[D3//0.01]W[c5/-1.5/2.0]B[pa]W[PASS];)\n" +
			"(;GM[othello]BO[10 ---------- ---------- ---------- ---------- ----O*---- ----*O---- ---------- ---------- ---------- ---------- O]W[e4]B[J10];)",
			[]Record{
				{Site: "GGS/os", Date: "2003.12.15_10:51:11.MST", White: "Saio", Black: "Zebra", Result: "0-1", Reason: "normal",
					Moves: []string{"d3", "c5", "pass", "pass"}, Game: "othello", Board: 8},
				{Result: "*", Moves: []string{"e4", "j10"}, Game: "othello:size=10", Board: 10},
			}},
		{"flags and escapes", `(;GM[Othello]PB[a\]b\\]PW[\c]RE[+64.00:t]BO[4 ---- -O*- -*O- ---- *];) (; GM[Othello] RE[0] BO[4 ----------------*] ;)`,
			[]Record{
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
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("ReadGGF = %+v, %v; want an error wrapping ErrMalformed", recs, err)
			}
		})
	}
}
