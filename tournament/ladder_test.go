package tournament

import (
	"testing"
	"time"

	"github.com/arenaref/arena/protocol"
)

func TestFailsValidation(t *testing.T) {
	tests := []struct {
		name       string
		reason     string
		timeLosses int
		strikes    int
		want       bool
	}{
		{"an illegal move", protocol.ReasonIllegalMove, 0, 3, true},
		{"garbage", protocol.ReasonProtocol, 0, 3, true},
		{"a crash", protocol.ReasonCrashed, 0, 3, true},
		{"the first time forfeit", protocol.ReasonTimeForfeit, 1, 3, false},
		{"the second time forfeit", protocol.ReasonTimeForfeit, 2, 3, false},
		{"the third time forfeit", protocol.ReasonTimeForfeit, 3, 3, true},
		{"one strike allowed", protocol.ReasonTimeForfeit, 1, 1, true},
		{"no strikes set", protocol.ReasonTimeForfeit, 1, 0, true},
		{"disconnected", protocol.ReasonDisconnected, 0, 3, false},
		{"absent", protocol.ReasonAbsent, 0, 3, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := FailsValidation(tc.reason, tc.timeLosses, tc.strikes); got != tc.want {
				t.Errorf("FailsValidation(%q, %d, %d) = %v, want %v", tc.reason, tc.timeLosses, tc.strikes, got, tc.want)
			}
		})
	}
}

func TestPaced(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		last    time.Time
		perHour int
		now     time.Time
		want    bool
	}{
		{"no game yet", time.Time{}, 60, t0, true},
		{"a minute after, 60 an hour", t0, 60, t0.Add(time.Minute), true},
		{"59 s after, 60 an hour", t0, 60, t0.Add(59 * time.Second), false},
		{"a second after, 3600 an hour", t0, 3600, t0.Add(time.Second), true},
		{"no pace", t0, 0, t0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Paced(tc.last, tc.perHour, tc.now); got != tc.want {
				t.Errorf("Paced = %v, want %v", got, tc.want)
			}
		})
	}
}
