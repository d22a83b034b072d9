package atarigo_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
)

// step is one move of a rule test and what must follow it.
type step struct {
	move string
	// refused is the error the move must be refused with (the state staying as it was),
	// or nil when it must be played.
	refused error
	// text is the position after the move (or after the refusal), when not "".
	text string
	// legal and illegal are moves that must be, and must not be, in the legal list after.
	legal, illegal []string
	// over and returns say how the game stands after the move; returns nil means "not
	// checked".
	over    bool
	returns []float64
}

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name, game, start string
		steps             []step
	}{
		{
			name:  "a single stone's suicide is refused",
			game:  "atari-go:size=5",
			start: "...../...../...../X..../.X... w",
			steps: []step{
				{move: "A1", refused: game.ErrIllegalMove, text: "...../...../...../X..../.X... w", illegal: []string{"A1"}, legal: []string{"B2", "pass"}},
			},
		},
		{
			name:  "a string's suicide is refused",
			game:  "atari-go:size=5",
			start: "...../...../X..../OX.../.X... w",
			steps: []step{
				{move: "A1", refused: game.ErrIllegalMove, illegal: []string{"A1"}},
				{move: "C1", text: "...../...../X..../OX.../.XO.. b"},
			},
		},
		{
			name:  "a stone with no liberty of its own that captures is legal, and wins atari-go",
			game:  "atari-go:size=5",
			start: "...../...../O..../XO.../.X... w",
			steps: []step{
				{move: "a1", text: "...../...../O..../.O.../OX... b winner=w", over: true, returns: []float64{-1, 1}},
				{move: "E5", refused: game.ErrGameOver},
			},
		},
		{
			name:  "black's first capture wins atari-go",
			game:  "atari-go:size=5",
			start: "...../...../.X.../XO.../.X... b",
			steps: []step{
				{move: "C2", text: "...../...../.X.../X.X../.X... w winner=b", over: true, returns: []float64{1, -1}},
			},
		},
		{
			name:  "putting oneself in atari is legal and the game goes on",
			game:  "atari-go:size=5",
			start: "...../...../X..../.X.../..... w",
			steps: []step{
				{move: "A2", text: "...../...../X..../OX.../..... b", over: false, returns: []float64{0, 0}, legal: []string{"A1"}},
			},
		},
		{
			name:  "ko forbids the immediate retake and allows it one move later",
			game:  "capture",
			start: "...../...../.XO../XO.O./.XO.. b target=C3",
			steps: []step{
				{move: "C2", text: "...../...../.XO../X.XO./.XO.. w ko=B2 target=C3 played=1", illegal: []string{"B2"}, over: false},
				{move: "B2", refused: game.ErrIllegalMove, text: "...../...../.XO../X.XO./.XO.. w ko=B2 target=C3 played=1"},
				{move: "E5", text: "....O/...../.XO../X.XO./.XO.. b target=C3 played=2"},
				{move: "E1", text: "....O/...../.XO../X.XO./.XO.X w target=C3 played=3", legal: []string{"B2"}},
				{move: "B2", text: "....O/...../.XO../XO.O./.XO.X b ko=C2 target=C3 played=4", illegal: []string{"C2"}},
			},
		},
		{
			name:  "a pass lifts the ko too",
			game:  "capture",
			start: "...../...../.XO../X.XO./.XO.. w ko=B2 target=C3 played=1",
			steps: []step{
				{move: "pass", text: "...../...../.XO../X.XO./.XO.. b passes=1 target=C3 played=2"},
				{move: "pass", text: "...../...../.XO../X.XO./.XO.. w passes=2 target=C3 played=3", over: true, returns: []float64{-1, 1}},
			},
		},
		{
			name:  "a snapback is not ko: the taker of one stone retakes several at once",
			game:  "capture",
			start: "...../...../XX.../OOX../..X.. b target=A2",
			steps: []step{
				{move: "A1", text: "...../...../XX.../OOX../X.X.. w target=A2 played=1"},
				{move: "B1", text: "...../...../XX.../OOX../.OX.. b target=A2 played=2", legal: []string{"A1"}},
				{move: "A1", text: "...../...../XX.../..X../X.X.. w target=A2 played=3 winner=b", over: true, returns: []float64{1, -1}},
			},
		},
		{
			name:  "taking a string other than the target goes on",
			game:  "capture",
			start: "...../...../.XO../XO.O./.XO.. b target=C3",
			steps: []step{
				{move: "C2", over: false, returns: []float64{0, 0}},
			},
		},
		{
			name:  "one pass, then a stone, starts the count of passes again",
			game:  "atari-go:size=5",
			start: "...../...../...../...../..... b",
			steps: []step{
				{move: "pass", text: "...../...../...../...../..... w passes=1"},
				{move: "C3", text: "...../...../..O../...../..... b"},
				{move: "pass", text: "...../...../..O../...../..... w passes=1"},
				{move: "PASS", text: "...../...../..O../...../..... b passes=2", over: true, returns: []float64{0, 0}},
				{move: "A1", refused: game.ErrGameOver},
			},
		},
		{
			name:  "the defender wins at safe liberties",
			game:  "capture",
			start: "...../...../..O../...../..... w target=C3",
			steps: []step{
				{move: "C4", text: "...../..O../..O../...../..... b target=C3 played=1", over: true, returns: []float64{-1, 1}},
			},
		},
		{
			name:  "safe=3: three liberties are enough",
			game:  "capture:safe=3",
			start: ".X.../XOX../...../...../..... w target=B4",
			steps: []step{
				{move: "B3", over: true, returns: []float64{-1, 1}},
			},
		},
		{
			name:  "four liberties are not five",
			game:  "capture",
			start: "...../...../..X../...../..... w target=C3",
			steps: []step{
				{move: "A1", over: false, returns: []float64{0, 0}},
			},
		},
		{
			name:  "the defender wins at the move limit",
			game:  "capture:moves=2",
			start: "...../...../..O../...../..... b target=C3",
			steps: []step{
				{move: "C4", text: "...../..X../..O../...../..... w target=C3 played=1", over: false},
				{move: "A1", text: "...../..X../..O../...../O.... b target=C3 played=2", over: true, returns: []float64{-1, 1}},
			},
		},
		{
			name:  "the target captured on the last move allowed still counts",
			game:  "capture:moves=1",
			start: "...../...../.XOX./..X../..... b target=C3",
			steps: []step{
				{move: "C4", text: "...../..X../.X.X./..X../..... w target=C3 played=1 winner=b", over: true, returns: []float64{1, -1}},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := game.Lookup(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			gs, err := g.ParseState(tc.start)
			if err != nil {
				t.Fatalf("ParseState(%q): %v", tc.start, err)
			}
			s := gs.(*atarigo.State)
			for i, st := range tc.steps {
				before := s.String()
				m, err := s.ParseMove(st.move)
				if err != nil {
					t.Fatalf("step %d: ParseMove(%q): %v", i, st.move, err)
				}
				err = s.Play(m)
				switch {
				case st.refused != nil && !errors.Is(err, st.refused):
					t.Fatalf("step %d: Play(%s) = %v, want an error wrapping %v", i, st.move, err, st.refused)
				case st.refused != nil && s.String() != before:
					t.Fatalf("step %d: refused Play(%s) changed %q to %q", i, st.move, before, s.String())
				case st.refused == nil && err != nil:
					t.Fatalf("step %d: Play(%s): %v", i, st.move, err)
				}
				if st.text != "" && s.String() != st.text {
					t.Fatalf("step %d: after %s: %q, want %q", i, st.move, s.String(), st.text)
				}
				if st.refused == nil && s.IsTerminal() != st.over {
					t.Fatalf("step %d: after %s: IsTerminal() = %v, want %v", i, st.move, s.IsTerminal(), st.over)
				}
				if st.returns != nil && !slices.Equal(s.Returns(nil), st.returns) {
					t.Fatalf("step %d: after %s: Returns() = %v, want %v", i, st.move, s.Returns(nil), st.returns)
				}
				legal := moveTexts(s, s.LegalMoves(s.ToMove(), nil))
				for _, want := range st.legal {
					if !slices.Contains(legal, want) {
						t.Errorf("step %d: after %s: %s is not among the legal moves %v", i, st.move, want, legal)
					}
				}
				for _, bad := range st.illegal {
					if slices.Contains(legal, bad) {
						t.Errorf("step %d: after %s: %s is among the legal moves %v", i, st.move, bad, legal)
					}
				}
				// Whatever happened, the text reads back as the same position.
				back, err := g.ParseState(s.String())
				if err != nil || back.String() != s.String() || back.IsTerminal() != s.IsTerminal() {
					t.Fatalf("step %d: ParseState(%q) = %v, %v", i, s.String(), back, err)
				}
			}
		})
	}
}
