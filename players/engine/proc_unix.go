//go:build unix && !linux

package engine

import "syscall"

// startAttempts puts the engine in a process group of its own, led by itself: pid
// namespaces are Linux's.
func startAttempts() []attempt {
	return []attempt{{ContainGroup, &syscall.SysProcAttr{Setpgid: true}}}
}

// termDefault is for pid namespaces, which this system does not have.
func termDefault(pid int) bool { return false }
