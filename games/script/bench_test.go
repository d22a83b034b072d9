package script

import (
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/connect4"
)

// BenchmarkPlayouts plays random games of Connect Four from the start, as an MCTS
// playout does: the script's four in a row against the same rules in Go, in one run.
//
//	go test -run - -bench Playouts ./games/script
func BenchmarkPlayouts(b *testing.B) {
	gg, _ := connect4.New(7, 6)
	p, err := Load("library/fourinarow.star")
	if err != nil {
		b.Fatal(err)
	}
	sg, err := p.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		g    game.Game
	}{{"go", gg}, {"script", sg}} {
		b.Run(bc.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			buf := make([]game.Move, 0, 16)
			plies := 0
			for b.Loop() {
				s := bc.g.NewState()
				for !s.IsTerminal() {
					buf = s.LegalMoves(s.ToMove(), buf[:0])
					if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
						b.Fatal(err)
					}
					plies++
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
			b.ReportMetric(float64(plies)/float64(b.N), "plies/playout")
		})
	}
}
