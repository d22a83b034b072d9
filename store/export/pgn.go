package export

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/arenaref/arena/store"
)

// pgnWidth is the width movetext lines stay under, as PGN's export format asks.
const pgnWidth = 80

// pgnTermination gives Arena's reason codes in the words of PGN's Termination tag. A
// resignation is a normal end in PGN; reasons not listed are written as they are.
var pgnTermination = map[string]string{
	"normal":         "normal",
	"resigned":       "normal",
	"crashed":        "abandoned",
	"time_forfeit":   "time forfeit",
	"illegal_move":   "rules infraction",
	"protocol_error": "rules infraction",
	"disconnected":   "abandoned",
	"no_responders":  "abandoned",
	"absent":         "abandoned",
	"max_plies":      "adjudication",
	"aborted":        "unterminated",
}

// tag is one PGN tag pair.
type tag struct{ name, value string }

// PDNEnglishDraughts is the PDN GameType of English checkers (draughts), in which Black
// moves first; give-away checkers is played on its board with its moves, so its games are
// written with it too (their Variant tag says giveaway).
const PDNEnglishDraughts = "21"

// isCheckers reports whether spec is a game on English checkers' board: checkers or
// giveaway, written as PDN with the first mover in the Black tag.
func isCheckers(spec string) bool {
	name, _, _ := strings.Cut(spec, ":")
	name = strings.TrimSpace(name)
	return name == "checkers" || name == "giveaway"
}

