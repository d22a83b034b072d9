package workqueue

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

func TestWhileStreamSettles(t *testing.T) {
	missing := &jetstream.APIError{Code: 404, ErrorCode: jetstream.JSErrCodeStreamNotFound, Description: "stream not found"}
	other := errors.New("no responders")
	for _, tc := range []struct {
		name  string
		errs  []error // what op returns on each call; nil ends
		calls int
		want  error
	}{
		{"at once", []error{nil}, 1, nil},
		{"api error, then made", []error{missing, missing, nil}, 3, nil},
		{"typed error, then made", []error{jetstream.ErrStreamNotFound, nil}, 2, nil},
		{"wrapped, then made", []error{fmt.Errorf("consumer: %w", missing), nil}, 2, nil},
		{"another error is not retried", []error{other, nil}, 1, other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			err := whileStreamSettles(context.Background(), func() error {
				calls++
				return tc.errs[calls-1]
			})
			if !errors.Is(err, tc.want) && err != tc.want {
				t.Errorf("err %v, want %v", err, tc.want)
			}
			if calls != tc.calls {
				t.Errorf("%d calls, want %d", calls, tc.calls)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := whileStreamSettles(ctx, func() error { return missing }); !streamMissing(err) {
		t.Errorf("a cancelled wait returns %v, want the last error", err)
	}
}
