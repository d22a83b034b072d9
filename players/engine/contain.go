package engine

import "syscall"

// Containment is how an engine's processes are held together, so that none of them
// outlives the engine, and the engine none outlives its bridge. Process.Containment says
// which one an engine got; the Bridge logs it with "engine started".
type Containment int

const (
	// ContainNone: nothing holds the engine's processes together (a system without
	// process groups). Close ends the engine, if at all, by closing its input.
	ContainNone Containment = iota
	// ContainGroup: the engine leads a process group of its own, which Close and the
	// engine's exit kill. A process that leaves the group (setsid, setpgid) escapes both,
	// and should the bridge die without closing the engine (SIGKILL, a crash), only the
	// engine itself is killed (on Linux; elsewhere not even that). Engines get this where
	// the system refuses pid namespaces.
	ContainGroup
	// ContainPIDNamespace: the engine is the first process (pid 1, the init) of a pid
	// namespace of its own, and also leads a process group. Every process it starts, by
	// whatever route (forks of forks, setsid, orphans, which the kernel reparents to it),
	// belongs to the namespace, and when the engine exits or is killed the kernel kills
	// everything left in it. The kernel also kills the engine when the bridge dies,
	// however it dies: so nothing the engine started outlives the bridge. Linux only.
	ContainPIDNamespace
)

// String returns the name the Bridge logs: "pid-namespace", "process-group" or "none".
func (c Containment) String() string {
	switch c {
	case ContainPIDNamespace:
		return "pid-namespace"
	case ContainGroup:
		return "process-group"
	}
	return "none"
}

// attempt is one way to start an engine: the attributes of its process, and what
// containment they give it.
type attempt struct {
	contain Containment
	attr    *syscall.SysProcAttr
}
