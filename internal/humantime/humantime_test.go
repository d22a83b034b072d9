package humantime

import (
	"testing"
	"time"
)

func TestRound(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want string
	}{
		{102339679 * time.Nanosecond, "102ms"},
		{1234567891 * time.Nanosecond, "1.23s"},
		{45678901 * time.Nanosecond, "45.7ms"},
		{999600 * time.Microsecond, "1s"},
		{123456 * time.Millisecond, "2m3s"},
		{45678 * time.Nanosecond, "45.7µs"},
		{999 * time.Nanosecond, "999ns"},
		{100 * time.Millisecond, "100ms"},
		{0, "0s"},
		{-5 * time.Millisecond, "-5ms"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := Round(tt.in).String(); got != tt.want {
				t.Errorf("Round(%v) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestRoundAbove(t *testing.T) {
	tests := []struct {
		name      string
		in, limit time.Duration
		want      string
	}{
		{"well above", 201234567 * time.Nanosecond, 150 * time.Millisecond, "201ms"},
		{"just above", 150400 * time.Microsecond, 150 * time.Millisecond, "150.4ms"},
		{"a nanosecond above", 150*time.Millisecond + 1, 150 * time.Millisecond, "150.000001ms"},
		{"rounds up to the limit", 149999999, 150 * time.Millisecond, "150ms"},
		{"at the limit", 150 * time.Millisecond, 150 * time.Millisecond, "150ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RoundAbove(tt.in, tt.limit)
			if got.String() != tt.want {
				t.Errorf("RoundAbove(%v, %v) = %s, want %s", tt.in, tt.limit, got, tt.want)
			}
			if tt.in > tt.limit && got <= tt.limit {
				t.Errorf("RoundAbove(%v, %v) = %s is not above the limit", tt.in, tt.limit, got)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want string
	}{
		{1238900 * time.Microsecond, "1.23s"},
		{102999999, "102ms"},
		{999, "999ns"},
	}
	for _, tt := range tests {
		if got := Truncate(tt.in).String(); got != tt.want {
			t.Errorf("Truncate(%v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
