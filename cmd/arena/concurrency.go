package main

import (
	"fmt"
	"io"
	"runtime"
)

// concurrencyWarning returns a one-line warning when games games at once would outnumber
// cpus cores, and "" otherwise. Built-in players that search until their time is nearly
// spent (minimax) share the cores with every other game; with more games than cores the
// scheduler can hold a reply past its deadline, and the player loses on time through no
// fault of its own. It is a warning, not an error: external players on other machines
// do not compete for these cores.
func concurrencyWarning(games, cpus int) string {
	if games <= cpus {
		return ""
	}
	return fmt.Sprintf("concurrency %d is more than the %d cores of this machine: built-in players that search on the clock (minimax) may lose on time when more games run at once than there are cores", games, cpus)
}

// warnConcurrency writes concurrencyWarning for this machine's cores to w, if any.
func warnConcurrency(w io.Writer, games int) {
	if msg := concurrencyWarning(games, runtime.NumCPU()); msg != "" {
		fmt.Fprintln(w, "warning: "+msg)
	}
}
