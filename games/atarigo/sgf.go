package atarigo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
)

// Limits of what ParseSGF reads.
const (
	maxSGFLen   = 1 << 20 // bytes
	maxSGFDepth = 1000    // variations nested in variations
)

// ParseSGF reads a Go position from an SGF record (FF[4], GM[1]): the board size SZ
// (default 19, square, MinSize to MaxSize), the set-up properties AB, AW and AE (single
// points "[dd]" and rectangles "[aa:cc]"), PL for the colour to move, and the moves B and
// W of the main line (the first variation wherever the record branches), played in order
// under Go's rules (captures, suicide refused, simple ko) without either game's ending.
// The empty value and "tt" are passes. Other properties are ignored; SGF points are two
// letters, column then row, with row "a" the top row.
//
// The colour to move is PL's, else the opponent of the last move's player, else Black.
// With target "" the result is an atari-go position; otherwise target is a point in GTP
// notation ("C3") holding a stone at the end, and the result is a capture problem on it
// under the default rules (CaptureGame sets others). Anything malformed (bad syntax, a
// point off the board, an illegal move, stones left without liberties, set-up and moves
// mixed in one node) is an error wrapping game.ErrBadPosition.
func ParseSGF(sgf, target string) (*State, error) {
	bad := func(format string, args ...any) (*State, error) {
		return nil, fmt.Errorf("%w: atarigo: sgf: %s", game.ErrBadPosition, fmt.Sprintf(format, args...))
	}
	if len(sgf) > maxSGFLen {
		return bad("%d bytes is more than the %d read", len(sgf), maxSGFLen)
	}
	p := sgfParser{text: sgf}
	trees, err := p.collection()
	if err != nil {
		return bad("%v", err)
	}
	var line []sgfNode
	for t := trees[0]; t != nil; {
		line = append(line, t.nodes...)
		if len(t.children) == 0 {
			break
		}
		t = t.children[0]
	}

	r := sgfReplay{s: newState(19), koFor: Empty}
	for i, node := range line {
		if err := r.node(i, node); err != nil {
			return bad("node %d: %v", i+1, err)
		}
	}
	s := r.s
	s.turn = r.toMove
	if r.koFor != s.turn {
		s.ko = NoPoint
	}
	s.ply = 0
	s.settle()
	if target == "" {
		return s, nil
	}
	tp, err := ParsePoint(target, s.b.size)
	if err != nil {
		return bad("target: %v", err)
	}
	if err := s.makeCapture(tp, DefaultSafe, DefaultMoveLimit(s.b.size)); err != nil {
		return nil, err
	}
	return s, nil
}

// sgfNode is one node of a record: its properties in order.
type sgfNode []sgfProp

type sgfProp struct {
	id     string
	values []string
}

// sgfTree is a game tree: a sequence of nodes and the variations that follow it.
type sgfTree struct {
	nodes    []sgfNode
	children []*sgfTree
}

// sgfParser reads the SGF syntax: Collection = GameTree+, GameTree = "(" Node+ GameTree*
// ")", Node = ";" Property*, Property = UcLetter+ ("[" value "]")+, with white space
// between the parts.
type sgfParser struct {
	text  string
	i     int
	depth int
}

