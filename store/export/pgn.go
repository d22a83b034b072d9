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

// pdnEnglishDraughts is the PDN GameType of English checkers (draughts), in which Black
// moves first; give-away checkers is played on its board with its moves, so its games are
// written with it too (their Variant tag says giveaway).
const pdnEnglishDraughts = "21"

// isCheckers reports whether spec is a game on English checkers' board: checkers or
// giveaway, written as PDN with the first mover in the Black tag.
func isCheckers(spec string) bool {
	name, _, _ := strings.Cut(spec, ":")
	name = strings.TrimSpace(name)
	return name == "checkers" || name == "giveaway"
}

// blackMovesFirst reports whether a PDN GameType tag says that Black moves first: by its
// start colour ("21,B,8,8,N1,0"), or, for a bare type number, for the types whose games
// Black begins (21 English draughts, 23 American pool checkers, 31 Thai draughts).
func blackMovesFirst(gameType string) bool {
	fields := strings.Split(gameType, ",")
	if len(fields) > 1 {
		return strings.TrimSpace(fields[1]) == "B"
	}
	switch strings.TrimSpace(fields[0]) {
	case "21", "23", "31":
		return true
	}
	return false
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

// pgnRecord returns what the PGN of g says, and the tags that only a stored game has.
func pgnRecord(g store.Game, m Meta) (Record, []tag, error) {
	if len(g.Players) != 2 {
		return Record{}, nil, fmt.Errorf("%w: PGN has two players, the game has %d", ErrUnsupported, len(g.Players))
	}
	rec := Record{
		Event: m.Event, Site: m.Site, Date: "????.??.??", Round: roundTag(g.Round, g.Index),
		White: g.Players[0], Black: g.Players[1], Result: g.Result, Reason: g.Reason,
		Moves: flatMoves(g), Game: g.Game,
	}
	rec.Board, _ = othelloSize(g.Game)
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
	if !validResult(rec.Result) {
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
		if _, ok := othelloSize(rec.Game); ok {
			tags = append(tags, tag{"WhiteSeat", "black"}, tag{"BlackSeat", "white"})
		}
		if pdn {
			tags = append(tags, tag{"GameType", pdnEnglishDraughts})
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
	if s == "" || !isSymbolStart(s[0]) || isPGNResult(s) || strings.Trim(s, "0123456789") == "" {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isSymbolChar(s[i]) {
			return false
		}
	}
	return true
}

func isSymbolStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isSymbolChar(c byte) bool {
	return isSymbolStart(c) || strings.IndexByte("_+#=:-/", c) >= 0
}

func isPGNResult(s string) bool {
	return s == store.ResultFirstWins || s == store.ResultSecondWins || s == store.ResultDraw
}

// ReadPGN reads the games of a PGN file, or of a PDN file. It reads tag pairs and the main
// line of the movetext, skipping move numbers, comments, NAGs, annotation marks,
// variations and escape lines. The result is the Result tag or, without one, the
// termination marker; the two must agree, and a game needs one of them. A game whose
// GameType tag says Black moves first (PDN's English checkers, 21, as WritePGN writes
// checkers and giveaway) has its Black player in Record.White, the first mover's seat;
// a game with GameType 21 and no Variant or GameSpec is "checkers". Any other tag not
// named by Record is ignored. Errors wrap ErrMalformed.
func ReadPGN(r io.Reader) ([]Record, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	p := &pgnParser{lex: pgnLexer{src: bytes.TrimPrefix(src, []byte("\uFEFF")), line: 1}}
	var recs []Record
	for {
		rec, ok, err := p.game()
		if err != nil {
			return nil, fmt.Errorf("%w: pgn game %d: %w", ErrMalformed, len(recs)+1, err)
		}
		if !ok {
			return recs, nil
		}
		recs = append(recs, rec)
	}
}

type pgnKind int

const (
	pgnEOF pgnKind = iota
	pgnSymbol
	pgnString
	pgnLBracket
	pgnRBracket
	pgnLParen
	pgnRParen
	pgnPeriod
	pgnStar
	pgnNAG
)

type pgnToken struct {
	kind pgnKind
	text string
	line int
}

// pgnLexer splits PGN into tokens, dropping white space, comments, escape lines and
// annotation marks.
type pgnLexer struct {
	src  []byte
	pos  int
	line int
}

func (l *pgnLexer) next() (pgnToken, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.line++
			l.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			l.pos++
		case c == '%' && (l.pos == 0 || l.src[l.pos-1] == '\n'), c == ';':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		case c == '{':
			end := bytes.IndexByte(l.src[l.pos:], '}')
			if end < 0 {
				return pgnToken{}, fmt.Errorf("line %d: unterminated comment", l.line)
			}
			l.line += bytes.Count(l.src[l.pos:l.pos+end], []byte("\n"))
			l.pos += end + 1
		case c == '!' || c == '?':
			l.pos++
		default:
			return l.token()
		}
	}
	return pgnToken{kind: pgnEOF, line: l.line}, nil
}

// token reads the token at l.pos, which is not white space, a comment or an annotation.
func (l *pgnLexer) token() (pgnToken, error) {
	start, c := l.pos, l.src[l.pos]
	tok := pgnToken{line: l.line}
	if k := strings.IndexByte("[]().*", c); k >= 0 {
		l.pos++
		kinds := [...]pgnKind{pgnLBracket, pgnRBracket, pgnLParen, pgnRParen, pgnPeriod, pgnStar}
		tok.kind, tok.text = kinds[k], string(c)
		return tok, nil
	}
	switch {
	case c == '"':
		var b strings.Builder
		for l.pos++; ; l.pos++ {
			if l.pos >= len(l.src) {
				return tok, fmt.Errorf("line %d: unterminated string", tok.line)
			}
			c := l.src[l.pos]
			switch {
			case c == '"':
				l.pos++
				tok.kind, tok.text = pgnString, b.String()
				return tok, nil
			case c < 0x20 || c == 0x7f:
				return tok, fmt.Errorf("line %d: control character %q in a string", l.line, c)
			case c == '\\' && l.pos+1 < len(l.src) && (l.src[l.pos+1] == '\\' || l.src[l.pos+1] == '"'):
				l.pos++
				b.WriteByte(l.src[l.pos])
			default:
				b.WriteByte(c)
			}
		}
	case c == '$':
		l.pos++
		for l.pos < len(l.src) && '0' <= l.src[l.pos] && l.src[l.pos] <= '9' {
			l.pos++
		}
		if l.pos == start+1 {
			return tok, fmt.Errorf("line %d: '$' without a number", l.line)
		}
		tok.kind = pgnNAG
		return tok, nil
	case isSymbolStart(c):
		for l.pos++; l.pos < len(l.src) && isSymbolChar(l.src[l.pos]); l.pos++ {
		}
		tok.kind, tok.text = pgnSymbol, string(l.src[start:l.pos])
		return tok, nil
	}
	return tok, fmt.Errorf("line %d: unexpected character %q", l.line, c)
}

// pgnParser reads games from the lexer's tokens, with one token of look-ahead.
type pgnParser struct {
	lex    pgnLexer
	peeked *pgnToken
}

func (p *pgnParser) next() (pgnToken, error) {
	if p.peeked != nil {
		t := *p.peeked
		p.peeked = nil
		return t, nil
	}
	return p.lex.next()
}

func (p *pgnParser) peek() (pgnToken, error) {
	t, err := p.next()
	if err == nil {
		p.peeked = &t
	}
	return t, err
}

// game reads one game; ok is false at the end of the input.
func (p *pgnParser) game() (rec Record, ok bool, err error) {
	tags := map[string]string{}
	for {
		t, err := p.peek()
		if err != nil {
			return rec, false, err
		}
		if t.kind != pgnLBracket {
			break
		}
		p.next()
		name, err := p.next()
		if err != nil {
			return rec, false, err
		}
		value, err := p.next()
		if err != nil {
			return rec, false, err
		}
		end, err := p.next()
		if err != nil {
			return rec, false, err
		}
		if name.kind != pgnSymbol || value.kind != pgnString || end.kind != pgnRBracket {
			return rec, false, fmt.Errorf("line %d: a tag pair is [Name \"value\"]", t.line)
		}
		tags[name.text] = value.text
	}

	var marker string
	depth := 0
movetext:
	for {
		t, err := p.next()
		if err != nil {
			return rec, false, err
		}
		switch t.kind {
		case pgnEOF:
			if depth > 0 {
				return rec, false, fmt.Errorf("line %d: unterminated variation", t.line)
			}
			break movetext
		case pgnLBracket:
			if depth > 0 {
				return rec, false, fmt.Errorf("line %d: tag pair inside a variation", t.line)
			}
			p.peeked = &t // the next game's tags, this one having no termination marker
			break movetext
		case pgnLParen:
			depth++
		case pgnRParen:
			if depth == 0 {
				return rec, false, fmt.Errorf("line %d: ')' outside a variation", t.line)
			}
			depth--
		case pgnString, pgnRBracket:
			return rec, false, fmt.Errorf("line %d: unexpected %q in movetext", t.line, t.text)
		case pgnStar, pgnSymbol:
			if depth > 0 {
				continue
			}
			if t.kind == pgnStar || isPGNResult(t.text) {
				marker = t.text
				break movetext
			}
			if strings.Trim(t.text, "0123456789") != "" { // not a move number
				rec.Moves = append(rec.Moves, t.text)
			}
		}
	}
	if len(tags) == 0 && len(rec.Moves) == 0 && marker == "" {
		return rec, false, nil
	}

	result, tagged := tags["Result"]
	switch {
	case tagged && marker != "" && result != marker:
		return rec, false, fmt.Errorf("the Result tag %q and the termination marker %q differ", result, marker)
	case !tagged:
		result = marker
	}
	if !validResult(result) {
		return rec, false, fmt.Errorf("result %q is none of 1-0, 0-1, 1/2-1/2 and *", result)
	}
	rec.Event, rec.Site, rec.Date, rec.Round = tags["Event"], tags["Site"], tags["Date"], tags["Round"]
	rec.White, rec.Black, rec.Result = tags["White"], tags["Black"], result
	if blackMovesFirst(tags["GameType"]) {
		// A PDN whose first mover is Black: seat 0 is in the Black tag. The Result is
		// the first mover's already.
		rec.White, rec.Black = tags["Black"], tags["White"]
	}
	rec.Reason = tags["ArenaReason"]
	if rec.Reason == "" {
		rec.Reason = tags["Termination"]
	}
	rec.Game = tags["GameSpec"]
	if rec.Game == "" {
		rec.Game = tags["Variant"]
	}
	if gt, _, _ := strings.Cut(tags["GameType"], ","); rec.Game == "" && strings.TrimSpace(gt) == pdnEnglishDraughts {
		rec.Game = "checkers"
	}
	rec.Board, _ = othelloSize(rec.Game)
	return rec, true, nil
}
