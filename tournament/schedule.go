package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Pairing is one game of a schedule.
type Pairing struct {
	Index   int      // 1-based position in the schedule, the order of play
	Round   int      // 1-based round
	Players []string // by seat
	// Opening are the moves played before the players take over (see referee.Match.Opening);
	// OpeningIndex is its 1-based line in the openings list, 0 when there is none.
	Opening      []string
	OpeningIndex int
}

// MaxScheduledGames bounds a tournament's schedule. Every scheduled game is a row written
// when the tournament is created, so a schedule beyond it would take minutes to create and
// gigabytes to hold, and one far beyond it (a mistyped --rounds) could not be held at all.
const MaxScheduledGames = 1_000_000

// ErrTooManyGames is the error of a schedule that would exceed MaxScheduledGames.
var ErrTooManyGames = fmt.Errorf("tournament: more than %d games in one tournament", MaxScheduledGames)

// checkGames returns an error wrapping ErrTooManyGames unless rounds rounds of perRound
// games each fit in MaxScheduledGames; it cannot overflow.
func checkGames(what string, perRound, rounds int) error {
	if perRound > 0 && rounds > MaxScheduledGames/perRound {
		return fmt.Errorf("%w: %s of %d rounds of %d games", ErrTooManyGames, what, rounds, perRound)
	}
	return nil
}

// AssignOpenings returns a copy of schedule in which every encounter plays one opening of
// openings: the two games in which the same two players meet in the same round with their
// seats swapped share it, so that neither is favoured by the opening. (When two players
// meet several times in a round, the k-th game with one seating goes with the k-th with
// the other.) Encounters take openings in the order they first appear in the schedule:
// from the first opening on when random is false, or in an order shuffled with seed
// otherwise (a Fisher-Yates shuffle driven by a PCG generator, so a seed always gives the
// same order). When there are more encounters than openings the order starts again.
// OpeningIndex is the opening's 1-based position in openings. With no openings the
// pairings are returned without any.
func AssignOpenings(schedule []Pairing, openings [][]string, random bool, seed int64) []Pairing {
	out := make([]Pairing, len(schedule))
	copy(out, schedule)
	if len(openings) == 0 {
		return out
	}
	order := make([]int, len(openings))
	for i := range order {
		order[i] = i
	}
	if random {
		rng := rand.New(rand.NewPCG(uint64(seed), 0x6172656e61)) // "arena"
		for i := len(order) - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			order[i], order[j] = order[j], order[i]
		}
	}
	type seating struct {
		round   int
		players string
	}
	type encounter struct {
		round   int
		players string // sorted, so both seatings give the same
		k       int
	}
	times := map[seating]int{}     // games so far with this exact seating in the round
	numbers := map[encounter]int{} // the encounter's number, in order of appearance
	for i, p := range out {
		seated := strings.Join(p.Players, "\x00")
		sorted := slices.Clone(p.Players)
		slices.Sort(sorted)
		key := seating{p.Round, seated}
		e := encounter{p.Round, strings.Join(sorted, "\x00"), times[key]}
		times[key]++
		n, ok := numbers[e]
		if !ok {
			n = len(numbers)
			numbers[e] = n
		}
		o := order[n%len(order)]
		out[i].Opening = slices.Clone(openings[o])
		out[i].OpeningIndex = o + 1
	}
	return out
}
