//go:build unix && !linux

package engine

import "syscall"

// sysProcAttr puts the engine in a process group of its own, led by itself.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
