package organizer

import (
	"context"
	"errors"

	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
)

// The causes a run's context is cancelled with (context.WithCancelCause), which tell
// StoppedStatus why a run stopped when its error says only context.Canceled.
var (
	// ErrCancelled is the cause of a run cancelled on request (the API's cancel): the
	// tournament is cancelled, whatever the run returned on the way out.
	ErrCancelled = errors.New("organizer: run cancelled")
	// ErrParked is the cause of a run stopped because its process shuts down: the
	// tournament stays running, and its missing games are played at the next start.
	ErrParked = errors.New("organizer: run parked until the next start")
)

// StoppedStatus is what a run of a tournament becomes once Run or RunMatch has returned
// runErr; ctx is the context the run was given, whose cause (context.Cause) says why it
// was cancelled. In order:
//
//   - no error: finished (a match whose SPRT decided returns nil, see RunMatch);
//   - ctx cancelled with ErrCancelled: cancelled;
//   - referee.ErrDrained (the drain was closed by a shutdown), or context.Canceled with
//     ErrParked as the cause: parked, reported as store.StatusRunning, so that the next
//     start resumes it;
//   - context.Canceled otherwise (an interrupted command): cancelled;
//   - any other error: failed.
func StoppedStatus(ctx context.Context, runErr error) string {
	cause := context.Cause(ctx)
	switch {
	case runErr == nil:
		return store.StatusFinished
	case errors.Is(cause, ErrCancelled):
		return store.StatusCancelled
	case errors.Is(runErr, referee.ErrDrained),
		errors.Is(runErr, context.Canceled) && errors.Is(cause, ErrParked):
		return store.StatusRunning
	case errors.Is(runErr, context.Canceled):
		return store.StatusCancelled
	}
	return store.StatusFailed
}

// Finish stores what a stopped run of tournament id becomes (StoppedStatus) and returns
// that status; a parked run stores nothing and stays running. ctx is the run's context:
// the status is stored even after it is cancelled. The error is the store's.
func (d *Director) Finish(ctx context.Context, id int64, runErr error) (string, error) {
	status := StoppedStatus(ctx, runErr)
	if status == store.StatusRunning {
		return status, nil
	}
	return status, d.db.SetTournamentStatus(context.WithoutCancel(ctx), id, status)
}
