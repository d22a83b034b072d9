package ratings

// Ending is how one finished game ended, as Endings sees it: the players and their scores
// by seat, the reason code, and whether that reason is some player's fault (a forfeit or a
// resignation) rather than the rules or an adjudication.
type Ending struct {
	Players []string
	Scores  []float64
	Reason  string
	Fault   bool
}

// Ends is how one player's games ended. Ended counts its games by reason: every game that
// ended without a fault, and a game that ended by a fault only when the fault was its own.
// WonBy counts, by reason, the games it won because an opponent was at fault.
type Ends struct {
	Ended map[string]int
	WonBy map[string]int
}

// Endings tallies how each player's games ended, charging every fault to the player at
// fault rather than to everyone at the table. In a game that ended by a fault the seats
// that scored less than the best seat are at fault and the best seats won by it; when all
// seats scored alike (all of them faulted), all are at fault and nobody won. A game without
// scores is counted for every player, as a game without a fault is. Players without games
// are absent from the result.
func Endings(games []Ending) map[string]Ends {
	out := map[string]Ends{}
	add := func(player string, won bool, reason string) {
		e := out[player]
		m := &e.Ended
		if won {
			m = &e.WonBy
		}
		if *m == nil {
			*m = map[string]int{}
		}
		(*m)[reason]++
		out[player] = e
	}
	for _, g := range games {
		n := min(len(g.Players), len(g.Scores))
		if !g.Fault || n == 0 {
			for _, p := range g.Players {
				add(p, false, g.Reason)
			}
			continue
		}
		best := g.Scores[0]
		for _, s := range g.Scores[:n] {
			best = max(best, s)
		}
		allAlike := true
		for _, s := range g.Scores[:n] {
			allAlike = allAlike && s == best
		}
		for seat, p := range g.Players[:n] {
			add(p, !allAlike && g.Scores[seat] == best, g.Reason)
		}
	}
	return out
}
