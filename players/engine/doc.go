// Package engine runs external engine programs as Arena players: it starts the program in
// its own process group, speaks to it over standard input and output in one of three text
// protocols (the line protocol of docs/engines.md, GTP or NBoard), and answers the
// referee's turns through the normal player runtime. The `arena engine` and
// `arena check-engine` commands are built on it.
//
// The layers, from the bottom:
//
//   - Process (Start) is a running program and a LineConn over its pipes. It leads a
//     process group of its own, so that whatever it starts can be ended with it: Close
//     closes its input, waits Options.QuitTimeout, then signals the whole group (SIGTERM,
//     then SIGKILL) and reaps it. When the program exits by itself the rest of its group
//     is killed at once. On Linux the kernel also kills it should the bridge die without
//     closing it. Lines longer than MaxLineLen are refused, never buffered whole.
//   - A Dialect (NewLine, NewGTP, NewNBoard) turns handshakes, games and turns into a
//     protocol's commands and judges the engine's answers. Bad answers of the line
//     protocol come back as *AnswerError, quoting the engine's line exactly.
//   - Bridge is a players.Agent on one engine process at a time: it starts the engine
//     when first needed, restarts it after it dies (a death mid-game loses that game),
//     and resigns the games in which the engine fails, as a tournament would forfeit them.
//
// Engines need process groups: the package runs engines on Unix systems only.
package engine
