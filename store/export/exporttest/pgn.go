package exporttest

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/arenaref/arena/store/export"
)

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

// ReadPGN reads the games of a PGN file, or of a PDN file. It reads tag pairs and the main
// line of the movetext, skipping move numbers, comments, NAGs, annotation marks,
// variations and escape lines. The result is the Result tag or, without one, the
// termination marker; the two must agree, and a game needs one of them. A game whose
// GameType tag says Black moves first (PDN's English checkers, 21, as export.WritePGN writes
// checkers and giveaway) has its Black player in export.Record.White, the first mover's seat;
// a game with GameType 21 and no Variant or GameSpec is "checkers". Any other tag not
// named by export.Record is ignored. Errors wrap export.ErrMalformed.
func ReadPGN(r io.Reader) ([]export.Record, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	p := &pgnParser{lex: pgnLexer{src: bytes.TrimPrefix(src, []byte("\uFEFF")), line: 1}}
	var recs []export.Record
	for {
		rec, ok, err := p.game()
		if err != nil {
			return nil, fmt.Errorf("%w: pgn game %d: %w", export.ErrMalformed, len(recs)+1, err)
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
	case export.IsPGNSymbolStart(c):
		for l.pos++; l.pos < len(l.src) && export.IsPGNSymbolChar(l.src[l.pos]); l.pos++ {
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
func (p *pgnParser) game() (rec export.Record, ok bool, err error) {
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
			if t.kind == pgnStar || export.IsPGNResult(t.text) {
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
	if !export.ValidResult(result) {
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
	if gt, _, _ := strings.Cut(tags["GameType"], ","); rec.Game == "" && strings.TrimSpace(gt) == export.PDNEnglishDraughts {
		rec.Game = "checkers"
	}
	rec.Board, _ = export.OthelloSize(rec.Game)
	return rec, true, nil
}
