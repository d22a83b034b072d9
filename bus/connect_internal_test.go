package bus

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"
)

// A flood can make the NATS client report a slow consumer at every message: Connect's
// error handler logs the first report and leaves the rest to the next period, while other
// errors are all logged.
func TestErrorLoggerThrottlesSlowConsumers(t *testing.T) {
	var buf bytes.Buffer
	handle := errorLogger(zerolog.New(&buf))
	for range 1000 {
		handle(nil, nil, nats.ErrSlowConsumer)
	}
	handle(nil, nil, errors.New("nats: permissions violation"))
	handle(nil, nil, errors.New("nats: permissions violation"))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	tests := []struct {
		name, want string
		count      int
	}{
		{"slow consumer reports", "dropped messages", 1},
		{"other errors", "permissions violation", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			for _, l := range lines {
				if strings.Contains(l, tt.want) {
					n++
				}
			}
			if n != tt.count {
				t.Errorf("%d lines about %q, want %d:\n%s", n, tt.want, tt.count, buf.String())
			}
		})
	}
}
