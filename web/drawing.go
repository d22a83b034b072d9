package web

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/arenaref/arena/game"
)

// The pages draw a position from its drawing (game.Drawing) when the game gives one, and
// the server makes it: the pages never need a game's rules. A drawing is made where a
// position is sent, once: for a recorded game from the states its replay plays anyway,
// for a live game once per event (not per page that follows it). A position without a
// drawing (a game that does not draw, a position that does not parse, a script's draw
// that fails) is sent without one, silently: the page shows it as before, and nothing is
// logged per request or per event.

// maxCachedGames bounds the games the server keeps looked up, by spec.
const maxCachedGames = 256

// lookedUp is a game spec looked up once: game.Lookup of a script game runs its start,
// which a page or an event must not pay for every time.
type lookedUp struct {
	g   game.Game
	err error
}

var (
	gamesMu sync.Mutex
	games   = map[string]lookedUp{}
)

// lookupGame is game.Lookup, remembered. Every Game in Arena is an immutable description
// (its states are what changes), so one value serves every request. A spec naming a file
// (a path, or a name with a dot or a slash) is not looked up: the names the store and the
// events carry are registered names, and an event must not make the server read a file.
func lookupGame(spec string) (game.Game, error) {
	gamesMu.Lock()
	l, ok := games[spec]
	gamesMu.Unlock()
	if ok {
		return l.g, l.err
	}
	if name, _, err := game.ParseSpec(spec); err != nil {
		l.err = err
	} else if strings.ContainsAny(name, "./\\") {
		l.err = fmt.Errorf("%w %.60q: not a game's name", game.ErrUnknownGame, name)
	} else {
		l.g, l.err = game.Lookup(spec)
	}
	gamesMu.Lock()
	if len(games) >= maxCachedGames {
		clear(games)
	}
	games[spec] = l
	gamesMu.Unlock()
	return l.g, l.err
}

// drawingOf is the drawing of st as JSON, or nil when it has none.
func drawingOf(st game.State) json.RawMessage {
	if _, ok := st.(game.Drawer); !ok {
		return nil
	}
	d, err := game.Draw(st)
	if err != nil {
		return nil
	}
	return d.AppendJSON(make([]byte, 0, 64+24*len(d.Pieces)))
}

// drawText is the drawing of the position text pos of the game spec, or nil.
func drawText(spec, pos string) json.RawMessage {
	if pos == "" {
		return nil
	}
	g, err := lookupGame(spec)
	if err != nil {
		return nil
	}
	st, err := g.ParseState(pos)
	if err != nil {
		return nil
	}
	return drawingOf(st)
}
