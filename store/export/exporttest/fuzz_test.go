package exporttest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/arenaref/arena/store/export"
)

// addGolden seeds a fuzzer with a golden file of package export and the given inputs.
func addGolden(f *testing.F, file string, seeds ...string) {
	f.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", file))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	for _, s := range seeds {
		f.Add([]byte(s))
	}
}

// checkReadError fails unless err wraps export.ErrMalformed, as every reader's errors must.
func checkReadError(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, export.ErrMalformed) {
		t.Fatalf("error %v does not wrap export.ErrMalformed", err)
	}
}

func FuzzReadPGN(f *testing.F) {
	addGolden(f, "games.pgn",
		"", "*", "1. d3 c5 1-0", "[Result \"1-0\"] 0-1",
		"% x\n[Event \"a \\\"b\\\" \\\\\"]\n{c} 1.d3 $2 (1... c5 {d}) 1... f4!? ; e\n2. C/D 1/2-1/2\n[White \"x\"]",
		"1. d3 ( c5", "[A \"\"]]", "\uFEFF0-0 1-0",
		"[White \"w\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[GameType \"21\"]\n1. 11-15 22-18 1-0",
		"[Black \"b\"]\n[GameSpec \"giveaway\"]\n[GameType \"21,W\"]\n*",
		"[White \"w\"]\n[GameSpec \"othello\"]\n[GameType \"23\"]\n0-1")
	f.Fuzz(func(t *testing.T, in []byte) {
		recs, err := ReadPGN(bytes.NewReader(in))
		if err != nil {
			checkReadError(t, err)
			return
		}
		var buf bytes.Buffer
		if err := export.WritePGNRecords(&buf, recs); err != nil {
			t.Fatalf("writing %+v read from %q: %v", recs, in, err)
		}
		again, err := ReadPGN(&buf)
		if err != nil {
			t.Fatalf("reading back %q: %v", buf.String(), err)
		}
		if !reflect.DeepEqual(again, recs) {
			t.Fatalf("read %+v from %q, then %+v from %q", recs, in, again, buf.String())
		}
	})
}

func FuzzReadGGF(f *testing.F) {
	addGolden(f, "games.ggf",
		"", "(;;)", "(;GM[Othello]BO[4 ---- -O*- -*O- ---- O]W[a1//1]B[pa];)",
		`(;GM[othello]PB[\]\\]RE[-3.5:r]BO[6 ------------------------------------ *];)`,
		"(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]RE[+0:s]B[D3]W[C5/1/2];)")
	f.Fuzz(func(t *testing.T, in []byte) {
		recs, err := ReadGGF(bytes.NewReader(in))
		if err != nil {
			checkReadError(t, err)
			return
		}
		var buf bytes.Buffer
		if err := export.WriteGGFRecords(&buf, recs); err != nil {
			t.Fatalf("writing %+v read from %q: %v", recs, in, err)
		}
		again, err := ReadGGF(&buf)
		if err != nil {
			t.Fatalf("reading back %q: %v", buf.String(), err)
		}
		if !reflect.DeepEqual(again, recs) {
			t.Fatalf("read %+v from %q, then %+v from %q", recs, in, again, buf.String())
		}
	})
}

func FuzzReadJSON(f *testing.F) {
	addGolden(f, "games.json",
		"", "{}", `{"games":null}`, `{"games":[{}]}`, `{"games":[{"players":[],"moves":[{"pv":[]}],"started":"2025-01-01T05:00:00+05:00"}]}`,
		`{"GAMES":[{"ID":1,"id":2,"score":-0}]}`, `{"games":[{"moves":[{"score":-0,"elapsed_ns":-1}]}]}`)
	f.Fuzz(func(t *testing.T, in []byte) {
		games, err := ReadJSON(bytes.NewReader(in))
		if err != nil {
			checkReadError(t, err)
			return
		}
		var buf bytes.Buffer
		if err := export.WriteJSON(&buf, games); err != nil {
			t.Fatalf("writing %+v read from %q: %v", games, in, err)
		}
		again, err := ReadJSON(&buf)
		if err != nil {
			t.Fatalf("reading back %q: %v", buf.String(), err)
		}
		if !reflect.DeepEqual(again, games) {
			t.Fatalf("read %+v from %q, then %+v from %q", games, in, again, buf.String())
		}
	})
}

func FuzzReadCSV(f *testing.F) {
	const header = "id,tournament,round,index,game,first,second,result,reason,plies,started,ended,moves\n"
	addGolden(f, "games.csv",
		"", header, header+",,0,0,,,,*,,0,,,\n", header+"1,2,3,4,ipd,\"a\r\nb\",\"\r\",1-0,x,2,,,C/D D/D\n",
		header+"01,-0,007,0,othello,a,b,0-1,,1,2025-01-01T00:00:00.5-01:00,,\u00a0d3\n")
	f.Fuzz(func(t *testing.T, in []byte) {
		recs, err := ReadCSV(bytes.NewReader(in))
		if err != nil {
			checkReadError(t, err)
			return
		}
		var buf bytes.Buffer
		if err := export.WriteCSVRecords(&buf, recs); err != nil {
			t.Fatalf("writing %+v read from %q: %v", recs, in, err)
		}
		again, err := ReadCSV(&buf)
		if err != nil {
			t.Fatalf("reading back %q: %v", buf.String(), err)
		}
		if !reflect.DeepEqual(again, recs) {
			t.Fatalf("read %+v from %q, then %+v from %q", recs, in, again, buf.String())
		}
	})
}
