package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/internal/testutil/lockedbuf"
	"github.com/arenaref/arena/protocol"
)

// startNATS starts an embedded NATS server for one test.
func startNATS(t *testing.T) string {
	t.Helper()
	srv, err := embedded.Start(embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	return srv.URL()
}

// startReferee runs `arena referee` in-process on url until the test ends.
func startReferee(t *testing.T, url string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr lockedbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"referee", "--nats", url, "--db", filepath.Join(t.TempDir(), "referee.db"), "--log-level", "warn"}, &stdout, &stderr)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("referee exit %d: %s", code, stderr.String())
			}
		case <-time.After(30 * time.Second):
			t.Errorf("referee still running 30s after cancel")
		}
	})
	waitUntil(t, 10*time.Second, "the referee to be ready", func() bool {
		select {
		case code := <-done:
			t.Fatalf("referee exit %d before ready: %s", code, stderr.String())
		default:
		}
		return strings.Contains(stdout.String(), "referee ready")
	})
}

// silentReferee answers nothing on the players subject: a referee that hangs.
func silentReferee(t *testing.T, url string) {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	if _, err := nc.Subscribe(protocol.SubjectAPIPlayers, func(*nats.Msg) {}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
}

func TestHealthcheck(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T) string // returns the NATS URL to check
		args  []string
		code  int
		want  string // in stdout when code is 0, in stderr otherwise
	}{
		{
			name:  "nats answers",
			setup: startNATS,
			code:  0, want: "ok: NATS at",
		},
		{
			name:  "closed port",
			setup: func(t *testing.T) string { return fmt.Sprintf("nats://127.0.0.1:%d", freePort(t)) },
			code:  1, want: "does not answer: dial tcp",
		},
		{
			name:  "no referee",
			setup: startNATS,
			args:  []string{"--referee"},
			code:  1, want: "no referee is running on",
		},
		{
			name: "referee does not answer in time",
			setup: func(t *testing.T) string {
				url := startNATS(t)
				silentReferee(t, url)
				return url
			},
			args: []string{"--referee", "--timeout", "200ms"},
			code: 1, want: "did not answer within 200ms",
		},
		{
			name: "referee answers",
			setup: func(t *testing.T) string {
				url := startNATS(t)
				startReferee(t, url)
				return url
			},
			args: []string{"--referee"},
			code: 0, want: "referee answering",
		},
		{
			name:  "bad timeout",
			setup: func(t *testing.T) string { return "nats://127.0.0.1:4222" },
			args:  []string{"--timeout", "0s"},
			code:  2, want: "--timeout 0s: want a positive duration",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := tt.setup(t)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"healthcheck", "--nats", url}, tt.args...), &stdout, &stderr)
			out := stdout.String()
			if code != 0 {
				out = stderr.String()
			}
			if code != tt.code || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, stdout.String(), stderr.String(), tt.code, tt.want)
			}
			if code != 0 && strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 {
				t.Errorf("failure is more than one line: %q", stderr.String())
			}
		})
	}
}
