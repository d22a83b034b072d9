package agent

import (
	"testing"
	"time"

	"github.com/arenaref/arena/protocol"
)

func TestBudget(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	perMove := func(move int64) Turn {
		return Turn{Deadline: now.Add(ms(move)), Clock: protocol.Clock{MoveMS: move, RemainingMS: move, PerMove: true}}
	}
	gameClock := func(remaining, inc int64) Turn {
		return Turn{Deadline: now.Add(ms(remaining)), Clock: protocol.Clock{MoveMS: remaining, RemainingMS: remaining, IncrementMS: inc}}
	}
	// Per move: all of it, less a tenth (at most 1ms); no new iteration after half.
	// Othello's moves left at 40 empties: 22.
	soft, hard := Budget(now, perMove(9), 22)
	if soft.Sub(now) != ms(9)/2 || hard.Sub(now) != ms(9)-ms(9)/10 {
		t.Errorf("9ms per move: soft %v hard %v", soft.Sub(now), hard.Sub(now))
	}
	if _, hard := Budget(now, perMove(100), 22); hard.Sub(now) != ms(99) {
		t.Errorf("100ms per move: hard %v", hard.Sub(now))
	}
	if _, hard := Budget(now, perMove(60000), 22); hard.Sub(now) != ms(59999) {
		t.Errorf("60s per move: hard %v", hard.Sub(now))
	}
	// A game clock: a share of the time left, by the moves left.
	if _, hard = Budget(now, gameClock(60000, 0), 22); hard.Sub(now) != ms(60000)/22*2 {
		t.Errorf("60s game clock: hard %v, want %v", hard.Sub(now), ms(60000)/22*2)
	}
	// With an increment: the share plus 80% of it, never over half the remaining time.
	soft, hard = Budget(now, gameClock(10000, 1000), 12)
	share := ms(10000)/12 + ms(800)
	if soft.Sub(now) != share*6/10 || hard.Sub(now) != 2*share {
		t.Errorf("10s+1s: soft %v hard %v, share %v", soft.Sub(now), hard.Sub(now), share)
	}
	if _, hard = Budget(now, gameClock(1000, 5000), 12); hard.Sub(now) != ms(500) {
		t.Errorf("1s+5s: hard %v, want half the remaining time", hard.Sub(now))
	}
	// 40/60 with 5 moves to go before the next period: the time left is theirs alone.
	periods := gameClock(60000, 0)
	periods.Clock.MovesToGo = 5
	if soft, hard = Budget(now, periods, 22); soft.Sub(now) != ms(12000)*6/10 || hard.Sub(now) != ms(24000) {
		t.Errorf("60s for the 5 moves to go: soft %v hard %v, want 7.2s and 24s", soft.Sub(now), hard.Sub(now))
	}
	// More moves to go than the game is expected to last: the game's length decides.
	periods.Clock.MovesToGo = 40
	if _, hard = Budget(now, periods, 22); hard.Sub(now) != ms(60000)/22*2 {
		t.Errorf("40 moves to go: hard %v, want %v", hard.Sub(now), ms(60000)/22*2)
	}
}
