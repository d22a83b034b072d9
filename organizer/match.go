package organizer

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
)

// MatchScore is a two-player match's score from its first player's side.
type MatchScore struct {
	Wins, Draws, Losses int
}

// Games is how many games the score counts.
func (m MatchScore) Games() int { return m.Wins + m.Draws + m.Losses }

// Add counts one game of the match: its players by seat and its result as the store
// writes them (store.ResultFirstWins, ResultSecondWins, ResultDraw), first being the
// match's first player, whichever seat it had. A game that is not an ended two-player game
// is not counted; Add reports whether it counted the game.
func (m *MatchScore) Add(first string, players []string, result string) bool {
	if len(players) != 2 || result == "" {
		return false
	}
	switch {
	case result == store.ResultDraw:
		m.Draws++
	case (result == store.ResultFirstWins) == (players[0] == first):
		m.Wins++
	default:
		m.Losses++
	}
	return true
}

// MatchProgressFunc hears about each recorded game of a match, as ProgressFunc does, with
// the match's score after it and the SPRT's decision: ratings.Continue until the test
// decides, and always for a match without a test.
type MatchProgressFunc func(done, total int, res referee.Result, score MatchScore, decision ratings.Decision)

// Play plays tournament id as it was created: a match with an SPRT by RunMatch, which
// stops when the test decides, any other tournament by Run.
func (d *Director) Play(ctx context.Context, id int64, drain <-chan struct{}, progress ProgressFunc) error {
	t, err := d.db.Tournament(ctx, id)
	if err != nil {
		return err
	}
	if s, err := StoredSpec(t); err != nil || s.SPRT == nil {
		return d.Run(ctx, id, drain, progress)
	}
	_, _, err = d.RunMatch(ctx, id, drain, func(done, total int, res referee.Result, _ MatchScore, _ ratings.Decision) {
		if progress != nil {
			progress(done, total, res)
		}
	})
	return err
}

// RunMatch plays match id, a tournament of two players stored with its SPRT if it has one
// (Spec.SPRT), as Run does, and keeps its score from the first player's side. Once the
// test decides no new game starts; the games running then finish and are counted (they
// do not change the decision), and RunMatch returns nil, so that the match is finished
// (StoppedStatus). drain, when closed, stops the match as it stops Run. progress may be
// nil.
func (d *Director) RunMatch(ctx context.Context, id int64, drain <-chan struct{}, progress MatchProgressFunc) (MatchScore, ratings.Decision, error) {
	decision := ratings.Continue
	t, err := d.db.Tournament(ctx, id)
	if err != nil {
		return MatchScore{}, decision, err
	}
	s, err := StoredSpec(t)
	if err != nil {
		return MatchScore{}, decision, err
	}
	if len(s.Players) != 2 {
		return MatchScore{}, decision, fmt.Errorf("tournament %d is not a match: %d players", id, len(s.Players))
	}
	// stop is Run's drain: closed by the caller's drain or by the test's decision.
	stop := make(chan struct{})
	var once sync.Once
	closeStop := func() { once.Do(func() { close(stop) }) }
	ran := make(chan struct{})
	defer close(ran)
	if drain != nil {
		go func() {
			select {
			case <-drain:
				closeStop()
			case <-ran:
			}
		}()
	}
	var score MatchScore
	err = d.Run(ctx, id, stop, func(done, total int, res referee.Result) {
		score.Add(s.Players[0], res.Players, res.Result)
		if s.SPRT != nil && decision == ratings.Continue {
			if decision = s.SPRT.Decide(score.Wins, score.Draws, score.Losses); decision != ratings.Continue {
				closeStop()
			}
		}
		if progress != nil {
			progress(done, total, res, score, decision)
		}
	})
	if errors.Is(err, referee.ErrDrained) && decision != ratings.Continue {
		err = nil
	}
	return score, decision, err
}

// MatchGames turns a match score into games for the rating fit: player 0 against 1.
func MatchGames(w, d, l int) []ratings.Game {
	var gs []ratings.Game
	for range w {
		gs = append(gs, ratings.Game{First: 0, Second: 1, Score: 1})
	}
	for range d {
		gs = append(gs, ratings.Game{First: 0, Second: 1, Score: 0.5})
	}
	for range l {
		gs = append(gs, ratings.Game{First: 0, Second: 1, Score: 0})
	}
	return gs
}

// ParseSPRT reads the settings of a sequential probability ratio test: elo0=E0,elo1=E1[,alpha=A,beta=B,model=M].
func ParseSPRT(text string) (ratings.SPRT, error) {
	t := ratings.SPRT{Alpha: 0.05, Beta: 0.05, Model: ratings.ModelLogistic}
	seen := map[string]bool{}
	for _, kv := range strings.Split(text, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return t, fmt.Errorf("%q is not key=value", kv)
		}
		seen[k] = true
		if k == "model" {
			t.Model = v
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return t, fmt.Errorf("%s=%q is not a number", k, v)
		}
		switch k {
		case "elo0":
			t.Elo0 = x
		case "elo1":
			t.Elo1 = x
		case "alpha":
			t.Alpha = x
		case "beta":
			t.Beta = x
		default:
			return t, fmt.Errorf("unknown key %q (elo0, elo1, alpha, beta, model)", k)
		}
	}
	if !seen["elo0"] || !seen["elo1"] {
		return t, errors.New("elo0 and elo1 are required")
	}
	return t, t.Check()
}

// MatchRounds returns the rounds of a match of at most games games, each round a pair of
// games with colours swapped, so that neither player gets the first move more often (a
// lone last game would tilt the score towards the first mover): an odd number of games is
// rounded up. With openings (a count above 0) each round plays the next opening, and the
// match ends when they run out; cut says they end it before the games asked.
func MatchRounds(games, openings int) (rounds int, cut bool) {
	rounds = (games + 1) / 2
	if openings > 0 && openings < rounds {
		return openings, true
	}
	return rounds, false
}
