package othello_test

import (
	"strings"
	"testing"

	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/games/othello"
)

var _ opening.Canonicalizer = (*othello.State)(nil)

// images returns the position texts of the eight symmetric images of a position text,
// computed on the text itself (file f, rank r is character 8r+f), independently of the
// bitboard code under test.
func images(text string) []string {
	var out []string
	for sym := range 8 {
		b := []byte(text)
		for sq := range 64 {
			f, r := sq%8, sq/8
			if sym&4 != 0 {
				f, r = r, f
			}
			if sym&2 != 0 {
				r = 7 - r
			}
			if sym&1 != 0 {
				f = 7 - f
			}
			b[r*8+f] = text[sq]
		}
		out = append(out, string(b))
	}
	return out
}

func play(t testing.TB, moves string) *othello.State {
	t.Helper()
	s := othello.NewState()
	for _, f := range strings.Fields(moves) {
		m, err := s.ParseMove(f)
		if err == nil {
			err = s.Play(m)
		}
		if err != nil {
			t.Fatalf("%s: %v", moves, err)
		}
	}
	return s
}

func TestCanonicalKeyOfImages(t *testing.T) {
	for _, moves := range []string{"", "d3", "d3 c5", "d3 c5 f6 f5 e6 e3", "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7"} {
		t.Run(moves, func(t *testing.T) {
			s := play(t, moves)
			key := s.CanonicalKey()
			if p, err := othello.Parse(key); err != nil || p.CanonicalKey() != key {
				t.Fatalf("key %q is not a position with the same key (%v)", key, err)
			}
			found := false
			for _, img := range images(s.String()) {
				p, err := othello.Parse(img)
				if err != nil {
					t.Fatal(err)
				}
				if got := p.CanonicalKey(); got != key {
					t.Errorf("image %s has key %s, want %s", img, got, key)
				}
				found = found || img == key
			}
			if !found {
				t.Errorf("key %s is none of the images", key)
			}
			// The side to move is part of the key.
			b, w := s.Bitboards()
			other, _ := othello.NewStateFromBitboards(b, w, 1-s.Side())
			if other.CanonicalKey() == key {
				t.Errorf("the key ignores the side to move")
			}
		})
	}
}

func TestCanonicalKeyFirstMoves(t *testing.T) {
	keys := map[string][]string{}
	for _, m := range []string{"d3", "c4", "f5", "e6"} {
		c := play(t, m)
		keys[c.CanonicalKey()] = append(keys[c.CanonicalKey()], m)
	}
	if len(keys) != 1 {
		t.Errorf("the four first moves give %d keys, want 1: %v", len(keys), keys)
	}
}

// TestCanonicalKeyTellsPositionsApart checks, over every position within four plies, that
// two positions share a key exactly when one is an image of the other.
func TestCanonicalKeyTellsPositionsApart(t *testing.T) {
	var positions []*othello.State
	var walk func(s *othello.State, depth int)
	walk = func(s *othello.State, depth int) {
		positions = append(positions, s)
		if depth == 0 {
			return
		}
		for _, m := range s.LegalMoves(s.ToMove(), nil) {
			c := *s
			if err := c.Play(m); err != nil {
				t.Fatal(err)
			}
			walk(&c, depth-1)
		}
	}
	walk(othello.NewState(), 4)
	byText := map[string]*othello.State{}
	for _, p := range positions {
		byText[p.String()] = p
	}
	for _, p := range byText {
		imgs := map[string]bool{}
		for _, img := range images(p.String()) {
			imgs[img] = true
		}
		for _, q := range byText {
			same := p.CanonicalKey() == q.CanonicalKey()
			if same != imgs[q.String()] {
				t.Fatalf("%s and %s: same key %v, images of each other %v", p, q, same, imgs[q.String()])
			}
		}
	}
	if len(byText) < 300 {
		t.Fatalf("only %d positions checked", len(byText))
	}
}

func TestCanonicalKeyPass(t *testing.T) {
	// White has no move (its only disc sits next to black's in the corner), black has c1.
	s, err := othello.Parse("XO" + strings.Repeat("-", 62) + " O")
	if err != nil {
		t.Fatal(err)
	}
	if ms := s.LegalMoves(othello.White, nil); len(ms) != 1 || ms[0] != othello.Pass {
		t.Fatalf("white's moves %v, want [pass]", ms)
	}
	before := s.CanonicalKey()
	if err := s.Play(othello.Pass); err != nil {
		t.Fatal(err)
	}
	after := s.CanonicalKey()
	if before == after || before[:64] != after[:64] || !strings.HasSuffix(before, " O") || !strings.HasSuffix(after, " X") {
		t.Errorf("key before the pass %q, after %q: want the same board, the other side", before, after)
	}
}
