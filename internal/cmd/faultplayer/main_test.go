package main

import (
	"io"
	"testing"
	"time"

	"github.com/arenaref/arena/protocol"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args    []string
		mode    string
		slow    time.Duration
		wantErr bool
	}{
		{args: []string{"--name", "a"}, mode: modeNone},
		{args: []string{"--name", "a", "--fault", "slow=300ms"}, mode: modeSlow, slow: 300 * time.Millisecond},
		{args: []string{"--name", "a", "--fault", "disconnect-between-games", "--down", "1s"}, mode: modeDisconnect},
		{args: []string{"--name", "a", "--fault", "stale-only", "--seat", "white", "--from-ply", "3"}, mode: modeStaleOnly},
		{args: []string{"--name", "a", "--fault", "slow"}, wantErr: true},
		{args: []string{"--name", "a", "--fault", "slow=fast"}, wantErr: true},
		{args: []string{"--name", "a", "--fault", "hang=1s"}, wantErr: true},
		{args: []string{"--name", "a", "--fault", "explode"}, wantErr: true},
		{args: []string{"--name", "a.b"}, wantErr: true},
		{args: []string{}, wantErr: true},
		{args: []string{"--name", "a", "--from-ply", "-1"}, wantErr: true},
		{args: []string{"--name", "a", "extra"}, wantErr: true},
	}
	for _, tt := range tests {
		cfg, err := parseArgs(tt.args, io.Discard)
		if (err != nil) != tt.wantErr {
			t.Errorf("parseArgs(%q): error %v, want error %v", tt.args, err, tt.wantErr)
			continue
		}
		if err == nil && (cfg.mode != tt.mode || cfg.slow != tt.slow) {
			t.Errorf("parseArgs(%q): mode %q slow %v, want %q %v", tt.args, cfg.mode, cfg.slow, tt.mode, tt.slow)
		}
	}
}

func TestApplies(t *testing.T) {
	req := protocol.TurnRequest{Seat: 1, SeatName: "white", Ply: 5}
	tests := []struct {
		seat    string
		fromPly int
		want    bool
	}{
		{"any", 0, true}, {"any", 5, true}, {"any", 6, false},
		{"1", 0, true}, {"0", 0, false}, {"white", 0, true}, {"White", 0, true}, {"black", 0, false},
	}
	for _, tt := range tests {
		c := &conn{cfg: config{seat: tt.seat, fromPly: tt.fromPly}}
		if got := c.applies(req); got != tt.want {
			t.Errorf("seat %q from ply %d: applies = %v, want %v", tt.seat, tt.fromPly, got, tt.want)
		}
	}
}

func TestIllegalMove(t *testing.T) {
	start := "---------------------------OX------XO--------------------------- X"
	if got := illegalMove(protocol.TurnRequest{Game: "othello", Position: start}); got != "d4" {
		t.Errorf("illegal move in the initial position = %q, want d4 (taken)", got)
	}
	if got := illegalMove(protocol.TurnRequest{Game: "othello:size=8", Position: start}); got != "d4" {
		t.Errorf("with options: %q, want d4", got)
	}
	if got := illegalMove(protocol.TurnRequest{Game: "ipd", Position: "x"}); got != "z9" {
		t.Errorf("other game: %q, want z9", got)
	}
}

func TestStaleReply(t *testing.T) {
	for _, tt := range []struct{ ply, want int }{{0, 1}, {1, 0}, {7, 6}} {
		if got := staleReply(protocol.TurnReply{Ply: tt.ply}).Ply; got != tt.want {
			t.Errorf("stale reply at ply %d has ply %d, want %d", tt.ply, got, tt.want)
		}
	}
}
