package netlab

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/natstest"
)

// The ports every server of a Cluster listens on, at its host's address.
const (
	ClientPort  = 4222
	ClusterPort = 6222
	MonitorPort = 8222
)

// ErrNotRunning is returned by Kill and Stop for a server that is not running, and
// ErrRunning by Restart for one that is.
var (
	ErrNotRunning = errors.New("netlab: server not running")
	ErrRunning    = errors.New("netlab: server already running")
)

// ClusterOptions adjusts NATSCluster; the zero value will do.
type ClusterOptions struct {
	// Name is the cluster's name; "arena-lab" when empty.
	Name string
	// Binary is the nats-server program; natstest.Binary's when empty.
	Binary string
	// PingInterval is how often servers ping clients and each other; a peer that misses
	// three pings is dropped. 1s when zero, so that a cut link is noticed in seconds.
	PingInterval time.Duration
	// Config is added to the end of every server's configuration file.
	Config string
}

// Cluster is one nats-server a host, routed to each other, with JetStream.
type Cluster struct {
	bin     string
	servers []*natsServer
}

type natsServer struct {
	host *Host
	conf string
	out  *logBuffer

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

// NATSCluster starts a nats-server in each host (one host makes a lone server) with a
// configuration file of its own: server_name the host's name, clients on port 4222,
// routes on 6222 to the others, monitoring on 8222, all at the host's address, and
// JetStream storing under a directory of the test's. It returns once WaitReady does (or
// fails the test after 60 seconds), skips the test when there is no nats-server (unless
// ARENA_REQUIRE_NATS_SERVER is set), and kills the servers when the test ends, showing
// their output if it failed.
func (l *Lab) NATSCluster(t testing.TB, hosts []*Host, opts ClusterOptions) *Cluster {
	t.Helper()
	bin := opts.Binary
	if bin == "" {
		bin = natstest.Binary(t)
	}
	if bin == "" {
		t.Skip("no nats-server program (apt-get install nats-server; ARENA_REQUIRE_NATS_SERVER=1 makes this a failure)")
	}
	if len(hosts) == 0 {
		t.Fatal("netlab: a cluster of no hosts")
	}
	if opts.Name == "" {
		opts.Name = "arena-lab"
	}
	if opts.PingInterval <= 0 {
		opts.PingInterval = time.Second
	}
	dir := t.TempDir()
	c := &Cluster{bin: bin}
	t.Cleanup(func() {
		for _, s := range c.servers {
			_ = s.kill()
		}
		if t.Failed() {
			for _, s := range c.servers {
				t.Logf("nats-server %s output (its end):\n%s", s.host.name, s.out.tail(16<<10))
			}
		}
	})
	for _, h := range hosts {
		if h.lab != l {
			t.Fatalf("netlab: host %s is not this lab's", h.name)
		}
		s := &natsServer{host: h, conf: filepath.Join(dir, h.name+".conf"), out: &logBuffer{}}
		if err := os.WriteFile(s.conf, []byte(serverConfig(h, hosts, opts, filepath.Join(dir, h.name))), 0o600); err != nil {
			t.Fatal(err)
		}
		c.servers = append(c.servers, s)
		if err := s.start(bin); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := c.WaitReady(ctx); err != nil {
		t.Fatalf("netlab: cluster not ready: %v", err)
	}
	return c
}

func serverConfig(h *Host, hosts []*Host, opts ClusterOptions, store string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "server_name: %q\n", h.name)
	fmt.Fprintf(&b, "listen: %q\n", net.JoinHostPort(h.Addr(), strconv.Itoa(ClientPort)))
	fmt.Fprintf(&b, "http: %q\n", net.JoinHostPort(h.Addr(), strconv.Itoa(MonitorPort)))
	fmt.Fprintf(&b, "ping_interval: %q\nping_max: 3\n", opts.PingInterval.String())
	fmt.Fprintf(&b, "jetstream {\n  store_dir: %q\n  max_memory_store: 256MB\n  max_file_store: 1GB\n}\n", store)
	if len(hosts) > 1 {
		fmt.Fprintf(&b, "cluster {\n  name: %q\n  listen: %q\n  routes: [\n", opts.Name,
			net.JoinHostPort(h.Addr(), strconv.Itoa(ClusterPort)))
		for _, o := range hosts {
			if o != h {
				fmt.Fprintf(&b, "    %q\n", "nats-route://"+net.JoinHostPort(o.Addr(), strconv.Itoa(ClusterPort)))
			}
		}
		b.WriteString("  ]\n}\n")
	}
	b.WriteString(opts.Config)
	b.WriteString("\n")
	return b.String()
}

func (s *natsServer) start(bin string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil && !closed(s.done) {
		return ErrRunning
	}
	cmd := s.host.Command(context.Background(), bin, "-c", s.conf)
	cmd.Stdout, cmd.Stderr = s.out, s.out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start nats-server in %s: %w", s.host.name, err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	s.cmd, s.done = cmd, done
	return nil
}

// stop signals the server, and kills it if it has not exited within grace.
func (s *natsServer) stop(sig syscall.Signal, grace time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil || closed(s.done) {
		return ErrNotRunning
	}
	if sig == syscall.SIGKILL {
		_ = killGroup(s.cmd.Process)
	} else {
		_ = s.cmd.Process.Signal(sig)
	}
	select {
	case <-s.done:
		return nil
	case <-time.After(grace):
	}
	_ = killGroup(s.cmd.Process)
	select {
	case <-s.done:
		return fmt.Errorf("nats-server in %s took more than %v to stop and was killed", s.host.name, grace)
	case <-time.After(10 * time.Second):
		return fmt.Errorf("nats-server in %s still runs 10s after SIGKILL", s.host.name)
	}
}

func (s *natsServer) kill() error { return s.stop(syscall.SIGKILL, 10*time.Second) }

func (s *natsServer) running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmd != nil && !closed(s.done)
}

