package netlab

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// prefix begins the name of every bridge, veth and namespace a lab makes, so that the labs
// a crashed test left behind can be found by name.
const prefix = "anl"

// lockPath is the file whose lock makes taking a lab number, and removing stale labs, one
// process's business at a time.
const lockPath = "/run/arena-netlab.lock"

// unreachableMetric is the metric of the route that keeps a lab's network from leaving the
// machine; the bridge's own route (metric 0) wins while the lab lives.
const unreachableMetric = "4000000000"

// maxHosts bounds the hosts of one lab: their addresses are 10.R.0.2 up.
const maxHosts = 200

var (
	bridgeName = regexp.MustCompile(`^anlb([0-9]{1,3})$`)
	vethName   = regexp.MustCompile(`^anl([0-9]{1,3})[vp]([0-9]{1,3})$`)
	nsName     = regexp.MustCompile(`^anl([0-9]{1,3})-`)
	probeName  = regexp.MustCompile(`^anlq([0-9]+)[bvp]?$`)
	hostName   = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)
)

// Lab is a bridge and the hosts on it; New makes one for a test, which removes it when it
// ends.
type Lab struct {
	num     int
	bridge  string
	gateway netip.Addr
	hosts   []*Host

	mu   sync.Mutex
	cmds []*exec.Cmd
}

// Host is one network namespace of a lab, with one link to the lab's bridge.
type Host struct {
	lab   *Lab
	name  string
	index int
	ns    string
	veth  string // the bridge's end of the link, in the root namespace
	addr  netip.Addr
}

// Require skips the test when this machine cannot make labs, or fails it when the
// environment variable ARENA_REQUIRE_NETNS is set (as CI does, having installed iproute2).
func Require(t testing.TB) {
	t.Helper()
	err := Available()
	if err == nil {
		return
	}
	if os.Getenv("ARENA_REQUIRE_NETNS") != "" {
		t.Fatalf("ARENA_REQUIRE_NETNS is set but this machine cannot make network namespaces: %v", err)
	}
	t.Skipf("network namespaces do not work here (run as root; apt-get install iproute2; ARENA_REQUIRE_NETNS=1 makes this a failure): %v", err)
}

var (
	availableOnce sync.Once
	availableErr  error
)

// Available tells whether this machine can make labs: `ip` is there and, tried once a
// process, makes a namespace, runs a program in it, and makes a bridge and a veth pair.
func Available() error {
	availableOnce.Do(func() { availableErr = probe() })
	return availableErr
}

func probe() error {
	if _, err := ipPath(); err != nil {
		return err
	}
	unlock, err := lock()
	if err != nil {
		return err
	}
	defer unlock()
	p := fmt.Sprintf("%sq%d", prefix, os.Getpid())
	defer func() {
		_, _ = ip("link", "del", p+"b")
		_, _ = ip("link", "del", p+"v")
		_, _ = ip("netns", "del", p)
	}()
	steps := [][]string{
		{"netns", "add", p},
		{"netns", "exec", p, ipBin, "link", "set", "lo", "up"},
		{"link", "add", p + "b", "type", "bridge"},
		{"link", "add", p + "v", "type", "veth", "peer", "name", p + "p"},
		{"link", "set", p + "p", "netns", p},
	}
	for _, s := range steps {
		if _, err := ip(s...); err != nil {
			return err
		}
	}
	return nil
}

// New makes a lab with one host a name (lowercase letters, digits and '-', at most 32
// characters, each once), and removes it when the test ends. It calls Require first.
func New(t testing.TB, hosts ...string) *Lab {
	t.Helper()
	Require(t)
	if err := checkNames(hosts); err != nil {
		t.Fatal(err)
	}
	l, err := create(hosts)
	if l != nil {
		t.Cleanup(func() {
			if err := l.remove(); err != nil {
				t.Errorf("netlab: remove lab %d: %v", l.num, err)
			}
		})
	}
	if err != nil {
		t.Fatalf("netlab: %v", err)
	}
	return l
}

func checkNames(hosts []string) error {
	if len(hosts) > maxHosts {
		return fmt.Errorf("netlab: %d hosts, at most %d", len(hosts), maxHosts)
	}
	seen := map[string]bool{}
	for _, h := range hosts {
		if !hostName.MatchString(h) {
			return fmt.Errorf("netlab: host name %q: want lowercase letters, digits and '-', at most 32", h)
		}
		if seen[h] {
			return fmt.Errorf("netlab: host %q named twice", h)
		}
		seen[h] = true
	}
	return nil
}

