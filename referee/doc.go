// Package referee runs Arena games: it asks the players for their moves over NATS, keeps
// the time, judges every reply with the game's own rules, and reports how each game ended.
//
// # Matches
//
// Referee.Play runs one Match to its end. For every turn it sends a protocol.TurnRequest as
// a NATS request on the player's turn subject and waits for a protocol.TurnReply. The
// referee alone decides whether a reply came in time, with its Clock: the deadline is the
// per-move limit plus the transport margin of the Config, counted from just before the
// request is sent. A player never gets a second chance; the first fault ends the game:
//
//	no_responders   nobody listens on the player's turn subject
//	time_forfeit    no reply by the deadline, or a reply that arrived after it
//	protocol_error  a reply that is not a valid TurnReply, or one for another game or ply
//	resigned        the reply was "resign"
//	illegal_move    the reply names no move of the game, or a move that is not legal now
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
// seat), and once per seat in Result.Moves. When several seats fault in the same simultaneous turn, all of them
// get the return -1; Result.Forfeit and Result.Reason name the first of them.
//
// Play publishes, for every player, a game_start notice before the first turn and a
// game_end notice after the last one on protocol.GameSubject, and for spectators a start
// event (its Seat is the seat to move, 0 when all move at once), one move event per ply (its
// Ply is the ply of the move, its Position the one after it) and an end event on
// protocol.EventSubject. The end event's Seat is the forfeiting seat when its Reason is a
// forfeit (time_forfeit, illegal_move, protocol_error, resigned, no_responders), and 0
// otherwise.
// A game whose context is cancelled is aborted: Play returns the partial Result with the
// reason aborted and an error wrapping the context's, publishes an end event with that
// reason for spectators, and sends no game_end notice, since the game has no result.
//
// # Lobby
//
// Referee.StartLobby answers the players' Hello messages with a Welcome and remembers who
// is present; Referee.WaitFor waits until the named players have said hello.
//
// # Tournaments
//
// RoundRobin builds a schedule in which every pair of players meets once with each colour
// per round, and Referee.RunTournament plays a schedule game after game.
//
// # Time in tests
//
// Everything the referee times goes through its Clock. Tests give it a FakeClock, advance
// it by hand and wait for the referee's timers with FakeClock.BlockUntil, so that no test
// sleeps.
package referee
