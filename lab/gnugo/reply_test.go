package gnugo

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReadReply(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []reply // the replies read before the error
		err  error   // the error that ends the input
	}{
		{"success", "= D4\n\n", []reply{{true, -1, "D4"}}, io.EOF},
		{"with id", "=12 1 E7\n\n", []reply{{true, 12, "1 E7"}}, io.EOF},
		{"empty", "=3\n\n", []reply{{true, 3, ""}}, io.EOF},
		{"empty with a space", "= \n\n", []reply{{true, -1, ""}}, io.EOF},
		{"failure", "?4 illegal move\n\n", []reply{{false, 4, "illegal move"}}, io.EOF},
		{"several lines", "=1 D6 \nE6 \nE5 \n\n", []reply{{true, 1, "D6 \nE6 \nE5"}}, io.EOF},
		{"carriage returns", "= name\r\n\r\n", []reply{{true, -1, "name"}}, io.EOF},
		{"two replies", "=1 a\n\n?2 b\n\n", []reply{{true, 1, "a"}, {false, 2, "b"}}, io.EOF},
		{"blank lines before", "\n\n=1 a\n\n", []reply{{true, 1, "a"}}, io.EOF},
		{"cut short", "=1 a\n", nil, io.ErrUnexpectedEOF},
		{"cut before the newline", "=1 a", nil, io.ErrUnexpectedEOF},
		{"not GTP", "hello\n\n", nil, ErrProtocol},
		{"id glued to text", "=1a\n\n", nil, ErrProtocol},
		{"id too long", "=12345678901 a\n\n", nil, ErrProtocol},
		{"line too long", "= " + strings.Repeat("x", maxLine+1) + "\n\n", nil, ErrProtocol},
		{"reply too long", "= x\n" + strings.Repeat(strings.Repeat("y", 1000)+"\n", maxReply/1000+1) + "\n", nil, ErrProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := bufio.NewReader(strings.NewReader(tt.in))
			for i, want := range tt.want {
				got, err := readReply(r)
				if err != nil || got != want {
					t.Fatalf("reply %d = %+v, %v; want %+v", i, got, err, want)
				}
			}
			if _, err := readReply(r); !errors.Is(err, tt.err) {
				t.Errorf("then %v, want %v", err, tt.err)
			}
		})
	}
}

func TestParseResult(t *testing.T) {
	tests := []struct {
		in   string
		want Result
		ok   bool
	}{
		{"0", Result{Code: Fails}, true},
		{"1 E7", Result{Code: Succeeds, Move: Point{4, 6}}, true},
		{"2 a1", Result{Code: KoA}, true},
		{"3 T19", Result{Code: KoB, Move: Point{18, 18}}, true},
		{"1 PASS", Result{Code: Succeeds, NoMove: true}, true},
		{"0 PASS", Result{}, false},
		{"", Result{}, false},
		{"1", Result{}, false},    // success without a move
		{"0 E7", Result{}, false}, // failure with one
		{"4 E7", Result{}, false},
		{"-1 E7", Result{}, false},
		{"1 I5", Result{}, false},
		{"1 E7 F8", Result{}, false},
	}
	for _, tt := range tests {
		got, err := parseResult(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseResult(%q) = %v, %v; want %v (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrProtocol) {
			t.Errorf("parseResult(%q): %v does not wrap ErrProtocol", tt.in, err)
		}
	}
}

// FuzzReadReply checks that any input reads as replies then an error, never a panic or
// a loop, and that a reply's text has no surrounding white space or blank line.
func FuzzReadReply(f *testing.F) {
	for _, s := range []string{
		"= D4\n\n", "=12 1 E7\n\n", "?4 illegal move\n\n", "=1 D6 \nE6 \nE5 \n\n",
		"= name\r\n\r\n", "\n\n=1 a\n\n?2 b\n\n", "=1 a", "hello\n", "=1a\n\n", "=99999999999 x\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		r := bufio.NewReader(strings.NewReader(string(in)))
		for n := 0; ; n++ {
			if n > len(in) {
				t.Fatalf("%d replies from %d bytes", n, len(in))
			}
			rep, err := readReply(r)
			if err != nil {
				return
			}
			if rep.text != strings.TrimSpace(rep.text) || strings.Contains(rep.text, "\n\n") {
				t.Fatalf("reply text %q", rep.text)
			}
			if rep.id < -1 {
				t.Fatalf("id %d", rep.id)
			}
		}
	})
}

// FuzzParseResult checks that a reading result is parsed into a code 0 to 3, with a
// move on the board of GTP exactly when the code is not 0, or refused.
func FuzzParseResult(f *testing.F) {
	for _, s := range []string{"0", "1 E7", "2 a1", "3 T19", "", "1", "0 E7", "4 E7", "1 Z25", "1 E77", "1 PASS"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r, err := parseResult(in)
		if err != nil {
			return
		}
		if r.Code < Fails || r.Code > KoB {
			t.Fatalf("code %d", r.Code)
		}
		if r.Code == Fails && (r.Move != Point{} || r.NoMove) || r.NoMove && r.Move != (Point{}) {
			t.Fatalf("failure with a move: %v", r)
		}
		if r.Code != Fails && !r.NoMove && !r.Move.OnBoard(MaxSize) {
			t.Fatalf("move %v off every board", r.Move)
		}
		back, err := parseResult(r.String())
		if err != nil || back != r {
			t.Fatalf("%v printed %q reads back as %v, %v", r, r.String(), back, err)
		}
	})
}
