//go:build !unix

package engine

import (
	"errors"
	"syscall"
)

// Engines need process groups, which only Unix systems have here.

func startAttempts() []attempt { return []attempt{{ContainNone, nil}} }

func termDefault(pid int) bool { return false }

func killGroup(pgid int, sig syscall.Signal) error {
	return errors.New("engine: process groups are not supported on this system")
}
