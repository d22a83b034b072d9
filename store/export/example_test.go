package export_test

import (
	"os"
	"time"

	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/export"
)

func ExampleWritePGN() {
	// A short Othello game that black (seat 0, the first to move) won on time. Black's
	// player goes in the White tag: in PGN the first to move is White.
	g := store.Game{
		ID: 12, TournamentID: 3, Round: 2, Index: 5, Game: "othello",
		Players: []string{"minimax", "random"}, Result: store.ResultFirstWins, Reason: "time_forfeit",
		Started: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
		Opening: []string{"f5"},
		Moves: []store.Move{
			{Ply: 1, Seat: 1, Move: "d6", Elapsed: 80 * time.Millisecond},
			{Ply: 2, Seat: 0, Move: "c3", Elapsed: 95 * time.Millisecond},
		},
	}
	if err := export.WritePGN(os.Stdout, []store.Game{g}, export.Meta{Site: "arena"}); err != nil {
		panic(err)
	}
	// Output:
	// [Event "Arena tournament 3"]
	// [Site "arena"]
	// [Date "2025.06.01"]
	// [Round "2.5"]
	// [White "minimax"]
	// [Black "random"]
	// [Result "1-0"]
	// [Variant "othello"]
	// [GameSpec "othello"]
	// [WhiteSeat "black"]
	// [BlackSeat "white"]
	// [Termination "time forfeit"]
	// [ArenaReason "time_forfeit"]
	// [PlyCount "3"]
	// [ArenaGame "12"]
	// [ArenaOpeningPlies "1"]
	//
	// 1. f5 d6 2. c3 1-0
}
