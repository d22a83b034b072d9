package exporttest

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/export"
)

// ReadGGF reads the Othello games of a GGF file. Properties other than GM, PC, DT, PB, PW,
// RE, BO, B and W are ignored; each game needs GM[Othello] and BO, on an even board from
// 4x4 to 26x26, and its moves must alternate between the colours from the side to move of
// BO, passes included. Moves come back as Arena writes them ("d3", "pass"), without the
// evaluation and time GGF may add. Errors wrap export.ErrMalformed.
func ReadGGF(r io.Reader) ([]export.Record, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	var recs []export.Record
	for pos := 0; ; {
		pos = skipSpace(src, pos)
		if pos == len(src) {
			return recs, nil
		}
		rec, end, err := readGGFGame(src, pos)
		if err != nil {
			return nil, fmt.Errorf("%w: ggf game %d (byte %d): %w", export.ErrMalformed, len(recs)+1, pos, err)
		}
		recs = append(recs, rec)
		pos = end
	}
}

func skipSpace(src []byte, pos int) int {
	for pos < len(src) && (src[pos] == ' ' || src[pos] == '\t' || src[pos] == '\n' || src[pos] == '\r') {
		pos++
	}
	return pos
}

// readGGFGame reads the game at src[pos:] and returns it with the position after it.
func readGGFGame(src []byte, pos int) (export.Record, int, error) {
	var rec export.Record
	if !bytes.HasPrefix(src[pos:], []byte("(;")) {
		return rec, 0, fmt.Errorf("a game starts with \"(;\"")
	}
	pos += 2
	props := map[string]string{}
	type move struct {
		colour byte
		text   string
	}
	var moves []move
	for {
		pos = skipSpace(src, pos)
		if bytes.HasPrefix(src[pos:], []byte(";)")) {
			pos += 2
			break
		}
		start := pos
		for pos < len(src) && 'A' <= src[pos] && src[pos] <= 'Z' {
			pos++
		}
		name := string(src[start:pos])
		if name == "" || pos == len(src) || src[pos] != '[' {
			return rec, 0, fmt.Errorf("byte %d: expected a property, NAME[value], or \";)\"", start)
		}
		var value strings.Builder
		for pos++; ; pos++ {
			if pos >= len(src) {
				return rec, 0, fmt.Errorf("property %s: no closing ']'", name)
			}
			c := src[pos]
			if c == '\\' && pos+1 < len(src) {
				pos++
				c = src[pos]
			} else if c == ']' {
				pos++
				break
			}
			if c < 0x20 || c == 0x7f {
				return rec, 0, fmt.Errorf("property %s: control character %q", name, c)
			}
			value.WriteByte(c)
		}
		switch name {
		case "B":
			moves = append(moves, move{'X', value.String()})
		case "W":
			moves = append(moves, move{'O', value.String()})
		default:
			props[name] = value.String()
		}
	}

	if gm, ok := props["GM"]; !ok || !strings.EqualFold(gm, "Othello") {
		return rec, 0, fmt.Errorf("GM is %q, not Othello", props["GM"])
	}
	bo, ok := props["BO"]
	if !ok {
		return rec, 0, fmt.Errorf("no BO")
	}
	n, side, err := parseGGFBoard(bo)
	if err != nil {
		return rec, 0, err
	}
	rec.Game, rec.Board = othelloSpec(n), n
	rec.Site, rec.Date, rec.White, rec.Black = props["PC"], props["DT"], props["PB"], props["PW"]
	rec.Result = store.ResultNone
	if re, ok := props["RE"]; ok {
		if rec.Result, rec.Reason, err = parseGGFResult(re); err != nil {
			return rec, 0, err
		}
	}
	colour := side
	for i, m := range moves {
		if m.colour != colour {
			return rec, 0, fmt.Errorf("move %d %q: the colours do not alternate", i+1, m.text)
		}
		colour ^= 'X' ^ 'O'
		text, _, _ := strings.Cut(m.text, "/")
		sq, ok := export.ParseSquare(text, n)
		if !ok {
			return rec, 0, fmt.Errorf("move %d %q is no square of a %dx%d board", i+1, m.text, n, n)
		}
		rec.Moves = append(rec.Moves, sq)
	}
	return rec, pos, nil
}

// parseGGFBoard reads BO: the board size, the squares row by row ('*', 'O', '-'), white
// space between them allowed, and the side to move. It returns the side in Arena's
// notation, 'X' or 'O'.
func parseGGFBoard(bo string) (n int, side byte, err error) {
	size, rest, _ := strings.Cut(strings.TrimLeft(bo, " "), " ")
	n, ok := export.ParseDigits(size)
	if !ok || !export.ValidBoard(n) {
		return 0, 0, fmt.Errorf("BO %q: the board size is not an even number from 4 to %d", bo, export.MaxBoard)
	}
	marks := strings.Join(strings.Fields(rest), "")
	if len(marks) != n*n+1 || strings.Trim(marks[:n*n], "*O-") != "" {
		return 0, 0, fmt.Errorf("BO %q: a %dx%d board is %d squares of '*', 'O' or '-' and the side to move", bo, n, n, n*n)
	}
	switch marks[n*n] {
	case '*':
		return n, 'X', nil
	case 'O':
		return n, 'O', nil
	}
	return 0, 0, fmt.Errorf("BO %q: the side to move is neither '*' nor 'O'", bo)
}

// parseGGFResult reads RE, black's score with an optional flag, as a result and a reason.
func parseGGFResult(re string) (result, reason string, err error) {
	value, flag, _ := strings.Cut(re, ":")
	v, err := strconv.ParseFloat(value, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return "", "", fmt.Errorf("RE %q: the score is not a number", re)
	}
	switch flag {
	case "":
		reason = "normal"
	case "t":
		reason = "time_forfeit"
	case "r":
		reason = "resigned"
	case "s":
		reason = "score"
	default:
		return "", "", fmt.Errorf("RE %q: unknown flag %q", re, flag)
	}
	switch {
	case v > 0:
		return store.ResultFirstWins, reason, nil
	case v < 0:
		return store.ResultSecondWins, reason, nil
	}
	return store.ResultDraw, reason, nil
}

// othelloSpec is the canonical spec of Othello on an n by n board, as games/othello
// names it.
func othelloSpec(n int) string {
	if n == 8 {
		return "othello"
	}
	return "othello:size=" + strconv.Itoa(n)
}
