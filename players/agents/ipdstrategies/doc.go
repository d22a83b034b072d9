// Package ipdstrategies provides agents for the iterated prisoner's dilemma (games/ipd): the
// satisficing agent of Stimpson, Goodrich and Walters and the classic fixed strategies.
// Each registers with agent.Register for the game "ipd":
//
//	satisficing           keeps its action while the payoff meets its aspiration, switches
//	                      when it falls short, and moves the aspiration towards each payoff
//	                      (params lambda, aspiration, initial)
//	tit-for-tat           cooperates first, then plays the opponent's last action
//	always-cooperate      always C
//	always-defect         always D
//	grim-trigger          cooperates until the opponent first defects, then always defects
//	win-stay-lose-shift   cooperates first, then repeats its last action when the opponent
//	                      cooperated (payoff R or T) and switches when it defected (Pavlov)
//	tit-for-two-tats      defects only after two defections of the opponent in a row
//	generous-tit-for-tat  tit-for-tat that forgives a defection with probability generosity
//	                      (param generosity, default 1/3)
//
// The agents are stateless: every decision is worked out from the turn's position (the
// *ipd.State in agent.Turn.State, which holds the whole history), so they are safe for
// concurrent use, survive a restart mid-game and need no per-game memory. The satisficing
// agent replays its aspiration from its own actions and payoffs each turn; generous
// tit-for-tat draws its forgiveness from a hash of the agent's seed, the game id and the
// round, so its choices are reproducible.
//
// Actions are the applied ones: under noise, "the opponent's last action" and "my last
// action" are what the game applied, after any flip.
package ipdstrategies
