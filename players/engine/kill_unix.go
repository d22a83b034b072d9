//go:build unix

package engine

import "syscall"

// killGroup sends sig to every process of the group pgid.
func killGroup(pgid int, sig syscall.Signal) error {
	return syscall.Kill(-pgid, sig)
}
