package embedded

import (
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

func TestStartServesRequests(t *testing.T) {
	s, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown()
	nc, err := nats.Connect(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if _, err := nc.Subscribe("echo", func(m *nats.Msg) { _ = m.Respond(m.Data) }); err != nil {
		t.Fatal(err)
	}
	reply, err := nc.Request("echo", []byte("ping"), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if string(reply.Data) != "ping" {
		t.Fatalf("reply %q, want ping", reply.Data)
	}
}

func TestStartFailsOnBusyPort(t *testing.T) {
	s, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown()
	_, portText, err := net.SplitHostPort(s.srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		t.Fatal(err)
	}
	if second, err := Start(Options{Port: port}); err == nil {
		second.Shutdown()
		t.Fatal("second server on the same port started; want an error")
	}
}
