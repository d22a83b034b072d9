// Package ratings holds the rating arithmetic of Arena: the Elo update applied after every
// rated game, the tournament table built from a list of results, maximum-likelihood
// ratings for a whole pool, and the sequential test that settles a match between two
// players. It is pure maths: no I/O, no clocks, and no randomness the caller does not seed,
// so the referee, the CLI and the web page all get the same numbers from the same inputs.
//
// Elo follows the classic logistic form. A player rated ra facing one rated rb is expected
// to score
//
//	E = 1 / (1 + 10^((rb-ra)/400))
//
// and after scoring S (1 for a win, 0.5 for a draw, 0 for a loss) moves to ra + K*(S-E). The
// opponent moves by the same amount the other way, so a two-player update never creates or
// destroys rating points. DefaultElo gives K = 16 and a starting rating of 1500.
//
// Standings turns results into a table ordered by score percentage, then Elo, then name.
// Ranks run 1..n in that order with no shared places: two players level on percentage and
// Elo are separated by name, so the table is the same every time it is printed. Endings
// counts how each player's games ended, charging a forfeit or a resignation to the player
// at fault and crediting the players who won by it.
//
// # Pool ratings
//
// MaximumLikelihood rates every player of a pool from all its games at once, so the order
// in which the games were played does not matter. The model is the same logistic one: the
// first seat of a game expects
//
//	E = 1 / (1 + 10^((r_second - r_first - a)/400))
//
// where a is a first-move advantage, fitted only when FitOptions.FirstMove asks for it, and
// a draw counts as half a win and half a loss. The fitted ratings are those under which the
// games played are most likely. At that point every player's expected score over its games
// equals the points it made, and with an advantage the first seats' expected points equal
// theirs too. Only rating differences are determined; FitOptions sets the footing, either
// one anchor player or the average rating at Center. Games are first summed by (first seat,
// second seat) pair, then Newton's method with a line search solves the equations to a
// relative precision of 1e-10. A step costs one pass over the pairs and a dense solve in the
// number of players: quick for hundreds of players, not meant for tens of thousands.
//
// Maximum likelihood has no finite answer when a player scores 100% or 0%, or more generally
// when a group of players dropped no point against the rest of its part of the pool:
// raising the whole group always makes the games likelier. Likewise the advantage runs away
// when the first seat won every game, or cannot be told apart from a rating difference (two
// players who only ever met in one seat order). MaximumLikelihood detects exactly these
// cases and only then adds virtual draws, and Fit.Prior reports it. For ratings, every player
// of the affected part of the pool gets one virtual draw, spread evenly over the other
// players of that part (each pair draws 1/(n-1) of a game, without advantage); for the
// advantage, one virtual draw between equal players, one of them in the first seat. This is
// a weak prior pulling towards equality, as a Bayesian rating would use. With it the fit
// equations hold with the virtual games counted: a player's points plus one half equal its
// expected points over the real and the virtual games. A pool without such extremes gets the
// plain maximum-likelihood ratings, untouched.
//
// A player without games is rated Center with an infinite error and left out of averages.
// Parts of the pool with no games between them (Fit.Component) cannot be compared, so each
// gets its own footing: the anchor's part is set by the anchor, every other part has its
// average at Center. A fitted advantage is shared by all parts.
//
// # Error bars
//
// Fit.Errors and Fit.Cov give the uncertainty of each rating on that footing: relative to
// the anchor, whose error is 0, or to the average of its part, in which case each row of
// Cov sums to 0 over the part's players. The error of the difference between two players
// of one part, sqrt(var_i + var_j - 2·cov_ij), is the same on any footing.
//
// By default they come from the information matrix, the curvature of the log-likelihood at
// its maximum. Its inverse is the covariance when every game is won or lost, but a draw is
// less variable than the half-point model assumes, and a drawish pool would get error bars
// too wide. So the fit takes a draw model, in which a game with expected score E is drawn
// with probability 2k·min(E, 1-E), k in [0, 1] set so that the model expects as many draws as
// the pool had, and returns the sandwich A⁻¹·B·A⁻¹: A is the information matrix, and B the
// same sum with each game weighted by its score's variance under the draw model,
// E(1-E) - P(draw)/4, instead of E(1-E). Without draws B = A. Virtual draws count in both.
//
// With FitOptions.Simulations set, the error bars come instead from a parametric bootstrap:
// that many pools with the same schedule are simulated from the fitted ratings, advantage
// and draw model, each is fitted the same way, and the spread of the fitted ratings is the
// covariance. The ratings reported are always the fit to the real games.
//
// Fit.LOS, the likelihood of superiority, is the probability that one player is stronger
// than another under a normal approximation: Φ(d/s), for a rating difference d with error s.
//
// # Sequential testing
//
// SPRT settles whether a player is Elo0 (hypothesis H0) or Elo1 (H1) stronger than another,
// from the running counts of wins, draws and losses, with error probabilities Alpha
// (accepting H1 when H0 holds) and Beta (accepting H0 when H1 holds). After each game the
// log-likelihood ratio of the counts is compared with Wald's bounds: H0 is accepted at or
// below ln(Beta/(1-Alpha)), H1 at or above ln((1-Beta)/Alpha).
//
// A hypothesis fixes one number, not the three outcome probabilities, so the ratio is a
// generalized one: for each hypothesis LLR takes the win, draw and loss probabilities that
// make the counts most likely among those satisfying it, and compares the two likelihoods.
// In the logistic model a hypothesis fixes the expected score, 1/(1+10^(-Elo/400)). In the
// normalized model it fixes normalized Elo, the expected score's distance from one half in
// standard deviations of a game's score, times 800/ln(10) so that it matches ordinary Elo
// near zero for games without draws; there draws make a result more telling. Both
// maximizations are exact, a closed form for the logistic model and a one-dimensional
// concave maximization for the normalized one, rather than a normal approximation.
package ratings
