// Package protocol defines Arena's wire protocol, version 1: the JSON messages a referee
// and its players exchange over NATS, the subjects they use, the error codes, and the
// validation every message gets before anyone trusts it.
//
// Every message is one JSON object in one NATS message, with "v": 1 and a "type". Decoding
// is strict: a message larger than MaxMessageSize, with an unknown field, a wrong version,
// a wrong type, or trailing data is rejected with an error wrapping ErrMalformed, and never
// panics. Names and ids must be NATS-token-safe (see ValidName).
//
// Subjects (see the Subject functions):
//
//	arena.v1.lobby.hello.<name>        player -> referee, request: Hello, reply: Welcome
//	arena.v1.lobby.hello               the same, unnamed: older players, unsecured buses
//	arena.v1.lobby.rollcall            referee -> players: RollCall; players answer with a Hello
//	arena.v1.player.<name>.turn        referee -> player, request: TurnRequest, reply: TurnReply
//	arena.v1.player.<name>.game        referee -> player: GameNotice (start and end)
//	arena.v1.game.<id>.events          referee -> spectators: GameEvent
//	arena.v1.engines.submit.<name>     player -> referee, request: an engine archive, reply: EngineReply
//	arena.v1.engines.status.<name>     player -> referee, request: EngineRequest, reply: EngineReply
//	arena.v1.player.<name>.engine      referee -> player and host: EngineEvent
//	arena.v1.host.list|fetch|report    host -> referee, request: EngineRequest (see engines.go)
//	arena.v1.host.new                  referee -> host: EngineEvent
//
// A player says hello on its own subject, HelloSubject(name), which SubjectHelloNamed
// matches. A bus shared with untrusted players is secured with per-player permissions that
// allow each player to publish a hello only on its own HelloSubject, so that the subject
// proves who sent it: a hello on a named subject whose name differs from the Hello's Name
// is ignored. The unnamed SubjectHello is still answered, for players written before
// HelloSubject and for buses without permissions; a secured bus gives players no right to
// publish on it.
//
// The package knows nothing of the referee, the players or the games' rules; docs/protocol.md
// is the reference for people writing players in other languages.
package protocol
