// Package humantime rounds durations for people to read. A duration measured by a clock
// has nanoseconds no reader needs ("102.339679ms"); Round keeps three significant digits
// ("102ms", "1.23s", "45.7µs"), which is what a line of text about a game, a move or a run
// wants. Machine-readable output (JSON, CSV, the database) keeps the exact value.
package humantime
