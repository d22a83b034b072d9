package organizer_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
)

// cancelledWith returns a context cancelled with cause (nil: context.Canceled).
func cancelledWith(cause error) context.Context {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	return ctx
}

func TestStoppedStatus(t *testing.T) {
	other := errors.New("referee: a player's connection failed")
	drained := fmt.Errorf("tournament 1: %w", referee.ErrDrained)
	canceled := fmt.Errorf("play: %w", context.Canceled)
	tests := []struct {
		name   string
		ctx    context.Context
		runErr error
		want   string
	}{
		{"played to the end", context.Background(), nil, store.StatusFinished},
		{"played to the end while being cancelled", cancelledWith(organizer.ErrCancelled), nil, store.StatusFinished},
		{"interrupted command", cancelledWith(nil), canceled, store.StatusCancelled},
		{"cancelled on request", cancelledWith(organizer.ErrCancelled), canceled, store.StatusCancelled},
		{"cancelled on request, failing on the way out", cancelledWith(organizer.ErrCancelled), other, store.StatusCancelled},
		{"cancelled on request after a shutdown's drain", cancelledWith(organizer.ErrCancelled), drained, store.StatusCancelled},
		{"drained by a shutdown", context.Background(), drained, store.StatusRunning},
		{"shutdown's grace over", cancelledWith(organizer.ErrParked), canceled, store.StatusRunning},
		{"failed during a shutdown", cancelledWith(organizer.ErrParked), other, store.StatusFailed},
		{"failed", context.Background(), other, store.StatusFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := organizer.StoppedStatus(tt.ctx, tt.runErr); got != tt.want {
				t.Errorf("StoppedStatus(cause %v, %v) = %s, want %s", context.Cause(tt.ctx), tt.runErr, got, tt.want)
			}
		})
	}
}

// Finish stores the status StoppedStatus gives, even from a cancelled context, and leaves
// a parked tournament running.
func TestDirectorFinish(t *testing.T) {
	ctx := context.Background()
	d, db := newDirector(t)
	tests := []struct {
		name   string
		ctx    context.Context
		runErr error
		want   string
	}{
		{"finished", ctx, nil, store.StatusFinished},
		{"cancelled", cancelledWith(nil), context.Canceled, store.StatusCancelled},
		{"failed", ctx, errors.New("boom"), store.StatusFailed},
		{"parked", cancelledWith(organizer.ErrParked), context.Canceled, store.StatusRunning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := organizer.DefaultSpec()
			s.Players = []string{"random", "hp1"}
			id, _, err := d.Create(ctx, s, "", false)
			if err != nil {
				t.Fatal(err)
			}
			status, err := d.Finish(tt.ctx, id, tt.runErr)
			if err != nil || status != tt.want {
				t.Fatalf("Finish = %s, %v; want %s", status, err, tt.want)
			}
			got, err := db.Tournament(ctx, id)
			if err != nil || got.Status != tt.want {
				t.Fatalf("stored status %q (%v), want %s", got.Status, err, tt.want)
			}
		})
	}
}
