package gnugo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrProtocol is what a reply that is not GTP wraps: a first line that starts with
// neither "=" nor "?", a bad id, or a reply too long to be one.
var ErrProtocol = errors.New("gnugo: not a GTP reply")

// Limits on a reply, so that a program that floods its output is an error, not memory
// without end. GNU Go's longest answers (printsgf of a full 19x19 game, showboard) are a
// few kilobytes.
const (
	maxLine  = 64 << 10
	maxReply = 1 << 20
)

// reply is one GTP response: success ("=") or failure ("?"), the id it echoes (-1 when
// none), and its text with the marker and id removed, lines joined by "\n" and surrounding
// white space trimmed.
type reply struct {
	ok   bool
	id   int
	text string
}

// readReply reads one response: a line starting with "=" or "?" (blank lines before it
// are skipped), then lines up to the blank line that ends it. Carriage returns before a
// newline are dropped. End of input before any reply is io.EOF; inside one it is
// io.ErrUnexpectedEOF.
func readReply(r *bufio.Reader) (reply, error) {
	var first string
	for {
		line, err := readLine(r)
		if err != nil {
			return reply{}, err
		}
		if strings.TrimSpace(line) != "" {
			first = line
			break
		}
	}
	var rep reply
	switch first[0] {
	case '=':
		rep.ok = true
	case '?':
	default:
		return reply{}, fmt.Errorf("%w: %q", ErrProtocol, clip(first))
	}
	rest := first[1:]
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	rep.id = -1
	if digits > 0 {
		id, err := strconv.Atoi(rest[:digits])
		if err != nil || digits > 9 {
			return reply{}, fmt.Errorf("%w: bad id in %q", ErrProtocol, clip(first))
		}
		rep.id = id
	}
	rest = rest[digits:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return reply{}, fmt.Errorf("%w: %q", ErrProtocol, clip(first))
	}
	var b strings.Builder
	b.WriteString(rest)
	for {
		line, err := readLine(r)
		if errors.Is(err, io.EOF) {
			return reply{}, io.ErrUnexpectedEOF
		}
		if err != nil {
			return reply{}, err
		}
		if line == "" {
			break
		}
		if b.Len()+len(line) > maxReply {
			return reply{}, fmt.Errorf("%w: longer than %d bytes", ErrProtocol, maxReply)
		}
		b.WriteByte('\n')
		b.WriteString(line)
	}
	rep.text = strings.TrimSpace(b.String())
	return rep, nil
}

// readLine reads one line without its "\n" (or "\r\n"). A line longer than maxLine is an
// error; a last line without "\n" is returned, and io.EOF after it.
func readLine(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			if errors.Is(err, io.EOF) && len(b) > 0 {
				break
			}
			return "", err
		}
		b = append(b, chunk...)
		if len(b) > maxLine {
			return "", fmt.Errorf("%w: a line longer than %d bytes", ErrProtocol, maxLine)
		}
		if !isPrefix {
			break
		}
	}
	return strings.TrimSuffix(string(b), "\r"), nil
}

// clip shortens text quoted in an error.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
