// Package loadmeter measures how late this process runs on a busy machine: how late a
// timer of its own fires, how long its goroutines wait for a thread and its threads for a
// core, and the CPU steal. The referee uses it to tell a player's time forfeit from the
// machine's, and timing tests to allow for a loaded machine.
package loadmeter
