package captureset

import (
	"fmt"
	"slices"
	"strings"
)

// Header is the comment block of a generated file: what the problems are, the command
// that makes the file again (out being the file's name in it), the format, and the
// counts. It holds nothing that changes from run to run (no times), so that the same
// command makes the same file.
func Header(cfg Config, s Stats, out string) []string {
	cfg, _ = cfg.withDefaults()
	h := []string{
		fmt.Sprintf("Capture problems from GNU Go %s playing itself at level %d, labelled by GNU Go's", s.GNUGo, cfg.Level),
		fmt.Sprintf("tactical reading (GTP attack and defend) at level %d; docs/capture-problems.md.", cfg.ReadLevel),
		"Made by: " + cfg.Command(out),
		"Fields, tab-separated: id, position, gnugo_move, kind, source.",
		"position: <row N>/.../<row 1> <b|w> [ko=<point>] target=<point>; X black, O white, . empty;",
		"points in GTP notation (A1 bottom left, no column I). The side to move succeeds: it",
		"captures the target string (attack) or saves it (defend) with gnugo_move, GNU Go's move.",
	}
	return append(h, strings.Split(counts(s), "\n")...)
}

// counts describes a generation's numbers in a few lines.
func counts(s Stats) string {
	var b strings.Builder
	sizes := make([]int, 0, len(s.Games))
	for n := range s.Games {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	fmt.Fprintf(&b, "%d problems:", s.Total())
	for i, n := range sizes {
		if i > 0 {
			b.WriteByte(';')
		}
		p := s.Problems[n]
		fmt.Fprintf(&b, " %dx%d %d attack + %d defend from %d games (%d plies)", n, n, p[Attack], p[Defend], s.Games[n], s.Plies[n])
	}
	b.WriteString(".\n")
	fmt.Fprintf(&b, "%d positions sampled; %d distinct strings of 2-3 liberties read (%d more left out as duplicates):\n", s.Samples, s.Targets, s.Duplicate)
	fmt.Fprintf(&b, "%d safe, %d dead (attack only); dropped: %d ko results, %d odd ko points, %d moves that did not verify.", s.Safe, s.Dead, s.Ko, s.OddKo, s.Unconfirmed)
	return b.String()
}

// Summary is a generation's counts on one line.
func Summary(s Stats) string {
	return strings.ReplaceAll(counts(s), "\n", " ")
}
