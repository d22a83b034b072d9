package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/protocol"
)

const (
	// clientBuffer is how many events one browser may fall behind by before it is told
	// to resync.
	clientBuffer = 256
	// maxLiveGames bounds the games kept in memory; events of further games are still
	// streamed, but a page opened mid-game will not have their moves so far.
	maxLiveGames = 1000
	// maxLiveMoves bounds the moves kept of one game in memory.
	maxLiveMoves = 10000
	// endedKeep is how long an ended game stays in memory, for pages opened just as it
	// ends and before the store has it.
	endedKeep = time.Minute
	// keepAlive is how often an idle stream sends a comment, so proxies do not close it.
	keepAlive = 20 * time.Second
	// maxLiveDrawingBytes bounds the drawings kept of the games in memory, which are far
	// larger than their position texts (a 19x19 board's is some 5 kB a move): beyond it,
	// moves are kept without theirs, and a page opened then draws those positions from
	// their text. Events always carry their drawing.
	maxLiveDrawingBytes = 64 << 20
)

// liveID reads a tournament game's event id, "t<tournament>-<index>", the way the
// referee daemon names them. Other ids (a match outside any tournament) have no
// tournament.
var liveID = regexp.MustCompile(`^t([1-9][0-9]{0,17})-([1-9][0-9]{0,8})$`)

// liveGame is a game in progress as its events told it.
type liveGame struct {
	id       string
	tid      int64
	index    int
	game     string
	seats    []string // the game's, when this server knows it
	players  []string
	start    string
	drawing  json.RawMessage // the start position's
	moves    []moveJSON
	result   string
	reason   string
	detail   string
	returns  []float64
	ended    time.Time // zero while the game is on
	updated  time.Time
	overflow bool // more moves than maxLiveMoves: the list is incomplete
	drawn    int  // bytes of the drawings kept, counted in hub.drawn
}

func (g *liveGame) json() gameJSON {
	out := gameJSON{
		LiveID: g.id, Live: g.ended.IsZero(), TournamentID: g.tid, Index: g.index, Game: g.game, Seats: g.seats,
		Players: g.players, Result: g.result, Reason: g.reason, Detail: g.detail, Returns: g.returns,
		StartPosition: g.start, StartDrawing: g.drawing, Opening: []openingMove{}, Moves: append([]moveJSON{}, g.moves...),
	}
	if out.Result == "" {
		out.Result = "*"
	}
	if g.overflow {
		out.ReplayError = "too many moves to keep in memory: the list is incomplete"
	}
	if !g.ended.IsZero() {
		out.Ended = timeText(g.ended)
	}
	return out
}

// client is one browser's stream.
type client struct {
	game       string // follow this game only ("" for any)
	tournament int64  // follow this tournament's games only (0 for any)
	ch         chan []byte
	lost       chan struct{} // closed when an event was dropped: the stream must resync
	lostOnce   sync.Once
}

func (c *client) wants(id string, tid int64) bool {
	return (c.game == "" || c.game == id) && (c.tournament == 0 || c.tournament == tid)
}

// hub keeps the games in progress and fans their events out to the streams.
type hub struct {
	buffer  int
	mu      sync.Mutex
	games   map[string]*liveGame
	drawn   int // bytes of the drawings the games keep, at most maxLiveDrawingBytes
	clients map[*client]struct{}
	closed  chan struct{}
	once    sync.Once
}

func newHub(buffer int) *hub {
	return &hub{buffer: buffer, games: map[string]*liveGame{}, clients: map[*client]struct{}{}, closed: make(chan struct{})}
}

func (h *hub) close() { h.once.Do(func() { close(h.closed) }) }

