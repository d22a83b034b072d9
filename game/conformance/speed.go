package conformance

import (
	"math/rand/v2"
	"time"

	"github.com/arenaref/arena/game"
)

// Speed is what RandomPlayouts measured.
type Speed struct {
	Playouts int           // random games played to the end
	Plies    int           // plies played in all
	Elapsed  time.Duration // time taken
}

// PerSecond is the number of random games played a second.
func (s Speed) PerSecond() float64 { return float64(s.Playouts) / max(s.Elapsed.Seconds(), 1e-9) }

// RandomPlayouts plays random games of g from the initial position, as a Monte Carlo
// search does, for about d (at least one game), and reports how many it played. An error
// of the game's rules stops it.
func RandomPlayouts(g game.Game, d time.Duration, seed uint64) (Speed, error) {
	rng := rand.New(rand.NewPCG(seed, 4))
	nSeats := len(g.Seats())
	var sp Speed
	start := time.Now()
	buf := make([]game.Move, 0, 64)
	joint := make([]game.Move, nSeats)
	for sp.Playouts == 0 || time.Since(start) < d {
		s := g.NewState()
		for !s.IsTerminal() {
			var err error
			if seat := s.ToMove(); seat == game.Simultaneous {
				for i := range joint {
					buf = s.LegalMoves(game.Seat(i), buf[:0])
					joint[i] = buf[rng.IntN(len(buf))]
				}
				err = s.PlayJoint(joint)
			} else {
				buf = s.LegalMoves(seat, buf[:0])
				err = s.Play(buf[rng.IntN(len(buf))])
			}
			if err != nil {
				return sp, err
			}
			sp.Plies++
		}
		sp.Playouts++
	}
	sp.Elapsed = time.Since(start)
	return sp, nil
}