// create takes a lab number and makes the lab under the lock; a non-nil lab is to be
// removed, even with an error.
func create(hosts []string) (*Lab, error) {
	unlock, err := lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := removeStale(); err != nil {
		return nil, fmt.Errorf("remove stale labs: %w", err)
	}
	taken, err := takenNetworks()
	if err != nil {
		return nil, err
	}
	owner, err := ownerTag(os.Getpid())
	if err != nil {
		return nil, err
	}
	l := &Lab{}
	for r := 1; r <= 254 && l.num == 0; r++ {
		if overlaps(taken, r) {
			continue
		}
		name := fmt.Sprintf("%sb%d", prefix, r)
		if _, err := ip("link", "add", name, "type", "bridge"); err != nil {
			continue // another lab's, or one being made
		}
		l.num, l.bridge = r, name
	}
	if l.num == 0 {
		return nil, errors.New("no free lab number from 1 to 254")
	}
	r := l.num
	l.gateway = netip.AddrFrom4([4]byte{10, byte(r), 0, 1})
	prefix24 := fmt.Sprintf("10.%d.0.0/24", r)
	root := []string{
		"link set dev " + l.bridge + " alias " + owner,
		"addr add " + l.gateway.String() + "/24 dev " + l.bridge,
		"link set dev " + l.bridge + " up",
		"route replace unreachable " + prefix24 + " metric " + unreachableMetric,
	}
	for i, name := range hosts {
		h := &Host{
			lab:   l,
			name:  name,
			index: i,
			ns:    fmt.Sprintf("%s%d-%s", prefix, r, name),
			veth:  fmt.Sprintf("%s%dv%d", prefix, r, i),
			addr:  netip.AddrFrom4([4]byte{10, byte(r), 0, byte(i + 2)}),
		}
		l.hosts = append(l.hosts, h)
		peer := fmt.Sprintf("%s%dp%d", prefix, r, i)
		root = append(root,
			"netns add "+h.ns,
			"link add "+h.veth+" type veth peer name "+peer,
			"link set dev "+peer+" netns "+h.ns,
			"link set dev "+h.veth+" master "+l.bridge,
			"link set dev "+h.veth+" up",
		)
	}
	if err := ipBatch("", root); err != nil {
		return l, err
	}
	for i, h := range l.hosts {
		peer := fmt.Sprintf("%s%dp%d", prefix, r, i)
		err := ipBatch(h.ns, []string{
			"link set dev lo up",
			"link set dev " + peer + " name eth0",
			"addr add " + h.addr.String() + "/24 dev eth0",
			"link set dev eth0 up",
		})
		if err != nil {
			return l, err
		}
	}
	return l, nil
}

// Gateway is the bridge's address, the one the test process has on the lab's network.
func (l *Lab) Gateway() string { return l.gateway.String() }

// Number is the lab's R: its network is 10.R.0.0/24.
func (l *Lab) Number() int { return l.num }

// Hosts returns the lab's hosts in the order New was given their names.
func (l *Lab) Hosts() []*Host { return append([]*Host(nil), l.hosts...) }

// Host returns the host of that name, or nil.
func (l *Lab) Host(name string) *Host {
	for _, h := range l.hosts {
		if h.name == name {
			return h
		}
	}
	return nil
}

// Name is the name New was given.
func (h *Host) Name() string { return h.name }

// Addr is the host's IPv4 address, 10.R.0.N.
func (h *Host) Addr() string { return h.addr.String() }

// Namespace is the name of the host's network namespace, for `ip netns exec`.
func (h *Host) Namespace() string { return h.ns }

// Command returns a command that runs name with args inside the host, through `ip netns
// exec` (which then executes name in its place), in a process group of its own. When ctx is
// done, or the test ends, the whole group is killed.
func (h *Host) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	path, err := ipPath()
	if err != nil {
		path = "ip" // Require found it; Start reports it otherwise
	}
	cmd := exec.CommandContext(ctx, path, append([]string{"netns", "exec", h.ns, name}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd.Process) }
	h.lab.mu.Lock()
	h.lab.cmds = append(h.lab.cmds, cmd)
	h.lab.mu.Unlock()
	return cmd
}

// Cut takes the bridge's end of the host's link down, as when its cable is pulled: the
// host's link loses its carrier and no packet passes either way until Restore.
func (h *Host) Cut() error {
	_, err := ip("link", "set", "dev", h.veth, "down")
	return err
}

