// Package export writes recorded games (store.Game) in formats other tools read: PGN for rating tools such as Ordo and BayesElo, GGF for Othello programs, one
// JSON document for scripts, and CSV, one row per game, for spreadsheets.
//
// # Seats
//
// Arena numbers seats from 0, and seat 0 moves first. The formats name two players by
// colour, and in each the colour that moves first is a different one, so:
//
//   - PGN: seat 0 is White and seat 1 is Black, because in PGN White moves first and the
//     Result tag ("1-0": White won) is read from White's side by every rating tool. In
//     Othello that puts the player of the black discs in the White tag; the tags WhiteSeat
//     and BlackSeat name the game's own seats ([WhiteSeat "black"]) to say so.
//   - Checkers and giveaway are written as PDN (Portable Draughts Notation, PGN's form for
//     draughts), in which Black moves first, as in the game itself: seat 0 is Black and
//     seat 1 White, with [GameType "21"] (English draughts). PDN reads its Result from
//     the first mover's side ("1-0": Black won, "0-1": White won, as the PDN 2.0 draft
//     for English checkers defines it), so the Result is the same string as in Arena.
//     Chess rating tools, which read "1-0" as a win of the White tag, would misread a
//     checkers PDN: rate checkers games with arena ratings, or from JSON or CSV.
//   - GGF: seat 0 is PB and seat 1 is PW, since in Othello black moves first.
//   - JSON and CSV keep Arena's seat order: players[0], and the columns first and second.
//
// A Result is always Arena's: "1-0" when seat 0 won, "0-1" when seat 1 won, "1/2-1/2" for
// a draw and "*" for a game that counts for nobody. Record.White and Record.Black are the
// players of seat 0 and seat 1 in every format, as they are in PGN.
//
// # Moves
//
// Every format but JSON writes the moves of the whole game from the start position: the
// opening (store.Game.Opening) and then the players' moves, each in the game's own notation
// ("d3", "pass"). In a game whose seats move at once (the prisoner's dilemma) one round is
// one entry, the seats' moves in seat order joined by "/" ("C/D"), in the movetext of PGN
// and in the moves column of CSV; the store's joint openings ("C,D") are written the same
// way. JSON writes the store's moves as they are, one per seat and round, with their times.
//
// # PGN
//
// WritePGN writes the seven tag roster in its standard order (Event, Site, Date, Round,
// White, Black, Result), then Variant (the game's name) and GameSpec (the full spec,
// "othello:size=6"), WhiteSeat and BlackSeat for Othello, GameType ("21") for checkers and
// giveaway, Termination (the reason in PGN's words) and ArenaReason (Arena's reason code),
// PlyCount (movetext entries), ArenaGame (the store's game id) and ArenaOpeningPlies (how
// many of the moves are the opening). Round is
// "R.I", the tournament round and the game's Index in the schedule, so every game of a
// tournament has its own; "R" without an Index, "-" outside tournaments. Date is the UTC
// day the game started. Movetext numbers the moves as PGN does, two to a number ("1. d3
// c5 2. f6"), or one round to a number in a simultaneous game ("1. C/D 2. D/D"), ends
// with the result, and is wrapped before 80 columns (a move longer than a line would get
// a line of its own). A PGN move must be a PGN symbol, so
// a move with other characters is an error; so is a tag value with a control character,
// which PGN cannot carry.
//
// # GGF
//
// WriteGGF writes Othello games on any even board from 4x4 to 26x26, one per line, and
// fails on other games:
//
//	(;GM[Othello]PC[arena]DT[2025.01.02_03:04:05.UTC]PB[alice]PW[bob]RE[+12.00]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[d3//0.12]W[c5//0.30];)
//
// BO is the start position row by row from rank 1, a1 first (as Arena's position text and
// Othello programs lay out the board: a1 at the top left, so "d3" is the fourth square of
// the third row), '*' black, 'O' white, '-' empty, then the side to move. Each move is the
// square in lower case or PA for a pass, with the seconds it took after two slashes (GGF
// puts an evaluation between them). RE is the result for black, the first colour: the
// disc margin of the final position (black's discs minus white's, empty squares
// awarded to nobody, as games/othello counts them) when the game ended normally; when it ended otherwise the winner is given the whole board (+64.00 on 8x8)
// and the flag t (a time forfeit) or r (every other forfeit: a resignation, an illegal
// move, a lost connection...), since a margin the loser never played out would misstate
// the winner; a draw that was not played out is 0.00, and an unfinished game has no RE.
// exporttest.ReadGGF gives the Reason "normal" for a result without a flag, "time_forfeit" for t,
// "resigned" for r and "score" for s (GGF's mutual score).
//
// # JSON
//
// WriteJSON writes {"games":[...]}, each game an object with the fields id, tournament_id,
// round, index, game, players, result, reason, detail, late_ns (for a time forfeit, how
// late the reply came, in nanoseconds), scores, returns, start_position,
// final_position, started, ended (RFC 3339, UTC), opening, moves and ratings, and each move
// with ply, seat, move, elapsed_ns (nanoseconds), depth, nodes, score, pv and note; each
// rating with player, before and after. Fields that are empty or zero are left out, except
// id, tournament_id, round, index, game, players, result, reason, start_position,
// final_position and moves, the fields of a rating, and in a move ply, seat, move and
// elapsed_ns. exporttest.ReadJSON reads exactly this document and refuses unknown fields.
//
// # CSV
//
// WriteCSV writes a header and one row per game with the columns id, tournament, round,
// index, game, first, second, result, reason, plies, started, ended (RFC 3339, UTC, empty
// when unknown) and moves (space-separated, opening included); plies is the number of
// entries in moves.
//
// # Reading
//
// Only tests read these formats back, so the readers are in store/export/exporttest. They
// return what each format carries as Records, except ReadJSON, which returns the games
// themselves. They refuse malformed input with errors wrapping ErrMalformed, and whatever
// they accept can be written again (WritePGNRecords, WriteGGFRecords, WriteCSVRecords,
// WriteJSON) and reads back the same.
package export