func closed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// Len is the number of servers.
func (c *Cluster) Len() int { return len(c.servers) }

// Host is the host server i runs in; its name is the server's.
func (c *Cluster) Host(i int) *Host { return c.servers[i].host }

// Index is the number of the server named name (its host's name), or -1.
func (c *Cluster) Index(name string) int {
	for i, s := range c.servers {
		if s.host.name == name {
			return i
		}
	}
	return -1
}

// URL is server i's client URL, nats://10.R.0.N:4222.
func (c *Cluster) URL(i int) string {
	return "nats://" + net.JoinHostPort(c.servers[i].host.Addr(), strconv.Itoa(ClientPort))
}

// URLs are every server's client URL; strings.Join(c.URLs(), ",") is for nats.Connect.
func (c *Cluster) URLs() []string {
	urls := make([]string, len(c.servers))
	for i := range c.servers {
		urls[i] = c.URL(i)
	}
	return urls
}

// MonitorURL is server i's monitoring address, http://10.R.0.N:8222.
func (c *Cluster) MonitorURL(i int) string {
	return "http://" + net.JoinHostPort(c.servers[i].host.Addr(), strconv.Itoa(MonitorPort))
}

// Running tells whether server i's process runs (it may still be unreachable, behind a cut
// link).
func (c *Cluster) Running(i int) bool { return c.servers[i].running() }

// Kill sends server i SIGKILL and waits until it has exited.
func (c *Cluster) Kill(i int) error { return c.servers[i].kill() }

// Stop shuts server i down as SIGTERM asks, waiting up to ten seconds before killing it.
func (c *Cluster) Stop(i int) error { return c.servers[i].stop(syscall.SIGTERM, 10*time.Second) }

// Restart starts server i again, with the same configuration and JetStream store. It does
// not wait: WaitReady does.
func (c *Cluster) Restart(i int) error {
	s := c.servers[i]
	if s.running() {
		return ErrRunning
	}
	fmt.Fprintf(s.out, "\n--- netlab: restart at %s ---\n", time.Now().Format(time.RFC3339Nano))
	return s.start(c.bin)
}

// Log is what server i has written so far, over all its runs.
func (c *Cluster) Log(i int) string { return c.servers[i].out.String() }

