package coevo

import (
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// sq names a 4x4 square.
func sq(t testing.TB, name string) game.Move {
	t.Helper()
	m, err := othello.ParseMove(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func bb(t testing.TB, names ...string) uint64 {
	t.Helper()
	var b uint64
	for _, n := range names {
		b |= 1 << uint(sq(t, n))
	}
	return b
}

func TestHSTakesCorner(t *testing.T) {
	g, err := othello.NewSize(4)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		black, white []string
		side         game.Seat
		want         []string // the moves HS may play; every one of them should turn up
	}{
		{
			// Black may play a1 or d1 (corners) or b1 or c1.
			name:  "two corners",
			black: []string{"b3", "c3"}, white: []string{"b2", "c2"},
			side: othello.Black,
			want: []string{"a1", "d1"},
		},
		{
			// White may play a4 (corner, one disc turned), b4 (one) or c4 (two).
			name:  "corner over more discs",
			black: []string{"b3", "c3", "b2"}, white: []string{"c2", "a2", "d2"},
			side: othello.White,
			want: []string{"a4"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := g.FromBitboards(bb(t, tt.black...), bb(t, tt.white...), tt.side)
			if err != nil {
				t.Fatal(err)
			}
			if s.MoveMask() == bb(t, tt.want...) {
				t.Fatalf("%s: every legal move is a wanted one; the test shows nothing", s)
			}
			seen := map[game.Move]int{}
			st := newStream()
			for seed := range uint64(200) {
				m := hsPlayer.choose(s, st.reseed(seed, purposeHSFirst, 1, 0, 0))
				seen[m]++
			}
			for _, w := range tt.want {
				if seen[sq(t, w)] == 0 {
					t.Errorf("%s: HS never played %s in 200 tries (played %v)", s, w, seen)
				}
			}
			if len(seen) != len(tt.want) {
				t.Errorf("%s: HS played %v, want only %v", s, seen, tt.want)
			}
		})
	}
}

func TestNetPlaysItsBestMove(t *testing.T) {
	s := start4(t)
	n, err := model.NewStrategyNet(Size, false)
	if err != nil {
		t.Fatal(err)
	}
	// Black's openings on 4x4 are b1, a2, d3 and c4. A zero network likes them all the
	// same and picks among them at random.
	seen := map[game.Move]int{}
	p := netPlayer(n)
	st := newStream()
	const tries = 4000
	for seed := range uint64(tries) {
		seen[p.choose(s, st.reseed(seed, purposeGame, 1, 0, 0))]++
	}
	for _, m := range []string{"b1", "a2", "d3", "c4"} {
		if c := seen[sq(t, m)]; c < tries/4-200 || c > tries/4+200 {
			t.Errorf("zero network played %s %d times in %d, want about %d", m, c, tries, tries/4)
		}
	}
	// A weight on its own disc at d3 makes it play d3.
	n.W[n.Node(int(sq(t, "d3")), model.StateOwn)] = 5
	for seed := range uint64(50) {
		if m := p.choose(s, st.reseed(seed, purposeGame, 1, 0, 0)); m != sq(t, "d3") {
			t.Fatalf("network with d3:own = 5 played %s", othello.MoveString(m))
		}
	}
}

func TestESWinsAsWhite(t *testing.T) {
	s := start4(t)
	es := esPlayer()
	want := perfect().blackValue(s)
	st := newStream()
	for seed := range 20 {
		net := netPlayer(randomNet(st.reseed(uint64(seed), purposeInitFirst, 0, 0, 0)))
		for name, black := range map[string]*player{"HS": &hsPlayer, "random network": &net} {
			if m := play(*s, black, &es, st.reseed(uint64(seed), purposeGame, 1, 0, 0)); m > want {
				t.Errorf("seed %d: %s as black against ES ends %d, better than perfect play's %d", seed, name, m, want)
			}
		}
	}
}

func TestPlayDoesNotAllocate(t *testing.T) {
	s := start4(t)
	st := newStream()
	black := netPlayer(randomNet(st.reseed(1, purposeInitFirst, 0, 0, 0)))
	white := netPlayer(randomNet(st.reseed(1, purposeInitSecond, 0, 0, 0)))
	es := esPlayer()
	allocs := testing.AllocsPerRun(100, func() {
		play(*s, &black, &white, st.reseed(1, purposeGame, 1, 2, 3))
		play(*s, &es, &white, st.reseed(1, purposeES, 1, 0, 0))
		play(*s, &black, &hsPlayer, st.reseed(1, purposeHSFirst, 1, 0, 0))
	})
	if allocs != 0 {
		t.Fatalf("a game allocates %v times", allocs)
	}
}
