package opening

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/arenaref/arena/game"
)

// Limits of an openings file. They keep a mistaken or hostile file (a log, a binary, a
// line without end) from exhausting memory; real opening sets are far smaller.
const (
	// MaxLines is the most lines a file may have, comments and blank lines included.
	MaxLines = 1_000_000
	// MaxOpenings is the most openings a file (or a generated set) may hold.
	MaxOpenings = 100_000
	// MaxLineBytes is the longest a line may be, not counting its line ending.
	MaxLineBytes = 4096
	// MaxMoves is the most moves one opening may have.
	MaxMoves = 200
	// MaxTotalMoves is the most moves a file may hold in all its openings together.
	MaxTotalMoves = 2_000_000
)

// Errors of this package. Errors about one line are *LineError values wrapping one of
// these, or wrapping the game's own errors (game.ErrBadMove for a move that does not
// parse, game.ErrIllegalMove for one that is not legal); test them with errors.Is.
var (
	// ErrEmpty means that a file holds no opening, or that no position lasts as many plies
	// as Generate was asked for.
	ErrEmpty = errors.New("opening: no openings")
	// ErrDuplicate means that two lines hold the same moves.
	ErrDuplicate = errors.New("opening: duplicate opening")
	// ErrEndsGame means that an opening ends the game, which would leave nothing to play.
	ErrEndsGame = errors.New("opening: opening ends the game")
	// ErrLimit means that one of the limits above, or Generate's bound on plies, was passed.
	ErrLimit = errors.New("opening: limit exceeded")
	// ErrUnsupported means that the game has simultaneous turns: an opening is a sequence
	// of single moves, so it only fits games where one seat moves at a time.
	ErrUnsupported = errors.New("opening: game has simultaneous moves")
)

// Opening is one opening: moves in the game's canonical notation, to be played in order
// from the initial position.
type Opening struct {
	// Line is the opening's 1-based line in the file it was read from, or 0 when it was
	// not read from a file (Generate).
	Line int
	// Moves are the moves, as State.MoveString writes them.
	Moves []string
}

// String returns the moves separated by spaces, as they appear in a file.
func (o Opening) String() string { return strings.Join(o.Moves, " ") }

// Canonicalizer is implemented by states of games whose boards have symmetries, such as
// the rotations and reflections of a square board. Two states have the same key exactly
// when one position is the other transformed by a symmetry of the game, with the same seat
// to move; such positions are the same contest, so Generate keeps only one of them.
// The key of a state with no symmetric twin may simply be its String.
type Canonicalizer interface {
	CanonicalKey() string
}

// LineError is an error on one line of an openings file.
type LineError struct {
	Line int    // 1-based line number
	Move int    // 1-based position of the move at fault in the line, or 0 for the line as a whole
	Text string // that move as written in the file, when Move > 0
	Err  error  // what is wrong
}