// Restore brings the link Cut took down up again.
func (h *Host) Restore() error {
	_, err := ip("link", "set", "dev", h.veth, "up")
	return err
}

// Partition takes the host's link off the bridge: the host's link stays up, so nothing
// inside it sees a change, but no packet passes either way until Heal.
func (h *Host) Partition() error {
	_, err := ip("link", "set", "dev", h.veth, "nomaster")
	return err
}

// Heal puts the host's link back on the bridge after Partition.
func (h *Host) Heal() error {
	_, err := ip("link", "set", "dev", h.veth, "master", h.lab.bridge)
	return err
}

// remove kills the lab's processes and deletes its namespaces, veths and bridge (last, as
// it marks the lab number taken). The unreachable route stays.
func (l *Lab) remove() error {
	l.mu.Lock()
	cmds := l.cmds
	l.cmds = nil
	l.mu.Unlock()
	for _, c := range cmds {
		_ = killGroup(c.Process)
	}
	var errs []error
	for _, h := range l.hosts {
		errs = append(errs, delLink(h.veth), removeNamespace(h.ns))
	}
	if l.bridge != "" {
		errs = append(errs, delLink(l.bridge))
	}
	return errors.Join(errs...)
}

// delLink deletes a link in the root namespace; one that is gone already is no error (a
// veth goes with its peer's namespace).
func delLink(name string) error {
	_, err := ip("link", "del", "dev", name)
	if err != nil && !linkExists(name) {
		return nil
	}
	return err
}

// killGroup kills the process and its group (the one Command made it lead). Once the
// process is reaped its pid may be another's, so its group is left alone: what remains of it
// in the host dies with the namespace.
func killGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	err := p.Kill()
	if errors.Is(err, os.ErrProcessDone) {
		return nil
	}
	if gerr := syscall.Kill(-p.Pid, syscall.SIGKILL); gerr == nil {
		err = nil
	}
	return err
}

// removeNamespace kills every process in the namespace and deletes it, if it is there.
func removeNamespace(ns string) error {
	names, err := namespaces()
	if err != nil {
		return err
	}
	found := false
	for _, n := range names {
		found = found || n == ns
	}
	if !found {
		return nil
	}
	out, err := ip("netns", "pids", ns)
	if err != nil {
		return err
	}
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 1 && pid != os.Getpid() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	_, err = ip("netns", "del", ns)
	return err
}

// removeStale removes what labs (and Available's probes) whose owner is gone left behind.
// It runs under the lock, so no lab is being made meanwhile.
func removeStale() error {
	links, err := listLinks()
	if err != nil {
		return err
	}
	live := map[int]bool{} // lab numbers whose owner runs
	for _, k := range links {
		if m := bridgeName.FindStringSubmatch(k.Name); m != nil && ownerAlive(k.Alias) {
			n, _ := strconv.Atoi(m[1])
			live[n] = true
		}
	}
	stale := func(name string) bool {
		if m := probeName.FindStringSubmatch(name); m != nil {
			pid, _ := strconv.Atoi(m[1])
			return pid != os.Getpid() && !pidAlive(pid)
		}
		for _, re := range []*regexp.Regexp{bridgeName, vethName, nsName} {
			if m := re.FindStringSubmatch(name); m != nil {
				n, _ := strconv.Atoi(m[1])
				return !live[n]
			}
		}
		return false
	}
	nss, err := namespaces()
	if err != nil {
		return err
	}
	var errs []error
	for _, k := range links { // veths before bridges, as a lab is removed
		if stale(k.Name) && !bridgeName.MatchString(k.Name) {
			errs = append(errs, delLink(k.Name))
		}
	}
	for _, ns := range nss {
		if stale(ns) {
			errs = append(errs, removeNamespace(ns))
		}
	}
	for _, k := range links {
		if stale(k.Name) && bridgeName.MatchString(k.Name) {
			errs = append(errs, delLink(k.Name))
		}
	}
	return errors.Join(errs...)
}

// ownerTag is the bridge alias that names the process pid as the lab's owner.
func ownerTag(pid int) (string, error) {
	start, err := startTime(pid)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("arena-netlab:pid=%d:start=%s", pid, start), nil
}

