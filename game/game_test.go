package game_test

import (
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/arenaref/arena/game"
)

// takeaway is a test-only game: seats alternately take 1 or 2 from a pile; whoever takes
// the last one wins. With pile n the number of complete games is the number of ways to write n as a sum of 1s and 2s.
type takeaway struct{ pile int }

func (takeaway) Name() string           { return "takeaway" }
func (takeaway) Seats() []string        { return []string{"first", "second"} }
func (g takeaway) NewState() game.State { return &pile{left: g.pile} }
func (takeaway) ParseState(string) (game.State, error) {
	return nil, game.ErrBadPosition
}

type pile struct{ left, ply int }

func (p *pile) ToMove() game.Seat {
	if p.left == 0 {
		return game.Terminal
	}
	return game.Seat(p.ply % 2)
}
func (p *pile) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if seat != p.ToMove() {
		return buf
	}
	for m := 1; m <= 2 && m <= p.left; m++ {
		buf = append(buf, game.Move(m))
	}
	return buf
}
func (p *pile) Play(m game.Move) error {
	if !game.IsLegal(p, p.ToMove(), m) {
		return game.ErrIllegalMove
	}
	p.left -= int(m)
	p.ply++
	return nil
}
func (p *pile) PlayJoint(ms []game.Move) error { return p.Play(ms[p.ToMove()]) }
func (p *pile) IsTerminal() bool               { return p.left == 0 }
func (p *pile) Returns(buf []float64) []float64 {
	if p.left > 0 {
		return append(buf, 0, 0)
	}
	if p.ply%2 == 1 { // the first seat took the last one
		return append(buf, 1, -1)
	}
	return append(buf, -1, 1)
}
func (p *pile) Ply() int                      { return p.ply }
func (p *pile) Clone() game.State             { c := *p; return &c }
func (p *pile) String() string                { return strconv.Itoa(p.left) }
func (p *pile) MoveString(m game.Move) string { return strconv.Itoa(int(m)) }
func (p *pile) ParseMove(s string) (game.Move, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%w: %q", game.ErrBadMove, s)
	}
	return game.Move(n), nil
}

func init() {
	game.Register("takeaway", func(opts game.Options) (game.Game, error) {
		if err := game.CheckOptions(opts, "pile"); err != nil {
			return nil, err
		}
		n := 10
		if v, ok := opts["pile"]; ok {
			var err error
			if n, err = strconv.Atoi(v); err != nil || n < 1 {
				return nil, fmt.Errorf("%w: pile=%q", game.ErrBadGameOption, v)
			}
		}
		return takeaway{pile: n}, nil
	})
}

func TestLookup(t *testing.T) {
	tests := []struct {
		spec    string
		wantErr error
		pile    int
	}{
		{"takeaway", nil, 10},
		{" takeaway ", nil, 10},
		{"takeaway:pile=4", nil, 4},
		{"takeaway:pile=0", game.ErrBadGameOption, 0},
		{"takeaway:size=4", game.ErrBadGameOption, 0},
		{"takeaway:pile", game.ErrBadGameOption, 0},
		{"takeaway:pile=3,pile=4", game.ErrBadGameOption, 0},
		{"takeaway:", game.ErrBadGameOption, 0},
		{"chess", game.ErrUnknownGame, 0},
		{"", game.ErrUnknownGame, 0},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			g, err := game.Lookup(tt.spec)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Lookup(%q) error = %v, want %v", tt.spec, err, tt.wantErr)
			}
			if err == nil && g.(takeaway).pile != tt.pile {
				t.Fatalf("pile = %d, want %d", g.(takeaway).pile, tt.pile)
			}
		})
	}
}

func TestRegisterRejectsDuplicatesAndBadNames(t *testing.T) {
	for _, name := range []string{"takeaway", "", "a:b", "a b"} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatalf("Register(%q) did not panic", name)
				}
			}()
			game.Register(name, nil)
		})
	}
}

func TestPerftGeneric(t *testing.T) {
	fib := []uint64{1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89}
	for pile := 1; pile <= 9; pile++ {
		t.Run(fmt.Sprintf("pile=%d", pile), func(t *testing.T) {
			g, err := game.Lookup(fmt.Sprintf("takeaway:pile=%d", pile))
			if err != nil {
				t.Fatal(err)
			}
			// Every game lasts at most pile plies, so a deep perft counts complete games.
			if got := game.Perft(g.NewState(), pile, game.PerftLeaves); got != fib[pile] {
				t.Errorf("leaves perft = %d, want %d", got, fib[pile])
			}
			// Exactly `pile` plies happen only when every move takes 1.
			if got := game.Perft(g.NewState(), pile, game.PerftExact); got != 1 {
				t.Errorf("exact perft = %d, want 1", got)
			}
			// Depth 1 has one move per legal option.
			want := uint64(2)
			if pile == 1 {
				want = 1
			}
			if got := game.Perft(g.NewState(), 1, game.PerftExact); got != want {
				t.Errorf("perft(1) = %d, want %d", got, want)
			}
		})
	}
}

func TestSeatString(t *testing.T) {
	for seat, want := range map[game.Seat]string{0: "0", 1: "1", game.Terminal: "terminal", game.Simultaneous: "simultaneous"} {
		if got := seat.String(); got != want {
			t.Errorf("Seat(%d).String() = %q, want %q", int(seat), got, want)
		}
	}
}
