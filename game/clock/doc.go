// Package clock holds time controls and the one rule of a game clock: how much time a seat
// has for its next move, how a move's elapsed time is charged to its clock, and what the
// seat is told about its time on the wire.
//
// A TimeControl is either a fixed time per move ("100ms") or a game clock ("60+0.5",
// "40/60+1"); Parse reads the forms tournament managers use and String writes them back.
// A Clock is one seat's time under a TimeControl during one game.
//
// The referee judges with this rule, the web view replays recorded games with it, the
// engine checker and the agent conformance suite play their clock games with it: they
// cannot disagree about what a seat had left. Deadlines and transport margins are the
// caller's: a Clock knows only the time a move may use.
//
// The package imports only the standard library and protocol, whose Clock is the wire
// form of a seat's time that Clock.Wire builds.
package clock