// onEvent is the NATS handler. It never blocks on a browser.
func (s *Server) onEvent(msg *nats.Msg) {
	ev, err := protocol.DecodeGameEvent(msg.Data)
	if err != nil {
		s.cfg.Log.Debug().Err(err).Str("subject", msg.Subject).Msg("web: bad game event")
		return
	}
	if msg.Subject != protocol.EventSubject(ev.GameID) {
		s.cfg.Log.Debug().Str("subject", msg.Subject).Str("game_id", ev.GameID).Msg("web: event on another game's subject")
		return
	}
	var drawing json.RawMessage
	var seats []string
	if ev.Type == protocol.TypeEventStart || ev.Type == protocol.TypeEventMove {
		drawing = drawText(ev.Game, ev.Position)
	}
	if ev.Type == protocol.TypeEventStart {
		if g, err := lookupGame(ev.Game); err == nil {
			seats = g.Seats()
		}
	}
	s.hub.publish(ev, seats, drawing, time.Now())
}

// eventJSON is what a stream sends for one game event: the event with the tournament
// and index read from its game id, a start's seat names and a start's or a move's
// drawing of its position, when this server knows the game.
type eventJSON struct {
	protocol.GameEvent
	TournamentID int64           `json:"tournament_id,omitempty"`
	Index        int             `json:"index,omitempty"`
	Seats        []string        `json:"seats,omitempty"`
	Drawing      json.RawMessage `json:"drawing,omitempty"`
}

func parseLiveID(id string) (tid int64, index int) {
	m := liveID.FindStringSubmatch(id)
	if m == nil {
		return 0, 0
	}
	tid, _ = strconv.ParseInt(m[1], 10, 64)
	index, _ = strconv.Atoi(m[2])
	return tid, index
}

// publish records an event, with the game's seats (a start's) and the drawing of its
// position (nil for none), in the game it belongs to and queues it for every stream that
// follows the game, dropping it for a stream whose buffer is full.
func (h *hub) publish(ev protocol.GameEvent, seats []string, drawing json.RawMessage, now time.Time) {
	tid, index := parseLiveID(ev.GameID)
	data, _ := json.Marshal(eventJSON{GameEvent: ev, TournamentID: tid, Index: index, Seats: seats, Drawing: drawing})
	frame := []byte(fmt.Sprintf("event: %s\ndata: %s\n\n", ev.Type, data))
	h.mu.Lock()
	defer h.mu.Unlock()
	h.apply(ev, seats, drawing, tid, index, now)
	for c := range h.clients {
		if !c.wants(ev.GameID, tid) {
			continue
		}
		select {
		case c.ch <- frame:
		default:
			c.lostOnce.Do(func() { close(c.lost) })
		}
	}
}

// apply updates the games in progress with an event, its seats and its drawing. h.mu is
// held.
func (h *hub) apply(ev protocol.GameEvent, seats []string, drawing json.RawMessage, tid int64, index int, now time.Time) {
	for id, g := range h.games {
		if !g.ended.IsZero() && now.Sub(g.ended) > endedKeep {
			h.drawn -= g.drawn
			delete(h.games, id)
		}
	}
	g := h.games[ev.GameID]
	if ev.Type == protocol.TypeEventStart || g == nil {
		if g == nil && len(h.games) >= maxLiveGames {
			return
		}
		// A start event begins the game afresh (a void game is replayed from its start);
		// a move of a game never seen start (the view started mid-game) begins what is
		// known of it.
		if old := h.games[ev.GameID]; old != nil {
			h.drawn -= old.drawn
		}
		g = &liveGame{id: ev.GameID, tid: tid, index: index, game: ev.Game, seats: seats, players: ev.Players, moves: []moveJSON{}}
		if ev.Type == protocol.TypeEventStart {
			g.start, g.drawing = ev.Position, h.keep(g, drawing)
		}
		h.games[ev.GameID] = g
	}
	g.updated = now
	if len(ev.Players) > 0 {
		g.players = ev.Players
	}
	switch ev.Type {
	case protocol.TypeEventMove:
		if len(g.moves) >= maxLiveMoves {
			g.overflow = true
			return
		}
		g.moves = append(g.moves, moveJSON{Ply: ev.Ply, Seat: ev.Seat, Move: ev.Move, Position: ev.Position, Drawing: h.keep(g, drawing)})
	case protocol.TypeEventEnd:
		g.result, g.reason, g.detail, g.returns, g.ended = ev.Result, ev.Reason, ev.Detail, ev.Returns, now
	}
}

