package proctag

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Proc is a process found by Find.
type Proc struct {
	Pid     int      // as the caller sees it
	Session int      // the id of its session (as the caller sees it): Pid once it called setsid
	Args    []string // its command line
}

// LeadsSession reports whether p leads a session, as a process that called setsid does.
func (p Proc) LeadsSession() bool { return p.Session == p.Pid }

func (p Proc) String() string {
	return fmt.Sprintf("%d (%s)", p.Pid, strings.Join(p.Args, " "))
}

// New returns a token no other process is likely to carry: prefix, a dash and 16 random
// hex digits.
func New(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}

// Track returns a fresh token (New) for a test to hand to the programs it starts, and
// kills whatever still carries it when the test ends, so that a test that failed leaves
// nothing running.
func Track(t testing.TB, prefix string) string {
	t.Helper()
	token := New(prefix)
	t.Cleanup(func() {
		if killed, _ := Kill(token); len(killed) > 0 {
			t.Logf("killed what the test left running: %v", killed)
		}
	})
	return token
}

// Find returns the running processes one of whose arguments is token, by increasing pid;
// the caller itself is never among them. A process that has exited counts as gone even
// before it is reaped: a zombie's command line is empty.
func Find(token string) ([]Proc, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("proctag: %w", err)
	}
	var found []Proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || len(data) == 0 {
			continue // gone meanwhile, a zombie, or a kernel thread
		}
		args := strings.Split(string(bytes.TrimSuffix(data, []byte{0})), "\x00")
		if !slices.Contains(args, token) {
			continue
		}
		if session, ok := session(pid); ok {
			found = append(found, Proc{Pid: pid, Session: session, Args: args})
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Pid < found[j].Pid })
	return found, nil
}

// SessionOf reads the session id of a live process from /proc/PID/stat, as this process
// sees it: 0 when the session's leader lies outside this PID namespace. ok is false for a
// process that is gone or a zombie.
func SessionOf(pid int) (id int, ok bool) { return session(pid) }

func session(pid int) (id int, ok bool) {
	f, ok := stat(pid)
	if !ok || len(f) < 4 || f[0] == "Z" {
		return 0, false
	}
	id, err := strconv.Atoi(f[3])
	return id, err == nil
}

// CPU returns the CPU time a process has spent, its threads and its children that have
// ended included (utime, stime, cutime and cstime of /proc/PID/stat), or false when it
// is gone.
func CPU(pid int) (time.Duration, bool) {
	f, ok := stat(pid)
	if !ok || len(f) < 15 {
		return 0, false
	}
	var ticks int64
	for _, s := range f[11:15] {
		n, _ := strconv.ParseInt(s, 10, 64)
		ticks += n
	}
	const hz = 100 // USER_HZ, 100 on every Linux
	return time.Duration(ticks) * time.Second / hz, true
}

// stat returns the fields of /proc/PID/stat after the command name (state, ppid, pgrp,
// session, ...: field n of proc(5) at index n-3), or false when the process is gone.
func stat(pid int) ([]string, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, false
	}
	// The command name, in parentheses, may hold anything: the fields follow its last ")".
	s := string(data)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:]), true
}

// WaitFor waits up to within until at least n processes carry token, and returns those
// found last (fewer than n when within ran out).
func WaitFor(token string, n int, within time.Duration) ([]Proc, error) {
	found, _, err := Wait(token, within, func(found []Proc) bool { return len(found) >= n })
	return found, err
}

// WaitGone waits up to within until no process carries token, and returns those still
// running then (none when all are gone).
func WaitGone(token string, within time.Duration) ([]Proc, error) {
	found, _, err := Wait(token, within, func(found []Proc) bool { return len(found) == 0 })
	return found, err
}

// Wait waits up to within until done holds of the processes that carry token, and returns
// them as found last, and whether done held of them.
func Wait(token string, within time.Duration, done func([]Proc) bool) ([]Proc, bool, error) {
	deadline := time.Now().Add(within)
	for {
		found, err := Find(token)
		if err != nil {
			return found, false, err
		}
		if done(found) {
			return found, true, nil
		}
		if time.Now().After(deadline) {
			return found, false, nil
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Kill sends SIGKILL to every process that carries token and returns them, so that a test
// that failed leaves nothing running.
func Kill(token string) ([]Proc, error) {
	found, err := Find(token)
	for _, p := range found {
		if proc, err := os.FindProcess(p.Pid); err == nil {
			_ = proc.Kill()
		}
	}
	return found, err
}
