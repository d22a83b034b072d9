package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// TestGracefulStop checks the two steps of a stop: the first cancellation closes
// draining and leaves hard alone until the grace has passed, or until a second signal.
func TestGracefulStop(t *testing.T) {
	for _, c := range []struct {
		name   string
		grace  time.Duration
		signal bool
	}{
		{"grace passes", 200 * time.Millisecond, false},
		{"second signal", time.Hour, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, first := context.WithCancel(context.Background())
			draining, hard := GracefulStop(ctx, c.grace)
			select {
			case <-draining:
				t.Fatal("draining before the first signal")
			case <-hard.Done():
				t.Fatal("hard stop before the first signal")
			case <-time.After(50 * time.Millisecond):
			}
			first()
			<-draining
			if hard.Err() != nil {
				t.Fatal("the hard stop came with the first signal")
			}
			var resend <-chan time.Time
			if c.signal {
				// This test's own registration keeps SIGTERM from ending the test binary;
				// the signal is sent again until the watcher, which registers once draining
				// is closed, has had it.
				own := make(chan os.Signal, 16)
				signal.Notify(own, syscall.SIGTERM)
				defer signal.Stop(own)
				tick := time.NewTicker(100 * time.Millisecond)
				defer tick.Stop()
				resend = tick.C
			}
			deadline := time.After(10 * time.Second)
			for hard.Err() == nil {
				select {
				case <-hard.Done():
				case <-resend:
					if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
						t.Fatal(err)
					}
				case <-deadline:
					t.Fatal("no hard stop after the grace or the second signal")
				}
			}
		})
	}
}
