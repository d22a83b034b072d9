package engine

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", MaxLineLen)
	tests := []struct {
		name string
		in   string
		want []string // lines; a line of longer ones ends in "!" when ErrLineTooLong came with it
	}{
		{"empty", "", nil},
		{"lines", "a\nb c\n\n", []string{"a", "b c", ""}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"no last newline", "a\nb", []string{"a", "b"}},
		{"lone cr kept", "a\rb\n", []string{"a\rb"}},
		{"longest", long + "\r\nz\n", []string{long, "z"}},
		{"too long", long + "y\nz\n", []string{long[:quoteLen] + "!", "z"}},
		{"far too long", strings.Repeat("y", 3*MaxLineLen) + "\nz", []string{strings.Repeat("y", quoteLen) + "!", "z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(tt.in), 4096)
			var got []string
			for {
				line, err := readLine(br)
				if err == io.EOF {
					break
				}
				if errors.Is(err, ErrLineTooLong) {
					line += "!"
				} else if err != nil {
					t.Fatal(err)
				}
				got = append(got, line)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("lines %q, want %q", shorten(got), shorten(tt.want))
			}
		})
	}
}

func shorten(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) > 20 {
			l = l[:10] + "..." + l[len(l)-5:]
		}
		out[i] = l
	}
	return out
}

// FuzzReadLine: whatever an engine writes, the lines read back are bounded and, when none
// is too long, are the input split at its line endings.
func FuzzReadLine(f *testing.F) {
	for _, s := range []string{"", "a\nb", "a\r\n\r\n", "\r", strings.Repeat("z", MaxLineLen+3) + "\nq"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		br := bufio.NewReaderSize(strings.NewReader(in), 4096)
		var got []string
		long := false
		for n := 0; ; n++ {
			line, err := readLine(br)
			if err == io.EOF {
				break
			}
			if len(line) > MaxLineLen || n > len(in)+1 {
				t.Fatalf("line of %d bytes, or %d lines from %d bytes", len(line), n, len(in))
			}
			long = long || errors.Is(err, ErrLineTooLong)
			got = append(got, line)
		}
		if long {
			return
		}
		want := strings.Split(strings.ReplaceAll(in, "\r\n", "\n"), "\n")
		if strings.HasSuffix(in, "\n") {
			want = want[:len(want)-1]
		}
		if in == "" {
			want = nil
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) {
			t.Fatalf("read %q from %q, want %q", got, in, want)
		}
	})
}

// TestStartContainment starts a shell that says its pid as it sees it and its user id,
// then echoes its input, with each way of starting an engine: in a pid namespace the
// shell is pid 1 and the same user as the caller; where the namespace is refused, Start
// falls back to a process group, and says so.
func TestStartContainment(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("pid namespaces are Linux's")
	}
	all := startAttempts()
	var userns, group attempt
	for _, a := range all {
		switch {
		case a.contain == ContainGroup:
			group = a
		case a.attr.Cloneflags&syscall.CLONE_NEWUSER != 0:
			userns = a
		}
	}
	// clone(2) refuses CLONE_NEWUSER with CLONE_FS (EINVAL), as a system that forbids
	// namespaces refuses them (EPERM).
	refusedAttr := *userns.attr
	refusedAttr.Cloneflags |= syscall.CLONE_FS
	refused := attempt{ContainPIDNamespace, &refusedAttr}
	tests := []struct {
		name     string
		attempts []attempt
		want     Containment
	}{
		{"as Start does", all, ContainPIDNamespace},
		{"in a user namespace", []attempt{userns, group}, ContainPIDNamespace},
		{"namespace refused", []attempt{refused, group}, ContainGroup},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := start(context.Background(), []string{"sh", "-c", "echo $$ $(id -u); exec cat"}, Options{}, tt.attempts)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			got := p.Containment()
			if got != tt.want && tt.want == ContainPIDNamespace && got == ContainGroup {
				t.Skipf("this system refuses pid namespaces: got %v", got)
			}
			if got != tt.want {
				t.Fatalf("Containment() = %v, want %v", got, tt.want)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			line, err := p.Recv(ctx)
			if err != nil {
				t.Fatal(err)
			}
			wantPid := strconv.Itoa(p.Pid())
			if got == ContainPIDNamespace {
				wantPid = "1"
			}
			if want := wantPid + " " + strconv.Itoa(os.Getuid()); line != want {
				t.Errorf("the engine says pid and uid %q, want %q", line, want)
			}
			if err := p.Send("hello"); err != nil {
				t.Fatal(err)
			}
			if line, err := p.Recv(ctx); line != "hello" || err != nil {
				t.Errorf("Recv = %q, %v; want the line sent", line, err)
			}
			if err := p.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
	}
}

// TestTermDefault tells apart a program that leaves SIGTERM to its default action from
// one that ignores or catches it.
func TestTermDefault(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("termDefault reads Linux's /proc")
	}
	tests := []struct {
		name   string
		script string
		want   bool
	}{
		{"default", "exec sleep 60", true},
		{"ignored", "trap '' TERM; exec sleep 60", false},
		{"caught", "trap 'exit 1' TERM; while :; do sleep 1; done", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", tt.script)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
			}()
			// Until the shell has run its script, its dispositions are those it started
			// with; wait for the ones the script sets.
			deadline := time.Now().Add(5 * time.Second)
			for termDefault(cmd.Process.Pid) != tt.want {
				if time.Now().After(deadline) {
					t.Fatalf("termDefault = %v for 5s, want %v", !tt.want, tt.want)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}
