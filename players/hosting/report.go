package hosting

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/arenaref/arena/protocol"
)

// WriteStatus prints a player's submissions (newest first, as engine_status answers
// them) for the player: a table of versions and states, then the log of each that has
// one, newest first: the build log's tail (built, build_failed) or the engine's standard
// error when it stopped (run_failed), so that a student reads why every version failed.
func WriteStatus(w io.Writer, player string, subs []protocol.EngineSubmission) error {
	if len(subs) == 0 {
		_, err := fmt.Fprintf(w, "%s has submitted no engine\n", player)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "VERSION\tSTATE\tARCHIVE\tSIZE\tSUBMITTED\tUPDATED")
	for _, s := range subs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", s.Version, s.State, s.Archive, s.Size, s.Created, s.Updated)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range subs {
		if s.Log != "" {
			fmt.Fprintf(w, "\n%s's log (%s):\n%s", s.Version, s.State, withNewline(s.Log))
		}
	}
	return nil
}

// WriteEvent prints one state of a submission as submit-engine waits for it: a failed
// one with its log.
func WriteEvent(w io.Writer, name, version string, ev protocol.EngineEvent) {
	switch ev.State {
	case protocol.EngineBuildFailed, protocol.EngineRunFailed:
		fmt.Fprintf(w, "%s %s: %s:\n%s", name, version, strings.ReplaceAll(ev.State, "_", " "), withNewline(ev.Log))
	default:
		fmt.Fprintf(w, "%s %s: %s\n", name, version, ev.State)
	}
}

// withNewline is s ending in a newline, or "" for "".
func withNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}
