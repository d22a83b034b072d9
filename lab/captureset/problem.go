package captureset

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/arenaref/arena/lab/gnugo"
)

// ErrBadProblem is what ParseProblem and ReadProblems wrap for a record that is not a
// problem of the set.
var ErrBadProblem = errors.New("captureset: bad problem")

// The liberties a target string has in every problem of the set.
const (
	MinLiberties = 2
	MaxLiberties = 3
)

// Kind says what the side to move does to the target string.
type Kind int

// The kinds of problem. In both the side to move succeeds: it captures the target
// (Attack) or saves it from a capture that would follow if it passed (Defend).
const (
	Attack Kind = iota + 1
	Defend
)

// String is the kind as the file writes it: "attack" or "defend".
func (k Kind) String() string {
	switch k {
	case Attack:
		return "attack"
	case Defend:
		return "defend"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Winner is the colour that succeeds when the target is of colour target: the attacker
// (its opponent) in an attack problem, its owner in a defence problem.
func (k Kind) Winner(target gnugo.Color) gnugo.Color {
	if k == Attack {
		return target.Opponent()
	}
	return target
}

// Problem is one record of the set.
type Problem struct {
	ID       string
	Position Position
	Move     gnugo.Point // the move GNU Go's reading gives the side to move
	Kind     Kind
	Source   string // where the position comes from: gnugo-9x9-game17-ply42
}

// String is the record as a line of the file, without its newline: id, position, move,
// kind and source, separated by tabs.
func (p Problem) String() string {
	return strings.Join([]string{p.ID, p.Position.String(), p.Move.String(), p.Kind.String(), p.Source}, "\t")
}

// ParseProblem reads one record. Besides ParsePosition's checks it requires that the
// side to move is the one the kind says succeeds, that the target string has 2 or 3
// liberties, and that the move is an empty point other than the ko point.
func ParseProblem(line string) (Problem, error) {
	bad := func(format string, args ...any) (Problem, error) {
		return Problem{}, fmt.Errorf("%w: %s", ErrBadProblem, fmt.Sprintf(format, args...))
	}
	f := strings.Split(line, "\t")
	if len(f) != 5 {
		return bad("%d tab-separated fields, want 5 (id, position, move, kind, source)", len(f))
	}
	var p Problem
	for _, field := range []struct{ name, value string }{{"id", f[0]}, {"source", f[4]}} {
		if field.value == "" || strings.ContainsFunc(field.value, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			return bad("%s %q: want a word without spaces", field.name, field.value)
		}
	}
	p.ID, p.Source = f[0], f[4]
	var err error
	if p.Position, err = ParsePosition(f[1]); err != nil {
		return Problem{}, fmt.Errorf("%w: %s: %w", ErrBadProblem, p.ID, err)
	}
	switch f[3] {
	case "attack":
		p.Kind = Attack
	case "defend":
		p.Kind = Defend
	default:
		return bad("%s: kind %q: want attack or defend", p.ID, f[3])
	}
	if p.Move, err = gnugo.ParsePoint(f[2]); err != nil {
		return bad("%s: move: %v", p.ID, err)
	}
	if p.Move.String() != f[2] {
		return bad("%s: move %s: write it %s", p.ID, f[2], p.Move)
	}
	pos := p.Position
	n := pos.Board.Size()
	switch {
	case !p.Move.OnBoard(n):
		return bad("%s: move %v is off the %dx%d board", p.ID, p.Move, n, n)
	case pos.Board.At(p.Move) != 0:
		return bad("%s: move %v is on a stone", p.ID, p.Move)
	case pos.HasKo && p.Move == pos.Ko:
		return bad("%s: move %v retakes the ko", p.ID, p.Move)
	}
	target := pos.Board.At(pos.Target)
	if want := p.Kind.Winner(target); pos.ToMove != want {
		return bad("%s: %s to move in an %s problem on a %s string: want %s", p.ID, pos.ToMove, p.Kind, target, want)
	}
	if libs := len(pos.Board.Liberties(pos.Target)); libs < MinLiberties || libs > MaxLiberties {
		return bad("%s: the target string has %d liberties, want %d to %d", p.ID, libs, MinLiberties, MaxLiberties)
	}
	return p, nil
}

// maxLine bounds a line of a problem file: a 25x25 position is under 700 bytes.
const maxLine = 4096

// ReadProblems reads a problem file: one record a line, blank lines and lines starting
// with # skipped. An error names the line; ids must be unique.
func ReadProblems(r io.Reader) ([]Problem, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, maxLine), maxLine)
	var ps []Problem
	ids := map[string]int{}
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := ParseProblem(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if first, ok := ids[p.ID]; ok {
			return nil, fmt.Errorf("line %d: %w: id %s already on line %d", n, ErrBadProblem, p.ID, first)
		}
		ids[p.ID] = n
		ps = append(ps, p)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%w: a line longer than %d bytes", ErrBadProblem, maxLine)
		}
		return nil, err
	}
	return ps, nil
}

// WriteProblems writes a problem file: the header lines as comments ("# " added), then
// one record a line.
func WriteProblems(w io.Writer, header []string, ps []Problem) error {
	bw := bufio.NewWriter(w)
	for _, h := range header {
		fmt.Fprintf(bw, "# %s\n", h)
	}
	for _, p := range ps {
		fmt.Fprintln(bw, p.String())
	}
	return bw.Flush()
}
