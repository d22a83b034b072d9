package features_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/learn/features"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// position is a parsed test position seen from one colour.
type position struct {
	own, opp, board uint64
	ownToMove       bool
}

// parse reads text (othello notation) on an n x n board and returns it seen from seat.
func parse(t testing.TB, n int, text string, seat game.Seat) position {
	t.Helper()
	g, err := othello.NewSize(n)
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.Parse(text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	return seen(s, seat)
}

func seen(s *othello.State, seat game.Seat) position {
	p := model.FromState(s, seat)
	return position{own: p.Own, opp: p.Opp, board: p.Board, ownToMove: p.OwnToMove}
}

func compute(p position) [features.Count]float64 {
	var phi [features.Count]float64
	features.Compute(p.own, p.opp, p.board, p.ownToMove, phi[:])
	return phi
}

// index returns the index of the feature called name.
func index(t testing.TB, name string) int {
	t.Helper()
	for i, n := range features.Names {
		if n == name {
			return i
		}
	}
	t.Fatalf("no feature %q", name)
	return -1
}

const tolerance = 1e-9

// initial8 is the 8x8 starting position: d4 and e5 white, e4 and d5 black, black to move.
var initial8 = othello.NewState().String()

// The test positions, rank 1 first (the text reads a1 b1 ... h1 a2 ...).
var (
	// corners8: black a1 b1 c1 g2 h2 d4 c6, white h8 g7 h7 b2 a7 d5 b7, black to move.
	// b2 and g7 (white) are X-squares of occupied corners and b1 (black) and h7 (white)
	// C-squares of occupied corners, so only g2, b7, h2 and a7 count.
	corners8 = "XXX-----" + "-O----XX" + "--------" + "---X----" +
		"---O----" + "--X-----" + "OO----OO" + "-------O" + " X"
	// mixed6: black b2 c3 e5 (two X-squares of empty corners), white d3 c4 d4 e4, white
	// to move; white may take a1 and f6.
	mixed6 = "------" + "-X----" + "--XO--" + "--OOO-" + "----X-" + "------" + " O"
	// mixed4: black a1 b1 c1 b2 c3, white a2 c2 d2 b3, white to move. Rank 2 is full,
	// which makes b2 stable along with a1 b1 c1.
	mixed4 = "XXX-" + "OXOO" + "-OX-" + "----" + " O"
	// blocked4: black a1, white b1: white has no move.
	blocked4 = "XO--" + "----" + "----" + "----" + " X"
	// full4: a full board; every disc is stable.
	full4 = "XXOO" + "XOOO" + "XXOX" + "OOOX" + " X"
)

func TestCompute(t *testing.T) {
	tests := []struct {
		name string
		n    int
		text string
		seat game.Seat
		want map[string]float64
	}{
		{
			name: "initial 8x8 black", n: 8, text: initial8, seat: othello.Black,
			want: map[string]float64{
				"discs_diff": 0, "discs_own": 0.25, "discs_opp": 0.25,
				"mobility_diff": 0, "mobility_own": 2, "mobility_opp": 2, "safe_mobility_diff": 0,
				"potential_mobility_diff": 0, "frontier_diff": 0,
				"corners_own": 0, "corners_opp": 0, "corner_access_diff": 0,
				"x_squares_own": 0, "x_squares_opp": 0, "c_squares_own": 0, "c_squares_opp": 0,
				"edges_diff": 0, "stable_own": 0, "stable_opp": 0, "centre_diff": 0,
				"empties": 7.5, "parity": -1, "to_move": 1, "no_moves_diff": 0,
			},
		},
		{
			name: "initial 8x8 white", n: 8, text: initial8, seat: othello.White,
			want: map[string]float64{
				"discs_diff": 0, "discs_own": 0.25, "discs_opp": 0.25,
				"mobility_diff": 0, "mobility_own": 2, "mobility_opp": 2, "safe_mobility_diff": 0,
				"potential_mobility_diff": 0, "frontier_diff": 0,
				"corners_own": 0, "corners_opp": 0, "corner_access_diff": 0,
				"x_squares_own": 0, "x_squares_opp": 0, "c_squares_own": 0, "c_squares_opp": 0,
				"edges_diff": 0, "stable_own": 0, "stable_opp": 0, "centre_diff": 0,
				"empties": 7.5, "parity": 1, "to_move": -1, "no_moves_diff": 0,
			},
		},
		{
			// Black moves a3 b3 c3 d6 e4 a8, white only d3. Stable: a1 b1 c1 and h8 h7.
			name: "corners 8x8 black", n: 8, text: corners8, seat: othello.Black,
			want: map[string]float64{
				"discs_diff": 0, "discs_own": 7.0 / 8, "discs_opp": 7.0 / 8,
				"mobility_diff": 2.5, "mobility_own": 3, "mobility_opp": 0.5, "safe_mobility_diff": 2.5,
				"potential_mobility_diff": 0, "frontier_diff": 0,
				"corners_own": 1, "corners_opp": 1, "corner_access_diff": 1,
				"x_squares_own": 1, "x_squares_opp": 1, "c_squares_own": 1, "c_squares_opp": 1,
				"edges_diff": 8.0 / 28, "stable_own": 3.0 / 8, "stable_opp": 2.0 / 8, "centre_diff": 0.5,
				"empties": 50.0 / 8, "parity": -1, "to_move": 1, "no_moves_diff": 0,
			},
		},
		{
			// White moves a1 b3 c2 e6 f6, black e3 c5. 15 empty squares next to black,
			// 12 next to white.
			name: "mixed 6x6 white", n: 6, text: mixed6, seat: othello.White,
			want: map[string]float64{
				"discs_diff": 8.0 / 36, "discs_own": 32.0 / 36, "discs_opp": 24.0 / 36,
				"mobility_diff": 2, "mobility_own": 20.0 / 6, "mobility_opp": 8.0 / 6, "safe_mobility_diff": 2,
				"potential_mobility_diff": 24.0 / 36, "frontier_diff": 8.0 / 36,
				"corners_own": 0, "corners_opp": 0, "corner_access_diff": 2,
				"x_squares_own": 0, "x_squares_opp": 2, "c_squares_own": 0, "c_squares_opp": 0,
				"edges_diff": 0, "stable_own": 0, "stable_opp": 0, "centre_diff": 4,
				"empties": 29 * 8.0 / 36, "parity": 1, "to_move": 1, "no_moves_diff": 0,
			},
		},
		{
			// Black moves a3 d3 b4, white c4 d3 b4. a1 is occupied, so b2 is no X-square
			// here; c1 and d2 are C-squares of the empty d1.
			name: "mixed 4x4 black", n: 4, text: mixed4, seat: othello.Black,
			want: map[string]float64{
				"discs_diff": 0.5, "discs_own": 2.5, "discs_opp": 2,
				"mobility_diff": 0, "mobility_own": 3, "mobility_opp": 3, "safe_mobility_diff": 0,
				"potential_mobility_diff": 0, "frontier_diff": -0.5,
				"corners_own": 1, "corners_opp": 0, "corner_access_diff": 0,
				"x_squares_own": 1, "x_squares_opp": 2, "c_squares_own": 1, "c_squares_opp": 1,
				"edges_diff": 8.0 / 12, "stable_own": 2, "stable_opp": 0, "centre_diff": 0,
				"empties": 3.5, "parity": -1, "to_move": -1, "no_moves_diff": 0,
			},
		},
		{
			name: "blocked 4x4 black", n: 4, text: blocked4, seat: othello.Black,
			want: map[string]float64{
				"discs_diff": 0, "discs_own": 0.5, "discs_opp": 0.5,
				"mobility_diff": 1, "mobility_own": 1, "mobility_opp": 0, "safe_mobility_diff": 1,
				"potential_mobility_diff": 1, "frontier_diff": 0,
				"corners_own": 1, "corners_opp": 0, "corner_access_diff": 0,
				"x_squares_own": 0, "x_squares_opp": 0, "c_squares_own": 0, "c_squares_opp": 0,
				"edges_diff": 0, "stable_own": 0.5, "stable_opp": 0, "centre_diff": 0,
				"empties": 7, "parity": -1, "to_move": 1, "no_moves_diff": 1,
			},
		},
		{
			name: "full 4x4 black", n: 4, text: full4, seat: othello.Black,
			want: map[string]float64{
				"discs_diff": -1, "discs_own": 3.5, "discs_opp": 4.5,
				"mobility_diff": 0, "mobility_own": 0, "mobility_opp": 0, "safe_mobility_diff": 0,
				"potential_mobility_diff": 0, "frontier_diff": 0,
				"corners_own": 2, "corners_opp": 2, "corner_access_diff": 0,
				"x_squares_own": 0, "x_squares_opp": 0, "c_squares_own": 0, "c_squares_opp": 0,
				"edges_diff": 0, "stable_own": 3.5, "stable_opp": 4.5, "centre_diff": 0,
				"empties": 0, "parity": 0, "to_move": 1, "no_moves_diff": 0,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.want) != features.Count {
				t.Fatalf("want lists %d features, there are %d", len(tt.want), features.Count)
			}
			got := compute(parse(t, tt.n, tt.text, tt.seat))
			for name, want := range tt.want {
				if g := got[index(t, name)]; math.Abs(g-want) > tolerance {
					t.Errorf("%s = %v, want %v", name, g, want)
				}
			}
		})
	}
}

