package cgroup

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Version is the kind of cgroup hierarchy a System has.
type Version int

// The kinds of hierarchy.
const (
	None Version = iota // no cgroup hierarchy usable
	V1                  // one hierarchy per controller (or a few controllers together)
	V2                  // the unified hierarchy
)

func (v Version) String() string {
	switch v {
	case V1:
		return "cgroup v1"
	case V2:
		return "cgroup v2"
	}
	return "no cgroups"
}

// Controllers are the controllers a Manager needs: a hierarchy where any is missing or not
// writable is refused. cpuset is needed only for Limits.CPUs.
var Controllers = []string{"memory", "cpu", "pids", "freezer"}

// hierarchy is one mounted hierarchy and this process's group in it.
type hierarchy struct {
	mount string // where it is mounted
	path  string // this process's group, relative to the mount
}

// dir is the directory of this process's group.
func (h hierarchy) dir() string { return filepath.Join(h.mount, h.path) }

// System is what cgroup hierarchies the machine has and where this process is in them,
// as Detect finds them.
type System struct {
	Version Version
	// v2: the unified hierarchy. v1: the hierarchy of each controller.
	unified hierarchy
	v1      map[string]hierarchy
}

// String says what Detect found: "cgroup v1 (cpu, cpuset, freezer, memory, pids)".
func (s *System) String() string {
	switch s.Version {
	case V1:
		names := make([]string, 0, len(s.v1))
		for c := range s.v1 {
			names = append(names, c)
		}
		slices.Sort(names)
		return fmt.Sprintf("cgroup v1 (%s)", strings.Join(names, ", "))
	case V2:
		return fmt.Sprintf("cgroup v2 at %s, this process in %s", s.unified.mount, s.unified.path)
	}
	return "no cgroups"
}

// Detect reads /proc/self/mountinfo and /proc/self/cgroup and says which hierarchies the
// machine has. A unified hierarchy mounted beside v1 ones (the "hybrid" layout, whose
// unified hierarchy holds no controller) counts as v1; so does a machine whose v1
// hierarchies hold every controller a Manager needs.
func Detect() (*System, error) {
	mi, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	defer mi.Close()
	mounts, err := parseMountinfo(mi)
	if err != nil {
		return nil, err
	}
	pc, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	defer pc.Close()
	groups, err := parseProcCgroup(pc)
	if err != nil {
		return nil, err
	}
	return detect(mounts, groups), nil
}

// mount is one cgroup filesystem of mountinfo.
type mount struct {
	root        string   // the group of the hierarchy mounted there
	point       string   // where
	v2          bool     // cgroup2
	controllers []string // v1: the controllers of the hierarchy
}

// parseMountinfo returns the cgroup and cgroup2 mounts of a /proc/PID/mountinfo
// (proc(5)): "ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER".
func parseMountinfo(r io.Reader) ([]mount, error) {
	var out []mount
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		sep := slices.Index(f, "-")
		if sep < 6 || len(f) < sep+4 {
			continue
		}
		typ := f[sep+1]
		if typ != "cgroup" && typ != "cgroup2" {
			continue
		}
		m := mount{root: unescape(f[3]), point: unescape(f[4]), v2: typ == "cgroup2"}
		if !m.v2 {
			for _, o := range strings.Split(f[sep+3], ",") {
				switch {
				case o == "rw" || o == "ro" || strings.Contains(o, "="):
				case slices.Contains(knownV1, o):
					m.controllers = append(m.controllers, o)
				}
			}
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cgroup: mountinfo: %w", err)
	}
	return out, nil
}

// knownV1 are the v1 controllers a mount's options may name.
var knownV1 = []string{"cpu", "cpuacct", "cpuset", "memory", "devices", "freezer", "net_cls", "net_prio", "blkio", "perf_event", "hugetlb", "pids", "rdma", "misc"}

// unescape undoes mountinfo's octal escapes of spaces, tabs, newlines and backslashes.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) && isOctal(s[i+1:i+4]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return len(s) == 3
}

// procGroup is one line of /proc/PID/cgroup: "ID:CONTROLLERS:PATH", where v2's line is
// "0::PATH".
type procGroup struct {
	controllers []string // empty for v2's line
	path        string
}

// parseProcCgroup parses /proc/PID/cgroup (cgroups(7)).
func parseProcCgroup(r io.Reader) ([]procGroup, error) {
	var out []procGroup
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		id, rest, ok1 := strings.Cut(line, ":")
		ctl, path, ok2 := strings.Cut(rest, ":")
		if !ok1 || !ok2 || id == "" || !strings.HasPrefix(path, "/") {
			return nil, fmt.Errorf("cgroup: /proc/self/cgroup: malformed line %q", line)
		}
		g := procGroup{path: path}
		if ctl != "" {
			g.controllers = strings.Split(ctl, ",")
		} else if id != "0" {
			return nil, fmt.Errorf("cgroup: /proc/self/cgroup: malformed line %q", line)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cgroup: /proc/self/cgroup: %w", err)
	}
	return out, nil
}

// relative is path, a group as /proc/self/cgroup names it, relative to a mount of the
// hierarchy whose root is root. ok is false when the group lies outside the mount (a
// container that mounts only its own part of a hierarchy, from another cgroup namespace).
func relative(path, root string) (string, bool) {
	if root == "/" {
		return path, !strings.HasPrefix(path, "/..")
	}
	if path == root {
		return "/", true
	}
	if rest, ok := strings.CutPrefix(path, root+"/"); ok {
		return "/" + rest, true
	}
	// In a cgroup namespace of its own, the process's path is relative to the mount's root.
	return path, !strings.HasPrefix(path, "/..")
}

// detect decides which hierarchies to use from the mounts and this process's groups.
func detect(mounts []mount, groups []procGroup) *System {
	s := &System{v1: map[string]hierarchy{}}
	var unified *hierarchy
	for _, g := range groups {
		for _, m := range mounts {
			switch {
			case len(g.controllers) == 0 && m.v2 && unified == nil:
				if rel, ok := relative(g.path, m.root); ok {
					unified = &hierarchy{mount: m.point, path: rel}
				}
			case len(g.controllers) > 0 && !m.v2 && slices.Equal(sorted(g.controllers), sorted(m.controllers)):
				rel, ok := relative(g.path, m.root)
				if !ok {
					continue
				}
				for _, c := range g.controllers {
					if _, seen := s.v1[c]; !seen {
						s.v1[c] = hierarchy{mount: m.point, path: rel}
					}
				}
			}
		}
	}
	switch {
	case unified != nil && len(s.v1) == 0:
		s.Version, s.unified = V2, *unified
	case len(s.v1) > 0:
		s.Version = V1
	}
	return s
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// missing says which needed controllers a System lacks.
func (s *System) missing(need []string) error {
	if s.Version != V1 {
		return nil
	}
	var miss []string
	for _, c := range need {
		if _, ok := s.v1[c]; !ok {
			miss = append(miss, c)
		}
	}
	if len(miss) > 0 {
		return fmt.Errorf("%w: %v has no hierarchy of %s", ErrUnavailable, s, strings.Join(miss, ", "))
	}
	return nil
}

// ErrUnavailable is returned (wrapped) by Open when the machine's cgroups cannot give
// every engine a group of its own; the wrapping error says why.
var ErrUnavailable = errors.New("cgroup: no usable cgroups")
