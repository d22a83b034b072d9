// Package tournament holds Arena's tournament formats: how an event's pairings are
// produced, when it ends, and how its standings are ranked. It is pure: it knows games
// only by their players and scores, and nothing of the bus, the referee or the store;
// package organizer plays the pairings (through an Executor) and records the results.
//
// # Formats
//
// A Format has a name (the format key of a tournament file), checks the settings it reads
// (Settings, the format's part of organizer.Spec), and produces pairings one of two ways:
// Schedule, the games fixed when the event is created and stored with it, or Next, the
// games that depend on the results of those before them. Rank, when it has an order of
// its own, ranks the standings. Formats register by name (Register, in an init function)
// and are found by it (Lookup, Names).
//
// Built in:
//
//   - round-robin: RoundRobin, Rounds double round robins; every ordered pair meets once
//     a round, and players rest as long as possible between their games.
//   - gauntlet: Gauntlet, the seeds meet every other player once with each colour a
//     round; seeds do not meet each other.
//   - ladder: entrants join while it runs, validate against a built-in opponent, and are
//     paired by the matchmaker (PickPair) while present, until a deadline; then a final
//     round robin of the best (FinalSchedule). Its pairings depend on who is present, so
//     organizer runs it with a runner of its own; this package holds its settings and
//     pairing rules.
//
// AssignOpenings gives both games of an encounter (the two seatings) the same opening,
// so that neither player is favoured by it.
//
// # Adding a format
//
// A new format is one file here plus its registration: for a Swiss system, swiss.go with
// a type that implements Format (Schedule returns nothing; Next pairs the next round from
// the games played, and the rest of a round in progress when an event resumes; Rank
// orders by points and tie-breaks) and
//
//	func init() { Register(swiss{}) }
//
// organizer then creates, runs, resumes and ranks it like any other: Director.Run plays
// whatever Next pairs, round after round, until Next returns nothing. Next must depend only on the settings and the games played, since a resumed
// event asks it again. A format that reads a setting of its own adds it to Settings and
// to organizer.Spec (a key of the tournament file).
package tournament
