package player

import (
	"sync"

	"github.com/arenaref/arena/protocol"
)

// maxPlaying bounds the games a player keeps as being played: a game whose end notice
// never comes (a referee that stopped and aborted it) is dropped beyond it, oldest first.
const maxPlaying = 4096

// playing is the set of games a player is in, from the game notices and turn requests it
// receives, so that a clean stop knows when they have all ended.
type playing struct {
	mu    sync.Mutex
	games map[string]bool
	order []string      // game ids in the order they were added
	empty chan struct{} // closed when games becomes empty; nil while nobody waits
}

// notice notes a game's start or end.
func (p *playing) notice(n protocol.GameNotice) {
	if n.Type == protocol.TypeGameEnd {
		p.end(n.GameID)
		return
	}
	p.turn(n.GameID)
}

// turn notes a game the player has a turn in: it is being played.
func (p *playing) turn(gameID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.games == nil {
		p.games = map[string]bool{}
	}
	if p.games[gameID] {
		return
	}
	p.games[gameID] = true
	p.order = append(p.order, gameID)
	for len(p.games) > maxPlaying {
		delete(p.games, p.order[0])
		p.order = p.order[1:]
	}
	if len(p.order) > 2*maxPlaying {
		p.compact()
	}
}

// end notes that a game has ended.
func (p *playing) end(gameID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.games, gameID)
	if len(p.games) == 0 {
		p.order = p.order[:0]
		if p.empty != nil {
			close(p.empty)
			p.empty = nil
		}
	}
}

// compact drops the ended games from order. The lock must be held.
func (p *playing) compact() {
	kept := p.order[:0]
	for _, id := range p.order {
		if p.games[id] {
			kept = append(kept, id)
		}
	}
	p.order = kept
}

// idle returns how many games are being played, and a channel closed once there are none.
func (p *playing) idle() (int, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.games) == 0 {
		c := make(chan struct{})
		close(c)
		return 0, c
	}
	if p.empty == nil {
		p.empty = make(chan struct{})
	}
	return len(p.games), p.empty
}
