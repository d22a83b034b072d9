// Package player is the runtime that connects a move-choosing agent.Agent to a referee
// over NATS. The agents themselves, built in (players/agents, which register with package
// agent from init functions) or bridged to outside engines (players/engine), know nothing
// of NATS; package local beneath this one is the runtime's in-process twin.
//
// An agent only chooses moves. Serve does everything else a player process must do under
// protocol v1 (see docs/protocol.md):
//
//   - it subscribes to the player's turn and game subjects and to the lobby roll call;
//   - it announces the player with a Hello request on its own subject
//     arena.v1.lobby.hello.<name> (protocol.HelloSubject), retrying every
//     Config.HelloRetry until a referee answers with a Welcome (players may well start
//     before the referee), then repeats the Hello every Welcome.HeartbeatMS as a heartbeat,
//     and at once whenever a RollCall arrives;
//   - it answers each TurnRequest: it parses the position with the game's own rules,
//     computes the legal moves itself, gives the agent a Turn whose Deadline leaves a
//     reserve for the trip back, and replies with the chosen move. An agent that fails,
//     panics or names an illegal move still produces a legal reply (the first legal move),
//     and a warning in the log, so one bug costs a bad move rather than the game;
//   - it passes game start and end notices to agents that implement Learner;
//   - it handles turns of different games at once, up to Config.Concurrency (see below).
//
// # Concurrency
//
// A player may be in several games at once (a referee plays up to its tournament's
// concurrency games side by side), so turn requests of different games can arrive
// together. Config.Concurrency says how many events (turns and game notices) Serve
// handles at once. Each event is handled on its own goroutine, under these rules:
//
//   - At most Config.Concurrency events are handled at once. An event that finds every
//     slot taken waits, and its time runs meanwhile: a turn's Deadline is always its
//     request's arrival plus the move time (less the reserve), however long it waited.
//   - Events of one game (by game id) are handled one at a time, in the order they
//     arrived: a game's next turn is not handed to the agent before its previous one is
//     answered, and a game_end notice is not passed on while an earlier turn of that
//     game is still being chosen. (The referee waits for each reply anyway; the runtime
//     does not rely on it.) Games are told apart by id alone, so two referees using the
//     same game id for one player would share an order, which costs only parallelism.
//   - Among the events free to start, the one that arrived first starts first.
//   - Turns and notices reach the dispatcher through one channel, which NATS fills in
//     the order the referee sent them: a game_start before the game's first turn.
//
// Serve subscribes to the turn subject in the queue group protocol.PlayerQueue, so several
// Serves of one player name, on one host or many, share its turns (each request reaches
// one of them), while each hears every game notice.
//
// With Concurrency 1 (the default) this is one event at a time in arrival order:
// Choose, GameStarted and GameEnded are never called concurrently by one Serve, so an
// agent that learns between games needs no locking for that. With more, Choose and the
// Learner methods are called concurrently for different games, and the agent must be
// safe for concurrent use (see Agent); every registered agent is. Concurrency is cheap:
// an idle slot costs nothing, and an agent that stops at its Deadline still answers in
// time when turns share the CPU, where a turn left waiting behind other games' turns can
// lose on time. So a player that plays several games at once should allow as many turns
// at once as it may have games at once.
//
// Serve returns only when every event that had arrived has been handled and every
// goroutine it started has ended. The queue between NATS and the handlers is bounded;
// when it is full NATS holds further messages.
//
// A minimal player:
//
//	nc, err := bus.Connect("nats://127.0.0.1:4222", "arena player alice", log)
//	if err != nil { ... }
//	defer nc.Close()
//	a, err := agent.New("random", agent.Config{Seed: 1})
//	if err != nil { ... }
//	err = player.Serve(ctx, nc, player.Config{Name: "alice", Agent: "random", Concurrency: 8, Log: log}, a)
package player