// mirror says how feature k changes when the position is seen from the other side:
// it becomes sign * (feature partner of the original).
type mirror struct {
	partner string
	sign    float64
}

var mirrors = map[string]mirror{
	"discs_diff": {"discs_diff", -1}, "discs_own": {"discs_opp", 1}, "discs_opp": {"discs_own", 1},
	"mobility_diff": {"mobility_diff", -1}, "mobility_own": {"mobility_opp", 1}, "mobility_opp": {"mobility_own", 1},
	"safe_mobility_diff":      {"safe_mobility_diff", -1},
	"potential_mobility_diff": {"potential_mobility_diff", -1},
	"frontier_diff":           {"frontier_diff", -1},
	"corners_own":             {"corners_opp", 1}, "corners_opp": {"corners_own", 1},
	"corner_access_diff": {"corner_access_diff", -1},
	"x_squares_own":      {"x_squares_opp", 1}, "x_squares_opp": {"x_squares_own", 1},
	"c_squares_own": {"c_squares_opp", 1}, "c_squares_opp": {"c_squares_own", 1},
	"edges_diff": {"edges_diff", -1},
	"stable_own": {"stable_opp", 1}, "stable_opp": {"stable_own", 1},
	"centre_diff":   {"centre_diff", -1},
	"empties":       {"empties", 1},
	"parity":        {"parity", -1},
	"to_move":       {"to_move", -1},
	"no_moves_diff": {"no_moves_diff", -1},
}

