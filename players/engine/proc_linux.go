package engine

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// startAttempts lists the ways to start an engine on Linux, the best first; Start takes
// the first that the system allows. Each puts the engine in a process group of its own,
// led by itself, and has the kernel send it SIGKILL should the bridge die without closing
// it (Pdeathsig).
//
// The best puts the engine in a new pid namespace (see ContainPIDNamespace): the engine is
// its init, and the kernel kills the whole namespace once the init is gone. Creating one
// takes CAP_SYS_ADMIN, which root has outside containers; anyone else, or root inside a
// container, does it inside a new user namespace, owned by the caller, that maps the
// caller's user and group ids to themselves (so the engine runs as the same user, with
// the same file access, except that it cannot change its supplementary groups). Where
// the system refuses both (user namespaces disabled by sysctl or AppArmor, a container's
// seccomp profile, the limit on namespaces reached), the engine only leads a process
// group (ContainGroup).
//
// Being pid 1 changes a few things for the engine. getpid() returns 1. The kernel drops
// every signal whose action for the engine is the default one, except SIGKILL and SIGSTOP
// sent from outside the namespace. That concerns SIGTERM from Close, which therefore kills
// at once an engine that leaves SIGTERM to its default action (see termDefault), and the
// signals an engine sends itself: abort() ends it with SIGSEGV rather than SIGABRT, and a
// Go engine that does not handle SIGTERM exits with status 2 when it gets one. Go's check
// that the bridge did not die while the engine was being started (getppid after setting
// Pdeathsig) does not work across namespaces; an engine whose bridge died in that instant
// still sees the end of its input.
func startAttempts() []attempt {
	group := syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	pidns := group
	pidns.Cloneflags = syscall.CLONE_NEWPID
	userns := pidns
	userns.Cloneflags |= syscall.CLONE_NEWUSER
	// Without privilege, the one mapping allowed is of the effective ids.
	uid, gid := os.Geteuid(), os.Getegid()
	userns.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	userns.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	userns.GidMappingsEnableSetgroups = false
	attempts := []attempt{{ContainPIDNamespace, &userns}, {ContainGroup, &group}}
	if uid == 0 {
		// Root keeps its privileges in the host's user namespace where it may.
		attempts = append([]attempt{{ContainPIDNamespace, &pidns}}, attempts...)
	}
	return attempts
}

// termDefault reports whether process pid leaves SIGTERM to its default action (neither
// catches nor ignores it), from /proc/PID/status. A namespace's init is spared that
// default action, so Close, having sent SIGTERM, kills such an engine at once, as SIGTERM
// would have done outside a namespace.
func termDefault(pid int) bool {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	defer f.Close()
	const bit = uint64(1) << (syscall.SIGTERM - 1)
	var masks uint64 // of the signals caught or ignored
	seen := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, _ := strings.Cut(sc.Text(), ":")
		if name != "SigCgt" && name != "SigIgn" {
			continue
		}
		m, err := strconv.ParseUint(strings.TrimSpace(value), 16, 64)
		if err != nil {
			return false
		}
		masks |= m
		seen++
	}
	return seen == 2 && masks&bit == 0
}
