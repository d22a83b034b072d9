package clock

import (
	"testing"
	"time"

	"github.com/arenaref/arena/protocol"
)

const ms = time.Millisecond

// TestCharge plays one seat's moves, each with its elapsed time, and checks what is left
// after each and what the next turn request would say.
func TestCharge(t *testing.T) {
	tests := []struct {
		name    string
		tc      string
		elapsed []time.Duration
		left    []time.Duration  // after each move
		wire    []protocol.Clock // before each move
	}{
		{
			name: "per move", tc: "100ms",
			elapsed: []time.Duration{30 * ms, 150 * ms},
			left:    []time.Duration{0, 0},
			wire:    []protocol.Clock{{MoveMS: 100, RemainingMS: 100, PerMove: true}, {MoveMS: 100, RemainingMS: 100, PerMove: true}},
		},
		{
			name: "increment", tc: "1+0.1",
			elapsed: []time.Duration{300 * ms, 400 * ms},
			left:    []time.Duration{800 * ms, 500 * ms},
			wire:    []protocol.Clock{{MoveMS: 1000, RemainingMS: 1000, IncrementMS: 100}, {MoveMS: 800, RemainingMS: 800, IncrementMS: 100}},
		},
		{
			name: "margin used stops at zero", tc: "1+0.1",
			elapsed: []time.Duration{1200 * ms, 50 * ms},
			left:    []time.Duration{100 * ms, 150 * ms},
			wire:    []protocol.Clock{{MoveMS: 1000, RemainingMS: 1000, IncrementMS: 100}, {MoveMS: 100, RemainingMS: 100, IncrementMS: 100}},
		},
		{
			name: "margin used without increment", tc: "1",
			elapsed: []time.Duration{1001 * ms},
			left:    []time.Duration{0},
			wire:    []protocol.Clock{{MoveMS: 1000, RemainingMS: 1000}},
		},
		{
			name: "periods", tc: "2/1",
			elapsed: []time.Duration{100 * ms, 100 * ms, 100 * ms, 2000 * ms},
			left:    []time.Duration{900 * ms, 1800 * ms, 1700 * ms, 1000 * ms},
			wire: []protocol.Clock{
				{MoveMS: 1000, RemainingMS: 1000, MovesToGo: 2}, {MoveMS: 900, RemainingMS: 900, MovesToGo: 1},
				{MoveMS: 1800, RemainingMS: 1800, MovesToGo: 2}, {MoveMS: 1700, RemainingMS: 1700, MovesToGo: 1},
			},
		},
		{
			name: "periods and increment", tc: "1/1+0.5",
			elapsed: []time.Duration{200 * ms, 3000 * ms},
			left:    []time.Duration{2300 * ms, 1500 * ms},
			wire:    []protocol.Clock{{MoveMS: 1000, RemainingMS: 1000, IncrementMS: 500, MovesToGo: 1}, {MoveMS: 2300, RemainingMS: 2300, IncrementMS: 500, MovesToGo: 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc, err := Parse(tt.tc)
			if err != nil {
				t.Fatal(err)
			}
			c := New(tc)
			for i, e := range tt.elapsed {
				if got := c.Wire(); got != tt.wire[i] {
					t.Errorf("move %d: wire %+v, want %+v", i+1, got, tt.wire[i])
				}
				if got, want := c.Budget(), time.Duration(tt.wire[i].MoveMS)*ms; got != want {
					t.Errorf("move %d: budget %v, want %v", i+1, got, want)
				}
				if got := c.Charge(e); got != tt.left[i] {
					t.Errorf("move %d: %v elapsed leaves %v, want %v", i+1, e, got, tt.left[i])
				}
				if got := c.Left(); got != tt.left[i] {
					t.Errorf("move %d: Left() = %v, want %v", i+1, got, tt.left[i])
				}
			}
		})
	}
}

// TestSeats: each seat's clock is its own.
func TestSeats(t *testing.T) {
	cs := Seats(TimeControl{Base: time.Second, Increment: 10 * ms}, 2)
	cs[0].Charge(400 * ms)
	if got := cs[0].Left(); got != 610*ms {
		t.Errorf("seat 0 left %v, want 610ms", got)
	}
	if got := cs[1].Left(); got != time.Second {
		t.Errorf("seat 1 left %v, want 1s: charging seat 0 changed it", got)
	}
}