// checkMirror fails when the features of p seen from the other side are not those of p
// mirrored.
func checkMirror(t *testing.T, p position) {
	t.Helper()
	got := compute(p)
	swapped := compute(position{own: p.opp, opp: p.own, board: p.board, ownToMove: !p.ownToMove})
	for k, name := range features.Names {
		m, ok := mirrors[name]
		if !ok {
			t.Fatalf("no mirror rule for %s", name)
		}
		if want := m.sign * got[index(t, m.partner)]; math.Abs(swapped[k]-want) > tolerance {
			t.Errorf("other side: %s = %v, want %v", name, swapped[k], want)
		}
	}
}

func TestMirror(t *testing.T) {
	tests := []struct {
		name string
		n    int
		text string
	}{
		{"initial 8x8", 8, initial8},
		{"corners 8x8", 8, corners8},
		{"mixed 6x6", 6, mixed6},
		{"mixed 4x4", 4, mixed4},
		{"blocked 4x4", 4, blocked4},
		{"full 4x4", 4, full4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkMirror(t, parse(t, tt.n, tt.text, othello.Black))
		})
	}
	t.Run("random games", func(t *testing.T) {
		for _, n := range othello.Sizes() {
			forRandomPositions(t, n, 20, func(s *othello.State) {
				checkMirror(t, seen(s, othello.Black))
			})
		}
	})
}

