package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/arenaref/arena/organizer"
)

// warnConcurrency writes organizer.ConcurrencyWarning for this machine's cores to w, if any.
func warnConcurrency(w io.Writer, games int) {
	if msg := organizer.ConcurrencyWarning(games, runtime.NumCPU()); msg != "" {
		fmt.Fprintln(w, "warning: "+msg)
	}
}
