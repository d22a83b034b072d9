package referee

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/arenaref/arena/protocol"
)

// ErrHandedBack is wrapped, with ErrVoided, by the error Play returns when a player
// stopped cleanly (Hello.Leaving) in the middle of the game: the game is nobody's
// forfeit, and is replayed from its start once its players are present.
var ErrHandedBack = errors.New("referee: game handed back by a player's clean stop")

// MaxHandBacks is how many times a Referee lets the players of one game hand it back;
// the next time, leaving in the middle of that game is a forfeit as it is without a clean
// stop, so that a player cannot escape a lost game by stopping again and again.
const MaxHandBacks = 3

// leaveSettle is how long a player's fault waits for a leaving hello that may still be on
// its way: a player sends it before it unsubscribes, but the lobby reads it on another
// goroutine than the turn that found nobody listening.
const leaveSettle = 250 * time.Millisecond

// maxHandBackGames bounds the games whose hand-backs a Referee counts.
const maxHandBackGames = 10_000

// handBacks counts the hand-backs of each game id.
type handBacks struct {
	mu    sync.Mutex
	games map[string]int
}

// take counts one more hand-back of game, and reports whether it is allowed.
func (h *handBacks) take(game string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.games == nil || len(h.games) >= maxHandBackGames {
		h.games = map[string]int{}
	}
	if h.games[game] >= MaxHandBacks {
		return false
	}
	h.games[game]++
	return true
}

type handBackError struct{ game, players string }

func (e handBackError) Error() string {
	return "referee: game " + e.game + " handed back: " + e.players + " stopped cleanly in the middle of it"
}

func (e handBackError) Unwrap() []error { return []error{ErrVoided, ErrHandedBack} }

// leavingAt is when the named player last said it is leaving, or zero.
func (r *Referee) leavingAt(name string) time.Time {
	r.lobby.mu.Lock()
	defer r.lobby.mu.Unlock()
	return r.lobby.players[name].Leaving
}

// leaving reports whether the named player is leaving, waiting up to leaveSettle (wall
// time) for a leaving hello still on its way.
func (r *Referee) leaving(name string) bool {
	deadline := time.After(leaveSettle)
	for {
		r.lobby.mu.Lock()
		left, changed := !r.lobby.players[name].Leaving.IsZero(), r.lobby.changed
		r.lobby.mu.Unlock()
		if left {
			return true
		}
		select {
		case <-changed:
		case <-deadline:
			return false
		}
	}
}

// handedBack reports whether every fault is a player that went away in the middle of the
// game after saying it was leaving, and the game may be handed back once more.
func (g *run) handedBack(faults []outcome) bool {
	for _, f := range faults {
		if f.reason != protocol.ReasonDisconnected || !g.r.leaving(g.m.Players[f.seat]) {
			return false
		}
	}
	return len(faults) > 0 && g.r.handBacks.take(g.m.GameID)
}

// voidHandedBack ends a game that players left by a clean stop.
func (g *run) voidHandedBack(faults []outcome) (Result, error) {
	if g.outage() {
		return g.void()
	}
	who := make([]string, len(faults))
	for i, f := range faults {
		who[i] = g.m.Players[f.seat]
	}
	players := strings.Join(who, " and ")
	detail := fmt.Sprintf("void: %s stopped cleanly in the middle of the game; it is replayed once its players are back", players)
	g.log.Info().Str("players", players).Msg("game handed back by a clean stop; it must be replayed")
	return g.voidWith(detail, handBackError{g.m.GameID, players})
}
