package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// WriteStandingsTable prints a finished tournament's heading line and its standings
// (WriteStandings).
func WriteStandingsTable(w io.Writer, t store.Tournament, elapsed time.Duration, rows []protocol.StandingsRow) error {
	fmt.Fprintf(w, "Tournament %d: %s %s, %d games, seed %d, %s\n\n", t.ID, t.Game, t.Format, t.Played, t.Seed, humantime.Round(elapsed))
	return WriteStandings(w, rows)
}

// WriteStandings prints the standings table and, below it, how each player's games ended.
func WriteStandings(w io.Writer, rows []protocol.StandingsRow) error {
	payoffs := slices.ContainsFunc(rows, func(r protocol.StandingsRow) bool { return r.Payoff != 0 || r.MeanPayoff != 0 })
	rated := slices.ContainsFunc(rows, func(r protocol.StandingsRow) bool { return r.Rating != 0 })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	ladder := slices.ContainsFunc(rows, func(r protocol.StandingsRow) bool { return r.Status != "" })
	header := "Rank\tPlayer\t"
	if ladder {
		header += "Version\t"
	}
	header += "Games\tWins\tDraws\tLosses\tScore%\t"
	if rated {
		header += "Rating\t±\t"
	}
	if !ladder { // a ladder keeps no running Elo of its own
		header += "Elo\t"
	}
	if payoffs {
		header += "Payoff\tMean\t"
	}
	if ladder {
		header += "Status\t"
	}
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t", rankCell(r.Rank), r.Player)
		if ladder {
			fmt.Fprintf(tw, "%s\t", r.Version)
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%.1f\t", r.Games, r.Wins, r.Draws, r.Losses, r.Pct)
		switch {
		case rated && r.Rating == 0:
			fmt.Fprint(tw, "-\t-\t") // no rated game: a player that never came
		case rated:
			fmt.Fprintf(tw, "%.0f\t%s\t", r.Rating, plusMinus(r.RatingError))
		}
		if !ladder {
			fmt.Fprintf(tw, "%.0f\t", r.Elo)
		}
		if payoffs {
			fmt.Fprintf(tw, "%g\t%.2f\t", r.Payoff, r.MeanPayoff)
		}
		if ladder {
			fmt.Fprintf(tw, "%s\t", r.Status)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	switch {
	case rated && ladder:
		fmt.Fprintln(w, "\nRating: the ladder's maximum-likelihood rating over its rated games, with its 95% interval\n"+
			"(±); the ranking follows it. Rank -: not ranked (validating, failed, disabled, or no rated game).")
	case rated:
		fmt.Fprintln(w, "\nRating: this tournament's maximum-likelihood rating, with its 95% interval (±); the ranking\n"+
			"follows it. Elo: the running Elo, carried in the database from one tournament to the next.")
	}
	return WriteTerminations(w, rows)
}

// rankCell is a rank as the standings print it: - for an unranked entry of a ladder.
func rankCell(rank int) string {
	if rank == 0 {
		return "-"
	}
	return strconv.Itoa(rank)
}

// WriteTournaments prints tournaments as arena status lists them, one a line.
func WriteTournaments(w io.Writer, ts []protocol.TournamentStatus) error {
	rows := make([]string, len(ts))
	for i, t := range ts {
		rows[i] = fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\t%s", t.ID, t.Name, t.Game, t.Format, t.Status, GamesCell(t.Played, t.Total), t.Created)
	}
	if err := writeTable(w, "no tournaments", "ID\tNAME\tGAME\tFORMAT\tSTATUS\tGAMES\tCREATED", rows); err != nil {
		return err
	}
	for _, t := range ts {
		if t.Problem != "" {
			if _, err := fmt.Fprintf(w, "tournament %d makes no progress: %s\n", t.ID, t.Problem); err != nil {
				return err
			}
		}
	}
	return nil
}

// WritePlayers prints the players a referee has heard from, as arena players lists them.
func WritePlayers(w io.Writer, players []protocol.PlayerStatus) error {
	rows := make([]string, len(players))
	for i, p := range players {
		games := "any"
		if len(p.Games) > 0 {
			games = fmt.Sprint(p.Games)
		}
		rows[i] = fmt.Sprintf("%s\t%s\t%s\t%s\t%v\t%s", p.Name, p.Agent, p.Version, games, p.Connected, p.LastSeen)
	}
	return writeTable(w, "no players have said hello", "NAME\tAGENT\tVERSION\tGAMES\tCONNECTED\tLAST SEEN", rows)
}

// writeTable prints a table of tab-separated rows under header, or empty when there are
// no rows.
func writeTable(w io.Writer, empty, header string, rows []string) error {
	if len(rows) == 0 {
		_, err := fmt.Fprintln(w, empty)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		fmt.Fprintln(tw, r)
	}
	return tw.Flush()
}

// GamesCell is a tournament's games as a list of tournaments prints them: played of
// total, or played alone for a tournament whose games are not known in advance (a
// ladder pairs them while it runs).
func GamesCell(played, total int) string {
	if total == 0 {
		return strconv.Itoa(played)
	}
	return fmt.Sprintf("%d/%d", played, total)
}

// WriteTerminations prints how each player's games ended: a column per reason seen, where
// a fault (a forfeit or a resignation) counts against the player at fault only, and a last
// column with the games each player won by its opponents' faults.
func WriteTerminations(w io.Writer, rows []protocol.StandingsRow) error {
	reasons := map[string]bool{}
	won := false
	for _, r := range rows {
		for reason := range r.Ends {
			reasons[reason] = true
		}
		won = won || len(r.WonBy) > 0
	}
	if len(reasons) == 0 {
		return nil
	}
	var cols []string
	for r := range reasons {
		cols = append(cols, r)
	}
	// normal first, then the other endings without a fault, then the faults
	order := func(reason string) int {
		switch {
		case reason == protocol.ReasonNormal:
			return 0
		case !protocol.IsFault(reason):
			return 1
		}
		return 2
	}
	sort.Slice(cols, func(i, j int) bool {
		if oi, oj := order(cols[i]), order(cols[j]); oi != oj {
			return oi < oj
		}
		return cols[i] < cols[j]
	})
	fmt.Fprintln(w, "\nGames by how they ended (a forfeit or resignation counts against the player at fault)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "Player\t%s\t", strings.Join(cols, "\t"))
	if won {
		fmt.Fprint(tw, "won by opponent's fault\t")
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s", r.Player)
		for _, c := range cols {
			fmt.Fprintf(tw, "\t%d", r.Ends[c])
		}
		fmt.Fprint(tw, "\t")
		if won {
			n := 0
			for _, k := range r.WonBy {
				n += k
			}
			fmt.Fprintf(tw, "%d\t", n)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// StandingsDoc is the JSON document of a finished tournament's standings, as
// `arena tournament --json` and `arena match --json` print it.
type StandingsDoc struct {
	Tournament int64                   `json:"tournament"`
	Game       string                  `json:"game"`
	Format     string                  `json:"format"`
	Seed       int64                   `json:"seed"`
	Games      int                     `json:"games"`
	ElapsedMS  int64                   `json:"elapsed_ms"`
	Standings  []protocol.StandingsRow `json:"standings"`
}

// WriteStandingsJSON prints the standings as a StandingsDoc.
func WriteStandingsJSON(w io.Writer, t store.Tournament, elapsed time.Duration, rows []protocol.StandingsRow) error {
	return cli.WriteJSON(w, StandingsDoc{Tournament: t.ID, Game: t.Game, Format: t.Format, Seed: t.Seed, Games: t.Played, ElapsedMS: elapsed.Milliseconds(), Standings: rows})
}

// WriteRatingTable prints the ratings, the LOS matrix and the crosstable.
func WriteRatingTable(w io.Writer, t organizer.RatingTable) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Rank\tPlayer\tRating\t±\tGames\tWins\tDraws\tLosses\tScore%\tDraw%\t")
	for _, r := range t.Rows {
		fmt.Fprintf(tw, "%d\t%s\t%.0f\t%s\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t\n", r.Rank, r.Player, r.Rating, plusMinus(r.Error), r.Games, r.Wins, r.Draws, r.Losses, r.Pct, r.DrawPct)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	names := make([]string, len(t.Rows))
	short := make([]string, len(t.Rows))
	for i, r := range t.Rows {
		names[i], short[i] = r.Player, abbreviate(r.Player)
	}
	fmt.Fprintln(w, "\nLikelihood of superiority (row stronger than column), %")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\t"+strings.Join(short, "\t")+"\t")
	for _, a := range names {
		fmt.Fprint(tw, a+"\t")
		for _, b := range names {
			if a == b {
				fmt.Fprint(tw, "-\t")
			} else {
				fmt.Fprintf(tw, "%.1f\t", 100*t.LOS[a][b])
			}
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nCrosstable (row's points against column / games)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\t"+strings.Join(short, "\t")+"\t")
	for _, a := range names {
		fmt.Fprint(tw, a+"\t")
		for _, b := range names {
			c, ok := t.Cross[a][b]
			switch {
			case a == b:
				fmt.Fprint(tw, "-\t")
			case !ok:
				fmt.Fprint(tw, "\t")
			default:
				fmt.Fprintf(tw, "%g/%d\t", c.Points, c.Wins+c.Draws+c.Losses)
			}
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// plusMinus shows a rating's error, or "-" where it has none.
func plusMinus(e float64) string {
	if math.IsInf(e, 0) || math.IsNaN(e) {
		return "-"
	}
	return fmt.Sprintf("%.0f", e)
}

// abbreviate shortens a column heading.
func abbreviate(name string) string {
	if len(name) <= 8 {
		return name
	}
	return name[:7] + "."
}

// WriteGames prints recorded games, a line each, with how they ended; a reason other than
// "" keeps only the games that ended for it.
func WriteGames(w io.Writer, games []store.Game, reason string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTOURNAMENT\tROUND\tFIRST\tSECOND\tRESULT\tREASON\tPLIES\tDETAIL")
	for _, g := range games {
		if reason != "" && g.Reason != reason {
			continue
		}
		first, second := "", ""
		if len(g.Players) > 0 {
			first = g.Players[0]
		}
		if len(g.Players) > 1 {
			second = g.Players[1]
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\t%s\t%s\t%d\t%s\n", g.ID, g.TournamentID, g.Round, first, second, g.Result, g.Reason, len(g.Moves), g.Detail)
	}
	return tw.Flush()
}

// WriteOverload says, below the standings, that the tournament ran on an overloaded
// machine: how many time forfeits were not charged, their games voided and played again,
// and how late the referee itself ran. It writes nothing for a tournament on a machine
// that was not overloaded (organizer.Overload.Overloaded).
func WriteOverload(w io.Writer, o organizer.Overload) error {
	switch {
	case !o.Overloaded():
		return nil
	case o.Voided == 0:
		_, err := fmt.Fprintf(w, "\nThe machine was overloaded: the referee's process waited for a core up to %.0f%% of a game's time, and ran up to %v late (its margin is %v). No time forfeit had to be voided, but the players had less CPU than their time control gave them: the results are less reliable.\n",
			100*o.Waiting, humantime.Round(o.Lateness), humantime.Round(o.Margin))
		return err
	}
	forfeits := "time forfeits were"
	if o.Voided == 1 {
		forfeits = "time forfeit was"
	}
	_, err := fmt.Fprintf(w, "\n%d %s voided and the games played again: the machine was overloaded (referee lateness up to %v).\n",
		o.Voided, forfeits, humantime.Round(o.Lateness))
	return err
}
