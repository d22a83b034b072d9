package shellwords

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
		err  error
	}{
		{"empty", "", nil, nil},
		{"blanks only", " \t\n ", nil, nil},
		{"words", "python3 mine.py --seed 1", []string{"python3", "mine.py", "--seed", "1"}, nil},
		{"runs of blanks", "  a\t\tb \n c  ", []string{"a", "b", "c"}, nil},
		{"single quotes", "python3 'my engine.py'", []string{"python3", "my engine.py"}, nil},
		{"double quotes", `python3 "my engine.py"`, []string{"python3", "my engine.py"}, nil},
		{"quotes inside a word", `--name="a b"c`, []string{"--name=a bc"}, nil},
		{"empty quotes are a word", `a '' ""`, []string{"a", "", ""}, nil},
		{"single quotes keep backslashes", `'a\b' 'c"d'`, []string{`a\b`, `c"d`}, nil},
		{"double quotes escape four", `"\\ \" \$ \a"`, []string{`\ " $ \a`}, nil},
		{"double quotes keep single", `"it's"`, []string{"it's"}, nil},
		{"backslash outside quotes", `my\ engine \'x`, []string{"my engine", "'x"}, nil},
		{"nothing expanded", "echo $HOME ~ * `id` ; rm", []string{"echo", "$HOME", "~", "*", "`id`", ";", "rm"}, nil},
		{"colons and commas", "java -cp a.jar:b.jar Main,x", []string{"java", "-cp", "a.jar:b.jar", "Main,x"}, nil},
		{"utf-8", "moteur 'é ü'", []string{"moteur", "é ü"}, nil},
		{"unterminated single", "a 'b", nil, ErrUnterminated},
		{"unterminated double", `a "b\"`, nil, ErrUnterminated},
		{"trailing backslash", `a b\`, nil, ErrTrailing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Split(tt.in)
			if !errors.Is(err, tt.err) || !slices.Equal(got, tt.want) {
				t.Fatalf("Split(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
			}
		})
	}
}

func TestFields(t *testing.T) {
	tests := []struct {
		name string
		in   string
		sep  byte
		want []string
		err  error
	}{
		{"empty", "", ':', []string{""}, nil},
		{"plain", "engine:cmd=x:proto=gtp", ':', []string{"engine", "cmd=x", "proto=gtp"}, nil},
		{"quoted colon kept", `engine:cmd=java -cp 'a:b' Main:proto=line`, ':', []string{"engine", "cmd=java -cp 'a:b' Main", "proto=line"}, nil},
		{"escaped colon kept", `cmd=a\:b:x`, ':', []string{`cmd=a\:b`, "x"}, nil},
		{"quoted comma", `a=engine:cmd="x,y",hp1`, ',', []string{`a=engine:cmd="x,y"`, "hp1"}, nil},
		{"empty pieces", "a,,b,", ',', []string{"a", "", "b", ""}, nil},
		{"unterminated", "a,'b", ',', nil, ErrUnterminated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Fields(tt.in, tt.sep)
			if !errors.Is(err, tt.err) || !slices.Equal(got, tt.want) {
				t.Fatalf("Fields(%q, %q) = %q, %v; want %q, %v", tt.in, tt.sep, got, err, tt.want, tt.err)
			}
		})
	}
}

func TestJoin(t *testing.T) {
	words := []string{"python3", "my engine.py", "", "it's", "--x=1", "$HOME"}
	line := Join(words)
	if want := `python3 'my engine.py' '' 'it'\''s' --x=1 '$HOME'`; line != want {
		t.Errorf("Join = %s, want %s", line, want)
	}
	if back, err := Split(line); err != nil || !slices.Equal(back, words) {
		t.Errorf("Split(Join(words)) = %q, %v; want %q", back, err, words)
	}
}

// FuzzSplit checks that any text splits or is refused without a panic; that what splits
// gives words that Join writes back and Split reads again as the same words; and that
// Fields' pieces join back to the text.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"", "a b", `a 'b c' "d\"e" f\ g`, `'unterminated`, `x\`, "a:b,'c:d'", "\x00 é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := Split(s)
		if err != nil {
			if !errors.Is(err, ErrUnterminated) && !errors.Is(err, ErrTrailing) {
				t.Fatalf("Split(%q): unexpected error %v", s, err)
			}
		} else if back, err := Split(Join(words)); err != nil || !slices.Equal(back, words) {
			t.Fatalf("Split(%q) = %q; Join gives %q, read back as %q, %v", s, words, Join(words), back, err)
		}
		for _, sep := range []byte{':', ','} {
			pieces, ferr := Fields(s, sep)
			if (ferr == nil) != (err == nil) {
				t.Fatalf("Fields(%q) error %v, Split's %v: they read quotes alike", s, ferr, err)
			}
			if ferr == nil && strings.Join(pieces, string(sep)) != s {
				t.Fatalf("Fields(%q, %q) = %q: they do not join back", s, sep, pieces)
			}
		}
	})
}
