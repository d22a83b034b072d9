// Package engine runs external engine programs as Arena players: it starts the program in
// its own process group, speaks to it over standard input and output in one of three text
// protocols (the line protocol of docs/engines.md, GTP or NBoard), and answers the
// referee's turns through the normal player runtime. The `arena engine` and
// `arena check-engine` commands are built on it.
package engine
