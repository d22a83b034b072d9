package engine

import "syscall"

// sysProcAttr puts the engine in a process group of its own, led by itself, and has the
// kernel kill it should the bridge die without closing it (a crash, SIGKILL).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
