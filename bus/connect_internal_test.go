package bus

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/internal/testutil/lockedbuf"
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

// TestConnectRetriesAPingFirst: a server whose PING overtakes the handshake's PONG (as a
// busy nats-server's can) fails the NATS client's connect; Connect tries again and gets
// through, while a server that always does it is reported after connectAttempts tries.
func TestConnectRetriesAPingFirst(t *testing.T) {
	srv, err := embedded.Start(embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	real := strings.TrimPrefix(srv.URL(), "nats://")
	tests := []struct {
		name    string
		rude    int // connections answered PING first, before the others go to the server
		connect bool
	}{
		{"once", 1, true},
		{"always", connectAttempts, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			go func() {
				for n := 0; ; n++ {
					c, err := l.Accept()
					if err != nil {
						return
					}
					if n < tt.rude {
						go pingFirstHandshake(c)
						continue
					}
					go proxy(c, real)
				}
			}()
			var buf lockedbuf.Buffer // the client logs from its own goroutines, after Close too
			nc, err := Connect("nats://"+l.Addr().String(), "t", zerolog.New(&buf))
			if tt.connect {
				if err != nil {
					t.Fatalf("Connect: %v", err)
				}
				nc.Close()
			} else if err == nil || !strings.Contains(err.Error(), pingFirst) {
				t.Fatalf("Connect error %v, want %q", err, pingFirst)
			}
			if got := strings.Count(buf.String(), "connecting again"); got != min(tt.rude, connectAttempts-1) {
				t.Errorf("%d retries logged, want %d", got, min(tt.rude, connectAttempts-1))
			}
		})
	}
}

// pingFirstHandshake answers a client's CONNECT and PING with a PING, then hangs up.
func pingFirstHandshake(c net.Conn) {
	defer c.Close()
	fmt.Fprintf(c, "INFO {\"server_id\":\"x\",\"version\":\"2.10.0\",\"proto\":1,\"max_payload\":1048576}\r\n")
	br := bufio.NewReader(c)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		if strings.HasPrefix(line, "PING") {
			io.WriteString(c, "PING\r\n")
			time.Sleep(100 * time.Millisecond)
			return
		}
	}
}

// proxy joins c to the server at addr.
func proxy(c net.Conn, addr string) {
	s, err := net.Dial("tcp", addr)
	if err != nil {
		c.Close()
		return
	}
	go func() { io.Copy(s, c); s.Close() }()
	io.Copy(c, s)
	c.Close()
}
