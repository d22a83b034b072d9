// Package experiencerun is the experiment of arena experience run: the experience player
// (players/agents/experience) plays opponents in turn, in process, learning from every
// game, and the run's learning curves (final margin, share of moves decided from the
// base, size of the base) are written as CSV and SVG charts.
//
// Each opponent meets both colours in turn, and a number of random plies at the start of
// every game make games against deterministic opponents differ; the same seed plays the
// same games.
package experiencerun
