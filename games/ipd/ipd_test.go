package ipd_test

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/gametest"
	"github.com/arenaref/arena/games/ipd"
)

func lookup(t testing.TB, spec string) *ipd.Game {
	t.Helper()
	g, err := game.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*ipd.Game)
}

func TestConformance(t *testing.T) {
	for _, spec := range []string{
		"ipd:rounds=5",
		"ipd:rounds=1",
		"ipd:payoff=fig1,rounds=20",
		"ipd:payoff=general,sigma=0.8,delta=0.5,rounds=12",
		"ipd:rounds=50,continue=0.8,seed=7",
		"ipd:rounds=30,noise=0.1,seed=3",
		"ipd:rounds=40,continue=0.9,noise=0.05",
	} {
		t.Run(spec, func(t *testing.T) { gametest.Run(t, lookup(t, spec), gametest.MaxPlies(100)) })
	}
	t.Run("ipd", func(t *testing.T) { gametest.Run(t, lookup(t, "ipd"), gametest.Playouts(3)) })
}

func TestLookup(t *testing.T) {
	tests := []struct {
		spec    string
		wantErr error
		name    string
	}{
		{"ipd", nil, "ipd"},
		{"ipd:payoff=standard,rounds=200", nil, "ipd"},
		{"ipd:seed=9", nil, "ipd"}, // nothing is drawn, so the seed is no part of the game
		{"ipd:rounds=10", nil, "ipd:rounds=10"},
		{"ipd:payoff=fig1", nil, "ipd:payoff=fig1"},
		{"ipd:payoff=general,sigma=0.80,delta=0.5", nil, "ipd:payoff=general,sigma=0.8,delta=0.5"},
		{"ipd:seed=5,noise=0.1,continue=0.95,rounds=100", nil, "ipd:rounds=100,continue=0.95,noise=0.1,seed=5"},
		{"ipd:continue=1,noise=0", nil, "ipd"},
		{"ipd:noise=0.1,seed=1", nil, "ipd:noise=0.1"},
		{"ipd:payoff=other", game.ErrBadGameOption, ""},
		{"ipd:payoff=general", game.ErrBadGameOption, ""},
		{"ipd:payoff=general,sigma=0.8", game.ErrBadGameOption, ""},
		{"ipd:sigma=0.8,delta=0.5", game.ErrBadGameOption, ""},
		{"ipd:payoff=general,sigma=0.5,delta=0.2", game.ErrBadGameOption, ""}, // sigma must exceed 0.5
		{"ipd:payoff=general,sigma=1,delta=0.2", game.ErrBadGameOption, ""},
		{"ipd:payoff=general,sigma=0.8,delta=0.8", game.ErrBadGameOption, ""},
		{"ipd:payoff=general,sigma=0.8,delta=0", game.ErrBadGameOption, ""},
		{"ipd:payoff=general,sigma=NaN,delta=0.2", game.ErrBadGameOption, ""},
		{"ipd:rounds=0", game.ErrBadGameOption, ""},
		{"ipd:rounds=1001", game.ErrBadGameOption, ""},
		{"ipd:rounds=x", game.ErrBadGameOption, ""},
		{"ipd:continue=1.5", game.ErrBadGameOption, ""},
		{"ipd:continue=-0.1", game.ErrBadGameOption, ""},
		{"ipd:noise=2", game.ErrBadGameOption, ""},
		{"ipd:noise=Inf", game.ErrBadGameOption, ""},
		{"ipd:seed=-1", game.ErrBadGameOption, ""},
		{"ipd:size=3", game.ErrBadGameOption, ""},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			g, err := game.Lookup(tt.spec)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if g.Name() != tt.name {
				t.Errorf("Name() = %q, want %q", g.Name(), tt.name)
			}
			if !reflect.DeepEqual(g.Seats(), []string{"first", "second"}) {
				t.Errorf("Seats() = %v", g.Seats())
			}
			if again := lookup(t, g.Name()); again.Name() != g.Name() || again.Config() != g.(*ipd.Game).Config() {
				t.Errorf("Lookup(%q) differs: %q %+v", g.Name(), again.Name(), again.Config())
			}
		})
	}
}

