package organizer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/arenaref/arena/store"
)

// SeveralGamesError is the error of RatedGames when the store holds tournaments of more
// than one game and none was chosen: the caller says how to choose.
type SeveralGamesError struct {
	Games []string // the games, sorted
}

func (e *SeveralGamesError) Error() string {
	return "the database holds games of " + strings.Join(e.Games, ", ")
}

// FindTournament reads tournament id from st, which the user knows as where (a file name).
// One that is not there is "no tournament 42 in arena.db", with the ids the store has.
func FindTournament(ctx context.Context, st store.Store, id int64, where string) (store.Tournament, error) {
	t, err := st.Tournament(ctx, id)
	if !errors.Is(err, store.ErrNotFound) {
		return t, err
	}
	ts, lerr := st.Tournaments(ctx, "")
	if lerr != nil {
		return t, fmt.Errorf("no tournament %d in %s", id, where)
	}
	ids := make([]int64, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	slices.Sort(ids)
	switch {
	case len(ids) == 0:
		return t, fmt.Errorf("no tournament %d in %s, which has no tournaments", id, where)
	case len(ids) == 1:
		return t, fmt.Errorf("no tournament %d in %s (it holds tournament %d)", id, where, ids[0])
	case len(ids) > 10:
		return t, fmt.Errorf("no tournament %d in %s (it holds %d tournaments, %d to %d)", id, where, len(ids), ids[0], ids[len(ids)-1])
	}
	list := make([]string, len(ids))
	for i, n := range ids {
		list[i] = strconv.FormatInt(n, 10)
	}
	return t, fmt.Errorf("no tournament %d in %s (it holds tournaments %s)", id, where, strings.Join(list, ", "))
}

// AllGames returns the games of every tournament in st, in tournament order (newest
// first), or only of the tournaments of gameName (any case) when it is not "".
func AllGames(ctx context.Context, st store.Store, gameName string) ([]store.Game, error) {
	ts, err := st.Tournaments(ctx, "")
	if err != nil {
		return nil, err
	}
	var all []store.Game
	for _, t := range ts {
		if gameName != "" && !strings.EqualFold(t.Game, gameName) {
			continue
		}
		games, err := st.Games(ctx, t.ID)
		if err != nil {
			return nil, err
		}
		all = append(all, games...)
	}
	return all, nil
}

// RatedGames returns the games to rate together: those of every tournament of gameName,
// or of every tournament when gameName is "" and all are of one game (a
// *SeveralGamesError otherwise). label says what they are ("3 tournaments of othello").
func RatedGames(ctx context.Context, st store.Store, gameName string) (games []store.Game, label string, err error) {
	ts, err := st.Tournaments(ctx, "")
	if err != nil {
		return nil, "", err
	}
	kinds := map[string]bool{}
	n := 0
	for _, t := range ts {
		if gameName != "" && t.Game != gameName {
			continue
		}
		kinds[t.Game] = true
		n++
		tg, err := st.Games(ctx, t.ID)
		if err != nil {
			return nil, "", err
		}
		games = append(games, tg...)
	}
	if len(kinds) > 1 {
		var ks []string
		for k := range kinds {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return nil, "", &SeveralGamesError{Games: ks}
	}
	if len(kinds) == 0 {
		return nil, "", fmt.Errorf("no tournaments%s in the database", map[bool]string{true: " of " + gameName, false: ""}[gameName != ""])
	}
	var g string
	for k := range kinds {
		g = k
	}
	return games, fmt.Sprintf("%d tournaments of %s", n, g), nil
}
