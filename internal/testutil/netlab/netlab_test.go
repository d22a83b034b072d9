package netlab

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// childEnv switches the test binary, run inside a host, to a small program: "serve ADDR"
// answers every connection with "hello REMOTE\n", "dial ADDR TIMEOUT" prints "local=LOCAL
// got=LINE" (or fails), "get URL" prints the body of an HTTP
// GET, "sleep" sleeps and "exit" exits.
const childEnv = "NETLAB_TEST_CHILD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		os.Exit(child(strings.Fields(mode)))
	}
	os.Exit(m.Run())
}

func child(args []string) int {
	switch {
	case len(args) == 2 && args[0] == "serve":
		l, err := net.Listen("tcp", args[1])
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		fmt.Println("listening")
		for {
			c, err := l.Accept()
			if err != nil {
				return 1
			}
			fmt.Fprintf(c, "hello %s\n", c.RemoteAddr())
			c.Close()
		}
	case len(args) == 3 && args[0] == "dial":
		timeout, err := time.ParseDuration(args[2])
		if err != nil {
			fmt.Println("error:", err)
			return 2
		}
		c, err := net.DialTimeout("tcp", args[1], timeout)
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(2 * time.Second))
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		fmt.Printf("local=%s got=%s", c.LocalAddr(), line)
		return 0
	case len(args) == 2 && args[0] == "get":
		resp, err := monitor.Get(args[1])
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		defer resp.Body.Close()
		_, _ = io.Copy(os.Stdout, resp.Body)
		return 0
	case len(args) == 1 && args[0] == "exit":
		return 0
	case len(args) == 1 && args[0] == "sleep":
		time.Sleep(time.Hour)
		return 0
	}
	fmt.Println("unknown child mode", args)
	return 2
}

// runChild runs the test binary in mode inside h and returns its output.
func runChild(t *testing.T, h *Host, mode string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := h.Command(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"="+mode)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// startServer runs "serve" in h on port 7000 and returns its address once it listens.
func startServer(t *testing.T, h *Host) string {
	t.Helper()
	addr := net.JoinHostPort(h.Addr(), "7000")
	cmd := h.Command(context.Background(), os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"=serve "+addr)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = killGroup(cmd.Process); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if line != "listening\n" {
		t.Fatalf("server in %s: %q, %v", h.Name(), line, err)
	}
	return addr
}

// hello dials addr from the test process and returns the server's line.
func hello(addr string, timeout time.Duration) (string, error) {
	c, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(timeout))
	return bufio.NewReader(c).ReadString('\n')
}

// eventually retries f every 50ms until it returns nil or d has passed.
func eventually(t *testing.T, d time.Duration, what string, f func() error) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v: %v", what, d, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestTwoHosts(t *testing.T) {
	lab := New(t, "a", "b")
	a, b := lab.Host("a"), lab.Host("b")
	if a == nil || b == nil || lab.Host("c") != nil {
		t.Fatalf("Host: a=%v b=%v", a, b)
	}
	r := lab.Number()
	if want := fmt.Sprintf("10.%d.0.2", r); a.Addr() != want {
		t.Errorf("a.Addr() = %s, want %s", a.Addr(), want)
	}
	if want := fmt.Sprintf("10.%d.0.3", r); b.Addr() != want {
		t.Errorf("b.Addr() = %s, want %s", b.Addr(), want)
	}
	if want := fmt.Sprintf("10.%d.0.1", r); lab.Gateway() != want {
		t.Errorf("Gateway() = %s, want %s", lab.Gateway(), want)
	}
	addr := startServer(t, a)

	// The test process reaches a through the bridge: a sees the bridge's address.
	line, err := hello(addr, 2*time.Second)
	if err != nil || !strings.HasPrefix(line, "hello "+lab.Gateway()+":") {
		t.Fatalf("from the test process: %q, %v", line, err)
	}

	// A process in b dials from b's address.
	out, err := runChild(t, b, "dial "+addr+" 2s")
	if err != nil || !strings.HasPrefix(out, "local="+b.Addr()+":") || !strings.Contains(out, "got=hello "+b.Addr()+":") {
		t.Fatalf("from b: %q, %v", out, err)
	}

	// b is not in the test's namespace: the test's loopback listener is not its loopback.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if out, err := runChild(t, b, "dial "+l.Addr().String()+" 2s"); err == nil {
		t.Errorf("b reached the test's loopback %s: %q", l.Addr(), out)
	}
}

