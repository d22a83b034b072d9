// Package ipd is the iterated prisoner's dilemma for Arena, registered with the game
// package as "ipd". Both seats, "first" (seat 0) and "second" (seat 1), choose at once in
// every round: ToMove reports game.Simultaneous until the game is over, LegalMoves gives
// each seat C and D, and State.PlayJoint plays a round. State.Play always fails with an
// error wrapping game.ErrNotYourTurn.
//
// # Moves
//
// C (cooperate, Move 0) and D (defect, Move 1), written "C" and "D"; ParseMove also
// accepts "c" and "d".
//
// # Payoffs
//
// A round pays each seat from a matrix of four numbers: R when both cooperate, P when both
// defect, and T to a defector and S to a cooperator when they differ. The option "payoff"
// selects it:
//
//	standard  T=5 R=3 P=1 S=0 (the default)
//	fig1      T=4 R=3 P=2 S=1, the matrix of Fig. 1 of the satisficing paper (Stimpson,
//	          Goodrich and Walters)
//	general   T=1 R=sigma P=delta S=0, the paper's Fig. 3; the options sigma and delta
//	          are then required, with 0 < delta < sigma < 1 and sigma > 0.5
//
// The game is general-sum: Returns gives each seat the total of its payoffs over all
// rounds, not a win or a loss.
//
// # Length, noise and seeds
//
// "rounds=N" (1 to MaxRounds, default 200) is the number of rounds. "continue=P" (0 to 1)
// makes the length random: after each round the game goes on with probability P, so rounds
// is then only the maximum and the mean length is about 1/(1-P) when rounds is large.
// "noise=P" (0 to 1) flips each seat's action, independently, with probability P before it
// is applied. "seed=N" (an unsigned 64-bit number, default 1) seeds both.
//
// Every draw is a hash of the seed, the round number and what is drawn (whether round k
// ends the game; whether seat i's action of round k flips), not the next output of a
// generator. The same options therefore give the same game, and a position read back from
// its text goes on exactly as the original would: nothing but the options and the round
// number decides what happens next. A consequence is that the length of a game is fixed by
// its options (Game.Length); a player that reads the game spec could work it out. The
// built-in agents do not.
//
// Game.Name is the canonical spec: options at their defaults are left out, the others
// appear in the order payoff, sigma, delta, rounds, continue, noise, seed, and the seed
// only when there is something to draw (continue below 1 or noise above 0).
//
// # Positions
//
// A position is written as the number of rounds played, a slash, the rounds option, a
// space, then the joint actions of the rounds played so far, first seat first, separated by
// commas, or "-" before the first round: "0/200 -", "3/200 CC,CD,DD". The actions are the
// ones applied, after noise. The payoffs and totals follow from them and the matrix, so the
// text is all a player needs. Game.ParseState accepts exactly this form and refuses a
// history longer than the game (Game.Length).
//
// # Observation
//
// State implements game.Observer. Observation(seat) is an Observation: the number of rounds
// played, the seat's own actions and payoffs, and the opponent's actions, round by round.
// That is what the satisficing paper's agents may see (they use only their own action and
// payoff). It hides nothing the position does not show: the position text carries the joint
// history, which both seats would know anyway in a game without noise. With noise, the
// actions in both are the applied ones; a seat can tell that its own action was flipped by
// comparing them with the moves it sent (the referee's move list).
package ipd
