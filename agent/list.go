package agent

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Info describes a registered agent as it registered: its name, its one-line doc and the
// games it plays.
type Info struct {
	Name  string
	Doc   string
	Games []string // game names, options stripped; nil means any game
}

// List describes every registered agent, in alphabetical order of name.
func List() []Info {
	names := Names()
	infos := make([]Info, len(names))
	for i, n := range names {
		infos[i] = Info{Name: n, Doc: Doc(n), Games: Games(n)}
	}
	return infos
}

// Describe writes infos as a table with a header, one agent a line: its name, its games
// ("any" for an agent that plays every game) and its doc. The agents' settings are in
// their docs: an agent reads them with Settings when it is built, and declares none.
func Describe(w io.Writer, infos []Info) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tGAMES\tDESCRIPTION")
	for _, in := range infos {
		games := "any"
		if in.Games != nil {
			games = strings.Join(in.Games, ",")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", in.Name, games, in.Doc)
	}
	return tw.Flush()
}
