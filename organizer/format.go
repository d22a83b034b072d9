package organizer

import (
	"context"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// runner plays a format whose games depend on more than its schedule and its results:
// the ladder's entrants come and go, and it pairs those present. A format without a runner
// (round robin, gauntlet, and any format that pairs from results alone, see
// tournament.Format) is played by Director.Run from its schedule and Format.Next, and
// ranked by Standings; it needs nothing here.
type runner interface {
	// prepare settles s before it is checked and stored (a ladder's relative deadline
	// becomes a time).
	prepare(s Spec) Spec
	// compile finishes Spec.Compile once the format has checked its own settings.
	compile(s Spec, g game.Game, openingsText string, h Host) (Plan, error)
	// players are the players Create registers: the file's and those the format brings.
	players(s Spec) []string
	// created stores the format's own state beside the new tournament id.
	created(ctx context.Context, db store.Store, id int64, p Plan) error
	// run plays tournament t, as Director.Run.
	run(ctx context.Context, d *Director, t store.Tournament, s Spec, drain <-chan struct{}, progress ProgressFunc) error
	// standings are the event's standings for the referee's status API.
	standings(ctx context.Context, st store.Store, id int64) ([]protocol.StandingsRow, error)
}

// runners holds the runner of each format that has one, by format name.
var runners = map[string]runner{}

// EventStandings is the standings of tournament id as its format ranks them: a ladder's
// leaderboard, or Standings.
func EventStandings(ctx context.Context, st store.Store, t store.Tournament) ([]protocol.StandingsRow, error) {
	if r, ok := runners[t.Format]; ok {
		return r.standings(ctx, st, t.ID)
	}
	return Standings(ctx, st, t.ID)
}
