package cgroup

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// hostLeaf is where delegate moves the host's own process on cgroup v2, when it shares its
// group with no other process, so that its group may hand controllers to child groups.
const hostLeaf = "arena-host"

// delegate makes the Manager's directory, name, under own, this process's v2 group, with
// the controllers the Manager needs enabled for the groups it will make inside it. v2 lets
// only a group without processes hand controllers to its children (the root aside): when
// own holds this process alone, delegate moves it into own/arena-host first; when it holds
// others too, it refuses, saying how to start the host in a group of its own.
func delegate(own, name string, cpuset bool) (string, error) {
	need := []string{"memory", "cpu", "pids"}
	if cpuset {
		need = append(need, "cpuset")
	}
	have, err := os.ReadFile(filepath.Join(own, "cgroup.controllers"))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	var miss []string
	for _, c := range need {
		if !slices.Contains(strings.Fields(string(have)), c) {
			miss = append(miss, c)
		}
	}
	if len(miss) > 0 {
		return "", fmt.Errorf("%w: cgroup v2 group %s was not given the controllers %s (its cgroup.controllers: %q); start arena host in a delegated group, as docs/security.md shows (systemd: Delegate=yes)",
			ErrUnavailable, own, strings.Join(miss, ", "), strings.TrimSpace(string(have)))
	}
	if err := enable(own, need); err != nil {
		// Only a group without processes may enable controllers for its children.
		procs, _ := os.ReadFile(filepath.Join(own, "cgroup.procs"))
		others := slices.DeleteFunc(strings.Fields(string(procs)), func(p string) bool { return p == strconv.Itoa(os.Getpid()) })
		if len(others) > 0 {
			return "", fmt.Errorf("%w: cannot enable %s for the children of %s (%v), which holds other processes (%s) besides arena host; start arena host in a group of its own, as docs/security.md shows (systemd-run --scope -p Delegate=yes, or a service with Delegate=yes)",
				ErrUnavailable, strings.Join(need, ", "), own, err, strings.Join(others, " "))
		}
		leaf := filepath.Join(own, hostLeaf)
		if err := mkdir(leaf); err != nil {
			return "", fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		if err := os.WriteFile(filepath.Join(leaf, "cgroup.procs"), []byte("0"), 0); err != nil {
			return "", fmt.Errorf("%w: move arena host into %s: %v", ErrUnavailable, leaf, err)
		}
		if err := enable(own, need); err != nil {
			return "", fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
	}
	dir := filepath.Join(own, name)
	if err := mkdir(dir); err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if err := enable(dir, need); err != nil {
		_ = rmdir(dir)
		return "", fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return dir, nil
}

// enable enables the controllers for dir's children.
func enable(dir string, controllers []string) error {
	cur, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
	if err != nil {
		return fmt.Errorf("cgroup: %w", err)
	}
	var add []string
	for _, c := range controllers {
		if !slices.Contains(strings.Fields(string(cur)), c) {
			add = append(add, "+"+c)
		}
	}
	if len(add) == 0 {
		return nil
	}
	if err := os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte(strings.Join(add, " ")), 0); err != nil {
		return fmt.Errorf("cgroup: enable %s in %s: %w", strings.Join(add, " "), dir, err)
	}
	return nil
}
