// Package playertest is the conformance suite every registered agent runs on every game
// it plays, in the normal go test ./...:
//
//	func TestConformance(t *testing.T) {
//		playertest.Run(t, playertest.Case{Agent: "minimax", Fixed: map[string]string{"depth": "2"}})
//	}
//
// Run makes the agent with agent.New and asks it what the player runtime (package
// players) asks a served agent: each agent.Turn carries the position read back from its
// text, the legal moves computed from that, the moves so far as the referee records them
// (a simultaneous turn's moves joined by commas), the observation of games with hidden
// information, the referee's protocol.Clock, and a Deadline that is the time per move
// less the runtime's default reserve (a tenth, at most 20ms), counted from when the suite
// has read the position (a script game's position can take longer to read than an
// increment under the race detector, and that is not the agent's time); Choose gets a
// context ending at that deadline. A Learner hears of each game's start and end with the
// protocol.GameNotice a referee sends, a random opening counting as the referee's match
// opening. The opponents are random movers in every other seat. In simultaneous games
// (the prisoner's dilemma) the agent is asked for its seat's move and the joint move is
// played with PlayJoint, as the referee does.
//
// The checks are subtests named agent/game/check:
//
//   - settings: an unknown setting ("no-such-setting=1") makes agent.New fail with an
//     error naming the agent and the setting; a GameChecker accepts the game; and every
//     registered game the agent did not register for is refused, by CheckGame (for a
//     GameChecker) and by Choose, with an error wrapping agent.ErrWrongGame, not a panic.
//   - close: the goroutines and open files (/proc/self/fd, where there is one) are as
//     many after the agent has played a game and been closed with agent.Close as before
//     it was made, within two seconds; Close neither fails nor panics.
//   - deadline: with DeadlineMove (50ms) per move, positions of a random game from its
//     start to its last moves (where Othello agents solve exactly) are answered with a
//     legal move no later than Tolerance (25ms) after the turn's deadline.
//   - clock: a game in each seat on a game clock of ClockBase (1s) plus ClockIncrement
//     (20ms) a move, charged with the time each Choose takes as the referee charges it;
//     the agent must never run out (by more than Tolerance).
//   - legal: games from the initial position and from two seeded random openings, in
//     each seat, played to the end with PlayMove (10ms) per move; every Decision is a
//     move of Turn.Legal, without an error, a resignation, raw text, NoReply or Crashed.
//   - concurrent: ConcurrentGames (4) games at once through one agent value, every move
//     legal; under the race detector (go test -race, as CI runs it) this checks that the
//     agent is safe for concurrent use, as agent.Register requires.
//   - reproducible: two agents made with the same seed and the Case's Fixed settings play
//     the same moves against the same seeded opponents, in each seat, with ReproduceMove
//     (5s) per move so that a fixed-depth search finishes. Skipped when Case.Fixed is nil.
//
// A failure names the agent, the game, the seat and the position as the game writes it
// (State.String), and the move. Every game ends by the rules or at MaxPlies (400 plies,
// adjudicated drawn as a referee's ply limit is); the suite's checkers games between an
// agent and a random mover end well before it.
//
// The deadline, clock and close checks measure time or count the whole process's
// goroutines and files, so they run one at a time, before the game's other checks, which
// run in parallel with one another; call Run from one top-level test that is not
// parallel.
//
// # Adding an agent
//
// Every agent registered with agent.Register must have a Case in
// agent/playertest/builtin_test.go, which blank-imports the agent packages and fails for
// a registered agent without a Case. A Case names the agent and says what it needs:
//
//   - Params: settings for every check, when the defaults are not what to check.
//   - GameParams: settings made per game and per agent made, such as a weights file
//     trained for the game, or a file in t.TempDir() for an agent that keeps one open
//     (two agents alive at once must not share it).
//   - Fixed: settings under which the agent's moves depend on its seed alone, never on
//     time ({"depth": "2"} for minimax); an empty map when they always do. nil skips the
//     reproducible check, and must be a choice explained in a comment.
//   - Games: nil checks the games the agent registered for (every registered game for an
//     agent of any game); builtin_test.go adds variants of them, such as other Othello
//     board sizes.
//
// An agent is done when the suite passes for it, with and without -race.
package playertest
