// Package engine runs external engine programs as Arena players: it starts the program so
// that nothing it starts outlives it, speaks to it over standard input and output in one
// of three text protocols (the line protocol of docs/engines.md, GTP or NBoard), and
// answers the referee's turns through the normal player runtime. The `arena engine` and
// `arena check-engine` commands are built on it.
//
// The layers, from the bottom:
//
//   - Process (Start) is a running program and a LineConn over its pipes. Close closes its
//     input, waits Options.QuitTimeout, then signals its process group (SIGTERM, then
//     SIGKILL) and reaps it. Lines longer than MaxLineLen are refused, never buffered
//     whole. What holds the program's processes together is its Containment. On Linux
//     the program is the init of a pid namespace of its own (in a user namespace of its
//     own for a caller without CAP_SYS_ADMIN): whatever it starts, by whatever route
//     (setsid included), stays in the namespace, which the kernel empties once the
//     program is gone, and the kernel kills the program should the caller die without
//     closing it (even by SIGKILL). So no process of an engine outlives the process that
//     started it. Where the system refuses namespaces, and on other Unix systems, the
//     program only leads a process group of its own, which is killed whole when it exits
//     or is closed; a process that leaves the group escapes that.
//   - A Dialect (NewLine, NewGTP, NewNBoard) turns handshakes, games and turns into a
//     protocol's commands and judges the engine's answers. Bad answers of the line
//     protocol come back as *AnswerError, quoting the engine's line exactly.
//   - The registry of protocols (Lookup, Names) holds each protocol once, as its dialect's
//     file defines it: its name, the games it plays (Protocol.Plays, CheckGame), the
//     check of its settings, and its Dialect. The commands, the engine host and the
//     check of a submitted manifest ask it; no list of protocols lives elsewhere.
//   - Bridge is a agent.Agent on one engine process at a time: it starts the engine
//     when first needed, restarts it after it dies (a death mid-game loses that game),
//     and resigns the games in which the engine fails, as a tournament would forfeit them.
//   - Check (arena check-engine) runs an engine through positions that trip engines up
//     and a game on a clock (counted by game/clock, as the referee counts), and says what
//     a tournament would forfeit it for.
//
// Engines need process groups, and get the full guarantee only from Linux's pid
// namespaces: the package runs engines on Unix systems only.
package engine