func (p *sgfParser) errorf(format string, args ...any) error {
	return fmt.Errorf("byte %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *sgfParser) space() {
	for p.i < len(p.text) {
		switch p.text[p.i] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			p.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, or 0 at the end.
func (p *sgfParser) peek() byte {
	p.space()
	if p.i < len(p.text) {
		return p.text[p.i]
	}
	return 0
}

func (p *sgfParser) collection() ([]*sgfTree, error) {
	var trees []*sgfTree
	for p.peek() == '(' {
		t, err := p.tree()
		if err != nil {
			return nil, err
		}
		trees = append(trees, t)
	}
	if len(trees) == 0 {
		return nil, p.errorf("a record starts with '(;'")
	}
	if p.i < len(p.text) {
		return nil, p.errorf("%q after the last game tree", clip(p.text[p.i:]))
	}
	return trees, nil
}

func (p *sgfParser) tree() (*sgfTree, error) {
	if p.depth++; p.depth > maxSGFDepth {
		return nil, p.errorf("variations nested more than %d deep", maxSGFDepth)
	}
	defer func() { p.depth-- }()
	p.i++ // '('
	t := &sgfTree{}
	for p.peek() == ';' {
		p.i++
		n, err := p.node()
		if err != nil {
			return nil, err
		}
		t.nodes = append(t.nodes, n)
	}
	if len(t.nodes) == 0 {
		return nil, p.errorf("a game tree starts with a node (';')")
	}
	for p.peek() == '(' {
		c, err := p.tree()
		if err != nil {
			return nil, err
		}
		t.children = append(t.children, c)
	}
	if p.peek() != ')' {
		if p.i >= len(p.text) {
			return nil, p.errorf("the record ends inside a game tree")
		}
		return nil, p.errorf("unexpected %q", p.text[p.i])
	}
	p.i++
	return t, nil
}

func (p *sgfParser) node() (sgfNode, error) {
	var n sgfNode
	for {
		c := p.peek()
		if c < 'A' || c > 'Z' {
			return n, nil
		}
		start := p.i
		for p.i < len(p.text) && p.text[p.i] >= 'A' && p.text[p.i] <= 'Z' {
			p.i++
		}
		prop := sgfProp{id: p.text[start:p.i]}
		for _, q := range n {
			if q.id == prop.id {
				return nil, p.errorf("property %s twice in one node", prop.id)
			}
		}
		for p.peek() == '[' {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			prop.values = append(prop.values, v)
		}
		if len(prop.values) == 0 {
			return nil, p.errorf("property %s has no value", prop.id)
		}
		n = append(n, prop)
	}
}

// value reads "[...]", with '\' escaping the next byte.
func (p *sgfParser) value() (string, error) {
	p.i++ // '['
	var b strings.Builder
	for p.i < len(p.text) {
		c := p.text[p.i]
		p.i++
		switch c {
		case ']':
			return b.String(), nil
		case '\\':
			if p.i < len(p.text) {
				b.WriteByte(p.text[p.i])
				p.i++
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", p.errorf("a value is not closed by ']'")
}

// sgfReplay plays the main line of a record onto a position.
type sgfReplay struct {
	s      *State
	toMove Color
	koFor  Color // the colour the position's ko point binds, Empty for none
}

func (r *sgfReplay) node(i int, node sgfNode) error {
	var setup bool
	moves := 0
	for _, prop := range node {
		switch prop.id {
		case "SZ":
			if i != 0 {
				return fmt.Errorf("SZ outside the root node")
			}
			n, err := strconv.Atoi(prop.values[0])
			if err != nil || len(prop.values) != 1 || n < MinSize || n > MaxSize {
				return fmt.Errorf("SZ[%s]: want one square board size from %d to %d", clip(prop.values[0]), MinSize, MaxSize)
			}
			r.s = newState(n)
		case "GM":
			if len(prop.values) != 1 || prop.values[0] != "1" {
				return fmt.Errorf("GM[%s] is not Go (GM[1])", clip(prop.values[0]))
			}
		case "AB", "AW", "AE", "PL":
			setup = true
		case "B", "W":
			moves++
		}
	}
	if moves > 1 {
		return fmt.Errorf("both B and W in one node")
	}
	if setup && moves > 0 {
		return fmt.Errorf("set-up (AB, AW, AE, PL) and a move in one node")
	}
	if setup {
		return r.setup(node)
	}
	for _, prop := range node {
		if prop.id != "B" && prop.id != "W" {
			continue
		}
		if err := r.play(prop); err != nil {
			return err
		}
	}
	return nil
}

// point reads an SGF point of the board: column letter then row letter, row "a" on top.
// It reports pass for "" and "tt".
func (r *sgfReplay) point(v string) (p Point, pass bool, err error) {
	n := r.s.b.size
	if v == "" || (v == "tt" && n <= 19) {
		return NoPoint, true, nil
	}
	if len(v) != 2 || v[0] < 'a' || v[1] < 'a' || int(v[0]-'a') >= n || int(v[1]-'a') >= n {
		return NoPoint, false, fmt.Errorf("[%s] is not a point of the %dx%d board", clip(v), n, n)
	}
	return PointAt(int(v[0]-'a'), n-1-int(v[1]-'a'), n), false, nil
}

func (r *sgfReplay) setup(node sgfNode) error {
	b := &r.s.b
	placed := map[Point]string{}
	for _, prop := range node {
		var c Color
		switch prop.id {
		case "AB":
			c = Black
		case "AW":
			c = White
		case "AE":
			c = Empty
		case "PL":
			switch prop.values[0] {
			case "B", "b":
				r.toMove = Black
			case "W", "w":
				r.toMove = White
			default:
				return fmt.Errorf("PL[%s]: want B or W", clip(prop.values[0]))
			}
			if len(prop.values) != 1 {
				return fmt.Errorf("PL has %d values", len(prop.values))
			}
			continue
		default:
			continue
		}
		for _, v := range prop.values {
			from, to, isRect := strings.Cut(v, ":")
			p, pass, err := r.point(from)
			if err == nil && pass {
				err = fmt.Errorf("[%s] is no point to set up", clip(v))
			}
			if err != nil {
				return fmt.Errorf("%s: %v", prop.id, err)
			}
			q := p
			if isRect {
				if q, pass, err = r.point(to); err == nil && pass {
					err = fmt.Errorf("[%s] is no rectangle", clip(v))
				}
				if err != nil {
					return fmt.Errorf("%s: %v", prop.id, err)
				}
			}
			c0, r0 := Coords(p, b.size)
			c1, r1 := Coords(q, b.size)
			for row := min(r0, r1); row <= max(r0, r1); row++ {
				for col := min(c0, c1); col <= max(c0, c1); col++ {
					pt := PointAt(col, row, b.size)
					if other, dup := placed[pt]; dup {
						return fmt.Errorf("%s sets %s, which %s set in the same node", prop.id, PointString(pt, b.size), other)
					}
					placed[pt] = prop.id
					b.color[pt] = c
				}
			}
		}
	}
	if len(placed) > 0 {
		// Stones set up: the position is a new one, with no ko and no passes behind it.
		r.koFor = Empty
		r.s.passes = 0
	}
	if dead := b.setup(); dead != NoPoint {
		return fmt.Errorf("the set-up leaves the string at %s without liberties", PointString(dead, b.size))
	}
	return nil
}

func (r *sgfReplay) play(prop sgfProp) error {
	c := Black
	if prop.id == "W" {
		c = White
	}
	if len(prop.values) != 1 {
		return fmt.Errorf("%s has %d values", prop.id, len(prop.values))
	}
	p, pass, err := r.point(prop.values[0])
	if err != nil {
		return fmt.Errorf("%s: %v", prop.id, err)
	}
	r.toMove = c.Opponent()
	if pass {
		r.koFor = Empty
		r.s.passes = min(r.s.passes+1, 2)
		return nil
	}
	ko := NoPoint
	if r.koFor == c {
		ko = r.s.ko
	}
	b := &r.s.b
	if !b.legal(p, c, ko) {
		why := "suicide"
		switch {
		case b.color[p] != Empty:
			why = "the point is taken"
		case p == ko:
			why = "it retakes a ko at once"
		}
		return fmt.Errorf("%s[%s] at %s is illegal: %s", prop.id, prop.values[0], PointString(p, b.size), why)
	}
	_, r.s.ko = b.play(p, c)
	r.koFor = c.Opponent()
	r.s.passes = 0
	return nil
}
