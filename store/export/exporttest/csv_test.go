package exporttest

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/arenaref/arena/store/export"
)

func TestReadCSV(t *testing.T) {
	const header = "id,tournament,round,index,game,first,second,result,reason,plies,started,ended,moves\n"
	got, err := ReadCSV(strings.NewReader(header +
		",,0,0,othello:size=6,\"a,\"\"b\"\"\",c,*,,0,,,\n" +
		"7,2,3,4,ipd,x,y,0-1,normal,2,2025-01-02T03:04:05+01:00,,C/D  D/D\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []export.Record{
		{Round: "-", White: `a,"b"`, Black: "c", Result: "*", Game: "othello:size=6", Board: 6},
		{Date: "2025-01-02T03:04:05+01:00", Round: "3.4", White: "x", Black: "y", Result: "0-1", Reason: "normal", Moves: []string{"C/D", "D/D"}, Game: "ipd"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadCSV =\n%+v\nwant\n%+v", got, want)
	}
}

func TestReadCSVErrors(t *testing.T) {
	const header = "id,tournament,round,index,game,first,second,result,reason,plies,started,ended,moves\n"
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"no header", "1,2,3,4,othello,a,b,1-0,normal,0,,,\n"},
		{"short row", header + "1,2,3\n"},
		{"bad id", header + "x,2,3,4,othello,a,b,1-0,normal,0,,,\n"},
		{"negative round", header + "1,2,-3,4,othello,a,b,1-0,normal,0,,,\n"},
		{"empty plies", header + "1,2,3,4,othello,a,b,1-0,normal,,,,\n"},
		{"plies disagree", header + "1,2,3,4,othello,a,b,1-0,normal,2,,,d3\n"},
		{"bad result", header + "1,2,3,4,othello,a,b,win,normal,0,,,\n"},
		{"bad time", header + "1,2,3,4,othello,a,b,1-0,normal,0,today,,\n"},
		{"bad quote", header + "1,2,3,4,othello,\"a,b,1-0,normal,0,,,\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := ReadCSV(strings.NewReader(tt.in))
			if !errors.Is(err, export.ErrMalformed) {
				t.Errorf("ReadCSV = %+v, %v; want an error wrapping export.ErrMalformed", recs, err)
			}
		})
	}
}