// linkState is the state of a host's eth0 as seen inside it: whether it has a carrier.
func carrier(t *testing.T, h *Host) bool {
	t.Helper()
	out, err := ip("-n", h.Namespace(), "link", "show", "dev", "eth0")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(out), "LOWER_UP")
}

func TestCutAndPartition(t *testing.T) {
	lab := New(t, "a", "b")
	a, b := lab.Host("a"), lab.Host("b")
	addr := startServer(t, a)
	reach := func() error {
		if _, err := hello(addr, 2*time.Second); err != nil {
			return fmt.Errorf("test process: %w", err)
		}
		if out, err := runChild(t, b, "dial "+addr+" 2s"); err != nil {
			return fmt.Errorf("b: %v: %s", err, out)
		}
		return nil
	}
	unreachable := func() {
		t.Helper()
		if line, err := hello(addr, 300*time.Millisecond); err == nil {
			t.Errorf("test process reached %s: %q", addr, line)
		}
		if out, err := runChild(t, b, "dial "+addr+" 300ms"); err == nil {
			t.Errorf("b reached %s: %q", addr, out)
		}
	}
	eventually(t, 5*time.Second, "reach a", reach)

	for _, tc := range []struct {
		name        string
		fail, mend  func() error
		carrierDown bool // whether a sees its link go down
	}{
		{"cut", a.Cut, a.Restore, true},
		{"partition", a.Partition, a.Heal, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.fail(); err != nil {
				t.Fatal(err)
			}
			unreachable()
			if got := carrier(t, a); got == tc.carrierDown {
				t.Errorf("carrier inside a: %v, want %v", got, !tc.carrierDown)
			}
			if err := tc.mend(); err != nil {
				t.Fatal(err)
			}
			eventually(t, 5*time.Second, "reach a again", reach)
			if !carrier(t, a) {
				t.Error("no carrier inside a after mending")
			}
		})
	}
}

// labObjects lists the namespaces and links of lab number r.
func labObjects(t *testing.T, r int) []string {
	t.Helper()
	var found []string
	nss, err := namespaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, ns := range nss {
		if strings.HasPrefix(ns, fmt.Sprintf("%s%d-", prefix, r)) {
			found = append(found, "netns "+ns)
		}
	}
	links, err := listLinks()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range links {
		if m := vethName.FindStringSubmatch(k.Name); m != nil && m[1] == fmt.Sprint(r) {
			found = append(found, "link "+k.Name)
		}
		if k.Name == fmt.Sprintf("%sb%d", prefix, r) {
			found = append(found, "bridge "+k.Name+" "+k.Alias)
		}
	}
	return found
}

func TestCleanup(t *testing.T) {
	Require(t)
	var r int
	var done chan error
	t.Run("lab", func(t *testing.T) {
		lab := New(t, "x", "y")
		r = lab.Number()
		if got := labObjects(t, r); len(got) != 5 {
			t.Fatalf("lab %d: %v, want 2 namespaces, 2 veths and the bridge", r, got)
		}
		cmd := lab.Host("y").Command(context.Background(), os.Args[0])
		cmd.Env = append(os.Environ(), childEnv+"=sleep")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done = make(chan error, 1)
		go func() { done <- cmd.Wait() }()
	})
	if got := labObjects(t, r); len(got) != 0 {
		t.Errorf("lab %d left %v", r, got)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("the sleeper exited cleanly: it was not killed")
		}
	case <-time.After(5 * time.Second):
		t.Error("the sleeper in host y still runs 5s after the lab was removed")
	}
}

