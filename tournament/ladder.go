package tournament

import (
	"fmt"
	"slices"
	"time"

	"github.com/arenaref/arena/protocol"
)

// LadderName is the ladder's name in tournament files.
const LadderName = "ladder"

// Ladder defaults, for the settings a ladder file leaves out.
const (
	DefaultValidationGames    = 2
	DefaultValidationOpponent = "random"
	DefaultFinalTop           = 8
	DefaultFinalRounds        = 2
	// DefaultTimeStrikes is CodinGame's rule: an entry is failed for time on its third
	// validation game lost on time, not on one late move.
	DefaultTimeStrikes = 3
	// DefaultGamesPerHour paces a ladder: each entrant starts at most one rated game a
	// minute, so that two instant engines play 1,440 games a day, not 3 million.
	DefaultGamesPerHour = 60
)

func init() { Register(ladder{}) }

// ladder is the format of a course competition: until its deadline, entrants join when
// they connect, play ValidationGames against ValidationOpponent, and are then paired by
// the matchmaker (PickPair) as they are present and idle; after the deadline the FinalTop
// entries by rating play a round robin of FinalRounds (FinalSchedule), and the final
// standings are frozen. Its pairings depend on who is present as well as on results, so
// it is played by a runner of its own in the application (organizer), registered for it;
// this type holds its settings and the rules of its pairings.
type ladder struct{ Static }

func (ladder) Name() string { return LadderName }

func (ladder) Defaults(s Settings) Settings {
	if s.ValidationGames == 0 {
		s.ValidationGames = DefaultValidationGames
	}
	if s.ValidationOpponent == "" {
		s.ValidationOpponent = DefaultValidationOpponent
	}
	if s.FinalTop == 0 {
		s.FinalTop = DefaultFinalTop
	}
	if s.FinalRounds == 0 {
		s.FinalRounds = DefaultFinalRounds
	}
	if s.TimeStrikes == 0 {
		s.TimeStrikes = DefaultTimeStrikes
	}
	if s.GamesPerHour == 0 {
		s.GamesPerHour = DefaultGamesPerHour
	}
	return s
}

// Check checks the ladder's own settings; the application checks that the validation
// opponent is a built-in agent that plays the game.
func (ladder) Check(s Settings) error {
	if s.Deadline == "" {
		return fmt.Errorf("deadline: a ladder needs one: a time (2026-12-18T17:00:00Z) or a duration from its start (90m)")
	}
	if _, err := time.ParseDuration(s.Deadline); err != nil {
		if _, err := ParseDeadline(s.Deadline); err != nil {
			return fmt.Errorf("deadline: %q is neither a time such as 2026-12-18T17:00:00Z nor a duration such as 90m", s.Deadline)
		}
	}
	if len(s.Seeds) > 0 {
		return fmt.Errorf("seeds: only a gauntlet has seeds")
	}
	switch {
	case s.ValidationGames < 1 || s.ValidationGames > 20:
		return fmt.Errorf("validation_games: between 1 and 20, got %d", s.ValidationGames)
	case s.FinalTop < 2 || s.FinalTop > 64:
		return fmt.Errorf("final_top: between 2 and 64, got %d", s.FinalTop)
	case s.FinalRounds < 1 || s.FinalRounds > 20:
		return fmt.Errorf("final_rounds: between 1 and 20, got %d", s.FinalRounds)
	case s.TimeStrikes < 1 || s.TimeStrikes > 20:
		return fmt.Errorf("time_strikes: between 1 and 20, got %d", s.TimeStrikes)
	case s.GamesPerHour < 1 || s.GamesPerHour > 36000:
		return fmt.Errorf("games_per_hour: between 1 and 36000, got %d", s.GamesPerHour)
	case slices.Contains(s.Players, s.ValidationOpponent):
		return fmt.Errorf("validation_opponent: %q is also an entrant", s.ValidationOpponent)
	}
	return nil
}

// Schedule is empty: every game of a ladder is paired while it runs.
func (ladder) Schedule(Settings) ([]Pairing, error) { return nil, nil }

// AbsoluteDeadline returns the ladder deadline of s as a time: a relative deadline ("90m")
// counts from now. The application stores the result, so that a ladder keeps its deadline
// across restarts.
func AbsoluteDeadline(deadline string, now time.Time) string {
	if rel, err := time.ParseDuration(deadline); err == nil {
		return now.Add(rel).UTC().Format(time.RFC3339Nano)
	}
	return deadline
}

// ParseDeadline reads a stored ladder deadline, a time such as 2026-12-18T17:00:00Z.
func ParseDeadline(deadline string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, deadline)
	if err != nil {
		return time.Time{}, fmt.Errorf("deadline: %q is not a time such as 2026-12-18T17:00:00Z", deadline)
	}
	return t, nil
}

// FailsValidation reports whether a fault of an entry's own in a validation game fails
// the entry, given the games it lost on time in its validation so far, this one
// included: the engine is broken (it sent garbage, an illegal move, or crashed), or it
// lost strikes games on time (one late move under load is a mishap, not a broken
// engine). A player that went away (disconnected, absent) is not failed; its validation
// goes on when it is back.
func FailsValidation(reason string, timeLosses, strikes int) bool {
	switch reason {
	case protocol.ReasonProtocol, protocol.ReasonIllegalMove, protocol.ReasonCrashed:
		return true
	case protocol.ReasonTimeForfeit:
		return timeLosses >= max(strikes, 1)
	}
	return false
}

// WentAway reports whether a game was lost by a player that was not there: such a
// validation game does not count, and is played again when the player is back.
func WentAway(reason string) bool {
	switch reason {
	case protocol.ReasonDisconnected, protocol.ReasonAbsent, protocol.ReasonNoResponders:
		return true
	}
	return false
}

// Paced reports whether an entrant whose last rated game started at last may start
// another at now, at most perHour an hour (none started yet: a zero last).
func Paced(last time.Time, perHour int, now time.Time) bool {
	if last.IsZero() || perHour <= 0 {
		return true
	}
	return !now.Before(last.Add(time.Hour / time.Duration(perHour)))
}

// FinalSchedule is the ladder's final phase: a round robin of FinalRounds between the
// finalists (by name, best first), with the openings of s, its games numbered from
// first on (they follow the open phase's games).
func FinalSchedule(s Settings, finalists []string, first int) ([]Pairing, error) {
	if len(finalists) < 2 {
		return nil, nil
	}
	schedule, err := RoundRobin(finalists, s.FinalRounds)
	if err != nil {
		return nil, err
	}
	schedule = withOpenings(s, schedule)
	for i := range schedule {
		schedule[i].Index += first - 1
	}
	return schedule, nil
}
