package cgroup

import (
	"reflect"
	"strings"
	"testing"
)

// Mountinfo of this machine kind (v1 per controller, with the unified hierarchy beside
// them), of a systemd host on v2, and of a container that sees only its own part.
const (
	mountinfoV1 = `22 1 0:21 / / rw,relatime - ext4 /dev/vda rw
30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
32 30 0:29 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
33 30 0:30 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset
34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
36 30 0:33 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer
38 30 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd
40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`
	procV1 = `9:name=systemd:/
8:pids:/
6:freezer:/
4:memory:/process_api/a78f
3:cpuset:/
2:cpuacct:/
1:cpu:/
0::/
`
	mountinfoV2 = `24 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
`
	procV2 = "0::/system.slice/arena-host.service\n"
	// Debian 10-like v1 with cpu and cpuacct together, inside a container whose mounts
	// show only its own groups.
	mountinfoContainer = `500 400 0:50 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpu,cpuacct
501 400 0:51 /docker/abc /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory
502 400 0:52 /docker/abc /sys/fs/cgroup/with\040space rw,nosuid - cgroup cgroup rw,pids
`
	procContainer = `3:cpu,cpuacct:/docker/abc
2:memory:/docker/abc/sub
1:pids:/docker/abc
`
)

func TestParseMountinfo(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []mount
	}{
		{"v1 and unified", mountinfoV1, []mount{
			{root: "/", point: "/sys/fs/cgroup/cpu", controllers: []string{"cpu"}},
			{root: "/", point: "/sys/fs/cgroup/cpuacct", controllers: []string{"cpuacct"}},
			{root: "/", point: "/sys/fs/cgroup/cpuset", controllers: []string{"cpuset"}},
			{root: "/", point: "/sys/fs/cgroup/memory", controllers: []string{"memory"}},
			{root: "/", point: "/sys/fs/cgroup/freezer", controllers: []string{"freezer"}},
			{root: "/", point: "/sys/fs/cgroup/pids", controllers: []string{"pids"}},
			{root: "/", point: "/sys/fs/cgroup/systemd"},
			{root: "/", point: "/sys/fs/cgroup/unified", v2: true},
		}},
		{"v2 with optional fields", mountinfoV2, []mount{{root: "/", point: "/sys/fs/cgroup", v2: true}}},
		{"container, escaped space", mountinfoContainer, []mount{
			{root: "/docker/abc", point: "/sys/fs/cgroup/cpu,cpuacct", controllers: []string{"cpu", "cpuacct"}},
			{root: "/docker/abc", point: "/sys/fs/cgroup/memory", controllers: []string{"memory"}},
			{root: "/docker/abc", point: "/sys/fs/cgroup/with space", controllers: []string{"pids"}},
		}},
		{"none", "22 1 0:21 / / rw - ext4 /dev/vda rw\n", nil},
		{"short lines", "garbage\n1 2 3 - cgroup\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseMountinfo(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseProcCgroup(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []procGroup
		wantErr bool
	}{
		{"v2", procV2, []procGroup{{path: "/system.slice/arena-host.service"}}, false},
		{"v1 joined controllers", "3:cpu,cpuacct:/a\n0::/\n", []procGroup{{controllers: []string{"cpu", "cpuacct"}, path: "/a"}, {path: "/"}}, false},
		{"named hierarchy", "9:name=systemd:/x\n", []procGroup{{controllers: []string{"name=systemd"}, path: "/x"}}, false},
		{"path with colon", "0::/a:b\n", []procGroup{{path: "/a:b"}}, false},
		{"no path", "1:cpu:\n", nil, true},
		{"no colon", "garbage\n", nil, true},
		{"v1 line without controllers", "4::/x\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseProcCgroup(strings.NewReader(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v, want error %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name      string
		mountinfo string
		proc      string
		version   Version
		dirs      map[string]string // controller (v2: "") to the process's group directory
	}{
		{"v1 beside an empty unified hierarchy", mountinfoV1, procV1, V1, map[string]string{
			"memory":  "/sys/fs/cgroup/memory/process_api/a78f",
			"cpu":     "/sys/fs/cgroup/cpu",
			"pids":    "/sys/fs/cgroup/pids",
			"freezer": "/sys/fs/cgroup/freezer",
			"cpuset":  "/sys/fs/cgroup/cpuset",
		}},
		{"v2", mountinfoV2, procV2, V2, map[string]string{"": "/sys/fs/cgroup/system.slice/arena-host.service"}},
		{"container", mountinfoContainer, procContainer, V1, map[string]string{
			"cpu":    "/sys/fs/cgroup/cpu,cpuacct",
			"memory": "/sys/fs/cgroup/memory/sub",
			"pids":   "/sys/fs/cgroup/with space",
		}},
		{"nothing mounted", "22 1 0:21 / / rw - ext4 /dev/vda rw\n", procV1, None, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mounts, err := parseMountinfo(strings.NewReader(tt.mountinfo))
			if err != nil {
				t.Fatal(err)
			}
			groups, err := parseProcCgroup(strings.NewReader(tt.proc))
			if err != nil {
				t.Fatal(err)
			}
			s := detect(mounts, groups)
			if s.Version != tt.version {
				t.Fatalf("version %v, want %v (%v)", s.Version, tt.version, s)
			}
			for c, want := range tt.dirs {
				got := s.unified.dir()
				if c != "" {
					got = s.v1[c].dir()
				}
				if got != want {
					t.Errorf("%q: %s, want %s", c, got, want)
				}
			}
		})
	}
}

func TestMissing(t *testing.T) {
	mounts, _ := parseMountinfo(strings.NewReader(mountinfoContainer))
	groups, _ := parseProcCgroup(strings.NewReader(procContainer))
	err := detect(mounts, groups).missing(Controllers)
	if err == nil || !strings.Contains(err.Error(), "freezer") {
		t.Errorf("a container without freezer: %v, want an error naming freezer", err)
	}
}

func TestAllButFirst(t *testing.T) {
	tests := []struct{ list, want string }{
		{"0-1", ""},
		{"0-3", "1,2,3"},
		{"4-7", "5,6,7"},
		{"0,2,4,6", "2,4,6"},
		{"0-1,8-9", "1,8,9"},
		{"0-2", ""},
		{"", ""},
		{"3-1", ""},
		{"x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.list, func(t *testing.T) {
			if got := allButFirst(tt.list); got != tt.want {
				t.Errorf("allButFirst(%q) = %q, want %q", tt.list, got, tt.want)
			}
		})
	}
}
