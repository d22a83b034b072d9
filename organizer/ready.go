package organizer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/arenaref/arena/internal/humantime"
	"github.com/arenaref/arena/referee"
)

// StartWait is how long Ready waits for external players when the tournament's wait is
// zero (its games forfeit an absent player at once): a player that was started with the
// tournament still needs a moment to say hello.
const StartWait = 10 * time.Second

// Ready makes the players of s ready before a tournament of s is created or resumed by the
// command that plays it (arena tournament, arena match): it starts the built-in agents
// among them, engines included (their programs started and past their handshakes), and
// waits once for the others, players that connect over the bus, up to s.Wait (StartWait
// when that is zero), logging a warning that names those it waits for. A player that
// cannot start, or does not connect in that time, is an error that names it, returned
// before anything is stored, so that a tournament never records a string of forfeits to
// a player that was never started. release lets the built-in players go; Run holds those
// it needs itself. A ladder's entrants come and go: it waits for none of them.
func (d *Director) Ready(ctx context.Context, s Spec) (release func(), err error) {
	names := s.Players
	r, ownRunner := runners[s.Format]
	if ownRunner {
		names = r.players(s)
	}
	if release, err = d.startBuiltins(ctx, s, names); err != nil {
		return nil, err
	}
	if ownRunner {
		return release, nil
	}
	var external []string
	for _, n := range names {
		if _, builtin := s.Builtin(n); !builtin {
			external = append(external, n)
		}
	}
	absent := d.absent(external)
	if len(absent) == 0 {
		return release, nil
	}
	wait := s.Wait.Duration
	if wait <= 0 {
		wait = StartWait
	}
	d.log.Warn().Strs("players", absent).Dur("wait", wait).
		Msgf("waiting up to %s for %s to connect", humantime.Round(wait), strings.Join(absent, ", "))
	if err := d.ref.WaitFor(ctx, absent, wait); err != nil {
		release()
		if !errors.Is(err, referee.ErrPlayersMissing) {
			return nil, err
		}
		still := absent
		if now := d.absent(absent); len(now) > 0 {
			still = now
		}
		return nil, fmt.Errorf("%w: %s did not connect within %s; nothing was played or recorded (start each with arena player, arena engine or a client of its own, or name an engine with NAME=engine:cmd=COMMAND)",
			referee.ErrPlayersMissing, strings.Join(still, ", "), humantime.Round(wait))
	}
	return release, nil
}

// absent lists those of names that are not connected to the referee now.
func (d *Director) absent(names []string) []string {
	var out []string
	for _, n := range names {
		if !d.ref.Connected(n) {
			out = append(out, n)
		}
	}
	return out
}
