package testgame_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/gametest"
	"github.com/arenaref/arena/internal/testutil/testgame"
)

func lookup(t *testing.T, spec string) game.Game {
	t.Helper()
	g, err := game.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestConformance(t *testing.T) {
	for _, spec := range []string{"testcount", "testcount:target=1", "testcount:target=7"} {
		t.Run(spec, func(t *testing.T) { gametest.Run(t, lookup(t, spec)) })
	}
	for _, spec := range []string{"testpennies", "testpennies:rounds=1", "testpennies:rounds=4"} {
		t.Run(spec, func(t *testing.T) { gametest.Run(t, lookup(t, spec), gametest.MaxPlies(10)) })
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		spec    string
		wantErr error
		name    string
		seats   []string
	}{
		{"testcount", nil, "testcount", []string{"first", "second"}},
		{"testcount:target=10", nil, "testcount", []string{"first", "second"}},
		{"testcount:target=4", nil, "testcount:target=4", []string{"first", "second"}},
		{"testcount:target=0", game.ErrBadGameOption, "", nil},
		{"testcount:target=1001", game.ErrBadGameOption, "", nil},
		{"testcount:rounds=3", game.ErrBadGameOption, "", nil},
		{"testpennies", nil, "testpennies", []string{"even", "odd"}},
		{"testpennies:rounds=5", nil, "testpennies:rounds=5", []string{"even", "odd"}},
		{"testpennies:rounds=x", game.ErrBadGameOption, "", nil},
		{"testpennies:target=3", game.ErrBadGameOption, "", nil},
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
			if g.Name() != tt.name || !reflect.DeepEqual(g.Seats(), tt.seats) {
				t.Errorf("name %q, seats %v; want %q, %v", g.Name(), g.Seats(), tt.name, tt.seats)
			}
			// The canonical name looks up the same game.
			if again := lookup(t, g.Name()); again.Name() != g.Name() {
				t.Errorf("Lookup(%q).Name() = %q", g.Name(), again.Name())
			}
		})
	}
}

func TestCount(t *testing.T) {
	g := testgame.NewCount(5)
	s := g.NewState()
	for _, text := range []string{"2", "2"} { // 2, 4: only 1 is left
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.String(); got != "4 0" {
		t.Errorf("position %q, want \"4 0\"", got)
	}
	if got := s.LegalMoves(0, nil); !reflect.DeepEqual(got, []game.Move{1}) {
		t.Errorf("legal moves %v at 4 of 5, want [1]", got)
	}
	// A digit other than 1 or 2 is a move, but never a legal one.
	m, err := s.ParseMove("7")
	if err != nil {
		t.Fatalf("ParseMove(7): %v", err)
	}
	if err := s.Play(m); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("Play(7): %v, want ErrIllegalMove", err)
	}
	if err := s.Play(2); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("Play(2) past the target: %v, want ErrIllegalMove", err)
	}
	if err := s.Play(1); err != nil {
		t.Fatal(err)
	}
	if !s.IsTerminal() || s.String() != "5 1" || !reflect.DeepEqual(s.Returns(nil), []float64{1, -1}) || s.Ply() != 3 {
		t.Errorf("after 2, 2, 1: %q, terminal %v, returns %v, ply %d", s, s.IsTerminal(), s.Returns(nil), s.Ply())
	}
	for _, bad := range []string{"6 0", "-1 0", "3 2", "03 1", "3  1", "3"} {
		if _, err := g.ParseState(bad); !errors.Is(err, game.ErrBadPosition) {
			t.Errorf("ParseState(%q): %v, want ErrBadPosition", bad, err)
		}
	}
	// The zero state counts to DefaultTarget.
	var zero testgame.CountState
	if zero.IsTerminal() || !(&testgame.CountState{Count: testgame.DefaultTarget}).IsTerminal() {
		t.Errorf("the zero CountState does not count to %d", testgame.DefaultTarget)
	}
}

func TestPennies(t *testing.T) {
	tests := []struct {
		rounds  int
		joint   [][]game.Move
		text    string
		returns []float64
	}{
		{3, [][]game.Move{{testgame.Heads, testgame.Tails}, {testgame.Tails, testgame.Tails}, {testgame.Heads, testgame.Heads}}, "HT,TT,HH", []float64{1, -1}},
		{3, [][]game.Move{{testgame.Heads, testgame.Tails}, {testgame.Tails, testgame.Heads}, {testgame.Heads, testgame.Heads}}, "HT,TH,HH", []float64{-1, 1}},
		{2, [][]game.Move{{testgame.Heads, testgame.Tails}, {testgame.Tails, testgame.Tails}}, "HT,TT", []float64{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			g := testgame.NewPennies(tt.rounds)
			s := g.NewState()
			if s.String() != "-" {
				t.Errorf("initial position %q, want -", s)
			}
			for _, joint := range tt.joint {
				if err := s.Play(joint[0]); !errors.Is(err, game.ErrNotYourTurn) {
					t.Errorf("Play: %v, want ErrNotYourTurn", err)
				}
				if err := s.PlayJoint(joint); err != nil {
					t.Fatal(err)
				}
			}
			if !s.IsTerminal() || s.String() != tt.text || !reflect.DeepEqual(s.Returns(nil), tt.returns) {
				t.Errorf("%q, terminal %v, returns %v; want %q, true, %v", s, s.IsTerminal(), s.Returns(nil), tt.text, tt.returns)
			}
		})
	}
	for _, bad := range []string{"", "HT,", "HT,TT,HH,TH", "Ht", "HTT", "H T"} {
		if _, err := testgame.NewPennies(3).ParseState(bad); !errors.Is(err, game.ErrBadPosition) {
			t.Errorf("ParseState(%q): %v, want ErrBadPosition", bad, err)
		}
	}
}

func TestPenniesObservation(t *testing.T) {
	s, err := testgame.NewPennies(3).ParseState("HT,TT")
	if err != nil {
		t.Fatal(err)
	}
	obs := s.(game.Observer)
	for seat, want := range map[game.Seat]string{
		0: `{"opponent":["T","T"]}`, 1: `{"opponent":["H","T"]}`, 2: `{"opponent":[]}`, game.Simultaneous: `{"opponent":[]}`,
	} {
		b, err := json.Marshal(obs.Observation(seat))
		if err != nil || string(b) != want {
			t.Errorf("seat %v observes %s (%v), want %s", seat, b, err, want)
		}
	}
}
