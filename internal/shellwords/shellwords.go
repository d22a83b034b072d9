// Package shellwords reads a command line as a POSIX shell reads its quoting, and nothing
// else: the cmd setting of an engine named in a tournament (cmd=python3 'my engine.py').
// Nothing is expanded, since no shell runs: $HOME, ~, *, `...` and ; are plain characters.
// The text may come from anyone who writes a tournament file, so every input either splits
// or is an error; none panics (FuzzSplit).
package shellwords

import (
	"errors"
	"strings"
)

// Errors of Split and Fields.
var (
	ErrUnterminated = errors.New("shellwords: unterminated quote")
	ErrTrailing     = errors.New("shellwords: backslash at the end")
)

// unit is one step of the scan: a character outside quotes, a backslash and the character
// it escapes, or a whole quoted string.
type unit struct {
	end   int    // the index after the unit
	text  string // what it stands for: the character, or the quoted string's contents
	plain bool   // a character outside quotes, unescaped: the only kind that separates
}

// next reads the unit of s that starts at i.
func next(s string, i int) (unit, error) {
	switch s[i] {
	case '\'':
		j := strings.IndexByte(s[i+1:], '\'')
		if j < 0 {
			return unit{}, ErrUnterminated
		}
		return unit{end: i + 2 + j, text: s[i+1 : i+1+j]}, nil
	case '"':
		var b strings.Builder
		for j := i + 1; j < len(s); j++ {
			switch c := s[j]; {
			case c == '"':
				return unit{end: j + 1, text: b.String()}, nil
			case c == '\\' && j+1 < len(s) && strings.IndexByte("\\\"$`", s[j+1]) >= 0:
				// In double quotes a backslash escapes only these, as in a shell.
				b.WriteByte(s[j+1])
				j++
			default:
				b.WriteByte(c)
			}
		}
		return unit{}, ErrUnterminated
	case '\\':
		if i+1 == len(s) {
			return unit{}, ErrTrailing
		}
		return unit{end: i + 2, text: s[i+1 : i+2]}, nil
	}
	return unit{end: i + 1, text: s[i : i+1], plain: true}, nil
}

// blank reports whether c separates words.
func blank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Split returns the words of s, split at runs of blanks (space, tab, newline) outside
// quotes, as a POSIX shell splits a command line with quoting alone. Single quotes keep
// everything up to the next single quote; double quotes keep everything up to the next
// double quote that is not escaped, a backslash escaping only \ " $ and ` there; outside
// quotes a backslash keeps the next character. Quotes may join parts of one word
// (--name="a b" is the word --name=a b), and an empty pair of quotes is an empty word.
// An unterminated quote and a backslash at the end are errors.
func Split(s string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	for i := 0; i < len(s); {
		u, err := next(s, i)
		if err != nil {
			return nil, err
		}
		i = u.end
		if u.plain && blank(u.text[0]) {
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
			continue
		}
		word.WriteString(u.text)
		inWord = true
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}

// Fields cuts s at every sep that is outside quotes (as Split reads them) and returns the
// pieces as they are, quotes and backslashes kept, for Split to read later: a list whose
// items may hold quoted commands. sep must be an ASCII character other than a quote or a
// backslash. The pieces joined with sep are s.
func Fields(s string, sep byte) ([]string, error) {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		u, err := next(s, i)
		if err != nil {
			return nil, err
		}
		if u.plain && u.text[0] == sep {
			out = append(out, s[start:i])
			start = u.end
		}
		i = u.end
	}
	return append(out, s[start:]), nil
}

// Join is words as a command line that Split reads back as words: a word with anything
// but letters, digits and -_./=:,+@% in it (or an empty one) is single-quoted. It is for
// messages that show a command.
func Join(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = Quote(w)
	}
	return strings.Join(out, " ")
}

// Quote is word as Split reads it back: itself when it holds only letters, digits and
// -_./=:,+@%, else in single quotes, a single quote in it closing them, escaped, and
// opening them again.
func Quote(word string) string {
	if word != "" && strings.Trim(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return word
	}
	return "'" + strings.ReplaceAll(word, "'", `'\''`) + "'"
}
