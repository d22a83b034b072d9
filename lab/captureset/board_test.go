package captureset

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/lab/gnugo"
	"github.com/arenaref/arena/lab/gnugo/gnugotest"
)

func mustPoint(t testing.TB, s string) gnugo.Point {
	t.Helper()
	p, err := gnugo.ParsePoint(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func pointList(t testing.TB, s string) []gnugo.Point {
	t.Helper()
	var ps []gnugo.Point
	for _, w := range strings.Fields(s) {
		ps = append(ps, mustPoint(t, w))
	}
	return ps
}

func rowMajor(a, b gnugo.Point) int {
	if a.Row != b.Row {
		return a.Row - b.Row
	}
	return a.Col - b.Col
}

// TestBoardPlay plays short sequences on a 5x5 board and checks captures, refusals and
// liberties.
func TestBoardPlay(t *testing.T) {
	tests := []struct {
		name     string
		moves    string // colour letter and point: "B C3 W C4"
		captured string // captured by the last move
		err      error  // of the last move
		libsOf   string
		libs     string // liberties of libsOf after the moves
	}{
		{name: "a lone stone", moves: "B C3", libsOf: "C3", libs: "C2 B3 D3 C4"},
		{name: "a corner stone", moves: "B A1", libsOf: "A1", libs: "B1 A2"},
		{name: "a string shares liberties", moves: "B C3 B D3 W D4", libsOf: "C3", libs: "C2 D2 B3 E3 C4"},
		{name: "a capture in the corner", moves: "W A1 B B1 B A2", captured: "A1", libsOf: "B1", libs: "C1 A1 B2"},
		{name: "a two-stone capture", moves: "W A1 W B1 B C1 B A2 B B2", captured: "A1 B1", libsOf: "B2", libs: "A1 B1 C2 A3 B3"},
		{name: "suicide is refused", moves: "B B1 B A2 W A1", err: ErrSuicide},
		{name: "capturing is not suicide", moves: "W B1 W A2 B C1 B B2 B A3 B A1", captured: "B1 A2", libsOf: "A1", libs: "B1 A2"},
		{name: "an occupied point", moves: "B C3 W C3", err: ErrOccupied},
		{name: "off the board", moves: "B F6", err: ErrOffBoard},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBoard(5)
			words := strings.Fields(tt.moves)
			var captured []gnugo.Point
			var err error
			for i := 0; i < len(words); i += 2 {
				c := gnugo.Black
				if words[i] == "W" {
					c = gnugo.White
				}
				p := gnugo.Point{Col: -1}
				if q, perr := gnugo.ParsePoint(words[i+1]); perr == nil {
					p = q
				}
				before := b.Clone()
				captured, err = b.Play(c, p)
				if err != nil && !b.Equal(before) {
					t.Errorf("a refused move changed the board")
				}
			}
			if !errors.Is(err, tt.err) {
				t.Fatalf("last move: %v, want %v", err, tt.err)
			}
			slices.SortFunc(captured, rowMajor)
			if want := pointList(t, tt.captured); !slices.Equal(captured, want) {
				t.Errorf("captured %v, want %v", captured, want)
			}
			if tt.libsOf != "" {
				want := pointList(t, tt.libs)
				slices.SortFunc(want, rowMajor)
				if got := b.Liberties(mustPoint(t, tt.libsOf)); !slices.Equal(got, want) {
					t.Errorf("liberties of %s = %v, want %v", tt.libsOf, got, want)
				}
			}
		})
	}
}

// TestBoardStrings checks Strings and Chain on a board with strings of both colours.
func TestBoardStrings(t *testing.T) {
	pos, err := ParsePosition("..O../XXO../...X./.X.X./O.... b target=A4")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, chain := range pos.Board.Strings() {
		slices.SortFunc(chain, rowMajor)
		var w []string
		for _, s := range chain {
			w = append(w, s.String())
		}
		got = append(got, strings.Join(w, "+"))
	}
	want := []string{"A1", "B2", "D2+D3", "A4+B4", "C4+C5"}
	if !slices.Equal(got, want) {
		t.Errorf("strings %v, want %v", got, want)
	}
	if c := pos.Board.Chain(mustPoint(t, "E5")); c != nil {
		t.Errorf("the chain of an empty point is %v", c)
	}
}

// TestBoardAgreesWithGNUGo plays seeded random games on our board and on GNU Go's and
// compares the stones after every move, and which moves each calls legal: the generator
// follows GNU Go's games on this board, so a difference would mislabel problems.
func TestBoardAgreesWithGNUGo(t *testing.T) {
	program := gnugotest.Program(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e, err := gnugo.Start(ctx, gnugo.Config{Program: program})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	const size = 7
	rng := rand.New(rand.NewPCG(1, 2))
	for game := range 4 {
		if err := e.BoardSize(ctx, size); err != nil {
			t.Fatal(err)
		}
		st := gameState{board: NewBoard(size), toMove: gnugo.Black}
		captures := 0
		for ply := range 120 {
			// Our legal moves: empty, not suicide, not the ko point.
			var legal []gnugo.Point
			for k := range size * size {
				p := gnugo.Point{Col: k % size, Row: k / size}
				if st.ko != nil && *st.ko == p {
					continue
				}
				if _, err := st.board.Clone().Play(st.toMove, p); err == nil {
					legal = append(legal, p)
				}
			}
			// GNU Go's, for a few points.
			for range 3 {
				p := gnugo.Point{Col: rng.IntN(size), Row: rng.IntN(size)}
				gnu, err := e.IsLegal(ctx, st.toMove, p)
				if err != nil {
					t.Fatal(err)
				}
				if ours := slices.Contains(legal, p); ours != gnu {
					t.Fatalf("game %d ply %d: %s %v legal: ours %v, GNU Go %v\n%s", game, ply, st.toMove, p, ours, gnu, Position{Board: st.board, ToMove: st.toMove})
				}
			}
			if len(legal) == 0 {
				break
			}
			p := legal[rng.IntN(len(legal))]
			before := len(st.board.Strings())
			if err := st.play(p); err != nil {
				t.Fatal(err)
			}
			if len(st.board.Strings()) < before {
				captures++
			}
			if err := e.Play(ctx, st.toMove, gnugo.At(p)); err != nil {
				t.Fatalf("game %d ply %d: GNU Go refuses %s %v: %v", game, ply, st.toMove, p, err)
			}
			st.toMove = st.toMove.Opponent()
			g := &generator{reader: e}
			if err := g.checkBoard(ctx, st.board); err != nil {
				t.Fatalf("game %d ply %d: %v", game, ply, err)
			}
		}
		if captures == 0 {
			t.Errorf("game %d: no capture, a weak test", game)
		}
	}
}