func TestPayoffs(t *testing.T) {
	type row struct {
		a, b   game.Move
		pa, pb float64
	}
	tests := []struct {
		spec string
		rows []row
	}{
		{"ipd", []row{{ipd.C, ipd.C, 3, 3}, {ipd.C, ipd.D, 0, 5}, {ipd.D, ipd.C, 5, 0}, {ipd.D, ipd.D, 1, 1}}},
		{"ipd:payoff=fig1", []row{{ipd.C, ipd.C, 3, 3}, {ipd.C, ipd.D, 1, 4}, {ipd.D, ipd.C, 4, 1}, {ipd.D, ipd.D, 2, 2}}},
		{"ipd:payoff=general,sigma=0.8,delta=0.7", []row{{ipd.C, ipd.C, 0.8, 0.8}, {ipd.C, ipd.D, 0, 1}, {ipd.D, ipd.C, 1, 0}, {ipd.D, ipd.D, 0.7, 0.7}}},
		{"ipd:payoff=general,sigma=0.6,delta=0.1", []row{{ipd.C, ipd.C, 0.6, 0.6}, {ipd.C, ipd.D, 0, 1}, {ipd.D, ipd.C, 1, 0}, {ipd.D, ipd.D, 0.1, 0.1}}},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			g := lookup(t, tt.spec)
			s := g.NewState().(*ipd.State)
			var want [2]float64
			for i, r := range tt.rows {
				if pa, pb := g.Matrix().Payoffs(r.a, r.b); pa != r.pa || pb != r.pb {
					t.Errorf("Payoffs(%v, %v) = %v, %v; want %v, %v", r.a, r.b, pa, pb, r.pa, r.pb)
				}
				if err := s.PlayJoint([]game.Move{r.a, r.b}); err != nil {
					t.Fatal(err)
				}
				if got := s.Payoffs(i); got != [2]float64{r.pa, r.pb} {
					t.Errorf("round %d payoffs %v, want %v %v", i, got, r.pa, r.pb)
				}
				want[0] += r.pa
				want[1] += r.pb
			}
			if s.Totals() != want {
				t.Errorf("totals %v, want %v", s.Totals(), want)
			}
		})
	}
}

func TestPlayAndReturns(t *testing.T) {
	g := lookup(t, "ipd:rounds=3")
	s := g.NewState()
	if err := s.Play(ipd.C); !errors.Is(err, game.ErrNotYourTurn) {
		t.Errorf("Play: %v, want ErrNotYourTurn", err)
	}
	if err := s.PlayJoint([]game.Move{ipd.C, 2}); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("PlayJoint with a bad move: %v", err)
	}
	if err := s.PlayJoint([]game.Move{ipd.C}); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("PlayJoint with one move: %v", err)
	}
	for _, j := range [][]game.Move{{ipd.C, ipd.D}, {ipd.D, ipd.D}, {ipd.D, ipd.C}} {
		if got := s.Returns(nil); !reflect.DeepEqual(got, []float64{0, 0}) {
			t.Errorf("Returns before the end = %v", got)
		}
		if err := s.PlayJoint(j); err != nil {
			t.Fatal(err)
		}
	}
	if !s.IsTerminal() || s.ToMove() != game.Terminal {
		t.Fatalf("not over after 3 rounds: %v", s)
	}
	if got := s.Returns(nil); !reflect.DeepEqual(got, []float64{6, 6}) {
		t.Errorf("Returns = %v, want [6 6]", got)
	}
	if s.String() != "3/3 CD,DD,DC" {
		t.Errorf("String() = %q", s)
	}
	if err := s.PlayJoint([]game.Move{ipd.C, ipd.C}); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("PlayJoint after the end: %v", err)
	}
	if err := s.Play(ipd.C); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("Play after the end: %v", err)
	}
}

func TestParseMove(t *testing.T) {
	s := lookup(t, "ipd").NewState()
	for text, want := range map[string]game.Move{"C": ipd.C, "c": ipd.C, "D": ipd.D, "d": ipd.D} {
		if m, err := s.ParseMove(text); err != nil || m != want {
			t.Errorf("ParseMove(%q) = %v, %v", text, m, err)
		}
	}
	for _, text := range []string{"", "x", "CC", " C", "cooperate"} {
		if _, err := s.ParseMove(text); !errors.Is(err, game.ErrBadMove) {
			t.Errorf("ParseMove(%q): %v, want ErrBadMove", text, err)
		}
	}
}

func TestParseState(t *testing.T) {
	g := lookup(t, "ipd:rounds=4")
	good := []string{"0/4 -", "1/4 CD", "4/4 CC,CD,DC,DD"}
	for _, text := range good {
		s, err := g.ParseState(text)
		if err != nil {
			t.Errorf("ParseState(%q): %v", text, err)
			continue
		}
		if s.String() != text {
			t.Errorf("ParseState(%q).String() = %q", text, s)
		}
	}
	s, _ := g.ParseState("3/4 CC,CD,DD")
	if got := s.(*ipd.State).Totals(); got != [2]float64{3 + 0 + 1, 3 + 5 + 1} {
		t.Errorf("totals rebuilt from the text: %v", got)
	}
	bad := []string{"", "-", "0/4", "0/4 ", "0/4 CC", "1/4 -", "1/5 CC", "01/4 CC", "+1/4 CC", "-1/4 -",
		"2/4 CC", "2/4 CC;DD", "2/4 CC,DX", "1/4 cc", "5/4 CC,CC,CC,CC,CC", "1/4 CC,", "1/4  CC", "1 /4 CC"}
	for _, text := range bad {
		if _, err := g.ParseState(text); !errors.Is(err, game.ErrBadPosition) {
			t.Errorf("ParseState(%q): %v, want ErrBadPosition", text, err)
		}
	}
	// A game cut short by its continuation draws refuses a longer history.
	short := lookup(t, "ipd:rounds=100,continue=0.5,seed=2")
	if short.Length() >= 100 {
		t.Fatalf("Length() = %d, want a shorter game", short.Length())
	}
	st := short.NewState()
	for !st.IsTerminal() {
		if err := st.PlayJoint([]game.Move{ipd.C, ipd.C}); err != nil {
			t.Fatal(err)
		}
	}
	n := short.Length() + 1
	text := strconv.Itoa(n) + "/100 " + strings.Repeat("CC,", n-1) + "CC"
	if _, err := short.ParseState(text); !errors.Is(err, game.ErrBadPosition) {
		t.Errorf("ParseState of %d rounds in a game of %d: %v", n, short.Length(), err)
	}
}