func (e *LineError) Error() string {
	if e.Move > 0 {
		return fmt.Sprintf("openings line %d: move %d %q: %v", e.Line, e.Move, e.Text, e.Err)
	}
	return fmt.Sprintf("openings line %d: %v", e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// reason is an error with a message of its own that still matches a sentinel under
// errors.Is, so that messages read naturally ("not a legal move") without repeating the
// sentinel's text.
type reason struct {
	msg string
	err error
}

func (r reason) Error() string { return r.msg }
func (r reason) Unwrap() error { return r.err }

func because(err error, format string, args ...any) error {
	return reason{msg: fmt.Sprintf(format, args...), err: err}
}

// ReadFile is Parse of the file at path, with the path in its errors.
func ReadFile(path string, g game.Game) ([]Opening, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	ops, err := Parse(fh, g)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ops, nil
}

// isSeparator reports whether r separates moves on a line: white space or a comma.
func isSeparator(r rune) bool { return r == ',' || unicode.IsSpace(r) }

// Parse reads an openings file (see the package documentation for the format) and checks
// every opening against g by playing it from g's initial position. It returns the openings
// in file order with their moves in canonical form. Errors about the content are
// *LineError values, except ErrEmpty for a file without openings; a failing reader's error
// is returned wrapped.
func Parse(r io.Reader, g game.Game) ([]Opening, error) {
	sc := bufio.NewScanner(r)
	// Room for the longest allowed line plus "\r\n": longer lines stop the scanner with
	// bufio.ErrTooLong, which is reported as a line error below.
	sc.Buffer(make([]byte, 0, 4096), MaxLineBytes+2)

	var (
		openings []Opening
		seen     = map[string]int{} // the moves joined by NUL, to the line they first appeared on
		canon    = map[string]string{}
		buf      []game.Move
		total    int
		line     int
	)
	for sc.Scan() {
		line++
		if line > MaxLines {
			return nil, &LineError{Line: line, Err: because(ErrLimit, "more than %d lines", MaxLines)}
		}
		text := sc.Text()
		if len(text) > MaxLineBytes {
			return nil, &LineError{Line: line, Err: because(ErrLimit, "longer than %d bytes", MaxLineBytes)}
		}
		trimmed := strings.TrimLeftFunc(text, unicode.IsSpace)
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		fields := strings.FieldsFunc(text, isSeparator)
		switch {
		case len(fields) == 0:
			return nil, &LineError{Line: line, Err: errors.New("separators but no moves")}
		case len(fields) > MaxMoves:
			return nil, &LineError{Line: line, Err: because(ErrLimit, "%d moves, more than %d", len(fields), MaxMoves)}
		case total+len(fields) > MaxTotalMoves:
			return nil, &LineError{Line: line, Err: because(ErrLimit, "more than %d moves in the file", MaxTotalMoves)}
		case len(openings) == MaxOpenings:
			return nil, &LineError{Line: line, Err: because(ErrLimit, "more than %d openings", MaxOpenings)}
		}
		moves, err := check(g, fields, &buf, canon)
		if err != nil {
			err.Line = line
			return nil, err
		}
		key := strings.Join(moves, "\x00")
		if first, dup := seen[key]; dup {
			return nil, &LineError{Line: line, Err: because(ErrDuplicate, "same opening as line %d", first)}
		}
		seen[key] = line
		total += len(moves)
		openings = append(openings, Opening{Line: line, Moves: moves})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &LineError{Line: line + 1, Err: because(ErrLimit, "longer than %d bytes", MaxLineBytes)}
		}
		return nil, fmt.Errorf("read openings after line %d: %w", line, err)
	}
	if len(openings) == 0 {
		return nil, because(ErrEmpty, "openings: no opening in the file (only blank lines and comments)")
	}
	return openings, nil
}

// check plays the moves of one line from g's initial position and returns them in
// canonical form. canon interns the move texts, since a large file repeats the same few.
// The error it returns has no line number yet.
func check(g game.Game, fields []string, buf *[]game.Move, canon map[string]string) ([]string, *LineError) {
	s := g.NewState()
	moves := make([]string, len(fields))
	for i, f := range fields {
		bad := func(err error) *LineError { return &LineError{Move: i + 1, Text: f, Err: err} }
		seat := s.ToMove()
		switch seat {
		case game.Terminal:
			return nil, bad(because(game.ErrGameOver, "the game is already over"))
		case game.Simultaneous:
			return nil, bad(because(ErrUnsupported, "%s has simultaneous moves; openings need one seat to move at a time", g.Name()))
		}
		m, err := s.ParseMove(f)
		if err != nil {
			return nil, bad(err)
		}
		*buf = s.LegalMoves(seat, (*buf)[:0])
		if !slices.Contains(*buf, m) {
			return nil, bad(because(game.ErrIllegalMove, "not a legal move"))
		}
		text := s.MoveString(m)
		if err := s.Play(m); err != nil {
			return nil, bad(err)
		}
		if c, ok := canon[text]; ok {
			text = c
		} else {
			canon[text] = text
		}
		moves[i] = text
	}
	if s.IsTerminal() {
		return nil, &LineError{Move: len(fields), Text: fields[len(fields)-1],
			Err: because(ErrEndsGame, "ends the game; an opening must leave moves to play")}
	}
	return moves, nil
}

// Write writes openings in the format Parse reads: each header line as a comment ("# "
// and the text; a header entry holding newlines becomes several comment lines), then one
// opening per line, its moves separated by single spaces. The Line fields are ignored.
//
// It refuses, writing nothing, anything Parse would not read back as the same openings: no
// openings, an empty opening, a move that is empty or holds a separator (white space or a
// comma), a first move starting with '#', repeated openings, and anything
// beyond the limits.
func Write(w io.Writer, header []string, openings []Opening) error {
	if len(openings) == 0 {
		return because(ErrEmpty, "write openings: no openings to write")
	}
	if len(openings) > MaxOpenings {
		return because(ErrLimit, "write openings: %d openings, more than %d", len(openings), MaxOpenings)
	}
	var lines []string
	for _, h := range header {
		for _, l := range strings.Split(h, "\n") {
			if l = strings.TrimRight(l, " \t\r"); l == "" {
				lines = append(lines, "#")
			} else {
				lines = append(lines, "# "+l)
			}
		}
	}
	seen := make(map[string]int, len(openings))
	total := 0
	for i, o := range openings {
		if err := checkWritable(o.Moves); err != nil {
			return fmt.Errorf("write openings: opening %d: %w", i+1, err)
		}
		l := strings.Join(o.Moves, " ")
		if first, dup := seen[l]; dup {
			return fmt.Errorf("write openings: opening %d: %w: same as opening %d", i+1, ErrDuplicate, first)
		}
		seen[l] = i + 1
		total += len(o.Moves)
		lines = append(lines, l)
	}
	if total > MaxTotalMoves {
		return because(ErrLimit, "write openings: %d moves in all, more than %d", total, MaxTotalMoves)
	}
	if len(lines) > MaxLines {
		return because(ErrLimit, "write openings: %d lines, more than %d", len(lines), MaxLines)
	}
	bw := bufio.NewWriter(w)
	for i, l := range lines {
		if len(l) > MaxLineBytes {
			return because(ErrLimit, "write openings: line %d would be %d bytes, more than %d", i+1, len(l), MaxLineBytes)
		}
	}
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write openings: %w", err)
	}
	return nil
}

// checkWritable reports why moves cannot be written as one line that reads back the same.
func checkWritable(moves []string) error {
	switch {
	case len(moves) == 0:
		return errors.New("no moves")
	case len(moves) > MaxMoves:
		return because(ErrLimit, "%d moves, more than %d", len(moves), MaxMoves)
	case moves[0] != "" && moves[0][0] == '#':
		return fmt.Errorf("first move %q starts with '#' and would read as a comment", moves[0])
	}
	for j, m := range moves {
		if m == "" || strings.ContainsFunc(m, isSeparator) {
			return fmt.Errorf("move %d %q is empty or holds white space or a comma", j+1, m)
		}
	}
	return nil
}
