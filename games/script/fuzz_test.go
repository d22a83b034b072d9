package script

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/arenaref/arena/game"
)

// FuzzProgram: whatever a game file says, loading it and playing a few random moves ends
// in a game or an error, never a panic or a hang (every call has its step limit); a
// drawing it gives passes Check.
func FuzzProgram(f *testing.F) {
	for _, dir := range []string{"library", "testdata/broken", "../../docs/examples"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.star"))
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil {
				f.Add(src, uint64(1))
			}
		}
	}
	f.Add([]byte("def start(o):\n    return 0\ndef status(s):\n    return (0, [1]) if s < 3 else (-1, [])\ndef play(s, m):\n    return s + 1\ndef returns(s):\n    return [1, -1]\ndef move_text(s, m):\n    return \"m\"\ndef state_text(s):\n    return str(s)\ndef parse_state(o, t):\n    return int(t)\n"), uint64(2))
	f.Fuzz(func(t *testing.T, src []byte, seed uint64) {
		p, err := Parse("fuzz.star", src)
		if err != nil {
			return
		}
		g, err := p.New(nil)
		if err != nil {
			return
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		s := g.NewState()
		for ply := 0; ply < 20 && !s.IsTerminal(); ply++ {
			if d, err := game.Draw(s); err == nil {
				if err := d.Check(); err != nil {
					t.Fatalf("game.Draw gave a drawing that fails Check: %v", err)
				}
			}
			_ = s.String()
			moves := s.LegalMoves(s.ToMove(), nil)
			if len(moves) == 0 {
				return
			}
			m := moves[rng.IntN(len(moves))]
			_ = s.MoveString(m)
			if err := s.Play(m); err != nil {
				if !errors.Is(err, game.ErrRules) {
					t.Fatalf("Play of a legal move: %v, not a failure of the rules", err)
				}
				return
			}
		}
	})
}

// FuzzParseState: a position text from the wire is read by each library game into a
// position whose text reads back the same, or refused, never a panic.
func FuzzParseState(f *testing.F) {
	for _, name := range Library() {
		p, err := LibraryProgram(name)
		if err != nil {
			f.Fatal(err)
		}
		g, err := p.New(nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(name, g.NewState().String())
	}
	games := map[string]*Game{}
	f.Fuzz(func(t *testing.T, name, text string) {
		g, ok := games[name]
		if !ok {
			p, err := LibraryProgram(name)
			if err != nil {
				return
			}
			if g, err = p.New(nil); err != nil {
				t.Fatal(err)
			}
			games[name] = g
		}
		s, err := g.ParseState(text)
		if err != nil {
			return
		}
		again, err := g.ParseState(s.String())
		if err != nil || again.String() != s.String() {
			t.Fatalf("%s: %q read as %q, which reads back as %v %v", name, text, s.String(), again, err)
		}
	})
}