// ownerAlive tells whether the process an alias names still runs (the same process: its
// start time is the alias's).
func ownerAlive(alias string) bool {
	rest, ok := strings.CutPrefix(alias, "arena-netlab:pid=")
	if !ok {
		return false
	}
	p, s, ok := strings.Cut(rest, ":start=")
	if !ok {
		return false
	}
	pid, err := strconv.Atoi(p)
	if err != nil || pid <= 0 {
		return false
	}
	now, err := startTime(pid)
	return err == nil && now == s
}

func pidAlive(pid int) bool {
	_, err := startTime(pid)
	return err == nil
}

// startTime is field 22 of /proc/PID/stat: when the process started, in clock ticks since
// boot; with the pid it names one process for good.
func startTime(pid int) (string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return "", fmt.Errorf("/proc/%d/stat: no ')'", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return "", fmt.Errorf("/proc/%d/stat: %d fields after the name", pid, len(f))
	}
	if f[0] == "Z" || f[0] == "X" { // a zombie's start time outlives it
		return "", fmt.Errorf("process %d is dead", pid)
	}
	return f[19], nil
}

type link struct {
	Name  string `json:"ifname"`
	Alias string `json:"ifalias"`
}

func listLinks() ([]link, error) {
	out, err := ip("-j", "link", "show")
	if err != nil {
		return nil, err
	}
	var links []link
	if err := json.Unmarshal(out, &links); err != nil {
		return nil, fmt.Errorf("ip -j link show: %w", err)
	}
	return links, nil
}

func linkExists(name string) bool {
	_, err := ip("link", "show", "dev", name)
	return err == nil
}

func namespaces() ([]string, error) {
	out, err := ip("-j", "netns", "list")
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, nil
	}
	var list []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		return nil, fmt.Errorf("ip -j netns list: %w", err)
	}
	names := make([]string, len(list))
	for i, n := range list {
		names[i] = n.Name
	}
	return names, nil
}

// takenNetworks lists the IPv4 networks the root namespace has routes to, except the
// unreachable routes labs leave (a later lab may take their number).
func takenNetworks() ([]netip.Prefix, error) {
	out, err := ip("-j", "-4", "route", "show", "table", "all")
	if err != nil {
		return nil, err
	}
	var routes []struct {
		Type string `json:"type"`
		Dst  string `json:"dst"`
	}
	if err := json.Unmarshal(out, &routes); err != nil {
		return nil, fmt.Errorf("ip -j route show: %w", err)
	}
	var taken []netip.Prefix
	for _, r := range routes {
		if r.Dst == "default" || r.Type == "unreachable" {
			continue
		}
		p, err := netip.ParsePrefix(r.Dst)
		if err != nil {
			a, aerr := netip.ParseAddr(r.Dst)
			if aerr != nil {
				continue
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		taken = append(taken, p)
	}
	return taken, nil
}

func overlaps(taken []netip.Prefix, r int) bool {
	mine := netip.PrefixFrom(netip.AddrFrom4([4]byte{10, byte(r), 0, 0}), 24)
	for _, p := range taken {
		if p.Overlaps(mine) {
			return true
		}
	}
	return false
}

// lock takes the lock file that makes lab numbers one process's at a time.
func lock() (unlock func(), err error) {
	f, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", lockPath, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

var (
	ipOnce sync.Once
	ipBin  string
	ipErr  error
)

// ipPath finds iproute2's ip, on PATH or where Debian puts it (root's PATH has sbin, a
// user's may not).
func ipPath() (string, error) {
	ipOnce.Do(func() {
		if p, err := exec.LookPath("ip"); err == nil {
			ipBin = p
			return
		}
		for _, p := range []string{"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"} {
			if _, err := os.Stat(p); err == nil {
				ipBin = p
				return
			}
		}
		ipErr = errors.New("no ip program (apt-get install iproute2)")
	})
	return ipBin, ipErr
}

// ip runs `ip args...`, for at most ten seconds, and returns its standard output.
func ip(args ...string) ([]byte, error) {
	return ipInput(nil, args...)
}

// ipBatch runs commands through one `ip -batch -`, inside the namespace ns if not "".
func ipBatch(ns string, cmds []string) error {
	args := []string{"-batch", "-"}
	if ns != "" {
		args = append([]string{"-n", ns}, args...)
	}
	_, err := ipInput([]byte(strings.Join(cmds, "\n")+"\n"), args...)
	return err
}

func ipInput(stdin []byte, args ...string) ([]byte, error) {
	path, err := ipPath()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), fmt.Errorf("ip %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}
