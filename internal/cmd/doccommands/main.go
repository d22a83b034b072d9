// Command doccommands runs the shell commands that README.md and docs/*.md show, as
// written, and reports the ones that no longer work. docs/check-commands.sh runs it from
// the repository root; CI runs that script.
//
// It reads every fenced code block labelled sh, bash, shell or nothing, and every
// indented code block, that invokes arena (arena ..., ./arena ..., go run ./cmd/arena
// ...), and runs each such block's commands in order, in one shell state, in a scratch
// copy of the repository (the files git knows of), so that databases and files they
// write stay out of the tree. One arena binary, built at the start with the README's
// go build -o arena ./cmd/arena, stands in for arena, ./arena and go run ./cmd/arena, and
// a later go build -o X ./cmd/arena copies it. Fixed ports (127.0.0.1:4222, --port 4222)
// become free ones, a fresh set per block.
//
// Each command has a time bound. A command that exits 0 passes; one that exits otherwise,
// or prints a usage error, fails. A command still running at its bound passes only when it
// is long-running by nature, which is read from the command itself: a daemon (arena
// server, referee, player, engine; nats-server; a player script), or a big workload
// (--games 1000 or more, a tournament whose games at full time per move would outlast the
// bound). Such a command gets a shorter bound, since it is not expected to finish there,
// and is "counted as started". Daemons, and commands ending in &, run in the background
// until the end of their block (as if in a terminal of their own) and are stopped then; one
// that exits non-zero before that fails.
//
// Skipped, and listed: commands that cannot run as written (placeholders: a word in
// capitals such as URL, NAME, FILE, ID; an optional part in square brackets; a|b
// alternatives; "..."; ./mybot), blocks needing a program that is not installed (docker
// with no engine, chromium), go test (CI runs the tests on its own), and commands that
// fail for want of a file that only a skipped or unfinished command would have made.
//
// Usage:
//
//	go run ./internal/cmd/doccommands [--timeout 30s] [--long 15s] [--keep] [--list] [FILE.md ...]
//
// The last line of the output is "N passed, M failed"; the exit status is 1 when any
// command failed.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"syscall"
	"time"
)

func main() {
	timeout := flag.Duration("timeout", 30*time.Second, "bound of a command that should finish")
	long := flag.Duration("long", 15*time.Second, "bound of a command that is long-running by nature (still running then: counted as started)")
	keep := flag.Bool("keep", false, "keep the scratch directory (its path is printed)")
	list := flag.Bool("list", false, "list the blocks and their commands, and what would be done with each, without running them")
	flag.Parse()

	files := flag.Args()
	if len(files) == 0 {
		files = []string{"README.md"}
		docs, _ := filepath.Glob("docs/*.md")
		sort.Strings(docs)
		files = append(files, docs...)
	}
	var blocks []*block
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "doccommands:", err)
			os.Exit(2)
		}
		blocks = append(blocks, extractBlocks(f, string(src))...)
	}

	if *list {
		listBlocks(blocks, *timeout)
		return
	}
	r := &runner{timeout: *timeout, long: *long, keep: *keep}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() { r.interrupted(<-sigs) }()
	start := time.Now()
	err := r.setup()
	if err == nil {
		for _, b := range blocks {
			r.runBlock(b)
		}
	}
	r.cleanup()
	if err != nil {
		fmt.Println("setup failed:", err)
		r.failed = append(r.failed, "setup: "+err.Error())
	}
	r.report(time.Since(start))
	if len(r.failed) > 0 {
		os.Exit(1)
	}
}

func listBlocks(blocks []*block, bound time.Duration) {
	for _, b := range blocks {
		fmt.Printf("== %s:%d\n", b.file, b.line)
		for _, c := range b.cmds {
			how := "run"
			if why := skipReason(c); why != "" {
				how = "skip: " + why
			} else if long, daemon, why := longRunning(c.text, bound); daemon || c.bg {
				how = "background"
				if why != "" {
					how += " (" + why + ")"
				}
			} else if long {
				how = "long (" + why + ")"
			}
			fmt.Printf("%5d  %-50s %s\n", c.line, how, c.oneLine())
		}
	}
}
