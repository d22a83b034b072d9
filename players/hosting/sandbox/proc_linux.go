package sandbox

import (
	"os"
	"syscall"
)

// startAttrs lists the ways to start a sandbox's command line, the best first. Each puts
// it in a process group of its own, which run kills, and has the kernel kill it should
// the caller die (Pdeathsig; bwrap --die-with-parent renews it after setpriv's change of
// uid, which clears it).
//
// The best also makes the command line (setpriv, then bwrap) the init of a pid namespace
// of its own, in a user namespace of its own that maps the caller's ids to themselves
// for a caller that is not root, as players/engine does. bwrap leaves its own init, the
// sandbox's first process, to be reaped by whoever adopts it, which in a container whose
// init reaps nothing is no one; as the init of a namespace, bwrap takes its children
// with it. Where the system refuses, the process group remains.
func startAttrs() []*syscall.SysProcAttr {
	group := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	pidns := *group
	pidns.Cloneflags = syscall.CLONE_NEWPID
	if uid, gid := os.Geteuid(), os.Getegid(); uid != 0 {
		pidns.Cloneflags |= syscall.CLONE_NEWUSER
		pidns.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		pidns.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		pidns.GidMappingsEnableSetgroups = false
	}
	return []*syscall.SysProcAttr{&pidns, group}
}
