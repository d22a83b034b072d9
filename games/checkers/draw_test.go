package checkers_test

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
)

// squares writes a position text's pieces square by square, 1 to 32: b and w for men,
// B and W for kings, - for an empty square.
func squares(t *testing.T, text string) string {
	t.Helper()
	cells := []byte(strings.Repeat("-", 32))
	for _, part := range strings.Split(text, ":")[1:3] {
		for _, sq := range strings.Split(part[1:], ",") {
			if sq == "" {
				continue
			}
			c := strings.ToLower(part[:1])
			if king := strings.HasPrefix(sq, "K"); king {
				c, sq = strings.ToUpper(c), sq[1:]
			}
			n, err := strconv.Atoi(sq)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			cells[n-1] = c[0]
		}
	}
	return string(cells)
}

// TestDraw: random games of both variants draw the pieces of the position text on the
// dark squares, numbered 1 to 32 from the top left, kings labelled K, and every empty
// dark square has a label marker with its number.
func TestDraw(t *testing.T) {
	for _, name := range []string{checkers.Name, checkers.GiveawayName} {
		t.Run(name, func(t *testing.T) {
			g, err := game.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(5, 6))
			kings := 0
			for range 20 {
				s := g.NewState()
				for ply := 0; ply < 200; ply++ {
					d, err := game.Draw(s)
					if err != nil {
						t.Fatal(err)
					}
					cells := []byte(strings.Repeat("-", 32))
					for _, p := range d.Pieces {
						x, y := p.At[0], p.At[1]
						if (x+y)%2 != 1 {
							t.Fatalf("%s: a piece on the light square %v", s, p.At)
						}
						c := "bw"[p.Seat]
						switch p.Label {
						case "K":
							c -= 'a' - 'A'
							kings++
						case "":
						default:
							t.Fatalf("label %q", p.Label)
						}
						cells[y*4+x/2] = c
					}
					for _, m := range d.Markers {
						x, y := m.At[0], m.At[1]
						sq := y*4 + x/2
						if m.Kind != game.MarkLabel || (x+y)%2 != 1 || m.Label != strconv.Itoa(sq+1) || cells[sq] != '-' {
							t.Fatalf("%s: marker %+v; want the number of an empty dark square", s, m)
						}
						cells[sq] = '#'
					}
					if strings.Contains(string(cells), "-") {
						t.Fatalf("%s: an empty square without its number: %s", s, cells)
					}
					for i, c := range cells {
						if c == '#' {
							cells[i] = '-'
						}
					}
					if want := squares(t, s.String()); string(cells) != want {
						t.Fatalf("%s drawn as %s, want %s", s, cells, want)
					}
					if s.IsTerminal() {
						break
					}
					moves := s.LegalMoves(s.ToMove(), nil)
					if err := s.Play(moves[rng.IntN(len(moves))]); err != nil {
						t.Fatal(err)
					}
				}
			}
			if kings == 0 {
				t.Error("no king was drawn in the random games")
			}
		})
	}
}
