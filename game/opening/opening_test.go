package opening_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/testutil/testgame"
)

func TestParse(t *testing.T) {
	in := "# Othello openings\n" +
		"\n" +
		"c4 c3\n" +
		"  # indented comment\n" +
		"D3,C5 , F6\r\n" + // commas, upper case and a CRLF ending
		"\tf5\td6   \n" +
		"e6 f4 e3" // no final newline
	ops, err := opening.Parse(strings.NewReader(in), othello.New())
	if err != nil {
		t.Fatal(err)
	}
	want := []opening.Opening{
		{Line: 3, Moves: moves("c4 c3")},
		{Line: 5, Moves: moves("d3 c5 f6")},
		{Line: 6, Moves: moves("f5 d6")},
		{Line: 7, Moves: moves("e6 f4 e3")},
	}
	if !slices.EqualFunc(ops, want, func(a, b opening.Opening) bool { return a.Line == b.Line && slices.Equal(a.Moves, b.Moves) }) {
		t.Errorf("got %+v, want %+v", ops, want)
	}
}

// TestReadFile reads a file of openings, and names the file in the error of a bad one and
// of one that is missing.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.txt"), filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(good, []byte("c4 c3\nf5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("c4 c4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ops, err := opening.ReadFile(good, othello.New())
	if err != nil || len(ops) != 2 || ops[1].String() != "f5" {
		t.Fatalf("ReadFile(good) = %v, %v", ops, err)
	}
	for _, c := range []struct{ path, want string }{{bad, "bad.txt: openings line 1"}, {filepath.Join(dir, "none.txt"), "none.txt: no such file"}} {
		if _, err := opening.ReadFile(c.path, othello.New()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadFile(%s): %v, want an error with %q", c.path, err, c.want)
		}
	}
}

func TestParsePass(t *testing.T) {
	// "pass" parses as a move, and is refused by legality where it is not forced.
	_, err := opening.Parse(strings.NewReader("pass\n"), othello.New())
	var le *opening.LineError
	if !errors.As(err, &le) || le.Line != 1 || le.Move != 1 || !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("pass at the start: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	long := strings.Repeat("c4 ", opening.MaxLineBytes/3) + "c3"
	tests := []struct {
		name    string
		in      string
		line    int // 0: not a *LineError
		move    int
		is      error
		message string // a part of the message
	}{
		{"empty file", "", 0, 0, opening.ErrEmpty, "no opening"},
		{"only comments", "# a\n\n   \n#b\n", 0, 0, opening.ErrEmpty, "no opening"},
		{"bad notation", "c4\nc4 c3 z9\n", 2, 3, game.ErrBadMove, `openings line 2: move 3 "z9"`},
		{"illegal move", "\n\n\nc4 c3 d3 a1\n", 4, 4, game.ErrIllegalMove, `openings line 4: move 4 "a1": not a legal move`},
		{"occupied square", "d4\n", 1, 1, game.ErrIllegalMove, "not a legal move"},
		{"duplicate", "c4 c3\nf5 d6\n# x\nC4,c3\n", 4, 0, opening.ErrDuplicate, "openings line 4: same opening as line 1"},
		{"only commas", "c4\n , ,\n", 2, 0, nil, "no moves"},
		{"too many moves", strings.Repeat("c4 ", opening.MaxMoves+1), 1, 0, opening.ErrLimit, "more than 200"},
		{"line too long", "c4\n" + long + "\n", 2, 0, opening.ErrLimit, "longer than 4096 bytes"},
		{"line too long at the end", "c4\n" + strings.Repeat(" ", opening.MaxLineBytes+10), 2, 0, opening.ErrLimit, "longer than"},
		{"comment too long", strings.Repeat("#", opening.MaxLineBytes+1) + "\nc4\n", 1, 0, opening.ErrLimit, "longer than"},
		{"non-ASCII", "c4 ｃ３\n", 1, 2, game.ErrBadMove, "move 2"},
		{"NUL", "c4\x00c3\n", 1, 1, game.ErrBadMove, "move 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops, err := opening.Parse(strings.NewReader(tt.in), othello.New())
			if err == nil {
				t.Fatalf("no error; got %d openings", len(ops))
			}
			if ops != nil {
				t.Errorf("openings returned with the error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("error %q does not say %q", err, tt.message)
			}
			var le *opening.LineError
			if tt.line == 0 {
				if errors.As(err, &le) {
					t.Errorf("a line error %v, want a file error", err)
				}
				return
			}
			if !errors.As(err, &le) || le.Line != tt.line || le.Move != tt.move {
				t.Fatalf("error %#v, want line %d move %d", err, tt.line, tt.move)
			}
		})
	}
}

func TestParseLineLimitExact(t *testing.T) {
	// A line of exactly MaxLineBytes is fine, with either line ending.
	line := "c4 c3" + strings.Repeat(" ", opening.MaxLineBytes-5)
	for _, end := range []string{"", "\n", "\r\n"} {
		if _, err := opening.Parse(strings.NewReader(line+end), othello.New()); err != nil {
			t.Errorf("ending %q: %v", end, err)
		}
	}
}

func TestParseEndsGame(t *testing.T) {
	// In testcount:target=3, "1 2" reaches the target.
	_, err := opening.Parse(strings.NewReader("1\n1 2\n"), testgame.NewCount(3))
	var le *opening.LineError
	if !errors.Is(err, opening.ErrEndsGame) || !errors.As(err, &le) || le.Line != 2 || le.Move != 2 {
		t.Fatalf("error %v, want ErrEndsGame at line 2, move 2", err)
	}
	if !strings.Contains(err.Error(), `openings line 2: move 2 "2": ends the game`) {
		t.Errorf("message %q", err)
	}
	// A move after the end is refused as such.
	_, err = opening.Parse(strings.NewReader("2 1 1\n"), testgame.NewCount(3))
	if !errors.Is(err, game.ErrGameOver) || !errors.As(err, &le) || le.Move != 3 {
		t.Errorf("move after the end: %v", err)
	}
}

func TestParseSimultaneous(t *testing.T) {
	g, err := game.Lookup("testpennies")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := opening.Parse(strings.NewReader("H\n"), g); !errors.Is(err, opening.ErrUnsupported) {
		t.Errorf("error %v, want ErrUnsupported", err)
	}
}

func TestParseManyLines(t *testing.T) {
	// More openings than allowed: the error comes at the first line past the limit and
	// the reader is not read further.
	var b strings.Builder
	for i := range opening.MaxOpenings + 1 {
		// Distinct openings of testcount are sequences of 1 and 2 summing below the target.
		for bit := range 17 {
			b.WriteString(fmt.Sprint(1 + (i>>bit)&1))
			b.WriteByte(' ')
		}
		b.WriteByte('\n')
	}
	_, err := opening.Parse(strings.NewReader(b.String()), testgame.NewCount(100))
	var le *opening.LineError
	if !errors.Is(err, opening.ErrLimit) || !errors.As(err, &le) || le.Line != opening.MaxOpenings+1 {
		t.Fatalf("error %v, want ErrLimit at line %d", err, opening.MaxOpenings+1)
	}

	// Lines are limited too, comments included.
	r := io.MultiReader(strings.NewReader(strings.Repeat("#\n", opening.MaxLines)), strings.NewReader("1\n"))
	if _, err := opening.Parse(r, testgame.NewCount(10)); !errors.Is(err, opening.ErrLimit) || !errors.As(err, &le) || le.Line != opening.MaxLines+1 {
		t.Fatalf("error %v, want ErrLimit at line %d", err, opening.MaxLines+1)
	}
}

func TestParseReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	r := io.MultiReader(strings.NewReader("c4 c3\n"), iotest.ErrReader(boom))
	if _, err := opening.Parse(r, othello.New()); !errors.Is(err, boom) || !strings.Contains(err.Error(), "after line 1") {
		t.Errorf("error %v, want the reader's error after line 1", err)
	}
}

