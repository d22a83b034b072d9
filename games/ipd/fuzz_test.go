package ipd_test

import (
	"errors"
	"testing"

	"github.com/arenaref/arena/game"
)

func FuzzParseState(f *testing.F) {
	for _, s := range []string{"0/5 -", "1/5 CD", "3/5 CC,DD,DC", "5/5 CC,CC,CC,CC,CC", "", "0/5", "2/5 CC,", "1/5 cd", "9/5 -"} {
		f.Add(s)
	}
	specs := []string{"ipd:rounds=5", "ipd:rounds=5,continue=0.5,seed=4", "ipd:payoff=general,sigma=0.9,delta=0.3,rounds=5,noise=0.5"}
	f.Fuzz(func(t *testing.T, text string) {
		for _, spec := range specs {
			g := lookup(t, spec)
			s, err := g.ParseState(text)
			if err != nil {
				if !errors.Is(err, game.ErrBadPosition) {
					t.Fatalf("%s: ParseState(%q): %v does not wrap ErrBadPosition", spec, text, err)
				}
				continue
			}
			if s.String() != text {
				t.Fatalf("%s: ParseState(%q).String() = %q", spec, text, s)
			}
			again, err := g.ParseState(s.String())
			if err != nil || again.String() != text {
				t.Fatalf("%s: %q does not read back: %v", spec, text, err)
			}
			if s.IsTerminal() != (len(s.LegalMoves(0, nil)) == 0) {
				t.Fatalf("%s: %q: terminal and legal moves disagree", spec, text)
			}
		}
	})
}
