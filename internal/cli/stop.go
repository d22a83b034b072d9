package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// DefaultGrace is how long a player's clean stop may take by default (the --grace of
// arena player, engine and host).
const DefaultGrace = 30 * time.Second

// GracefulStop splits a process's stop in two, for a ctx that its first SIGINT or SIGTERM
// cancels (as main's is). draining is closed at that first signal: the process takes no
// new work and finishes what it has. hard is cancelled grace after it, or at a second
// signal: the process stops what is left then. Nothing runs until ctx ends.
func GracefulStop(ctx context.Context, grace time.Duration) (draining <-chan struct{}, hard context.Context) {
	hard, cancel := context.WithCancel(context.WithoutCancel(ctx))
	context.AfterFunc(ctx, func() {
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(sigs)
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-t.C:
		case <-sigs:
		}
		cancel()
	})
	return ctx.Done(), hard
}
