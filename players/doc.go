// Package players is the player side of Arena: the runtime that connects a move-choosing
// Agent to a referee over NATS, and the registry of built-in agents (their packages live
// below this one and register themselves from init functions).
//
// An Agent only chooses moves. Serve does everything else a player process must do under
// protocol v1 (see docs/protocol.md):
//
//   - it subscribes to the player's turn and game subjects and to the lobby roll call;
//   - it announces the player with a Hello request on arena.v1.lobby.hello, retrying every
//     Config.HelloRetry until a referee answers with a Welcome (players may well start
//     before the referee), then repeats the Hello every Welcome.HeartbeatMS as a heartbeat,
//     and at once whenever a RollCall arrives;
//   - it answers each TurnRequest: it parses the position with the game's own rules,
//     computes the legal moves itself, gives the agent a Turn whose Deadline leaves a
//     reserve for the trip back, and replies with the chosen move. An agent that fails,
//     panics or names an illegal move still produces a legal reply (the first legal move),
//     and a warning in the log, so one bug costs a bad move rather than the game;
//   - it passes game start and end notices to agents that implement Learner.
//
// Serve handles one event at a time: Choose, GameStarted and GameEnded are never called
// concurrently by one Serve, so an agent that learns between games needs no locking for
// that. A request's arrival is noted as soon as NATS delivers it, so a turn that waits
// behind another one is not given more time than it has.
//
// A minimal player:
//
//	nc, err := players.Connect("nats://127.0.0.1:4222", "arena player alice", log)
//	if err != nil { ... }
//	defer nc.Close()
//	a, err := players.NewAgent("random", players.AgentConfig{Seed: 1})
//	if err != nil { ... }
//	err = players.Serve(ctx, nc, players.Config{Name: "alice", Agent: "random", Log: log}, a)
package players