// keep returns drawing if the games' drawings may grow by it, counting it for g, or nil.
// h.mu is held.
func (h *hub) keep(g *liveGame, drawing json.RawMessage) json.RawMessage {
	if drawing == nil || h.drawn+len(drawing) > maxLiveDrawingBytes {
		return nil
	}
	h.drawn += len(drawing)
	g.drawn += len(drawing)
	return drawing
}

// subscribe adds a stream and returns it with the snapshot of the games it follows,
// taken under the same lock, so that no event falls between the snapshot and the stream.
func (h *hub) subscribe(c *client) []gameJSON {
	c.ch = make(chan []byte, h.buffer)
	c.lost = make(chan struct{})
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clients[c] = struct{}{}
	snap := []gameJSON{}
	for _, g := range h.games {
		if c.wants(g.id, g.tid) {
			snap = append(snap, g.json())
		}
	}
	return snap
}

func (h *hub) unsubscribe(c *client) {
	h.mu.Lock()
	delete(h.clients, c)
	h.mu.Unlock()
}

// game returns a game in progress (or just ended) by its event id.
func (h *hub) game(id string) (gameJSON, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g, ok := h.games[id]
	if !ok {
		return gameJSON{}, false
	}
	return g.json(), true
}

func (s *Server) handleLiveGame(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if protocol.CheckName("game", id) != nil {
		writeError(w, http.StatusBadRequest, "id: not a valid game id")
		return
	}
	g, ok := s.hub.game(id)
	if !ok {
		writeError(w, http.StatusNotFound, "no such game in progress")
		return
	}
	writeJSON(w, http.StatusOK, g)
}

// snapshotJSON is the first event of every stream: the games it follows, so far.
type snapshotJSON struct {
	Live  bool       `json:"live"` // false when the server follows no events
	Games []gameJSON `json:"games"`
}

// handleLive streams game events as Server-Sent Events.
func (s *Server) handleLive(w http.ResponseWriter, r *http.Request) {
	c := &client{}
	q := r.URL.Query()
	if v := q.Get("game"); v != "" {
		if protocol.CheckName("game", v) != nil {
			writeError(w, http.StatusBadRequest, "game: not a valid game id")
			return
		}
		c.game = v
	}
	if v := q.Get("tournament"); v != "" {
		tid, err := strconv.ParseInt(v, 10, 64)
		if err != nil || tid < 1 {
			writeError(w, http.StatusBadRequest, "tournament: want a positive integer")
			return
		}
		c.tournament = tid
	}
	rc := http.NewResponseController(w)
	// The stream lives as long as the browser keeps it open.
	_ = rc.SetWriteDeadline(time.Time{})
	snap := s.hub.subscribe(c)
	defer s.hub.unsubscribe(c)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	data, _ := json.Marshal(snapshotJSON{Live: s.sub != nil, Games: snap})
	if _, err := fmt.Fprintf(w, "retry: 2000\nevent: snapshot\ndata: %s\n\n", data); err != nil {
		return
	}
	if rc.Flush() != nil {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.hub.closed:
			return
		case <-c.lost:
			// Events were dropped: say so and end the stream; the browser reconnects and
			// gets a fresh snapshot.
			fmt.Fprint(w, "event: resync\ndata: {}\n\n")
			rc.Flush()
			return
		case frame := <-c.ch:
			if _, err := w.Write(frame); err != nil {
				return
			}
			// Send what else is queued in the same flush.
			for n := len(c.ch); n > 0; n-- {
				if _, err := w.Write(<-c.ch); err != nil {
					return
				}
			}
			if rc.Flush() != nil {
				return
			}
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			if rc.Flush() != nil {
				return
			}
		}
	}
}
