package export

import (
	"bytes"
	"fmt"
	"io"
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

// WriteGGFRecords writes records in GGF, one game a line, the way WriteGGF writes games,
// so that whatever exporttest.ReadGGF reads can be written again. A record has no start
// position, times or disc margin: its game starts from the standard position, and a
// result other than a draw gives the winner the whole board. A record that is not of
// Othello, or whose moves are not squares, is an error wrapping ErrUnsupported, and
// nothing is written then.
func WriteGGFRecords(w io.Writer, recs []Record) error {
	var buf bytes.Buffer
	for i, rec := range recs {
		gg, err := ggfFromRecord(rec)
		if err == nil {
			err = writeGGFGame(&buf, gg)
		}
		if err != nil {
			return fmt.Errorf("export ggf: record %d: %w", i+1, err)
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func ggfFromGame(g store.Game) (ggfGame, error) {
	n, ok := OthelloSize(g.Game)
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
		sq, ok := ParseSquare(text, n)
		if !ok {
			return ggfGame{}, fmt.Errorf("%w: opening move %d %q is no square of a %dx%d board", ErrUnsupported, i+1, text, n, n)
		}
		gg.moves = append(gg.moves, ggfMoveText(sq))
	}
	for i, m := range g.Moves {
		sq, ok := ParseSquare(m.Move, n)
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
	n, ok := OthelloSize(rec.Game)
	if !ok || rec.Board != 0 && rec.Board != n {
		return ggfGame{}, fmt.Errorf("%w: GGF holds Othello games, not %q on a board of %d", ErrUnsupported, rec.Game, rec.Board)
	}
	if !ValidResult(rec.Result) {
		return ggfGame{}, fmt.Errorf("%w: result %q", ErrUnsupported, rec.Result)
	}
	gg := ggfGame{
		site: rec.Site, date: rec.Date, black: rec.White, white: rec.Black, size: n,
		board: initialBoard(n), side: 'X', result: ggfResult(rec.Result, rec.Reason, 0, false, n),
	}
	for i, text := range rec.Moves {
		sq, ok := ParseSquare(text, n)
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

// ParseSquare reads a move on an n by n board, a square such as "d3" or a pass, in any
// case, and returns it as Arena writes it: "d3" or "pass". GGF's "pa" is a pass too.
func ParseSquare(text string, n int) (string, bool) {
	t := strings.ToLower(text)
	if t == "pass" || t == "pa" {
		return "pass", true
	}
	if len(t) < 2 || t[0] < 'a' || int(t[0]-'a') >= n {
		return "", false
	}
	rank, ok := ParseDigits(t[1:])
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
