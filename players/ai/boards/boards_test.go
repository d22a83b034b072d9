package boards_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/games/othello"
	_ "github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/players/ai/boards"
)

// board is what the test needs of a board: search.Position without Evaluate, and its current state
// as a game.State, and a fresh board at a state.
type board interface {
	Key() uint64
	Moves(buf []game.Move) []game.Move
	Make(m game.Move)
	Unmake()
	state() game.State
	fresh(s game.State) board
}

type othelloBoard struct{ *boards.Othello }

func (b othelloBoard) state() game.State { return b.State() }
func (b othelloBoard) fresh(s game.State) board {
	return othelloBoard{boards.NewOthello(s.(*othello.State))}
}

type checkersBoard struct{ *boards.Checkers }

func (b checkersBoard) state() game.State { return b.State() }
func (b checkersBoard) fresh(s game.State) board {
	return checkersBoard{boards.NewCheckers(s.(*checkers.State))}
}

type genericBoard struct{ *boards.Generic }

func (b genericBoard) state() game.State        { return b.State() }
func (b genericBoard) fresh(s game.State) board { return genericBoard{boards.NewGeneric(s)} }

// TestBoards plays random games on each board and checks at every ply that the moves
// are the game's legal moves, that the key is that of a fresh board at the same state
// (so transpositions share keys), and that Unmake restores the state and key.
func TestBoards(t *testing.T) {
	for _, tc := range []struct {
		game string
		make func(s game.State) board
		name string // the subtest's, when not the game's
	}{
		{"othello", func(s game.State) board { return othelloBoard{}.fresh(s) }, ""},
		{"othello:size=6", func(s game.State) board { return othelloBoard{}.fresh(s) }, ""},
		{"checkers", func(s game.State) board { return checkersBoard{}.fresh(s) }, ""},
		{"giveaway", func(s game.State) board { return checkersBoard{}.fresh(s) }, ""},
		{"checkers", func(s game.State) board {
			b := boards.NewCheckers(s.(*checkers.State))
			b.Keyless = true
			return checkersBoard{b}
		}, "checkers keyless"},
		{"othello:size=4", func(s game.State) board { return genericBoard{}.fresh(s) }, ""},
		{"testcount", func(s game.State) board { return genericBoard{}.fresh(s) }, ""},
	} {
		name := tc.name
		if name == "" {
			name = tc.game
		}
		t.Run(name, func(t *testing.T) {
			g, err := game.Lookup(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			for range 20 {
				ref := g.NewState()
				b := tc.make(ref)
				var keys []uint64
				var texts []string
				for {
					text := b.state().String()
					if text != ref.String() {
						t.Fatalf("board at %q, game at %q", text, ref.String())
					}
					if k := tc.make(ref).Key(); b.Key() != k {
						t.Fatalf("at %q: key %x after moves, %x fresh", text, b.Key(), k)
					}
					got := b.Moves(nil)
					var want []game.Move
					if seat := ref.ToMove(); seat != game.Terminal {
						want = ref.LegalMoves(seat, nil)
					}
					slices.Sort(got)
					slices.Sort(want)
					if !slices.Equal(got, want) {
						t.Fatalf("at %q: moves %v, legal %v", text, got, want)
					}
					if len(want) == 0 {
						break
					}
					keys, texts = append(keys, b.Key()), append(texts, text)
					m := want[rng.IntN(len(want))]
					b.Make(m)
					if err := ref.Play(m); err != nil {
						t.Fatal(err)
					}
				}
				for i := len(keys) - 1; i >= 0; i-- {
					b.Unmake()
					if b.Key() != keys[i] || b.state().String() != texts[i] {
						t.Fatalf("after Unmake: %q key %x, want %q key %x", b.state().String(), b.Key(), texts[i], keys[i])
					}
				}
			}
		})
	}
}
