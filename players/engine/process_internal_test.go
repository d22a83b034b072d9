package engine

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", MaxLineLen)
	tests := []struct {
		name string
		in   string
		want []string // lines; a line of longer ones ends in "!" when ErrLineTooLong came with it
	}{
		{"empty", "", nil},
		{"lines", "a\nb c\n\n", []string{"a", "b c", ""}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"no last newline", "a\nb", []string{"a", "b"}},
		{"lone cr kept", "a\rb\n", []string{"a\rb"}},
		{"longest", long + "\r\nz\n", []string{long, "z"}},
		{"too long", long + "y\nz\n", []string{long[:quoteLen] + "!", "z"}},
		{"far too long", strings.Repeat("y", 3*MaxLineLen) + "\nz", []string{strings.Repeat("y", quoteLen) + "!", "z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(tt.in), 4096)
			var got []string
			for {
				line, err := readLine(br)
				if err == io.EOF {
					break
				}
				if errors.Is(err, ErrLineTooLong) {
					line += "!"
				} else if err != nil {
					t.Fatal(err)
				}
				got = append(got, line)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("lines %q, want %q", shorten(got), shorten(tt.want))
			}
		})
	}
}

func shorten(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) > 20 {
			l = l[:10] + "..." + l[len(l)-5:]
		}
		out[i] = l
	}
	return out
}

// FuzzReadLine: whatever an engine writes, the lines read back are bounded and, when none
// is too long, are the input split at its line endings.
func FuzzReadLine(f *testing.F) {
	for _, s := range []string{"", "a\nb", "a\r\n\r\n", "\r", strings.Repeat("z", MaxLineLen+3) + "\nq"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		br := bufio.NewReaderSize(strings.NewReader(in), 4096)
		var got []string
		long := false
		for n := 0; ; n++ {
			line, err := readLine(br)
			if err == io.EOF {
				break
			}
			if len(line) > MaxLineLen || n > len(in)+1 {
				t.Fatalf("line of %d bytes, or %d lines from %d bytes", len(line), n, len(in))
			}
			long = long || errors.Is(err, ErrLineTooLong)
			got = append(got, line)
		}
		if long {
			return
		}
		want := strings.Split(strings.ReplaceAll(in, "\r\n", "\n"), "\n")
		if strings.HasSuffix(in, "\n") {
			want = want[:len(want)-1]
		}
		if in == "" {
			want = nil
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) {
			t.Fatalf("read %q from %q, want %q", got, in, want)
		}
	})
}
