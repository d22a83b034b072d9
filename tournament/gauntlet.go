package tournament

import (
	"fmt"
	"slices"

	"github.com/arenaref/arena/protocol"
)

// Gauntlet schedules rounds in which every seed plays every other player once with each
// colour, for two-seat games; seeds do not play each other. Each round has
// 2*len(seeds)*len(others) games, and the two games of an encounter, colours swapped,
// follow each other (so AssignOpenings can give them one opening). Within a round the
// others take their turns in the order given, meeting every seed in the order given.
func Gauntlet(seeds, others []string, rounds int) ([]Pairing, error) {
	if len(seeds) == 0 {
		return nil, fmt.Errorf("tournament: a gauntlet needs at least 1 seed")
	}
	if len(others) == 0 {
		return nil, fmt.Errorf("tournament: a gauntlet needs at least 1 player besides the seeds")
	}
	if rounds < 1 {
		return nil, fmt.Errorf("tournament: a gauntlet needs at least 1 round, got %d", rounds)
	}
	if len(seeds) > MaxScheduledGames || len(others) > MaxScheduledGames {
		return nil, fmt.Errorf("%w: a gauntlet of %d seeds and %d players", ErrTooManyGames, len(seeds), len(others))
	}
	if err := checkGames("a gauntlet", 2*len(seeds)*len(others), rounds); err != nil {
		return nil, err
	}
	seen := make(map[string]string, len(seeds)+len(others))
	for _, list := range []struct {
		what  string
		names []string
	}{{"seed", seeds}, {"player", others}} {
		for _, p := range list.names {
			if err := protocol.CheckName("player name", p); err != nil {
				return nil, fmt.Errorf("tournament: gauntlet: %w", err)
			}
			if was, ok := seen[p]; ok {
				if was == list.what {
					return nil, fmt.Errorf("tournament: gauntlet: %s %q listed twice", list.what, p)
				}
				return nil, fmt.Errorf("tournament: gauntlet: %q is both a seed and a player", p)
			}
			seen[p] = list.what
		}
	}
	out := make([]Pairing, 0, rounds*2*len(seeds)*len(others))
	for round := 1; round <= rounds; round++ {
		for _, o := range others {
			for _, s := range seeds {
				out = append(out,
					Pairing{Index: len(out) + 1, Round: round, Players: []string{s, o}},
					Pairing{Index: len(out) + 2, Round: round, Players: []string{o, s}})
			}
		}
	}
	return out, nil
}

// GauntletName is the gauntlet's name in tournament files.
const GauntletName = "gauntlet"

func init() { Register(gauntlet{}) }

// gauntlet is the format in which the seeds meet every other player, Rounds times
// (Gauntlet), every encounter with one opening (AssignOpenings).
type gauntlet struct{ Static }

func (gauntlet) Name() string                 { return GauntletName }
func (gauntlet) Defaults(s Settings) Settings { return s }

func (gauntlet) Check(s Settings) error {
	if err := checkRounds(s); err != nil {
		return err
	}
	if len(s.Seeds) == 0 {
		return fmt.Errorf("seeds: a gauntlet needs at least one seed, a player who meets all the others")
	}
	for _, sd := range s.Seeds {
		if !slices.Contains(s.Players, sd) {
			return fmt.Errorf("seeds: %q is not one of the players", sd)
		}
	}
	return nil
}

func (gauntlet) Schedule(s Settings) ([]Pairing, error) {
	var others []string
	for _, p := range s.Players {
		if !slices.Contains(s.Seeds, p) {
			others = append(others, p)
		}
	}
	schedule, err := Gauntlet(s.Seeds, others, s.Rounds)
	if err != nil {
		return nil, err
	}
	return withOpenings(s, schedule), nil
}
