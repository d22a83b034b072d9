// Package store defines what Arena keeps about its tournaments, and the Store interface the
// application layer (package organizer), the CLI and the web page use to keep and read it.
// The SQLite implementation lives in store/sqlite; this package has only the types, so that
// code which reads results does not have to link a database driver.
//
// What is kept: players (name, agent, version); tournaments (game, format, time control,
// rounds, seed, roster, status, the caller's config and the whole schedule of games); and
// for every game its seats, result, reason, returns, opening, start and final positions,
// every move with the time it took and whatever search information the player sent, and
// the rating change of each rated player.
//
// Conventions every implementation follows:
//
//   - RecordGame is all or nothing: a game, its seats, moves and rating changes are written
//     in one transaction, and a game is never written twice (a second game with the same
//     tournament and Index fails with ErrDuplicate). RecordGames writes several games in
//     one transaction, all or none.
//   - A tournament and its schedule are written together, and every game is committed as
//     it is recorded, so after a crash the games still to play are exactly Pending: the
//     scheduled games with no recorded game at their Index. A game recorded under a
//     scheduled Index must have the scheduled players.
//   - Lookups of something that does not exist fail with an error wrapping ErrNotFound;
//     bad input fails with an error wrapping ErrInvalid, before anything is written.
//   - Times come back in UTC, truncated to the microsecond; durations to the microsecond.
//   - A game of a one-off match belongs to a one-game tournament, so every game has one.
package store
