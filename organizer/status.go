package organizer

import (
	"time"

	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// TournamentStatus is a stored tournament as the referee's API reports it, without its
// standings (Standings adds those).
func TournamentStatus(t store.Tournament) protocol.TournamentStatus {
	ts := protocol.TournamentStatus{ID: t.ID, Game: t.Game, Format: t.Format, Status: t.Status, Played: t.Played, Total: t.Total, Created: t.Created.UTC().Format(time.RFC3339)}
	if s, err := StoredSpec(t); err == nil {
		ts.Name = s.Name
	}
	return ts
}