// A parsed position goes on exactly as the original: noise and continuation draws depend
// only on the options and the round.
func TestParsedStateContinuesIdentically(t *testing.T) {
	g := lookup(t, "ipd:rounds=300,continue=0.99,noise=0.2,seed=11")
	a := g.NewState()
	var b game.State
	for i := 0; !a.IsTerminal(); i++ {
		if i == 37 {
			var err error
			if b, err = g.ParseState(a.String()); err != nil {
				t.Fatal(err)
			}
		}
		j := []game.Move{game.Move(i % 2), game.Move(i / 3 % 2)}
		if err := a.PlayJoint(j); err != nil {
			t.Fatal(err)
		}
		if b != nil {
			if err := b.PlayJoint(j); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !b.IsTerminal() || a.String() != b.String() || !reflect.DeepEqual(a.Returns(nil), b.Returns(nil)) {
		t.Errorf("original ended %q %v, parsed copy %q %v", a, a.Returns(nil), b, b.Returns(nil))
	}
	// And the same options give the same game.
	c := lookup(t, g.Name()).NewState()
	for i := 0; !c.IsTerminal(); i++ {
		_ = c.PlayJoint([]game.Move{game.Move(i % 2), game.Move(i / 3 % 2)})
	}
	if c.String() != a.String() {
		t.Errorf("same options, different games:\n%q\n%q", a, c)
	}
}

func TestNoiseRate(t *testing.T) {
	for _, p := range []float64{0, 0.05, 0.1, 0.3} {
		flips, n := 0, 0
		for seed := 1; seed <= 20; seed++ {
			g, err := ipd.New(ipd.Config{Payoff: ipd.PayoffStandard, Rounds: ipd.MaxRounds, Continue: 1, Noise: p, Seed: uint64(seed)})
			if err != nil {
				t.Fatal(err)
			}
			s := g.NewState().(*ipd.State)
			for !s.IsTerminal() {
				if err := s.PlayJoint([]game.Move{ipd.C, ipd.D}); err != nil {
					t.Fatal(err)
				}
				j := s.Actions(s.Round() - 1)
				if j[0] != ipd.C {
					flips++
				}
				if j[1] != ipd.D {
					flips++
				}
				n += 2
			}
		}
		rate := float64(flips) / float64(n)
		// n = 40,000 draws: the standard error is at most 0.0025, so allow four of them.
		if sd := math.Sqrt(p * (1 - p) / float64(n)); math.Abs(rate-p) > 4*sd+1e-12 {
			t.Errorf("noise=%v: flipped %v of actions (sd %v)", p, rate, sd)
		}
	}
}

func TestContinuationLength(t *testing.T) {
	for _, p := range []float64{0, 0.5, 0.9, 0.95} {
		const games = 4000
		sum := 0
		for seed := 1; seed <= games; seed++ {
			g, err := ipd.New(ipd.Config{Payoff: ipd.PayoffStandard, Rounds: ipd.MaxRounds, Continue: p, Seed: uint64(seed)})
			if err != nil {
				t.Fatal(err)
			}
			sum += g.Length()
		}
		mean, want := float64(sum)/games, 1/(1-p)
		// The length is geometric: its standard deviation is sqrt(p)/(1-p).
		if sd := math.Sqrt(p) / (1 - p) / math.Sqrt(games); math.Abs(mean-want) > 4*sd+1e-9 {
			t.Errorf("continue=%v: mean length %v, want about %v (sd %v)", p, mean, want, sd)
		}
	}
	// rounds caps the length.
	if g := lookup(t, "ipd:rounds=3,continue=0.999"); g.Length() != 3 {
		t.Errorf("Length() = %d, want 3", g.Length())
	}
}

func TestObservation(t *testing.T) {
	g := lookup(t, "ipd:payoff=fig1,rounds=5")
	s, err := g.ParseState("2/5 CD,DD")
	if err != nil {
		t.Fatal(err)
	}
	o := s.(game.Observer)
	want := []string{
		`{"round":2,"own":["C","D"],"payoffs":[1,2],"opponent":["D","D"]}`,
		`{"round":2,"own":["D","D"],"payoffs":[4,2],"opponent":["C","D"]}`,
		`{"round":0,"own":[],"payoffs":[],"opponent":[]}`,
	}
	for i, seat := range []game.Seat{0, 1, 2} {
		raw, err := json.Marshal(o.Observation(seat))
		if err != nil {
			t.Fatal(err)
		}
		if string(raw) != want[i] {
			t.Errorf("seat %d sees %s, want %s", seat, raw, want[i])
		}
	}
}
