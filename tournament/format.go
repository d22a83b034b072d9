package tournament

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Format is a tournament format: how its pairings are produced, when the event ends, and
// how its standings are ranked. A format is pure: it reads the event's settings and the
// games played so far, and knows nothing of the bus, the referee or the store, which the
// application (organizer) brings.
//
// Pairings come one of two ways. Schedule gives the games fixed when the event is
// created, which are stored with it, and the event ends when they are played (round
// robin, gauntlet). Next gives games that depend on results, once the games before them
// have ended, and the event ends when it has nothing more (a Swiss system). A format uses
// one or the other: the store files the games of an event with a schedule under it.
type Format interface {
	// Name is the format's name in tournament files ("round-robin").
	Name() string
	// Defaults returns s with the format's own settings that s leaves out filled in.
	Defaults(s Settings) Settings
	// Check checks s, defaults filled in, for this format: the settings it needs and those
	// it refuses. Errors name the setting, as "seeds: a gauntlet needs at least one seed".
	Check(s Settings) error
	// Schedule returns the games fixed when the event is created, in the order of play,
	// with Index from 1. A format whose games depend on results returns none.
	Schedule(s Settings) ([]Pairing, error)
	// Next returns the games still to play once the games in played have ended: when
	// played ends a round, the next round's; when a round is in progress (an event resumed
	// after a stop), the rest of it, with the Index it had. Indices are positive and new.
	// It depends only on s and played, so that a resumed event pairs as the stopped one
	// would have. None: the event is over. A format with a schedule returns none.
	Next(s Settings, played []Game) ([]Pairing, error)
	// Rank orders the players for the standings, best first, from the games played; nil
	// keeps the arena's own order (the maximum-likelihood rating of the whole event, or the
	// total payoff of a general-sum game).
	Rank(s Settings, played []Game) []string
}

// Settings are what a format reads of an event's description (organizer.Spec holds them
// with the settings of the games themselves).
type Settings struct {
	Players []string // the entrants; a ladder's roster (empty: anyone who plays the game)
	Seeds   []string // the gauntlet's seeds
	Rounds  int
	// Openings are the opening lines, each its moves; RandomOpenings deals them in an order
	// shuffled with Seed, not in file order (see AssignOpenings).
	Openings       [][]string
	RandomOpenings bool
	Seed           int64

	// The ladder's settings (see Ladder); the other formats refuse them.
	Deadline           string
	ValidationGames    int
	ValidationOpponent string
	FinalTop           int
	FinalRounds        int
	// TimeStrikes is how many validation games an entry may lose on time before it is
	// failed; GamesPerHour bounds the rated games each entrant starts in an hour.
	TimeStrikes  int
	GamesPerHour int
}

// ladderSet reports whether s sets any of the ladder's own settings.
func (s Settings) ladderSet() bool {
	return s.Deadline != "" || s.ValidationGames != 0 || s.ValidationOpponent != "" || s.FinalTop != 0 || s.FinalRounds != 0 ||
		s.TimeStrikes != 0 || s.GamesPerHour != 0
}

// Game is a game of the event that has ended, as a format sees it.
type Game struct {
	Index   int
	Round   int
	Players []string  // by seat
	Scores  []float64 // by seat: 1 a win, 0.5 a draw, 0 a loss
}

var (
	formatsMu sync.RWMutex
	formats   = map[string]Format{}
)

// Register makes a format available by its name. It panics if the name is taken or
// empty, as database/sql.Register does: formats register in init functions, once.
func Register(f Format) {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	name := f.Name()
	if name == "" {
		panic("tournament: Register of a format without a name")
	}
	if _, dup := formats[name]; dup {
		panic("tournament: Register called twice for format " + name)
	}
	formats[name] = f
}

// Lookup returns the format registered under name. Its error begins "format: ", as a
// tournament file's error names its setting.
func Lookup(name string) (Format, error) {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	if f, ok := formats[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("format: %q is not %s", name, orList(names()))
}

// Names lists the registered formats, sorted.
func Names() []string {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	return names()
}

func names() []string {
	out := make([]string, 0, len(formats))
	for n := range formats {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Static is the part of a Format that a format with its whole schedule fixed at creation
// shares: nothing is paired from results, and the standings keep the arena's order. A
// format embeds it and writes Name, Defaults, Check and Schedule.
type Static struct{}

// Next returns nothing: the schedule is the whole event.
func (Static) Next(Settings, []Game) ([]Pairing, error) { return nil, nil }

// Rank keeps the arena's order.
func (Static) Rank(Settings, []Game) []string { return nil }

// checkRounds is the check of the formats that play Rounds rounds of the same players.
func checkRounds(s Settings) error {
	switch {
	case s.ladderSet():
		return fmt.Errorf("deadline, validation_games, validation_opponent, final_top, final_rounds, time_strikes, games_per_hour: only a ladder has them")
	case len(s.Players) < 2:
		return fmt.Errorf("players: need at least two players, got %d", len(s.Players))
	case s.Rounds < 1:
		return fmt.Errorf("rounds: must be at least 1, got %d", s.Rounds)
	}
	return nil
}

// withOpenings gives schedule its openings, when s has some.
func withOpenings(s Settings, schedule []Pairing) []Pairing {
	if len(s.Openings) == 0 {
		return schedule
	}
	return AssignOpenings(schedule, s.Openings, s.RandomOpenings, s.Seed)
}
