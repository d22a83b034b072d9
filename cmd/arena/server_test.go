package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/lockedbuf"
)

func TestServerAddress(t *testing.T) {
	tests := []struct {
		name                 string
		listen, host         string
		port                 int
		byListen, byHostPort bool
		want                 string
		wantNote             bool
		wantErr              string
	}{
		{"default", defaultServerListen, "127.0.0.1", 4222, false, false, "127.0.0.1:4222", false, ""},
		{"listen", "0.0.0.0:14999", "127.0.0.1", 4222, true, false, "0.0.0.0:14999", false, ""},
		{"ipv6 listen", "[::1]:0", "127.0.0.1", 4222, true, false, "[::1]:0", false, ""},
		{"deprecated port", defaultServerListen, "127.0.0.1", 0, false, true, "127.0.0.1:0", true, ""},
		{"deprecated host and port", defaultServerListen, "0.0.0.0", 4333, false, true, "0.0.0.0:4333", true, ""},
		{"deprecated ipv6 host", defaultServerListen, "::1", 4222, false, true, "[::1]:4222", true, ""},
		{"both", "127.0.0.1:1", "127.0.0.1", 2, true, true, "", false, "do not go together"},
		{"bad port", defaultServerListen, "127.0.0.1", 70000, false, true, "", false, "--port 70000"},
		{"listen without port", "127.0.0.1", "127.0.0.1", 4222, true, false, "", false, "want HOST:PORT"},
		{"listen with a bad port", "127.0.0.1:http", "127.0.0.1", 4222, true, false, "", false, "want HOST:PORT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			addr, note, err := serverAddress(tc.listen, tc.host, tc.port, tc.byListen, tc.byHostPort)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("serverAddress = %q, %v; want an error with %q", addr, err, tc.wantErr)
				}
				return
			}
			if err != nil || addr != tc.want || (note != "") != tc.wantNote {
				t.Errorf("serverAddress = %q, %q, %v; want %q with a note: %v", addr, note, err, tc.want, tc.wantNote)
			}
			if tc.wantNote && !strings.Contains(note, "--listen "+tc.want) {
				t.Errorf("note %q does not give the --listen to use instead", note)
			}
		})
	}
}

// runServerCLI runs arena server with args until it says it listens (or exits), stops it,
// and returns its exit code and output.
func runServerCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut lockedbuf.Buffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, append([]string{"server"}, args...), &out, &errOut) }()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case code := <-done:
			return code, out.String(), errOut.String()
		case <-deadline:
			cancel()
			t.Fatalf("server %v neither listened nor exited:\n%s%s", args, out.String(), errOut.String())
		case <-time.After(20 * time.Millisecond):
			if strings.Contains(out.String(), "listening on") {
				cancel()
				return <-done, out.String(), errOut.String()
			}
		}
	}
}

// TestServerListen checks arena server's --listen, the loopback rule it shares with the
// other commands, and the deprecated --host and --port.
func TestServerListen(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string // "" for an empty stderr
	}{
		{"loopback", []string{"--listen", "127.0.0.1:0"}, 0, "listening on nats://127.0.0.1:", ""},
		{"every interface refused", []string{"--listen", "0.0.0.0:0"}, 2, "", "--listen 0.0.0.0:0 without credentials would let anyone on the network read any player's turns and answer them"},
		{"every interface, insecure", []string{"--listen", "0.0.0.0:0", "--insecure-listen"}, 0, "listening on nats://", ""},
		{"deprecated --port", []string{"--port", "0"}, 0, "listening on nats://127.0.0.1:", "--host and --port are deprecated: use --listen 127.0.0.1:0"},
		{"deprecated --host refused too", []string{"--host", "0.0.0.0", "--port", "0"}, 2, "", "without credentials"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runServerCLI(t, tc.args...)
			if code != tc.wantCode || !strings.Contains(stdout, tc.wantStdout) {
				t.Errorf("exit %d, stdout %q; want exit %d and %q\nstderr: %s", code, stdout, tc.wantCode, tc.wantStdout, stderr)
			}
			if tc.wantStderr == "" && stderr != "" || !strings.Contains(stderr, tc.wantStderr) {
				t.Errorf("stderr %q, want %q", stderr, tc.wantStderr)
			}
		})
	}
}