// WritePGN writes games as PGN, in the order given. Seat 0 is White and seat 1 Black, so
// that rating tools, which read White, Black and Result, score the games as Arena did;
// but checkers and giveaway games are written as PDN, where the first mover is Black:
// see the package documentation for the tags and the movetext. A game that does not have
// two players, a move that is not a PGN symbol and a tag value with a control character
// are errors wrapping ErrUnsupported, and nothing is written then.
func WritePGN(w io.Writer, games []store.Game, m Meta) error {
	var buf bytes.Buffer
	for i, g := range games {
		rec, extra, err := pgnRecord(g, m)
		if err == nil {
			err = writePGNGame(&buf, rec, extra)
		}
		if err != nil {
			return fmt.Errorf("export pgn: %s: %w", gameLabel(i, g), err)
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// WritePGNRecords writes records as PGN, the way WritePGN writes games but with the tags a
// record carries (no ArenaGame or ArenaOpeningPlies), so that whatever exporttest.ReadPGN
// reads can be written again. Errors are WritePGN's, and nothing is written then.
func WritePGNRecords(w io.Writer, recs []Record) error {
	var buf bytes.Buffer
	for i, rec := range recs {
		if err := writePGNGame(&buf, rec, nil); err != nil {
			return fmt.Errorf("export pgn: record %d: %w", i+1, err)
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// pgnRecord returns what the PGN of g says, and the tags that only a stored game has.
func pgnRecord(g store.Game, m Meta) (Record, []tag, error) {
	if len(g.Players) != 2 {
		return Record{}, nil, fmt.Errorf("%w: PGN has two players, the game has %d", ErrUnsupported, len(g.Players))
	}
	rec := Record{
		Event: m.Event, Site: m.Site, Date: "????.??.??", Round: RoundTag(g.Round, g.Index),
		White: g.Players[0], Black: g.Players[1], Result: g.Result, Reason: g.Reason,
		Moves: flatMoves(g), Game: g.Game,
	}
	rec.Board, _ = OthelloSize(g.Game)
	if rec.Event == "" && g.TournamentID > 0 {
		rec.Event = fmt.Sprintf("Arena tournament %d", g.TournamentID)
	}
	if rec.Event == "" {
		rec.Event = "?"
	}
	if rec.Site == "" {
		rec.Site = "?"
	}
	if !g.Started.IsZero() {
		rec.Date = g.Started.UTC().Format("2006.01.02")
	}
	var extra []tag
	if g.ID != 0 {
		extra = append(extra, tag{"ArenaGame", strconv.FormatInt(g.ID, 10)})
	}
	if len(g.Opening) > 0 {
		extra = append(extra, tag{"ArenaOpeningPlies", strconv.Itoa(len(g.Opening))})
	}
	return rec, extra, nil
}

// writePGNGame writes one game: its tags, a blank line, the movetext and a blank line.
func writePGNGame(buf *bytes.Buffer, rec Record, extra []tag) error {
	if !ValidResult(rec.Result) {
		return fmt.Errorf("%w: result %q", ErrUnsupported, rec.Result)
	}
	white, black := rec.White, rec.Black
	pdn := isCheckers(rec.Game)
	if pdn {
		// PDN names the first mover Black, and its Result is read from Black's side ("1-0":
		// Black won), which is seat 0's, as Arena's is: only the names change places.
		white, black = rec.Black, rec.White
	}
	tags := []tag{
		{"Event", rec.Event}, {"Site", rec.Site}, {"Date", rec.Date}, {"Round", rec.Round},
		{"White", white}, {"Black", black}, {"Result", rec.Result},
	}
	if rec.Game != "" {
		if name, _, _ := strings.Cut(rec.Game, ":"); strings.TrimSpace(name) != "" {
			tags = append(tags, tag{"Variant", strings.TrimSpace(name)})
		}
		tags = append(tags, tag{"GameSpec", rec.Game})
		if _, ok := OthelloSize(rec.Game); ok {
			tags = append(tags, tag{"WhiteSeat", "black"}, tag{"BlackSeat", "white"})
		}
		if pdn {
			tags = append(tags, tag{"GameType", PDNEnglishDraughts})
		}
	}
	if rec.Reason != "" {
		term, ok := pgnTermination[rec.Reason]
		if !ok {
			term = rec.Reason
		}
		tags = append(tags, tag{"Termination", term}, tag{"ArenaReason", rec.Reason})
	}
	tags = append(tags, tag{"PlyCount", strconv.Itoa(len(rec.Moves))})
	tags = append(tags, extra...)
	for _, t := range tags {
		if hasControl(t.value) {
			return fmt.Errorf("%w: the %s tag %q has a control character", ErrUnsupported, t.name, t.value)
		}
	}
	for _, mv := range rec.Moves {
		if !pgnMoveOK(mv) {
			return fmt.Errorf("%w: move %q is not a PGN symbol", ErrUnsupported, mv)
		}
	}

	for _, t := range tags {
		buf.WriteString("[" + t.name + ` "`)
		for i := 0; i < len(t.value); i++ {
			if c := t.value[i]; c == '\\' || c == '"' {
				buf.WriteByte('\\')
			}
			buf.WriteByte(t.value[i])
		}
		buf.WriteString("\"]\n")
	}
	buf.WriteByte('\n')

	line := 0 // the length of the movetext line being written
	put := func(tok string) {
		switch {
		case line == 0:
		case line+1+len(tok) >= pgnWidth:
			buf.WriteByte('\n')
			line = 0
		default:
			buf.WriteByte(' ')
			line++
		}
		buf.WriteString(tok)
		line += len(tok)
	}
	// A number and its move go on the same line, so the number is put with the move.
	joint := simultaneous(rec.Moves)
	for i, mv := range rec.Moves {
		switch {
		case joint:
			put(strconv.Itoa(i+1) + ". " + mv)
		case i%2 == 0:
			put(strconv.Itoa(i/2+1) + ". " + mv)
		default:
			put(mv)
		}
	}
	put(rec.Result)
	buf.WriteString("\n\n")
	return nil
}

// pgnMoveOK reports whether a move reads back from movetext as that one move: a PGN
// symbol (a letter or digit, then letters, digits and _+#=:-/) that is neither a move
// number (all digits) nor a game termination marker.
func pgnMoveOK(s string) bool {
	if s == "" || !IsPGNSymbolStart(s[0]) || IsPGNResult(s) || strings.Trim(s, "0123456789") == "" {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !IsPGNSymbolChar(s[i]) {
			return false
		}
	}
	return true
}

// IsPGNSymbolStart reports whether c may begin a PGN symbol (a move, a tag name): a letter
// or a digit.
func IsPGNSymbolStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// IsPGNSymbolChar reports whether c may continue a PGN symbol: a letter, a digit or one of
// _+#=:-/.
func IsPGNSymbolChar(c byte) bool {
	return IsPGNSymbolStart(c) || strings.IndexByte("_+#=:-/", c) >= 0
}

// IsPGNResult reports whether s is a PGN game termination marker other than "*", which
// movetext cannot mistake for a move, a symbol such as "1-0".
func IsPGNResult(s string) bool {
	return s == store.ResultFirstWins || s == store.ResultSecondWins || s == store.ResultDraw
}
