package train

import (
	"context"
	"errors"
	"fmt"
)

// InterruptedError is a checkpointed run (RunCheckpointed) that its context stopped
// between games. Err is nil when the checkpoint at Checkpoint was written, so that Open
// with the same path resumes at game Game; otherwise it is why the checkpoint failed.
type InterruptedError struct {
	Game       int    // games played when the run stopped
	Checkpoint string // the checkpoint's path
	Err        error
}

func (e *InterruptedError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("stopped at game %d, and the checkpoint failed: %v", e.Game, e.Err)
	}
	return fmt.Sprintf("interrupted at game %d; checkpoint %s written", e.Game, e.Checkpoint)
}

// Unwrap returns the checkpoint's failure, if any.
func (e *InterruptedError) Unwrap() error { return e.Err }

// RunCheckpointed is Run with checkpoints at path: one after every every-th game (but not
// after the last, as the finished run needs none; none at all when every < 1), and one
// when ctx stops the run, which then returns an *InterruptedError. A periodic checkpoint
// that fails does not stop the training: warn (if not nil) is told, and the run goes on,
// as the next one may succeed. report is Run's.
func (t *Trainer) RunCheckpointed(ctx context.Context, path string, every int, report func(Event), warn func(error)) error {
	err := t.Run(ctx, func(ev Event) {
		if report != nil {
			report(ev)
		}
		if every > 0 && ev.Game%every == 0 && ev.Game < t.cfg.Games {
			if err := t.SaveCheckpoint(path); err != nil && warn != nil {
				warn(err)
			}
		}
	})
	if errors.Is(err, context.Canceled) {
		return &InterruptedError{Game: t.st.Played, Checkpoint: path, Err: t.SaveCheckpoint(path)}
	}
	return err
}
