// Command goengine is a tiny engine of Arena's line protocol (docs/engines.md) in Go, built
// static (CGO_ENABLED=0) by the sandbox tests to show that a Go engine runs under
// DefaultLimits. Before it says ready it does what a searching engine does first: it
// allocates and touches a table (-table MiB) and keeps every CPU busy for a moment with
// goroutines, and it reports the threads it then runs. It answers go with the first
// legal move.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
)

var table []byte

func main() {
	mib := flag.Int("table", 256, "MiB of table to allocate")
	flag.Parse()
	in := bufio.NewScanner(os.Stdin)
	var legal []string
	for in.Scan() {
		words := strings.Fields(in.Text())
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "arena":
			table = make([]byte, *mib<<20)
			for i := range table {
				table[i] = byte(i)
			}
			busy()
			fmt.Printf("ready goengine table=%dMiB threads=%s\n", len(table)>>20, threads())
		case "legal":
			legal = words[1:]
		case "go":
			fmt.Println(legal[0])
		case "quit":
			return
		}
	}
}

// busy runs four goroutines per CPU, each hashing for a while.
func busy() {
	var wg sync.WaitGroup
	for range 4 * runtime.NumCPU() {
		wg.Go(func() {
			h := uint64(1)
			for i := range 5_000_000 {
				h = h*6364136223846793005 + uint64(i)
			}
			_ = h
		})
	}
	wg.Wait()
}

// threads returns the number of threads the process runs, from /proc/self/status.
func threads() string {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}
