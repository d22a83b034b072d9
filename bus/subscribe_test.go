package bus_test

import (
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/bus/embedded"
)

// TestSubscribe answers requests on every subject once Subscribe returns, answers none
// after stop, and leaves nothing subscribed when one subject is refused.
func TestSubscribe(t *testing.T) {
	srv, err := embedded.Start(embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	nc, err := nats.Connect(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	echo := func(m *nats.Msg) { _ = m.Respond(append([]byte(m.Subject+":"), m.Data...)) }
	stop, err := bus.Subscribe(nc, map[string]nats.MsgHandler{"svc.a": echo, "svc.b": echo})
	if err != nil {
		t.Fatal(err)
	}
	for _, subject := range []string{"svc.a", "svc.b"} {
		r, err := nc.Request(subject, []byte("x"), 2*time.Second)
		if err != nil || string(r.Data) != subject+":x" {
			t.Fatalf("request on %s: %v %q", subject, err, r.Data)
		}
	}
	stop()
	if _, err := nc.Request("svc.a", nil, 200*time.Millisecond); err == nil {
		t.Error("svc.a answered after stop")
	}

	if _, err := bus.Subscribe(nc, map[string]nats.MsgHandler{"svc.ok": echo, "bad subject": echo}); err == nil || !strings.Contains(err.Error(), "subscribe bad subject") {
		t.Fatalf("a bad subject: err %v, want one naming it", err)
	}
	if _, err := nc.Request("svc.ok", nil, 200*time.Millisecond); err == nil {
		t.Error("svc.ok stayed subscribed after another subject failed")
	}
}
