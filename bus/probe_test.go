package bus_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/bus/embedded"
)

// TestProbe times a round trip to a running server, and names what does not answer: a
// port nobody listens on.
func TestProbe(t *testing.T) {
	ctx := context.Background()
	srv, err := embedded.Start(embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	nc, rtt, err := bus.Probe(ctx, srv.URL(), "probe", 2*time.Second, nil)
	if err != nil || rtt <= 0 {
		t.Fatalf("Probe = %v, %v", rtt, err)
	}
	nc.Close()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "nats://" + ln.Addr().String()
	ln.Close() // nobody listens there now
	if _, _, err := bus.Probe(ctx, url, "probe", time.Second, nil); err == nil || !strings.HasPrefix(err.Error(), "NATS at "+url+" does not answer: ") || !strings.Contains(err.Error(), "refused") {
		t.Errorf("Probe of a closed port: %v", err)
	}
}
