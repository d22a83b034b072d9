package bus

import (
	"fmt"

	"github.com/nats-io/nats.go"
)

// Subscribe subscribes each handler to its subject on nc and flushes, so that the
// subscriptions are in place at the server when it returns. stop unsubscribes them all.
// On an error nothing stays subscribed; the error names the subject that failed. The
// services that answer requests on the bus (the daemon's API, the engines' subjects)
// start this way.
func Subscribe(nc *nats.Conn, handlers map[string]nats.MsgHandler) (stop func(), err error) {
	var subs []*nats.Subscription
	stop = func() {
		for _, s := range subs {
			_ = s.Unsubscribe()
		}
	}
	for subject, h := range handlers {
		sub, err := nc.Subscribe(subject, h)
		if err != nil {
			stop()
			return nil, fmt.Errorf("subscribe %s: %w", subject, err)
		}
		subs = append(subs, sub)
	}
	if err := nc.Flush(); err != nil {
		stop()
		return nil, fmt.Errorf("subscribe: %w", err)
	}
	return stop, nil
}
