package referee

import (
	"context"
	"testing"
	"time"
)

func TestFakeClock(t *testing.T) {
	c := NewFakeClock(testStart)
	if !c.Now().Equal(testStart) {
		t.Fatalf("now %v", c.Now())
	}
	ctx := context.Background()
	a := c.After(10 * time.Millisecond)
	b, stopB := c.Timer(20 * time.Millisecond)
	d := c.After(30 * time.Millisecond)
	if err := c.BlockUntil(ctx, 3); err != nil {
		t.Fatal(err)
	}
	stopB()
	if n := c.Pending(); n != 2 {
		t.Fatalf("%d pending after a stop, want 2", n)
	}
	c.Advance(9 * time.Millisecond)
	select {
	case <-a:
		t.Fatal("timer fired early")
	default:
	}
	c.Advance(time.Millisecond)
	if got := <-a; !got.Equal(testStart.Add(10 * time.Millisecond)) {
		t.Errorf("fired with %v", got)
	}
	c.Advance(time.Hour)
	<-d
	select {
	case <-b:
		t.Error("stopped timer fired")
	default:
	}
	if n := c.Pending(); n != 0 {
		t.Errorf("%d pending, want 0", n)
	}
	select {
	case <-c.After(0):
	default:
		t.Error("After(0) did not fire at once")
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := c.BlockUntil(cctx, 1); err == nil {
		t.Error("BlockUntil ignored its context")
	}
}

func TestFakeClockBlockUntilWakes(t *testing.T) {
	c := NewFakeClock(testStart)
	done := make(chan error, 1)
	go func() { done <- c.BlockUntil(context.Background(), 1) }()
	c.After(time.Second)
	if err := recv(t, done); err != nil {
		t.Fatal(err)
	}
}

func TestRealClock(t *testing.T) {
	c := RealClock()
	if d := time.Since(c.Now()); d < 0 || d > time.Minute {
		t.Errorf("real clock is off by %v", d)
	}
	<-c.After(time.Microsecond)
	ch, stop := c.(TimerClock).Timer(time.Hour)
	stop()
	select {
	case <-ch:
		t.Error("stopped timer fired")
	default:
	}
}
