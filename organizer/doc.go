// Package organizer is Arena's application layer: it creates, runs and resumes
// tournaments on the referee, records games and ratings, and computes standings and
// rating tables. The command line, the referee daemon and the web view share it.
//
// A tournament starts as a Spec (from a TOML file, ParseSpecFile, or from flags), which
// Spec.Compile checks, with its format (package tournament), and turns into a Plan with
// its schedule. A Director stores the plan (Create), plays the games still missing, with
// built-in agents started as players of their own on the bus (Run, also after a
// restart): the schedule's, or those the format pairs from results; and it records
// each game with its Elo changes as it ends. The ladder, whose pairings depend on who is
// present, has a runner of its own here, registered by its format's name. The Director
// plays games through one Executor, chosen when it is made: its own referee
// (RefereeExecutor) or the referee workers of a work queue (QueueExecutor). Standings and
// RateGames read the recorded games back. RunMatch plays a two-player match until its
// SPRT decides, and Finish stores what a stopped run becomes, one rule (StoppedStatus)
// for every caller. A Daemon plays tournaments and matches in the background for the
// long-running referee and answers its API (create, status, cancel, players) in protocol
// terms, on the bus with Serve. Submitted engines are served beside it by
// players/hosting.
//
// The package works on the store.Store interface and the referee; it knows nothing of
// flags, terminals or output formats, which stay in cmd/arena.
package organizer
