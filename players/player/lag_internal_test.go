package player

import (
	"testing"
	"time"

	"github.com/arenaref/arena/protocol"
)

func TestReserve(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name      string
		reserve   time.Duration // Config.Reserve
		move, lag time.Duration
		want      time.Duration
	}{
		{"default, short move", 0, 100 * ms, 0, 10 * ms},
		{"default, long move", 0, 5 * time.Second, 0, 20 * ms},
		{"default plus twice the lag", 0, 5 * time.Second, 30 * ms, 80 * ms},
		{"never more than half the move", 0, 100 * ms, 30 * ms, 50 * ms},
		{"explicit plus lag", 5 * ms, time.Second, 10 * ms, 25 * ms},
		{"negative keeps nothing, lag or not", -1, time.Second, 100 * ms, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := (Config{Reserve: tc.reserve}).reserve(tc.move, tc.lag); got != tc.want {
				t.Errorf("reserve = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLagMeterObserve(t *testing.T) {
	var l lagMeter
	if got := l.observe(-5 * time.Millisecond); got != 0 {
		t.Fatalf("an early reply made the lag %v", got)
	}
	if got := l.observe(30 * time.Millisecond); got != 30*time.Millisecond {
		t.Fatalf("lag %v after a 30ms overrun", got)
	}
	if got := l.observe(10 * time.Millisecond); got >= 30*time.Millisecond || got < 29*time.Millisecond {
		t.Fatalf("a smaller delay should let the lag decay a little, not drop: %v", got)
	}
	for range 500 {
		l.observe(0)
	}
	if got := l.current(); got > 1*time.Millisecond {
		t.Errorf("lag %v after 500 quiet turns, want it nearly gone", got)
	}
	l.observe(time.Hour)
	if got := l.current(); got != maxLag {
		t.Errorf("lag %v, want it capped at %v", got, maxLag)
	}
}

// clockReq is a turn request of game g at ply on a game clock.
func clockReq(g string, ply int, remaining, inc int64, togo int) protocol.TurnRequest {
	return protocol.TurnRequest{GameID: g, Ply: ply, Clock: protocol.Clock{MoveMS: remaining, RemainingMS: remaining, IncrementMS: inc, MovesToGo: togo}}
}

// seat1 is req for seat 1.
func seat1(req protocol.TurnRequest) protocol.TurnRequest {
	req.Seat = 1
	return req
}

func TestLagMeterClockCharge(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name  string
		first protocol.TurnRequest
		took  time.Duration
		next  protocol.TurnRequest
		want  time.Duration // the delay learned
	}{
		// 10000 - 9880 + 100 = 220ms charged for 150ms measured here.
		{"increment", clockReq("g", 0, 10000, 100, 0), 150 * ms, clockReq("g", 2, 9880, 100, 0), 70 * ms},
		{"no increment", clockReq("g", 1, 5000, 0, 0), 40 * ms, clockReq("g", 3, 4900, 0, 0), 60 * ms},
		{"within rounding", clockReq("g", 0, 5000, 0, 0), 99 * ms, clockReq("g", 2, 4900, 0, 0), 0},
		{"period renewed", clockReq("g", 0, 300, 0, 1), 100 * ms, clockReq("g", 2, 60200, 0, 40), 0},
		{"period renewed, moves_to_go unknown", clockReq("g", 0, 300, 0, 0), 100 * ms, clockReq("g", 2, 60200, 0, 0), 0},
		{"clock ran out", clockReq("g", 0, 300, 0, 0), 100 * ms, clockReq("g", 2, 0, 0, 0), 0},
		{"another game", clockReq("g", 0, 10000, 0, 0), 10 * ms, clockReq("h", 2, 9000, 0, 0), 0},
		// One player in both seats: seat 1's clock says nothing of seat 0's move.
		{"the other seat", clockReq("g", 0, 10000, 100, 0), 20 * ms, seat1(clockReq("g", 1, 10000, 100, 0)), 0},
		{"replayed turn", clockReq("g", 4, 10000, 0, 0), 10 * ms, clockReq("g", 4, 9000, 0, 0), 0},
		{"per move", protocol.TurnRequest{GameID: "g", Clock: protocol.Clock{MoveMS: 100, RemainingMS: 100, PerMove: true}}, 10 * ms,
			protocol.TurnRequest{GameID: "g", Ply: 2, Clock: protocol.Clock{MoveMS: 100, RemainingMS: 100, PerMove: true}}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var l lagMeter
			if got := l.request(tc.first); got != 0 {
				t.Fatalf("first request learned %v", got)
			}
			l.replied(tc.first, tc.took)
			if got := l.request(tc.next); got != tc.want {
				t.Errorf("learned %v, want %v", got, tc.want)
			}
			if got := l.current(); got != tc.want {
				t.Errorf("lag %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLagMeterLostOnTime(t *testing.T) {
	end := func(reason string, seat int, returns ...float64) protocol.GameNotice {
		return protocol.GameNotice{Type: protocol.TypeGameEnd, GameID: "g", Reason: reason, Seat: seat, Returns: returns}
	}
	var l lagMeter
	l.replied(clockReq("g", 0, 1000, 0, 0), time.Millisecond)
	if got := l.ended(end(protocol.ReasonTimeForfeit, 0, 1, -1)); got != 0 {
		t.Fatalf("the opponent's time forfeit raised the lag to %v", got)
	}
	if _, ok := l.games[seatOf{"g", 0}]; ok {
		t.Error("the game is still remembered after its end")
	}
	if got := l.ended(end(protocol.ReasonNormal, 1, 1, -1)); got != 0 {
		t.Fatalf("a normal loss raised the lag to %v", got)
	}
	if got := l.ended(end(protocol.ReasonTimeForfeit, 1, 1, -1)); got != forfeitLagStep {
		t.Fatalf("lag %v after a loss on time, want %v", got, forfeitLagStep)
	}
	if got := l.ended(end(protocol.ReasonTimeForfeit, 1, 1, -1)); got != 3*forfeitLagStep {
		t.Fatalf("lag %v after a second loss on time, want %v", got, 3*forfeitLagStep)
	}
}