func TestStaleLabRemoved(t *testing.T) {
	Require(t)
	// A lab whose owner is dead: a bridge naming a pid that has exited, a namespace with a
	// process in it, and a veth, as a test binary killed by its timeout leaves them.
	dead := exec.Command(os.Args[0])
	dead.Env = append(os.Environ(), childEnv+"=exit")
	_ = dead.Run()
	unlock, err := lock()
	if err != nil {
		t.Fatal(err)
	}
	taken, err := takenNetworks()
	if err != nil {
		unlock()
		t.Fatal(err)
	}
	r := 0
	for n := 254; n > 0 && r == 0; n-- {
		if !overlaps(taken, n) && !linkExists(fmt.Sprintf("%sb%d", prefix, n)) {
			r = n
		}
	}
	ns := fmt.Sprintf("%s%d-old", prefix, r)
	err = ipBatch("", []string{
		fmt.Sprintf("link add %sb%d type bridge", prefix, r),
		fmt.Sprintf("link set dev %sb%d alias arena-netlab:pid=%d:start=1", prefix, r, dead.Process.Pid),
		"netns add " + ns,
		fmt.Sprintf("link add %s%dv0 type veth peer name %s%dp0", prefix, r, prefix, r),
		fmt.Sprintf("link set dev %s%dp0 netns %s", prefix, r, ns),
	})
	unlock()
	if err != nil {
		t.Fatal(err)
	}
	sleeper := exec.Command(ipBin, "netns", "exec", ns, os.Args[0])
	sleeper.Env = append(os.Environ(), childEnv+"=sleep")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- sleeper.Wait() }()
	t.Cleanup(func() { _ = sleeper.Process.Kill() })
	if got := labObjects(t, r); len(got) != 3 {
		t.Fatalf("stale lab %d: %v, want a namespace, a veth and the bridge", r, got)
	}

	New(t, "fresh")

	// Lab r may be taken again, but then by this process.
	owner, err := ownerTag(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range labObjects(t, r) {
		if strings.HasPrefix(o, "bridge ") && !strings.HasSuffix(o, " "+owner) || o == "netns "+ns {
			t.Errorf("stale lab %d: %s is still there", r, o)
		}
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Error("the process in the stale lab's namespace still runs")
	}
}

func TestOwnerAlive(t *testing.T) {
	mine, err := ownerTag(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	pid := fmt.Sprint(os.Getpid())
	for _, tc := range []struct {
		alias string
		want  bool
	}{
		{mine, true},
		{"arena-netlab:pid=" + pid + ":start=1", false}, // a pid reused by another process
		{"arena-netlab:pid=" + pid, false},
		{"arena-netlab:pid=-1:start=1", false},
		{"arena-netlab:pid=x:start=1", false},
		{"", false},
		{"something else", false},
	} {
		if got := ownerAlive(tc.alias); got != tc.want {
			t.Errorf("ownerAlive(%q) = %v, want %v", tc.alias, got, tc.want)
		}
	}
}

func TestCheckNames(t *testing.T) {
	many := make([]string, maxHosts+1)
	for i := range many {
		many[i] = fmt.Sprint("h", i)
	}
	for _, tc := range []struct {
		names []string
		ok    bool
	}{
		{[]string{"a", "b-2", "nats1", strings.Repeat("a", 32)}, true},
		{nil, true},
		{many[:maxHosts], true},
		{many, false},
		{[]string{"A"}, false},
		{[]string{""}, false},
		{[]string{"a b"}, false},
		{[]string{"-a"}, false},
		{[]string{"a/b"}, false},
		{[]string{"a", "a"}, false},
		{[]string{strings.Repeat("a", 33)}, false},
	} {
		if err := checkNames(tc.names); (err == nil) != tc.ok {
			t.Errorf("checkNames(%.40q) = %v, want ok %v", tc.names, err, tc.ok)
		}
	}
}
