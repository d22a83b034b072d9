// Package natstest runs Debian's (or any) nats-server program for tests, so that what is
// tested against the embedded server is also tested against the server users deploy.
//
// Binary finds the program: ARENA_NATS_SERVER names it, or else it is looked up on PATH
// and in /usr/sbin. Where none is found, tests against it are left out, unless
// ARENA_REQUIRE_NATS_SERVER is set (as CI does, having installed Debian's nats-server
// package): then its absence fails the test.
package natstest

import (
	"net"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/lockedbuf"
)

// Binary returns the path of the nats-server program to test against, or "" when there is
// none and none is required.
func Binary(t testing.TB) string {
	t.Helper()
	p := os.Getenv("ARENA_NATS_SERVER")
	if p == "" {
		if lp, err := exec.LookPath("nats-server"); err == nil {
			p = lp
		} else if _, err := os.Stat("/usr/sbin/nats-server"); err == nil {
			p = "/usr/sbin/nats-server"
		}
	}
	if p == "" && os.Getenv("ARENA_REQUIRE_NATS_SERVER") != "" {
		t.Fatal("ARENA_REQUIRE_NATS_SERVER is set but no nats-server program was found (apt-get install nats-server)")
	}
	return p
}

// FreeAddr returns a loopback HOST:PORT that nothing listens on now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// Start runs bin with the configuration file conf, which must make it listen on addr,
// waits until addr accepts connections, and stops the server when the test ends.
func Start(t testing.TB, bin, conf, addr string) {
	t.Helper()
	out := &lockedbuf.Buffer{}
	cmd := exec.Command(bin, "-c", conf)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("%s output:\n%s", bin, out.String())
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not listen on %s within 10s: %v", bin, addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
