package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunExamplesRunning checks the running function of examples/run-examples.sh, which
// polls /proc for processes that may end at any moment: it must tell a live process from
// one that has ended or is a zombie, and say nothing on stderr when a process ends while
// it looks (the script printed "/proc/PID/stat: No such file or directory" then), nor end
// the script, which runs under set -e.
func TestRunExamplesRunning(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "..", "examples", "run-examples.sh"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(script)
	start := strings.Index(text, "\nrunning() {\n")
	end := strings.Index(text[start+1:], "\n}\n")
	if start < 0 || end < 0 {
		t.Fatal("no running() function in run-examples.sh")
	}
	fn := text[start+1 : start+1+end+3]
	harness := "set -euo pipefail # as in the script\n" + fn + `
running $$ || echo "bash itself is not running"
running 999999999 && echo "a process that does not exist is running"
# A zombie: a child of sleep, which never reaps it.
pidfile=$(mktemp)
bash -c 'sleep 0 & echo $! >"$0"; exec sleep 5' "$pidfile" &
holder=$!
sleep 0.5
zombie=$(<"$pidfile")
rm -f "$pidfile"
running "$holder" || echo "a sleeping process is not running"
[ -n "$zombie" ] || echo "no zombie"
running "$zombie" && echo "zombie $zombie is running"
kill "$holder"
wait "$holder" 2>/dev/null || true
# Processes that end while running() looks at them: bash reaps its children as they
# end, so /proc/PID goes at any moment.
for i in $(seq 300); do
	sh -c 'exit 0' &
	p=$!
	(while running $p; do :; done)
	wait $p
done
echo done
`
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "bash", "-c", harness)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s%s", err, stdout.String(), stderr.String())
	}
	if stdout.String() != "done\n" || stderr.Len() > 0 {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
}
