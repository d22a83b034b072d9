// Package names holds the one rule for the names of players, clients and games on the
// bus: 1 to 64 ASCII letters, digits, '-' or '_', so that a name is a single NATS subject
// token. The protocol checks messages with it and the store checks credentials with it,
// without the store depending on the protocol.
package names
