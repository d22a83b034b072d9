// Package referee runs Arena games: it asks the players for their moves over NATS, keeps
// the time, judges every reply with the game's own rules, and reports how each game ended.
//
// # Matches
//
// Referee.Play runs one Match to its end. For every turn it publishes a
// protocol.TurnRequest on the player's turn subject, with a reply subject of its own, and
// waits for a protocol.TurnReply there. The referee alone decides whether a reply came in
// time, with its Clock. A player never gets a second chance; the first fault ends the
// game:
//
//	no_responders   nobody listens on the player's turn subject, and the player never
//	                showed up: it has not said hello to this referee nor moved in this game
//	disconnected    nobody listens any more on the turn subject of a player that had said
//	                hello or had moved in this game; or no reply came by the deadline and
//	                a probe (below) finds that nobody listens any more
//	time_forfeit    no reply by the deadline (and the player is still subscribed), or a
//	                reply that arrived after it
//	protocol_error  a reply that is not a valid TurnReply (garbage, oversize, unknown fields)
//	resigned        the reply was "resign"
//	crashed         the reply was "resign" with crashed set: the engine behind the player
//	                died choosing the move (the detail says how)
//	illegal_move    the reply names no move of the game, or a move that is not legal now
//	absent          (tournaments) the player was not present when its game was due
//
// A reply that is a valid TurnReply but names another game id or ply is stale: it is
// logged at debug level and ignored, never applied, and the referee keeps waiting for the
// right reply until the deadline. Every request has its own reply subject, so a late reply
// to an earlier turn finds nobody waiting and is dropped.
//
// When the deadline passes without a reply, the referee probes the player's turn subject
// with an empty message (players must ignore it) and a reply subject: if the server
// answers that nobody is subscribed, the player's process went away while thinking and the
// reason is disconnected; otherwise it is time_forfeit. A player whose connection is cut
// without the server noticing (a network partition rather than a dead process) stays
// subscribed until the server's own ping timeout and so loses on time.
//
// A faulting seat gets the return -1 and every other seat +1. A game that reaches
// Match.MaxPlies is a draw with the reason max_plies. Otherwise the game's own returns
// decide: a seat scores, against each other seat, 1 for a higher return, 1/2 for an equal
// one and 0 for a lower one, averaged over its opponents; with two seats that is the usual
// 1, 1/2 or 0, written "1-0", "1/2-1/2" or "0-1".
//
// When the game's state reports game.Simultaneous, every seat is asked at once and the joint
// move is applied when all have replied. Such a ply appears once in the move lists of the
// wire (TurnRequest.Moves, GameNotice.Moves) as the seats' moves joined by a comma in seat
// order ("C,D"), once in the move events (with seat 0, since events carry no negative
// seat), and once per seat in Result.Moves. When several seats fault in the same
// simultaneous turn, all of them get the return -1; Result.Forfeit and Result.Reason name
// the first of them.
//
// # Time
//
// Under a per-move time control (clock.TimeControl.PerMove) each turn has PerMove plus the
// transport margin of the Config, counted from just before the request is sent; the
// request's clock says PerMove as both the time for the move and the time remaining.
//
// Under a game clock (clock.TimeControl.Base) each seat starts with Base. A turn request
// tells the seat its whole remaining time as the time for this move and as the remaining time,
// and the increment; the deadline is the remaining time plus the margin. The time charged
// to the seat is the time from just before the request was sent to the arrival of its
// reply, so the referee's own work (judging, applying the move, encoding the next request)
// is never charged to anyone; it is measured instead, as MoveRecord.Overhead. After the
// move the elapsed time is taken off the seat's clock, which stops at zero when the reply
// used part of the margin, then the increment is added, and, with MovesPerPeriod, Base
// again after every MovesPerPeriod moves of that seat. A reply later than the remaining
// time plus the margin loses on time. MoveRecord.Clock and Result.Clocks keep the clocks.
// The charging rule is game/clock's (clock.Clock), so that the web view, the engine checker
// and the agent conformance suite count a clock as the referee does.
//
// # Openings
//
// Match.Opening moves are played, each checked, from the initial position before the first
// turn request; an opening that is not legal makes the Match invalid (ErrInvalidMatch), it
// is no player's fault. They use no clock time. They are part of the game's move list
// everywhere the wire carries one (TurnRequest.Moves, the game_end notice) and are
// published as move events, but they are not the players' moves: Result.Opening holds them
// and Result.Moves only the players' moves, whose plies count on from the opening's.
// Result.StartPosition is the initial position, before the opening.
//
// # Notices, events, aborted and void games
//
// Play publishes, for every player, a game_start notice before the first turn and a
// game_end notice after the last one on protocol.GameSubject, and for spectators a start
// event (its Seat is the seat to move, 0 when all move at once), one move event per ply (its
// Ply is the ply of the move, its Position the one after it) and an end event on
// protocol.EventSubject. The end event's Seat is the forfeiting seat when its Reason is a
// forfeit, and 0 otherwise.
//
// A game whose context is cancelled is aborted: Play returns the partial Result with the
// reason aborted and an error wrapping the context's, publishes an end event with that
// reason for spectators, and sends no game_end notice, since the game has no result.
//
// A game during which the referee's own NATS connection dropped is void and replayed from
// its start: the players' faults during an outage are not theirs, and a reply held up by
// the outage would have cost its player the game. Play notices the drop by the
// connection's reconnect count, which must not change during the game, and by its status
// when the game ends, which must be connected; it then returns the partial Result with the
// reason aborted and an error wrapping ErrVoided, publishes an aborted end event and no
// game_end notice. A turn waiting for its reply looks at the connection every 100ms of
// wall time, so a void game ends soon after the outage rather than at its deadline.
// RunTournament plays such a game again once the connection is back and, for up to
// Tournament.Settle, once the players' turn subscriptions are back too.
//
// A time forfeit on an overloaded machine is not charged either. The referee measures its
// own lateness (Config.Load; SystemLoad on the wall clock): how late a timer of its own,
// ticking every 10ms, fires; how long runnable goroutines wait for a thread (the Go
// runtime's /sched/latencies:seconds, which counts the players of the same process too);
// how late the turn's deadline timer fires; where /proc/stat has it, the CPU steal; and
// how long, in all, the process's threads waited on the kernel's run queues while the
// process was busy (schedstat: what an in-process player's search lost to the machine).
// When a reply came late by no more than the referee itself was late during that turn
// (a reply 11ms late while the referee's timer fired 40ms late), the lateness is the
// machine's, not the player's: the game is void and Play returns the partial Result with
// the reason aborted, Result.Late and Result.Lateness set, a Detail that says both, and
// an error wrapping both ErrOverloaded and ErrVoided. A reply that never came within
// Config.LateWatch counts as late by the whole watch, and is compared with the lateness
// only, not with the threads' waits: a stalled player is the player's own. On a quiet machine the referee is
// late by a millisecond or so, and a slow player loses on time as before. RunTournament
// tells Tournament.Voided and plays such a game again at once, up to MaxOverloadAttempts
// times, and then stops: a machine that busy cannot time games fairly. Replaying rather
// than recording a void result keeps every game's result a real one, and the standings and
// ratings free of games nobody won; it costs the replayed games' time.
// Config.EngineCPU, where a cgroup counts an engine's CPU time, adds that time to a time
// forfeit's Detail.
//
// # Lobby
//
// Referee.StartLobby answers the players' Hello messages with a Welcome and remembers who
// is present; Referee.WaitFor waits until the named players have said hello.
// Referee.Connected reports whether a player said hello within the last
// PresenceHeartbeats heartbeat intervals, and Referee.Players lists everyone who ever did
// with that flag.
//
// The lobby is where untrusted clients can reach the referee unasked, so it is guarded:
// a hello on a player's named subject (protocol.HelloSubject) must carry that player's
// name, each name may say hello only so often (Config.HelloRate, Config.HelloBurst, checked
// before a named hello is decoded), the lobby knows at most Config.MaxPlayers names, its
// queues are bounded, and it logs what it ignores without a line per message.
// Referee.LobbyStats counts what it ignored and why. A known player's hellos get a queue of
// their own, so a flood from others does not crowd out its heartbeats; Config.LobbyConn
// gives the lobby a connection of its own, so a flood does not delay the moves either.
//
// # Tournaments
//
// Schedules are made by the formats of package tournament (round robin, gauntlet, the
// ladder's final). Referee.RunTournament plays a schedule on this referee, up to Tournament.Concurrency games at once, and
// reports each result to its caller one at a time. With Tournament.Wait it first waits for
// a game's players to be present (said hello within PresenceHeartbeats heartbeats, and
// subscribed to their turn subjects: a player reconnecting between games is waited for); a player still absent then loses the game with the
// reason absent and no move played (when every player of the game is absent, every seat
// gets -1, so the game is recorded as a draw), and the tournament goes on.
// Tournament.Skip leaves out games already played (resume), and Tournament.Drain stops a
// tournament gently: no new game starts and the running ones are played to their end.
//
// # Time in tests
//
// Everything the referee times goes through its Clock. Tests give it a FakeClock (in
// fakeclock_test.go: test code, not part of the package), advance it by hand and wait for
// the referee's timers with FakeClock.BlockUntil, so that no test sleeps.
package referee
