package web

import (
	"strings"
	"testing"

	"github.com/arenaref/arena/store"
)

func TestReplayStopsAtABadMove(t *testing.T) {
	moves := []store.Move{{Ply: 0, Move: "d3"}, {Ply: 1, Seat: 1, Move: "z9"}, {Ply: 2, Move: "c5"}}
	rp := replay("othello", "", nil, moves)
	if rp.moves[0] == "" || rp.moves[1] != "" || rp.moves[2] != "" || !strings.Contains(rp.err, "ply 1") {
		t.Errorf("replay = %+v, want the first position and an error at ply 1", rp)
	}
	if rp := replay("chess", "", nil, moves); rp.err == "" || rp.moves[0] != "" {
		t.Errorf("unknown game: %+v", rp)
	}
	if rp := replay("othello", "not a position", nil, moves); !strings.Contains(rp.err, "start position") {
		t.Errorf("bad start: %+v", rp)
	}
}

// FuzzReplay: whatever a store holds, replaying it never panics and never invents
// positions past where it stopped.
func FuzzReplay(f *testing.F) {
	f.Add("othello", "", "d3 c5 f6", 0)
	f.Add("checkers", "", "9-13 21-17 5-9", 0)
	f.Add("ipd", "", "C D D D", 1)
	f.Add("othello:size=4", "-----OX--XO----- X", "b1 pass", 0)
	f.Fuzz(func(t *testing.T, name, start, texts string, simultaneous int) {
		var moves []store.Move
		for i, m := range strings.Fields(texts) {
			ply := i
			if simultaneous != 0 {
				ply = i / 2
			}
			moves = append(moves, store.Move{Ply: ply, Seat: i % 2, Move: m})
		}
		rp := replay(name, start, strings.Split(texts, ";")[1:], moves)
		if len(rp.moves) != len(moves) {
			t.Fatalf("%d positions for %d moves", len(rp.moves), len(moves))
		}
		stopped := false
		for _, p := range rp.moves {
			if p == "" {
				stopped = true
			} else if stopped {
				t.Fatalf("a position after the replay stopped: %+v", rp)
			}
		}
		if stopped && rp.err == "" {
			t.Fatalf("stopped without saying why: %+v", rp)
		}
	})
}