// forRandomPositions plays games of random moves on an n x n board, seeded for
// repeatability, and calls f with every position reached, the last included.
func forRandomPositions(t testing.TB, n, games int, f func(*othello.State)) {
	t.Helper()
	g, err := othello.NewSize(n)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	var buf []game.Move
	for range games {
		s := g.Initial()
		for {
			f(s)
			if s.IsTerminal() {
				break
			}
			buf = s.LegalMoves(s.ToMove(), buf[:0])
			if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestReference compares Compute with a plain square-by-square implementation over the
// positions of random games on every size, from both sides.
func TestReference(t *testing.T) {
	for _, n := range othello.Sizes() {
		t.Run(sizeName(n), func(t *testing.T) {
			forRandomPositions(t, n, 30, func(s *othello.State) {
				for _, seat := range []game.Seat{othello.Black, othello.White} {
					p := seen(s, seat)
					got, want := compute(p), reference(n, p)
					for k, name := range features.Names {
						if math.Abs(got[k]-want[k]) > tolerance {
							t.Fatalf("%s seen from %d: %s = %v, want %v", s, seat, name, got[k], want[k])
						}
					}
				}
			})
		})
	}
}

func sizeName(n int) string { return string(rune('0'+n)) + "x" + string(rune('0'+n)) }

// board is a square-by-square view of a position for the reference implementation:
// +1 own, -1 opp, 0 empty.
type board struct {
	n     int
	cells [8][8]int
}

func (b *board) on(f, r int) bool { return f >= 0 && r >= 0 && f < b.n && r < b.n }

var directions = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}}

// canPlay reports whether side (+1 or -1) may place a disc on the empty square (f, r).
func (b *board) canPlay(side, f, r int) bool {
	if b.cells[f][r] != 0 {
		return false
	}
	for _, d := range directions {
		x, y, run := f+d[0], r+d[1], 0
		for b.on(x, y) && b.cells[x][y] == -side {
			x, y, run = x+d[0], y+d[1], run+1
		}
		if run > 0 && b.on(x, y) && b.cells[x][y] == side {
			return true
		}
	}
	return false
}

func (b *board) nextTo(f, r, value int) bool {
	for _, d := range directions {
		if x, y := f+d[0], r+d[1]; b.on(x, y) && b.cells[x][y] == value {
			return true
		}
	}
	return false
}

// cornerOf returns the corner that (f, r) is the X- or C-square of, if any.
func (b *board) cornerOf(f, r int) (cf, cr int, x, c bool) {
	last := b.n - 1
	near := func(i int) (int, bool) { // the end of the line i is next to
		switch i {
		case 1:
			return 0, true
		case last - 1:
			return last, true
		}
		return 0, false
	}
	nf, okf := near(f)
	nr, okr := near(r)
	switch {
	case okf && okr:
		return nf, nr, true, false
	case okf && (r == 0 || r == last):
		return nf, r, false, true
	case okr && (f == 0 || f == last):
		return f, nr, false, true
	}
	return 0, 0, false, false
}

// stable returns the stable discs of side by the package's definition, adding discs
// one at a time until none can be added.
func (b *board) stable(side int) [8][8]bool {
	var s [8][8]bool
	for changed := true; changed; {
		changed = false
		for f := range b.n {
			for r := range b.n {
				if b.cells[f][r] != side || s[f][r] {
					continue
				}
				ok := true
				for i := 0; i < len(directions); i += 2 { // one direction per line
					ok = ok && b.lineSafe(side, &s, f, r, directions[i])
				}
				if ok {
					s[f][r] = true
					changed = true
				}
			}
		}
	}
	return s
}

// lineSafe reports whether the disc at (f, r) is safe along the line of direction d:
// the line is full, or a neighbour on it is off the board or already stable.
func (b *board) lineSafe(side int, s *[8][8]bool, f, r int, d [2]int) bool {
	full := true
	for _, sign := range []int{1, -1} {
		x, y := f+sign*d[0], r+sign*d[1]
		if !b.on(x, y) || (b.cells[x][y] == side && s[x][y]) {
			return true
		}
		for ; b.on(x, y); x, y = x+sign*d[0], y+sign*d[1] {
			if b.cells[x][y] == 0 {
				full = false
			}
		}
	}
	return full
}

// reference computes the features square by square, straight from the definitions in
// the package documentation.
func reference(n int, p position) [features.Count]float64 {
	b := board{n: n}
	for f := range n {
		for r := range n {
			bit := uint64(1) << uint(r*8+f)
			switch {
			case p.own&bit != 0:
				b.cells[f][r] = 1
			case p.opp&bit != 0:
				b.cells[f][r] = -1
			}
		}
	}
	var c struct {
		discs, moves, safe, potential, frontier, corners, access, x, cSq, edges, stable, centre [2]float64
		empty                                                                                   int
	}
	side := func(v int) int { // own = 0, opp = 1
		if v == 1 {
			return 0
		}
		return 1
	}
	stable := [2][8][8]bool{b.stable(1), b.stable(-1)}
	last := n - 1
	for f := range n {
		for r := range n {
			v := b.cells[f][r]
			corner := (f == 0 || f == last) && (r == 0 || r == last)
			cf, cr, isX, isC := b.cornerOf(f, r)
			cornerEmpty := (isX || isC) && b.cells[cf][cr] == 0
			if v == 0 {
				c.empty++
				for i, pl := range []int{1, -1} {
					if b.canPlay(pl, f, r) {
						c.moves[i]++
						if !(isX && cornerEmpty) {
							c.safe[i]++
						}
						if corner {
							c.access[i]++
						}
					}
					if b.nextTo(f, r, -pl) {
						c.potential[i]++
					}
				}
				continue
			}
			i := side(v)
			c.discs[i]++
			if b.nextTo(f, r, 0) {
				c.frontier[i]++
			}
			if corner {
				c.corners[i]++
			}
			if isX && cornerEmpty {
				c.x[i]++
			}
			if isC && cornerEmpty {
				c.cSq[i]++
			}
			if f == 0 || r == 0 || f == last || r == last {
				c.edges[i]++
			}
			if stable[i][f][r] {
				c.stable[i]++
			}
			if f >= 2 && r >= 2 && f <= n-3 && r <= n-3 {
				c.centre[i]++
			}
		}
	}
	area, mob, edge := 8/float64(n*n), 4/float64(n), 8/float64(4*(n-1))
	centre := 0.0
	if n > 4 {
		centre = 8 / float64((n-4)*(n-4))
	}
	diff := func(v [2]float64) float64 { return v[0] - v[1] }
	var want [features.Count]float64
	set := func(name string, v float64) {
		for k, nm := range features.Names {
			if nm == name {
				want[k] = v
				return
			}
		}
		panic("no feature " + name)
	}
	set("discs_diff", diff(c.discs)*area)
	set("discs_own", c.discs[0]*area)
	set("discs_opp", c.discs[1]*area)
	set("mobility_diff", diff(c.moves)*mob)
	set("mobility_own", c.moves[0]*mob)
	set("mobility_opp", c.moves[1]*mob)
	set("safe_mobility_diff", diff(c.safe)*mob)
	set("potential_mobility_diff", diff(c.potential)*area)
	set("frontier_diff", diff(c.frontier)*area)
	set("corners_own", c.corners[0])
	set("corners_opp", c.corners[1])
	set("corner_access_diff", diff(c.access))
	set("x_squares_own", c.x[0])
	set("x_squares_opp", c.x[1])
	set("c_squares_own", c.cSq[0])
	set("c_squares_opp", c.cSq[1])
	set("edges_diff", diff(c.edges)*edge)
	set("stable_own", c.stable[0]*area)
	set("stable_opp", c.stable[1]*area)
	set("centre_diff", diff(c.centre)*centre)
	set("empties", float64(c.empty)*area)
	switch {
	case c.empty == 0:
	case p.ownToMove == (c.empty%2 == 1):
		set("parity", 1)
	default:
		set("parity", -1)
	}
	if p.ownToMove {
		set("to_move", 1)
	} else {
		set("to_move", -1)
	}
	noMoves := 0.0
	if c.moves[1] == 0 {
		noMoves++
	}
	if c.moves[0] == 0 {
		noMoves--
	}
	set("no_moves_diff", noMoves)
	return want
}

func TestNames(t *testing.T) {
	if features.Count < 22 {
		t.Errorf("Count = %d, want at least 22", features.Count)
	}
	seen := make(map[string]int)
	for k, name := range features.Names {
		if name == "" {
			t.Errorf("feature %d has no name", k)
		}
		if j, dup := seen[name]; dup {
			t.Errorf("features %d and %d are both called %q", j, k, name)
		}
		seen[name] = k
	}
}

func TestComputeAllocs(t *testing.T) {
	tests := []struct {
		name string
		n    int
		text string
	}{
		{"8x8", 8, corners8},
		{"6x6", 6, mixed6},
		{"4x4", 4, mixed4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := parse(t, tt.n, tt.text, othello.Black)
			dst := make([]float64, features.Count)
			if allocs := testing.AllocsPerRun(100, func() {
				features.Compute(p.own, p.opp, p.board, p.ownToMove, dst)
			}); allocs != 0 {
				t.Errorf("Compute allocates %v times per call, want 0", allocs)
			}
		})
	}
}

func TestComputeShortDst(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Compute into a short slice did not panic")
		}
	}()
	p := parse(t, 8, initial8, othello.Black)
	features.Compute(p.own, p.opp, p.board, p.ownToMove, make([]float64, features.Count-1))
}

func BenchmarkCompute(b *testing.B) {
	// A midgame position: 20 random plies from the start.
	s := othello.NewState()
	rng := rand.New(rand.NewPCG(1, 2))
	var buf []game.Move
	for range 20 {
		buf = s.LegalMoves(s.ToMove(), buf[:0])
		if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
			b.Fatal(err)
		}
	}
	p := seen(s, othello.Black)
	var dst [features.Count]float64
	b.ReportAllocs()
	for b.Loop() {
		features.Compute(p.own, p.opp, p.board, p.ownToMove, dst[:])
	}
}
