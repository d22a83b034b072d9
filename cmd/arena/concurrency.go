package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/arenaref/arena/organizer"
)

// warnSpec writes the tournament's organizer.Spec.Warnings for this machine's cores to w.
func warnSpec(w io.Writer, s organizer.Spec) {
	for _, msg := range s.Warnings(runtime.NumCPU()) {
		fmt.Fprintln(w, "warning: "+msg)
	}
}
