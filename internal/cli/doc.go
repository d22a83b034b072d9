// Package cli is the command-line toolkit of arena: flag sets that print their help only
// when asked and report a bad flag as one line with a suggestion, subcommand dispatch,
// did-you-mean suggestions, a bash completion script made from the commands themselves,
// loggers, and the progress display of a terminal (a live status line below the log).
//
// It is a leaf: it imports no package of the project, so that what a command line looks
// like is written once, apart from what the commands do.
package cli
