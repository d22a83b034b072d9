package atarigo

import "math/bits"

// neighbours[n][p] lists the points next to p on an n by n board, those on the board
// first, then NoPoint. The tables are built once at start-up for every size.
var neighbours [MaxSize + 1]*[MaxPoints][4]Point

func init() {
	for n := MinSize; n <= MaxSize; n++ {
		t := new([MaxPoints][4]Point)
		for p := range n * n {
			col, row := p%n, p/n
			k := 0
			for _, d := range [4][2]int{{0, -1}, {-1, 0}, {1, 0}, {0, 1}} {
				if q := PointAt(col+d[0], row+d[1], n); q != NoPoint {
					t[p][k] = q
					k++
				}
			}
			for ; k < 4; k++ {
				t[p][k] = NoPoint
			}
		}
		neighbours[n] = t
	}
}

// pointSet is a set of points of any board size, one bit each.
type pointSet [(MaxPoints + 63) / 64]uint64

func (s *pointSet) add(p Point)      { s[p>>6] |= 1 << (uint(p) & 63) }
func (s *pointSet) has(p Point) bool { return s[p>>6]&(1<<(uint(p)&63)) != 0 }
func (s *pointSet) addNew(p Point) bool { // adds p and reports whether it was missing
	w, bit := p>>6, uint64(1)<<(uint(p)&63)
	if s[w]&bit != 0 {
		return false
	}
	s[w] |= bit
	return true
}

// board is a Go board with its strings kept up to date as stones are placed and taken:
// for each stone the string it belongs to (named by one of its stones, the head), the
// stones of each string as a ring, and each string's number of liberties. It knows the
// rules of placing a stone (no suicide, captures, simple ko) but not who moves or when a
// game ends. A board is a value: copying it copies the position.
type board struct {
	size  int
	adj   *[MaxPoints][4]Point
	color [MaxPoints]Color
	head  [MaxPoints]Point // for a stone, the head of its string
	next  [MaxPoints]Point // for a stone, the next stone of its string, round a ring
	libs  [MaxPoints]int16 // for a head, its string's liberties
	count [MaxPoints]int16 // for a head, its string's stones
}

// newBoard returns an empty n by n board; n must lie in MinSize..MaxSize.
func newBoard(n int) board {
	return board{size: n, adj: neighbours[n]}
}

// points returns the number of points of the board.
func (b *board) points() int { return b.size * b.size }

// liberties returns the liberties of the string at p, 0 for an empty point.
func (b *board) liberties(p Point) int {
	if b.color[p] == Empty {
		return 0
	}
	return int(b.libs[b.head[p]])
}

// legal reports whether c may place a stone at p, the point ko being forbidden: p is
// empty and not ko, and the stone is not suicide, that is it touches an empty point, a
// string of its own with another liberty, or a string of the opponent's it captures.
func (b *board) legal(p Point, c Color, ko Point) bool {
	if b.color[p] != Empty || p == ko {
		return false
	}
	for _, q := range b.adj[p] {
		if q == NoPoint {
			break
		}
		switch b.color[q] {
		case Empty:
			return true
		case c:
			if b.libs[b.head[q]] > 1 {
				return true
			}
		default:
			if b.libs[b.head[q]] == 1 {
				return true
			}
		}
	}
	return false
}

// play places a stone of c at p, which must be legal, removes the strings of the
// opponent it leaves without liberties, and returns how many stones it removed and the
// ko point the opponent may not play next (NoPoint when there is none). There is a ko
// when the stone took exactly one stone and stands alone with that one point as its only
// liberty, so that playing there would retake one stone with one stone.
func (b *board) play(p Point, c Color) (captured int, ko Point) {
	b.color[p], b.head[p], b.next[p], b.count[p] = c, p, p, 1
	var lastTaken Point
	var seen [4]Point
	nSeen := 0
	var touched pointSet // points next to the stones taken, whose strings gain liberties
	opp := c.Opponent()
	for _, q := range b.adj[p] {
		if q == NoPoint {
			break
		}
		if b.color[q] != opp {
			continue
		}
		h := b.head[q]
		dup := false
		for _, s := range seen[:nSeen] {
			dup = dup || s == h
		}
		if dup {
			continue
		}
		seen[nSeen] = h
		nSeen++
		if b.libs[h]--; b.libs[h] == 0 {
			captured += int(b.count[h])
			lastTaken = h
			b.remove(h, &touched)
		}
	}
	// Join the strings of c next to p into one.
	for _, q := range b.adj[p] {
		if q == NoPoint {
			break
		}
		if b.color[q] == c && b.head[q] != b.head[p] {
			b.join(b.head[p], b.head[q])
		}
	}
	h := b.head[p]
	b.libs[h] = b.countLiberties(h)
	if captured > 0 {
		// The strings of c next to a stone taken gained liberties. Each is counted again
		// once; p's string was just counted.
		var done pointSet
		done.add(h)
		for w, word := range touched {
			for word != 0 {
				r := Point(w*64 + bits.TrailingZeros64(word))
				word &= word - 1
				if b.color[r] != c {
					continue
				}
				if rh := b.head[r]; done.addNew(rh) {
					b.libs[rh] = b.countLiberties(rh)
				}
			}
		}
	}
	ko = NoPoint
	if captured == 1 && b.count[h] == 1 && b.libs[h] == 1 {
		ko = lastTaken
	}
	return captured, ko
}

// remove takes the string with head h off the board, adding the points next to its
// stones to touched.
func (b *board) remove(h Point, touched *pointSet) {
	s := h
	for {
		b.color[s] = Empty
		for _, q := range b.adj[s] {
			if q == NoPoint {
				break
			}
			touched.add(q)
		}
		if s = b.next[s]; s == h {
			return
		}
	}
}

// join merges the strings with heads a and b (different, same colour) into one. The
// smaller string's stones are renamed after the larger's head. Liberties are left for
// the caller to count.
func (b *board) join(x, y Point) {
	if b.count[x] < b.count[y] {
		x, y = y, x
	}
	s := y
	for {
		b.head[s] = x
		if s = b.next[s]; s == y {
			break
		}
	}
	b.next[x], b.next[y] = b.next[y], b.next[x]
	b.count[x] += b.count[y]
}

// countLiberties counts the empty points next to the string with head h.
func (b *board) countLiberties(h Point) int16 {
	var libs pointSet
	n := int16(0)
	s := h
	for {
		for _, q := range b.adj[s] {
			if q == NoPoint {
				break
			}
			if b.color[q] == Empty && libs.addNew(q) {
				n++
			}
		}
		if s = b.next[s]; s == h {
			return n
		}
	}
}

// setup builds the strings of a board whose colours are already set, such as one just
// read from text, and reports the first string without liberties, or NoPoint.
func (b *board) setup() Point {
	var done pointSet
	dead := NoPoint
	for p := Point(0); int(p) < b.points(); p++ {
		if b.color[p] == Empty || done.has(p) {
			continue
		}
		// Flood the string from p, chaining its stones into a ring headed by p.
		c := b.color[p]
		b.head[p], b.next[p], b.count[p] = p, p, 1
		done.add(p)
		stack := []Point{p}
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, q := range b.adj[s] {
				if q == NoPoint {
					break
				}
				if b.color[q] == c && done.addNew(q) {
					b.head[q] = p
					b.next[q], b.next[p] = b.next[p], q
					b.count[p]++
					stack = append(stack, q)
				}
			}
		}
		if b.libs[p] = b.countLiberties(p); b.libs[p] == 0 && dead == NoPoint {
			dead = p
		}
	}
	return dead
}