func TestWrite(t *testing.T) {
	ops := []opening.Opening{{Line: 9, Moves: moves("c4 c3")}, {Moves: moves("d3 c5 f6")}}
	var buf bytes.Buffer
	if err := opening.Write(&buf, []string{"Title", "", "two\nlines  "}, ops); err != nil {
		t.Fatal(err)
	}
	want := "# Title\n#\n# two\n# lines\nc4 c3\nd3 c5 f6\n"
	if buf.String() != want {
		t.Errorf("wrote %q, want %q", buf.String(), want)
	}
	back, err := opening.Parse(&buf, othello.New())
	if err != nil || !slices.Equal(movesOf(back), movesOf(ops)) || back[0].Line != 5 {
		t.Errorf("read back %+v, %v", back, err)
	}
}

func TestWriteRefuses(t *testing.T) {
	tests := []struct {
		name string
		ops  []opening.Opening
		is   error
	}{
		{"none", nil, opening.ErrEmpty},
		{"empty opening", []opening.Opening{{Moves: nil}}, nil},
		{"empty move", []opening.Opening{{Moves: []string{"c4", ""}}}, nil},
		{"space in a move", []opening.Opening{{Moves: []string{"c4 c3"}}}, nil},
		{"comma in a move", []opening.Opening{{Moves: []string{"c4,c3"}}}, nil},
		{"comment", []opening.Opening{{Moves: []string{"#c4"}}}, nil},
		{"duplicate", []opening.Opening{{Moves: moves("c4 c3")}, {Moves: moves("c4 e3")}, {Moves: moves("c4 c3")}}, opening.ErrDuplicate},
		{"too many moves", []opening.Opening{{Moves: slices.Repeat([]string{"c4"}, opening.MaxMoves+1)}}, opening.ErrLimit},
		{"line too long", []opening.Opening{{Moves: []string{strings.Repeat("x", opening.MaxLineBytes+1)}}}, opening.ErrLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := opening.Write(&buf, []string{"header"}, tt.ops)
			if err == nil || (tt.is != nil && !errors.Is(err, tt.is)) {
				t.Fatalf("error %v, want one (wrapping %v)", err, tt.is)
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %q before failing", buf.String())
			}
		})
	}
	var buf bytes.Buffer
	if err := opening.Write(&buf, []string{strings.Repeat("h", opening.MaxLineBytes)}, []opening.Opening{{Moves: moves("c4")}}); !errors.Is(err, opening.ErrLimit) {
		t.Errorf("overlong header: %v", err)
	}
	boom := errors.New("full")
	if err := opening.Write(errWriter{boom}, nil, []opening.Opening{{Moves: moves("c4")}}); !errors.Is(err, boom) {
		t.Errorf("failing writer: %v", err)
	}
}

type errWriter struct{ err error }

func (w errWriter) Write([]byte) (int, error) { return 0, w.err }
