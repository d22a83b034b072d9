// Package auth secures the NATS bus for untrusted players: one credential per client,
// subject permissions by role, and the files and server settings that carry them.
//
// A credential is a password or an nkey. The store keeps only what checks it (a bcrypt hash
// of the password, the nkey's public key); the secret goes once, in a credentials File, to
// the client it belongs to. A credential is a store.Credential (package store imports
// nothing of Arena, so auth may build on it): NewPassword and NewNkey make one,
// ServerUsers and ExportConfig read them.
//
// Roles decide what a client may do on the bus (see Permissions):
//
//   - player NAME: receive its own turns and game notices (arena.v1.player.NAME.>), the roll
//     call, and answers on its own inbox (arena.v1.inbox.player.NAME.>); publish only its own
//     hello (arena.v1.lobby.hello.NAME); reply once to each request it received, and nothing
//     else. So it cannot read another player's positions, answer another player's turns,
//     say hello in another's name, or publish the referee's events.
//   - spectator: read game and tournament events; publish nothing.
//   - player NAME may also submit its own engine and ask how its submissions are doing
//     (arena.v1.engines.submit.NAME, arena.v1.engines.status.NAME); their states come on
//     arena.v1.player.NAME.engine, among its own subjects.
//   - admin: call the referee daemon's API (arena submit, status, cancel, players), read
//     events, and receive answers on its own inbox.
//   - host: run submitted engines as their players (arena host): say hello for any player
//     (arena.v1.lobby.hello.*), receive every player's turns and notices
//     (arena.v1.player.*.>) and answer each turn once, hear the roll call and new
//     submissions (arena.v1.host.new), and use the host API (arena.v1.host.>: list and
//     fetch submissions, report their states). It can answer any player's turns, so it is
//     as trusted as the referee for the players on its bus; it cannot publish events,
//     submit engines, call the referee's API or read another role's inbox.
//   - referee: everything. Its requests carry replies on its own inbox prefix
//     (arena.v1.inbox.referee), which no other role may read.
//
// The embedded NATS server takes the users and permissions from ServerUsers; an external
// nats-server takes the same from the configuration ExportConfig writes.
package auth