// WaitReady waits until every running server answers its monitoring port's /healthz with
// "ok" (JetStream is up, with a meta leader, and its streams and consumers are current) and
// has routes to every other running server.
func (c *Cluster) WaitReady(ctx context.Context) error {
	for {
		err := c.ready(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w; last: %v", ctx.Err(), err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (c *Cluster) ready(ctx context.Context) error {
	var running []int
	for i, s := range c.servers {
		if s.running() {
			running = append(running, i)
		}
	}
	if len(running) == 0 {
		return errors.New("no server runs")
	}
	for _, i := range running {
		if err := c.Healthy(ctx, i); err != nil {
			return err
		}
		n, err := c.Routes(ctx, i)
		if err != nil {
			return err
		}
		if n < len(running)-1 {
			return fmt.Errorf("%s: routes to %d servers, want %d", c.servers[i].host.name, n, len(running)-1)
		}
	}
	return nil
}

// Healthy asks server i's /healthz; nil means "ok".
func (c *Cluster) Healthy(ctx context.Context, i int) error {
	var h struct {
		Status string `json:"status"`
		Error  string `json:"error"`
	}
	code, err := c.getJSON(ctx, i, "/healthz", &h)
	if err != nil {
		return err
	}
	if code != http.StatusOK || h.Status != "ok" {
		return fmt.Errorf("%s: healthz %d %s %s", c.servers[i].host.name, code, h.Status, h.Error)
	}
	return nil
}

// Routes is the number of servers server i has a route to, as its /routez says.
func (c *Cluster) Routes(ctx context.Context, i int) (int, error) {
	var r struct {
		Routes []struct {
			RemoteID string `json:"remote_id"`
		} `json:"routes"`
	}
	if _, err := c.getJSON(ctx, i, "/routez", &r); err != nil {
		return 0, err
	}
	ids := map[string]bool{}
	for _, x := range r.Routes {
		ids[x.RemoteID] = true
	}
	return len(ids), nil
}

// StreamState is a stream's state as one server stores it.
type StreamState struct {
	Messages uint64 `json:"messages"`
	Bytes    uint64 `json:"bytes"`
	FirstSeq uint64 `json:"first_seq"`
	LastSeq  uint64 `json:"last_seq"`
}

// ErrNoStream is returned by Stream for a stream server i does not store.
var ErrNoStream = errors.New("netlab: no such stream on that server")

// Stream is the state of the stream named name (in any account) in server i's own store,
// as its /jsz says: a replica's, not the leader's, so it shows whether that server has
// caught up.
func (c *Cluster) Stream(ctx context.Context, i int, name string) (StreamState, error) {
	var jsz json.RawMessage
	if _, err := c.getJSON(ctx, i, JSZPath, &jsz); err != nil {
		return StreamState{}, err
	}
	s, err := StreamFromJSZ(jsz, name)
	if err != nil {
		return StreamState{}, fmt.Errorf("%s: %w", c.servers[i].host.name, err)
	}
	return s, nil
}

// JSZPath is the monitoring path whose answer StreamFromJSZ reads, for a test that asks a
// server from inside its host (when its link is cut, say).
const JSZPath = "/jsz?accounts=true&streams=true"

// StreamFromJSZ finds the stream named name, in any account, in a server's answer to
// JSZPath.
func StreamFromJSZ(jsz []byte, name string) (StreamState, error) {
	var j struct {
		Accounts []struct {
			Streams []struct {
				Name  string      `json:"name"`
				State StreamState `json:"state"`
			} `json:"stream_detail"`
		} `json:"account_details"`
	}
	if err := json.Unmarshal(jsz, &j); err != nil {
		return StreamState{}, fmt.Errorf("jsz: %w", err)
	}
	for _, a := range j.Accounts {
		for _, s := range a.Streams {
			if s.Name == name {
				return s.State, nil
			}
		}
	}
	return StreamState{}, fmt.Errorf("%w: %s", ErrNoStream, name)
}

// monitor talks to monitoring ports directly, never through a proxy the environment names.
var monitor = &http.Client{
	Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
	Timeout:   2 * time.Second,
}

func (c *Cluster) getJSON(ctx context.Context, i int, path string, v any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.MonitorURL(i)+path, nil)
	if err != nil {
		return 0, err
	}
	resp, err := monitor.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return resp.StatusCode, err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return resp.StatusCode, fmt.Errorf("%s%s: %w", c.MonitorURL(i), path, err)
	}
	return resp.StatusCode, nil
}

// logBuffer is a server's output, written by its process and read by the test.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *logBuffer) tail(n int) string {
	s := l.String()
	if len(s) > n {
		s = "..." + s[len(s)-n:]
	}
	return s
}
