package protocol_test

import (
	"fmt"
	"slices"

	"github.com/arenaref/arena/protocol"
)

// A referee encodes a turn request; the player decodes it, picks a move and encodes its
// reply, echoing the game id and ply; the referee decodes and checks the reply.
func Example_turn() {
	req := protocol.TurnRequest{
		V: protocol.Version, Type: protocol.TypeTurn,
		GameID: "t1-3", Game: "othello", Seat: 0, SeatName: "black", Ply: 0,
		Position: "---------------------------OX------XO--------------------------- X",
		Legal:    []string{"d3", "c4", "f5", "e6"},
		Moves:    []string{},
		Clock:    protocol.Clock{MoveMS: 1000, RemainingMS: 1000},
	}
	wire := protocol.Encode(req)

	// The player's side.
	got, err := protocol.DecodeTurnRequest(wire)
	if err != nil {
		fmt.Println("bad request:", err)
		return
	}
	reply := protocol.Encode(protocol.TurnReply{
		V: protocol.Version, Type: protocol.TypeMove,
		GameID: got.GameID, Ply: got.Ply, Move: got.Legal[2],
		Info: &protocol.SearchInfo{Depth: 1, Nodes: 4},
	})
	fmt.Printf("%s\n", reply)

	// The referee's side.
	r, err := protocol.DecodeTurnReply(reply)
	if err != nil {
		fmt.Println("protocol_error:", err)
		return
	}
	fmt.Println(r.GameID == req.GameID && r.Ply == req.Ply, slices.Contains(req.Legal, r.Move))
	// Output:
	// {"v":1,"type":"move","game_id":"t1-3","ply":0,"move":"f5","info":{"depth":1,"nodes":4}}
	// true true
}

func ExampleValidName() {
	for _, s := range []string{"alice", "deep-blue_2", "a.b", "*", ""} {
		fmt.Println(s, protocol.ValidName(s))
	}
	// Output:
	// alice true
	// deep-blue_2 true
	// a.b false
	// * false
	//  false
}

func ExampleDecodeTurnReply_unknownField() {
	_, err := protocol.DecodeTurnReply([]byte(`{"v":1,"type":"move","game_id":"g1","ply":4,"move":"d3","comment":"gg"}`))
	fmt.Println(err)
	// Output:
	// protocol: malformed message: json: unknown field "comment"
}

// A player says hello on its own subject, which the referee's wildcard subscription
// matches; on a secured bus the player may publish on no other player's.
func ExampleHelloSubject() {
	fmt.Println(protocol.HelloSubject("alice"))
	fmt.Println(protocol.SubjectHelloNamed)
	// Output:
	// arena.v1.lobby.hello.alice
	// arena.v1.lobby.hello.*
}
