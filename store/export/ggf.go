package export

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/arenaref/arena/store"
)

// ggfGame is one GGF game, ready to write.
type ggfGame struct {
	site, date   string
	black, white string // the players of seat 0 and seat 1
	result       string // RE, "" when the game has no result
	size         int
	board        string // size*size squares from a1, rank by rank: 'X', 'O' or '-'
	side         byte   // 'X' or 'O', the colour to move first
	moves        []string
}

// WriteGGF writes Othello games in GGS's Generic Game Format, one per line: see the
// package documentation for the board layout and the result. A game that is not Othello
// (on an even board from 4x4 to 26x26), or whose moves do not alternate between the
// colours from its start position, is an error wrapping ErrUnsupported, and nothing is
// written then.
func WriteGGF(w io.Writer, games []store.Game) error {
	var buf bytes.Buffer
	for i, g := range games {
		gg, err := ggfFromGame(g)
		if err == nil {
			err = writeGGFGame(&buf, gg)
		}
		if err != nil {
			return fmt.Errorf("export ggf: %s: %w", gameLabel(i, g), err)
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func ggfFromGame(g store.Game) (ggfGame, error) {
	n, ok := othelloSize(g.Game)
	if !ok {
		return ggfGame{}, fmt.Errorf("%w: GGF holds Othello games, not %q", ErrUnsupported, g.Game)
	}
	if len(g.Players) != 2 {
		return ggfGame{}, fmt.Errorf("%w: Othello has two players, the game has %d", ErrUnsupported, len(g.Players))
	}
	gg := ggfGame{site: "arena", black: g.Players[0], white: g.Players[1], size: n}
	if !g.Started.IsZero() {
		gg.date = g.Started.UTC().Format("2006.01.02_15:04:05.UTC")
	}
	gg.board, gg.side = initialBoard(n), 'X'
	if g.StartPosition != "" {
		board, side, ok := parseBoard(g.StartPosition, n)
		if !ok {
			return ggfGame{}, fmt.Errorf("%w: start position %q is no %dx%d Othello position", ErrUnsupported, g.StartPosition, n, n)
		}
		gg.board, gg.side = board, side
	}
	first := 0 // the seat that moves first: 0 for black
	if gg.side == 'O' {
		first = 1
	}
	for i, text := range g.Opening {
		sq, ok := parseSquare(text, n)
		if !ok {
			return ggfGame{}, fmt.Errorf("%w: opening move %d %q is no square of a %dx%d board", ErrUnsupported, i+1, text, n, n)
		}
		gg.moves = append(gg.moves, ggfMoveText(sq))
	}
	for i, m := range g.Moves {
		sq, ok := parseSquare(m.Move, n)
		if !ok {
			return ggfGame{}, fmt.Errorf("%w: move %d %q is no square of a %dx%d board", ErrUnsupported, i+1, m.Move, n, n)
		}
		if want := (first + len(gg.moves)) % 2; m.Seat != want {
			return ggfGame{}, fmt.Errorf("%w: move %d %q is by seat %d where GGF needs seat %d: the colours do not alternate",
				ErrUnsupported, i+1, m.Move, m.Seat, want)
		}
		gg.moves = append(gg.moves, ggfMoveText(sq)+"//"+strconv.FormatFloat(m.Elapsed.Seconds(), 'f', 2, 64))
	}
	margin, known := 0, false
	if board, _, ok := parseBoard(g.FinalPosition, n); ok {
		margin, known = strings.Count(board, "X")-strings.Count(board, "O"), true
	}
	gg.result = ggfResult(g.Result, g.Reason, margin, known, n)
	return gg, nil
}

// ggfFromRecord is the GGF of a record, which has no start position, times or margin: the
// standard start position, and the whole board to the winner.
func ggfFromRecord(rec Record) (ggfGame, error) {
	n, ok := othelloSize(rec.Game)
	if !ok || rec.Board != 0 && rec.Board != n {
		return ggfGame{}, fmt.Errorf("%w: GGF holds Othello games, not %q on a board of %d", ErrUnsupported, rec.Game, rec.Board)
	}
	if !validResult(rec.Result) {
		return ggfGame{}, fmt.Errorf("%w: result %q", ErrUnsupported, rec.Result)
	}
	gg := ggfGame{
		site: rec.Site, date: rec.Date, black: rec.White, white: rec.Black, size: n,
		board: initialBoard(n), side: 'X', result: ggfResult(rec.Result, rec.Reason, 0, false, n),
	}
	for i, text := range rec.Moves {
		sq, ok := parseSquare(text, n)
		if !ok {
			return ggfGame{}, fmt.Errorf("%w: move %d %q is no square of a %dx%d board", ErrUnsupported, i+1, text, n, n)
		}
		gg.moves = append(gg.moves, ggfMoveText(sq))
	}
	return gg, nil
}

// ggfResult writes RE: black's disc margin when the game was played out, the whole board
// to the winner with a flag when it was not (see the package documentation), "" for a
// game without a result.
func ggfResult(result, reason string, margin int, known bool, n int) string {
	v := 0
	switch result {
	case store.ResultFirstWins:
		v = n * n
		if (reason == "normal" || reason == "") && known && margin > 0 {
			v = margin
		}
	case store.ResultSecondWins:
		v = -n * n
		if (reason == "normal" || reason == "") && known && margin < 0 {
			v = margin
		}
	case store.ResultDraw:
	default:
		return ""
	}
	text := strconv.FormatFloat(float64(v), 'f', 2, 64)
	if v > 0 {
		text = "+" + text
	}
	switch {
	case reason == "score":
		return text + ":s"
	case reason == "time_forfeit":
		return text + ":t"
	case reason == "resigned":
		return text + ":r"
	case result == store.ResultDraw || reason == "normal" || reason == "":
		return text
	}
	return text + ":r" // another forfeit, for which GGF has no word of its own
}

// ggfMoveText writes a square in GGF: the square itself, or PA for a pass.
func ggfMoveText(sq string) string {
	if sq == "pass" {
		return "PA"
	}
	return sq
}

// initialBoard is the start position of Othello on an n by n board, in the square order
// of Arena's position text: the four centre squares occupied, white on the two that lie
// on the a1 diagonal.
func initialBoard(n int) string {
	b := []byte(strings.Repeat("-", n*n))
	c := n/2 - 1
	b[c*n+c], b[(c+1)*n+c+1] = 'O', 'O'
	b[c*n+c+1], b[(c+1)*n+c] = 'X', 'X'
	return string(b)
}

// parseBoard reads an Othello position in Arena's notation (n*n squares from a1, rank by
// rank, 'X', 'O' or '-', a space and the colour to move) and returns its squares and side.
func parseBoard(text string, n int) (board string, side byte, ok bool) {
	if len(text) != n*n+2 || text[n*n] != ' ' || strings.Trim(text[:n*n], "XO-") != "" {
		return "", 0, false
	}
	side = text[n*n+1]
	return text[:n*n], side, side == 'X' || side == 'O'
}

// parseSquare reads a move on an n by n board, a square such as "d3" or a pass, in any
// case, and returns it as Arena writes it: "d3" or "pass". GGF's "pa" is a pass too.
func parseSquare(text string, n int) (string, bool) {
	t := strings.ToLower(text)
	if t == "pass" || t == "pa" {
		return "pass", true
	}
	if len(t) < 2 || t[0] < 'a' || int(t[0]-'a') >= n {
		return "", false
	}
	rank, ok := atoiNonNeg(t[1:])
	if !ok || rank < 1 || rank > n {
		return "", false
	}
	return t[:1] + strconv.Itoa(rank), true
}

func writeGGFGame(buf *bytes.Buffer, gg ggfGame) error {
	for _, v := range []string{gg.site, gg.date, gg.black, gg.white} {
		if hasControl(v) {
			return fmt.Errorf("%w: %q has a control character", ErrUnsupported, v)
		}
	}
	prop := func(name, value string) {
		buf.WriteString(name + "[")
		for i := 0; i < len(value); i++ {
			if c := value[i]; c == '\\' || c == ']' {
				buf.WriteByte('\\')
			}
			buf.WriteByte(value[i])
		}
		buf.WriteByte(']')
	}
	buf.WriteString("(;")
	prop("GM", "Othello")
	if gg.site != "" {
		prop("PC", gg.site)
	}
	if gg.date != "" {
		prop("DT", gg.date)
	}
	prop("PB", gg.black)
	prop("PW", gg.white)
	if gg.result != "" {
		prop("RE", gg.result)
	}
	n := strconv.Itoa(gg.size)
	prop("TY", n)
	var bo strings.Builder
	bo.WriteString(n)
	for r := range gg.size {
		bo.WriteByte(' ')
		bo.WriteString(strings.ReplaceAll(gg.board[r*gg.size:(r+1)*gg.size], "X", "*"))
	}
	bo.WriteString(" " + ggfColour(gg.side))
	prop("BO", bo.String())
	colour := gg.side
	for _, m := range gg.moves {
		if colour == 'X' {
			prop("B", m)
			colour = 'O'
		} else {
			prop("W", m)
			colour = 'X'
		}
	}
	buf.WriteString(";)\n")
	return nil
}

// ggfColour is GGF's mark for a colour of Arena's notation.
func ggfColour(c byte) string {
	if c == 'X' {
		return "*"
	}
	return "O"
}

// ReadGGF reads the Othello games of a GGF file. Properties other than GM, PC, DT, PB, PW,
// RE, BO, B and W are ignored; each game needs GM[Othello] and BO, on an even board from
// 4x4 to 26x26, and its moves must alternate between the colours from the side to move of
// BO, passes included. Moves come back as Arena writes them ("d3", "pass"), without the
// evaluation and time GGF may add. Errors wrap ErrMalformed.
func ReadGGF(r io.Reader) ([]Record, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	var recs []Record
	for pos := 0; ; {
		pos = skipSpace(src, pos)
		if pos == len(src) {
			return recs, nil
		}
		rec, end, err := readGGFGame(src, pos)
		if err != nil {
			return nil, fmt.Errorf("%w: ggf game %d (byte %d): %w", ErrMalformed, len(recs)+1, pos, err)
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
func readGGFGame(src []byte, pos int) (Record, int, error) {
	var rec Record
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
		sq, ok := parseSquare(text, n)
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
	n, ok := atoiNonNeg(size)
	if !ok || !validBoard(n) {
		return 0, 0, fmt.Errorf("BO %q: the board size is not an even number from 4 to %d", bo, maxBoard)
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
