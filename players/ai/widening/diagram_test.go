package widening

import (
	"fmt"
	"strings"
	"testing"
)

// String draws the problem as a diagram, top row first, the target marked x or o.
func (p Problem) String() string {
	var sb strings.Builder
	for row := p.Size - 1; row >= 0; row-- {
		fmt.Fprintf(&sb, "%2d ", row+1)
		for col := 0; col < p.Size; col++ {
			q := row*p.Size + col
			ch := ".XO"[p.Stones[q]]
			if q == p.Target {
				ch = "?xo"[p.Stones[q]]
			}
			if q == p.Ko {
				ch = 'k'
			}
			sb.WriteByte(' ')
			sb.WriteByte(ch)
		}
		sb.WriteByte('\n')
	}
	sb.WriteString("   ")
	for col := 0; col < p.Size; col++ {
		sb.WriteByte(' ')
		sb.WriteByte("ABCDEFGHJKLMNOPQRST"[col])
	}
	fmt.Fprintf(&sb, "\n%v to move\n", p.ToMove)
	return sb.String()
}

// parseDiagram reads a problem from a diagram, top row first: '.' empty, 'X' black,
// 'O' white, 'x' or 'o' a stone of the target, 'k' the ko point; spaces are ignored.
func parseDiagram(t testing.TB, diagram string, toMove Color) Problem {
	t.Helper()
	var rows []string
	for _, line := range strings.Split(diagram, "\n") {
		line = strings.ReplaceAll(strings.TrimSpace(line), " ", "")
		if line != "" {
			rows = append(rows, line)
		}
	}
	size := len(rows)
	p := Problem{Size: size, Stones: make([]Color, size*size), ToMove: toMove, Target: -1, Ko: -1}
	for i, line := range rows {
		if len(line) != size {
			t.Fatalf("diagram row %d has %d points, want %d", i+1, len(line), size)
		}
		row := size - 1 - i
		for col, ch := range line {
			q := row*size + col
			switch ch {
			case '.':
			case 'X', 'x':
				p.Stones[q] = Black
			case 'O', 'o':
				p.Stones[q] = White
			case 'k':
				p.Ko = q
			default:
				t.Fatalf("diagram: unknown point %q", ch)
			}
			if ch == 'x' || ch == 'o' {
				p.Target = q
			}
		}
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("diagram: %v", err)
	}
	return p
}

// point returns the index of a GTP point name on a board of the given size.
func point(t testing.TB, name string, size int) int {
	t.Helper()
	for q := 0; q < size*size; q++ {
		if PointName(q, size) == strings.ToUpper(name) {
			return q
		}
	}
	t.Fatalf("no point %q on a %dx%d board", name, size, size)
	return -1
}
