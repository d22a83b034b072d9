// Package report writes what the command line prints of an event: the standings table
// with how each player's games ended, the same standings as JSON, and the rating table
// with its likelihood-of-superiority matrix and crosstable. The web view shows the same
// figures as pages; both read them from package organizer.
package report
