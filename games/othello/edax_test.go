//go:build unix

package othello_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arenaref/arena/games/othello"
)

// BenchmarkPerft11 times perft(11) from the initial position under the exact count
// (Edax's convention: 212,258,216 nodes), and, when the environment variable ARENA_EDAX
// names an Edax binary, Edax's own perft(11) in the same run, one Edax run after each
// Arena one, for the target of Arena within 1.5 times Edax's time:
//
//	ARENA_EDAX=/tmp/edax/bin/lEdax-x86-64-v4 go test -run '^$' -bench Perft11 -benchtime 5x -count 3 ./games/othello
//
// Edax is built outside the repository (docs/strength.md, "Speed", says how). It is
// run from its own directory, which must hold data/eval.dat and data/book.dat (Edax
// builds a missing book first, which takes seconds and swallows the command), as
// `lEdax -n 1 -book-usage off` with the console command `perft 11`; its line for depth
// 11 gives its count, checked against Arena's, and its time, the user CPU time of that
// depth alone. Both programs count the last ply with a popcount of the move mask.
//
// Metrics, per perft(11): arena-s (wall clock), arena-cpu-s (user CPU time, what Edax
// reports), and with ARENA_EDAX edax-s and ratio, arena-cpu-s over edax-s. Without
// ARENA_EDAX the benchmark reports Arena's figures only.
func BenchmarkPerft11(b *testing.B) {
	const depth, want = 11, 212258216
	edax := os.Getenv("ARENA_EDAX")
	s := othello.NewState()
	var arenaCPU, edaxTime time.Duration
	for i := 0; i < b.N; i++ {
		cpu := userCPU()
		if n := othello.Perft(s, depth, othello.PerftExact); n != want {
			b.Fatalf("perft(%d) = %d, want %d", depth, n, want)
		}
		arenaCPU += userCPU() - cpu
		if edax != "" {
			b.StopTimer()
			t, err := edaxPerft(edax, depth, want)
			if err != nil {
				b.Fatal(err)
			}
			edaxTime += t
			b.StartTimer()
		}
	}
	n := float64(b.N)
	b.ReportMetric(b.Elapsed().Seconds()/n, "arena-s")
	b.ReportMetric(arenaCPU.Seconds()/n, "arena-cpu-s")
	if edax != "" {
		b.ReportMetric(edaxTime.Seconds()/n, "edax-s")
		b.ReportMetric(arenaCPU.Seconds()/edaxTime.Seconds(), "ratio")
	}
}

// userCPU returns the user CPU time of this process so far.
func userCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano())
}

// edaxPerft runs Edax's perft to depth and returns the time it reports for the last
// depth, after checking that it counted want nodes there.
func edaxPerft(bin string, depth int, want uint64) (time.Duration, error) {
	dir := filepath.Dir(bin)
	for _, f := range []string{"data/eval.dat", "data/book.dat"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return 0, fmt.Errorf("ARENA_EDAX: Edax needs %s beside it (see docs/strength.md): %w", f, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-n", "1", "-book-usage", "off")
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("ARENA_EDAX: %w", err)
	}
	defer func() { _ = cmd.Wait() }()
	defer func() { _ = cmd.Process.Kill() }()
	if _, err := fmt.Fprintf(in, "perft %d\n", depth); err != nil {
		return 0, err
	}
	// A line per depth, "  11,       212258216, ... ,        0:00.404,  593.3 MN/s",
	// then "Total ...". Quit is sent only after that: Edax drops a command that comes
	// while perft runs, quit included.
	var line string
	var tail []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		tail = append(tail, t)
		if strings.HasPrefix(t, strconv.Itoa(depth)+",") {
			line = t
		}
		if strings.HasPrefix(t, "Total") {
			break
		}
	}
	if line == "" {
		if len(tail) > 5 {
			tail = tail[len(tail)-5:]
		}
		return 0, fmt.Errorf("ARENA_EDAX: no perft(%d) line from Edax (%v); it ended with %q", depth, sc.Err(), tail)
	}
	_, _ = io.WriteString(in, "quit\n")
	return parseEdaxLine(line, want)
}

// parseEdaxLine reads the count (second field) and the time (eighth, "m:ss.mmm" or
// "h:mm:ss.mmm") of one of Edax's perft lines.
func parseEdaxLine(line string, want uint64) (time.Duration, error) {
	f := strings.Split(line, ",")
	if len(f) < 8 {
		return 0, fmt.Errorf("edax line %q: want 8 fields or more", line)
	}
	n, err := strconv.ParseUint(strings.TrimSpace(f[1]), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("edax line %q: count: %w", line, err)
	}
	if n != want {
		return 0, fmt.Errorf("edax counted %d, Arena %d: not the same tree", n, want)
	}
	var secs float64
	for _, part := range strings.Split(strings.TrimSpace(f[7]), ":") {
		v, err := strconv.ParseFloat(part, 64)
		if err != nil {
			return 0, fmt.Errorf("edax line %q: time: %w", line, err)
		}
		secs = secs*60 + v
	}
	return time.Duration(secs * float64(time.Second)), nil
}

func TestParseEdaxLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want time.Duration
		ok   bool
	}{
		{"11,       212258216,          576,            0,            0,          356,    0 - 18,        0:00.404,  593.3 MN/s", 404 * time.Millisecond, true},
		{"11,       212258216,          576,            0,            0,          356,    0 - 18,     1:02:03.500,  1 N/s", time.Hour + 2*time.Minute + 3500*time.Millisecond, true},
		{"11,       212258215,          576,            0,            0,          356,    0 - 18,        0:00.404,  593.3 MN/s", 0, false},
		{"11,       212258216,          576,            0,            0,          356,    0 - 18,        0:0x.404,  593.3 MN/s", 0, false},
		{"11, 212258216", 0, false},
	} {
		got, err := parseEdaxLine(tc.line, 212258216)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseEdaxLine(%q) = %v, %v; want %v, ok %v", tc.line, got, err, tc.want, tc.ok)
		}
	}
}
