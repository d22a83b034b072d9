package report

import (
	"fmt"
	"io"
	"time"

	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/ratings"
)

// Match is a finished match between A and B (arena match): its score from A's side, the
// time it took, and its sequential test with the test's decision (Test nil: none).
type Match struct {
	A, B     string
	Score    organizer.MatchScore
	Elapsed  time.Duration
	Test     *ratings.SPRT
	Decision ratings.Decision
}

// WriteMatch prints a match's result: the score, the Elo difference with its 95% error
// bar and A's likelihood of superiority, and, with a test, its verdict.
func WriteMatch(w io.Writer, m Match) error {
	wins, draws, losses := m.Score.Wins, m.Score.Draws, m.Score.Losses
	n := m.Score.Games()
	score := (float64(wins) + float64(draws)/2) / float64(max(n, 1))
	line := fmt.Sprintf("%s v %s: %d games in %s, +%d =%d -%d, score %.1f%%", m.A, m.B, n,
		humantime.Round(m.Elapsed), wins, draws, losses, 100*score)
	if fit, err := ratings.MaximumLikelihood(2, organizer.MatchGames(wins, draws, losses), ratings.FitOptions{Anchor: 1}); err == nil {
		line += fmt.Sprintf(", Elo difference %+.1f ± %.1f, LOS %.1f%%", fit.Ratings[0]-fit.Ratings[1], organizer.ErrorBar*fit.Errors[0], 100*fit.LOS(0, 1))
	}
	if _, err := fmt.Fprintln(w, line); err != nil || m.Test == nil {
		return err
	}
	lo, hi := m.Test.Bounds()
	llr := m.Test.LLR(wins, draws, losses)
	var err error
	switch m.Decision {
	case ratings.AcceptH1:
		_, err = fmt.Fprintf(w, "SPRT: H1 accepted (LLR %.2f ≥ %.2f): %s is stronger than %s by at least about %g Elo\n", llr, hi, m.A, m.B, m.Test.Elo1)
	case ratings.AcceptH0:
		_, err = fmt.Fprintf(w, "SPRT: H0 accepted (LLR %.2f ≤ %.2f): %s is not stronger than %s by %g Elo\n", llr, lo, m.A, m.B, m.Test.Elo1)
	default:
		_, err = fmt.Fprintf(w, "SPRT: no decision after %d games (LLR %.2f within [%.2f, %.2f])\n", n, llr, lo, hi)
	}
	return err
}
