// Package cgroup puts each submitted engine, and each build, in a control group (cgroup)
// of its own: a memory limit that counts everything the group makes (its processes'
// pages, the page cache of its files, its tmpfs files and System V shared memory), a CPU
// quota, a set of CPUs when the machine has enough of them, a limit on processes and
// threads, and a freezer that stops every process of the group at once. The host freezes
// an engine between its own turns, so that it cannot take the CPU from the engines that
// are thinking (see players/hosting/host).
//
// It works with cgroup v2 (the unified hierarchy of current systemd hosts, in a group
// delegated to the host) and with cgroup v1 (a hierarchy per controller, as on older
// hosts and on the CI machines):
//
//	m, err := cgroup.Open(cgroup.Limits{})   // ErrUnavailable, saying why, when it cannot
//	defer m.Close()
//	g, err := m.New("alice-s3")
//	argv = g.Wrap(argv)                      // the program joins g before it runs
//	... g.Freeze(); g.Thaw() ...
//	err = g.Remove()                         // kills what is left, removes the group
//
// Open detects what the machine has from /proc/self/mountinfo and /proc/self/cgroup
// (Detect) and makes a directory of its own, arena-PID, inside the host process's own
// group in each hierarchy it uses, so that every engine stays within whatever limits the
// host itself runs under. It refuses (ErrUnavailable) rather than make groups without
// every limit: docs/security.md, "Resource control with cgroups", says what a host's
// operator may choose instead, and how to delegate a group to the host on systemd.
//
// A process joins its group before it runs anything of the engine: Wrap puts a /bin/sh
// in front of the command line, which writes itself into the group's cgroup.procs files
// and then execs the command (bwrap, setpriv...), so there is no moment at which the
// engine runs outside its group, and everything it starts inherits the group.
//
// Linux only; writing groups needs root, or a group delegated to the host's user.
package cgroup
