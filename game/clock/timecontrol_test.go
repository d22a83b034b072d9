package clock

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    TimeControl
		wantErr bool
		str     string
	}{
		{in: "100ms", want: TimeControl{PerMove: 100 * time.Millisecond}, str: "100ms"},
		{in: " 2s ", want: TimeControl{PerMove: 2 * time.Second}, str: "2s"},
		{in: "60+0.5", want: TimeControl{Base: time.Minute, Increment: 500 * time.Millisecond}, str: "60+0.5"},
		{in: "300", want: TimeControl{Base: 300 * time.Second}, str: "300"},
		{in: "0.25", want: TimeControl{Base: 250 * time.Millisecond}, str: "0.25"},
		{in: "40/60", want: TimeControl{Base: time.Minute, MovesPerPeriod: 40}, str: "40/60"},
		{in: "40/60+1", want: TimeControl{Base: time.Minute, Increment: time.Second, MovesPerPeriod: 40}, str: "40/60+1"},
		{in: "10+0", want: TimeControl{Base: 10 * time.Second}, str: "10"},
		{in: "", wantErr: true},
		{in: "fast", wantErr: true},
		{in: "0ms", wantErr: true},
		{in: "500us", wantErr: true},
		{in: "-1s", wantErr: true},
		{in: "0+1", wantErr: true},
		{in: "60+-1", wantErr: true},
		{in: "60+x", wantErr: true},
		{in: "0/60", wantErr: true},
		{in: "x/60", wantErr: true},
		{in: "40/", wantErr: true},
		{in: "NaN", wantErr: true},
		{in: "1e300", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("Parse(%q) = %+v, want an error", tt.in, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
			if got.String() != tt.str {
				t.Fatalf("String() = %q, want %q", got.String(), tt.str)
			}
			if back, err := Parse(got.String()); err != nil || back != got {
				t.Fatalf("String() does not parse back: %+v, %v", back, err)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		tc   TimeControl
		want string // "" means usable
	}{
		{"per move", TimeControl{PerMove: 100 * time.Millisecond}, ""},
		{"clock", TimeControl{Base: time.Minute, Increment: time.Second, MovesPerPeriod: 40}, ""},
		{"zero", TimeControl{}, "time per move 0s must be at least 1ms"},
		{"per move too short", TimeControl{PerMove: time.Microsecond}, "at least 1ms"},
		{"base too short", TimeControl{Base: time.Microsecond}, "clock base time 1µs must be at least 1ms"},
		{"negative", TimeControl{PerMove: time.Second, Increment: -1}, "negative field"},
		{"both", TimeControl{PerMove: time.Second, Base: time.Minute}, "both a time per move (1s) and a clock (60): choose one"},
		{"increment without base", TimeControl{PerMove: time.Second, Increment: time.Second}, "need a clock base time"},
		{"period without base", TimeControl{PerMove: time.Second, MovesPerPeriod: 40}, "need a clock base time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.tc.Check()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Check() = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Check() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestParsedPassCheck: every time control Parse returns is usable.
func TestParsedPassCheck(t *testing.T) {
	for _, s := range []string{"1ms", "100ms", "60+0.5", "0.001", "40/60+1", "1/0.5+0"} {
		tc, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
		if err := tc.Check(); err != nil {
			t.Errorf("Parse(%q) = %+v, which Check refuses: %v", s, tc, err)
		}
	}
}

// TestNote: a time control written as a number alone is a game clock in seconds, which is
// said; every other form needs no note.
func TestNote(t *testing.T) {
	tests := []struct {
		tc   string
		want string // in the note; "" for none
	}{
		{"100", "100s for each side's whole game, no increment; for a time per move write 100ms or 100s"},
		{" 0.5 ", "time control 0.5 is a game clock"},
		{"100ms", ""},
		{"2s", ""},
		{"60+0.5", ""},
		{"40/60", ""},
		{"ten", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.tc, func(t *testing.T) {
			got := Note(tt.tc)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("Note(%q) = %q, want %q", tt.tc, got, tt.want)
			}
			if got != "" {
				if tc, err := Parse(tt.tc); err != nil || !tc.IsClock() {
					t.Errorf("Parse(%q) = %v, %v: the note says it is a clock", tt.tc, tc, err)
				}
			}
		})
	}
}
