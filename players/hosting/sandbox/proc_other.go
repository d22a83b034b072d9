//go:build !linux

package sandbox

import "syscall"

// startAttrs puts the command line in a process group of its own. Sandboxes are Linux's
// (Available says so): this only lets the package build elsewhere.
func startAttrs() []*syscall.SysProcAttr {
	return []*syscall.SysProcAttr{{Setpgid: true}}
}
