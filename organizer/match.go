package organizer

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/arenaref/arena/ratings"
)

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
