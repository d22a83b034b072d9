package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/internal/cli"
)

func TestCheckListen(t *testing.T) {
	tests := []struct {
		name            string
		addr            string
		secured, unsafe bool
		wantErr         bool
	}{
		{"no listen", "", false, false, false},
		{"loopback", "127.0.0.1:4222", false, false, false},
		{"loopback elsewhere in 127/8", "127.1.2.3:4222", false, false, false},
		{"ipv6 loopback", "[::1]:4222", false, false, false},
		{"localhost", "localhost:4222", false, false, false},
		{"localhost, any case, trailing dot", "LocalHost.:4222", false, false, false},
		{"ipv4-mapped loopback", "[::ffff:127.0.0.1]:4222", false, false, false},
		{"every interface", "0.0.0.0:14999", false, false, true},
		{"every interface, empty host", ":4222", false, false, true},
		{"every ipv6 interface", "[::]:4222", false, false, true},
		{"a LAN address", "192.168.1.10:4222", false, false, true},
		{"a host name", "arena.example.org:4222", false, false, true},
		{"a name that merely starts like localhost", "localhost.example.org:4222", false, false, true},
		{"every interface with --auth", "0.0.0.0:4222", true, false, false},
		{"every interface with --insecure-listen", "0.0.0.0:4222", false, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := checkListen("--listen", tc.addr, tc.secured, tc.unsafe, "--auth")
			if (err != nil) != tc.wantErr {
				t.Fatalf("checkListen(%q, auth %v, insecure %v) = %v, want an error: %v", tc.addr, tc.secured, tc.unsafe, err, tc.wantErr)
			}
			if err == nil {
				return
			}
			msg := err.Error()
			for _, want := range []string{tc.addr, "--auth", "--insecure-listen", "read any player's turns"} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not mention %q", msg, want)
				}
			}
			if strings.Contains(msg, "\n") || !errors.As(err, new(cli.UsageError)) {
				t.Errorf("error %q: want a one-line usage error", msg)
			}
		})
	}
}

// TestListenNeedsAuthOrInsecure checks that the commands that start an embedded server
// refuse a non-loopback --listen without --auth, before creating anything, and accept it
// with --insecure-listen.
func TestListenNeedsAuthOrInsecure(t *testing.T) {
	for _, cmd := range [][]string{
		{"tournament", "--players", "random,hp1", "--rounds", "1"},
		{"match", "random", "hp1"},
		{"referee"},
	} {
		t.Run(cmd[0], func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "a.db")
			code, _, stderr := runCLI(t, append(cmd, "--listen", "0.0.0.0:0", "--db", db)...)
			if code != 2 || !strings.Contains(stderr, "--listen 0.0.0.0:0 without credentials would let anyone on the network read any player's turns") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and one line refusing the unsecured --listen", code, stderr)
			}
			if matches, _ := filepath.Glob(db + "*"); len(matches) != 0 {
				t.Errorf("the refused command left %v behind", matches)
			}
		})
	}
	// With --insecure-listen the tournament plays.
	code, _, stderr := runCLI(t, "tournament", "--players", "random,hp1", "--rounds", "1", "--tc", "1s",
		"--listen", "0.0.0.0:0", "--insecure-listen", "--db", filepath.Join(t.TempDir(), "a.db"))
	if code != 0 {
		t.Errorf("tournament --listen 0.0.0.0:0 --insecure-listen: exit %d\n%s", code, stderr)
	}
}
