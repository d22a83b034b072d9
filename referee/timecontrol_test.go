package referee

import (
	"testing"
	"time"
)

func TestParseTimeControl(t *testing.T) {
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
			got, err := ParseTimeControl(tt.in)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ParseTimeControl(%q) = %+v, want an error", tt.in, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("ParseTimeControl(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
			if got.String() != tt.str {
				t.Fatalf("String() = %q, want %q", got.String(), tt.str)
			}
			if back, err := ParseTimeControl(got.String()); err != nil || back != got {
				t.Fatalf("String() does not parse back: %+v, %v", back, err)
			}
		})
	}
}
