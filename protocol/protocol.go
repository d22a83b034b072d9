package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"unicode/utf8"

	"github.com/arenaref/arena/internal/names"
	"github.com/arenaref/arena/internal/strictjson"
)

// Version is the protocol version every message carries in its "v" field.
const Version = 1

// MaxMessageSize is the largest message, in bytes, a decoder accepts. A turn request carries
// the whole move list, so it is generous; anything larger from a player is a protocol error.
const MaxMessageSize = 64 << 10

// Message types, the "type" field of each message.
const (
	TypeHello      = "hello"
	TypeWelcome    = "welcome"
	TypeRollCall   = "rollcall"
	TypeTurn       = "turn"
	TypeMove       = "move"
	TypeGameStart  = "game_start"
	TypeGameEnd    = "game_end"
	TypeEventStart = "start"
	TypeEventMove  = "move"
	TypeEventEnd   = "end"
)

// Reason codes: why a game ended. They appear in game notices, events and the store.
const (
	ReasonNormal       = "normal"         // the rules ended the game
	ReasonTimeForfeit  = "time_forfeit"   // a reply came after the deadline, or none came
	ReasonIllegalMove  = "illegal_move"   // a well-formed reply named a move that is not legal
	ReasonProtocol     = "protocol_error" // a reply that is not a valid TurnReply for this turn
	ReasonDisconnected = "disconnected"   // the player's connection went away mid-game
	ReasonResigned     = "resigned"       // the player replied "resign"
	ReasonCrashed      = "crashed"        // the player's engine died choosing its move (a resign with crashed set)
	ReasonNoResponders = "no_responders"  // nobody listens on the player's turn subject
	ReasonAbsent       = "absent"         // the player had not said hello when its game was due to start
	ReasonMaxPlies     = "max_plies"      // adjudicated as a draw after the ply limit
	ReasonAborted      = "aborted"        // the referee stopped (shutdown); the game counts for nobody
)

// IsFault reports whether a game that ended for reason ended by a player's fault (a
// forfeit or a resignation), rather than by the rules, an adjudication or the referee.
func IsFault(reason string) bool {
	switch reason {
	case ReasonNormal, ReasonMaxPlies, ReasonAborted:
		return false
	}
	return true
}

// Resign is the move text with which a player gives up the game.
const Resign = "resign"

// ErrMalformed is wrapped by every decoding and validation error.
var ErrMalformed = errors.New("protocol: malformed message")

var nameRE = regexp.MustCompile(names.Pattern)

// ValidName reports whether s can be a player name or game id: 1 to 64 ASCII letters,
// digits, '-' or '_'. Such a name is a single NATS subject token.
func ValidName(s string) bool { return names.Valid(s) }

// CheckName returns a descriptive error when s is not a ValidName.
func CheckName(what, s string) error {
	if !ValidName(s) {
		return fmt.Errorf("%w: %s %q must be 1-64 characters of A-Z a-z 0-9 - _", ErrMalformed, what, s)
	}
	return nil
}

// Subjects.
const (
	// SubjectHello is the lobby's unnamed hello subject. The referee still answers hellos
	// on it, for players written before HelloSubject and for buses without permissions,
	// but nothing on it proves who sent a hello: new players use HelloSubject.
	SubjectHello = "arena.v1.lobby.hello"
	// SubjectHelloNamed matches every HelloSubject; the referee subscribes to it.
	SubjectHelloNamed = "arena.v1.lobby.hello.*"
	// SubjectRollCall is where the referee asks every player to say hello.
	SubjectRollCall = "arena.v1.lobby.rollcall"
)

// HelloSubject is where the named player sends its Hello: SubjectHello followed by the
// name as one more token. A bus secured with per-player permissions lets a player publish
// only on its own HelloSubject, so the subject, unlike the Hello's Name field, proves who
// sent it; the referee ignores a hello whose subject names another player than its Name.
// name must be a ValidName.
func HelloSubject(name string) string { return SubjectHello + "." + name }

// TurnSubject is where a player receives its turn requests.
func TurnSubject(player string) string { return "arena.v1.player." + player + ".turn" }

// PlayerQueue is the NATS queue group in which players subscribe to their turn subject,
// so that several instances of one player (the same engine on several hosts, under one
// name) share its turns: each turn request reaches one of them. Game notices are not
// queued: every instance hears every notice.
const PlayerQueue = "arena.players"

// GameSubject is where a player receives game start and end notices.
func GameSubject(player string) string { return "arena.v1.player." + player + ".game" }

// EventSubject is where spectators follow one game.
func EventSubject(gameID string) string { return "arena.v1.game." + gameID + ".events" }

// Header is the part every message shares.
type Header struct {
	V    int    `json:"v"`
	Type string `json:"type"`
}

// Hello announces a player. Players send it as a request on HelloSubject(Name) when they start,
// again every heartbeat interval, and whenever they receive a RollCall.
type Hello struct {
	V       int      `json:"v"`
	Type    string   `json:"type"`
	Name    string   `json:"name"`
	Agent   string   `json:"agent,omitempty"`
	Version string   `json:"version,omitempty"`
	Games   []string `json:"games,omitempty"` // game names it plays; empty means any
	// Leaving says that the player is stopping cleanly: it takes no new game, finishes
	// (or hands back) the ones it plays, and then goes. The referee then starts no game
	// with it until a hello without Leaving, and a game it leaves in the middle of is
	// void and replayed, not forfeited.
	Leaving bool `json:"leaving,omitempty"`
}

// Welcome is the referee's reply to a Hello.
type Welcome struct {
	V           int    `json:"v"`
	Type        string `json:"type"`
	Referee     string `json:"referee"`
	HeartbeatMS int64  `json:"heartbeat_ms"`
}

// RollCall asks every player listening to send its Hello now; the referee publishes it when
// it starts, so that players started before it are found at once.
type RollCall struct {
	V       int    `json:"v"`
	Type    string `json:"type"`
	Referee string `json:"referee"`
}

// Clock is the time a seat has, in milliseconds. MoveMS is the time for this move (the
// referee's deadline, not counting its transport margin); RemainingMS the time left on a game
// clock (equal to MoveMS under a per-move limit); IncrementMS what is added after each move.
// PerMove is true under a per-move limit, where time not used is lost, and false on a game
// clock, where it is kept for later moves. MovesToGo, on a clock that gives its base time
// again every so many moves (40/60), is the number of the seat's moves, this one included,
// until that happens; it is zero (absent) on every other time control. MarginMS is the
// referee's transport margin: a reply that arrives up to that long after MoveMS has
// passed still counts. A player should aim to answer within MoveMS; the margin is for the
// way back, and for a program that cannot stop at once (an external engine), which its
// bridge may wait for until the margin is used up. Zero (absent) when the referee says
// nothing of it. Ponder is true when the event lets a player think between its turns (on
// its opponent's time); false (absent), a host that runs engines freezes them between
// their turns.
type Clock struct {
	MoveMS      int64 `json:"move_ms"`
	RemainingMS int64 `json:"remaining_ms"`
	IncrementMS int64 `json:"increment_ms"`
	PerMove     bool  `json:"per_move,omitempty"`
	MovesToGo   int   `json:"moves_to_go,omitempty"`
	MarginMS    int64 `json:"margin_ms,omitempty"`
	Ponder      bool  `json:"ponder,omitempty"`
}

// TurnRequest asks a player for a move. It carries everything needed to choose one, so a
// player can be stateless and can restart mid-game.
type TurnRequest struct {
	V           int             `json:"v"`
	Type        string          `json:"type"`
	GameID      string          `json:"game_id"`
	Game        string          `json:"game"`
	Seat        int             `json:"seat"`
	SeatName    string          `json:"seat_name"`
	Ply         int             `json:"ply"`
	Position    string          `json:"position"`
	Legal       []string        `json:"legal"`
	Moves       []string        `json:"moves"`
	Observation json.RawMessage `json:"observation,omitempty"`
	Clock       Clock           `json:"clock"`
}

// SearchInfo is what a player may say about how it chose its move. The referee records it.
type SearchInfo struct {
	Depth int      `json:"depth,omitempty"`
	Nodes int64    `json:"nodes,omitempty"`
	Score float64  `json:"score,omitempty"`
	PV    []string `json:"pv,omitempty"`
	// Note is free text about the decision, at most MaxNote bytes: where the move came
	// from, or an agent's own statistics (the experience player reports its hit rate).
	Note string `json:"note,omitempty"`
}

// MaxNote is the longest SearchInfo.Note.
const MaxNote = 256

// MaxLabel is the longest agent name or version a Hello carries, and the most games it lists.
const MaxLabel = 64

// Clip cuts the text s to at most n bytes, at a character boundary.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// TurnReply answers a TurnRequest. GameID and Ply must echo the request's; Move is a legal
// move in the game's notation, or Resign.
type TurnReply struct {
	V      int         `json:"v"`
	Type   string      `json:"type"`
	GameID string      `json:"game_id"`
	Ply    int         `json:"ply"`
	Move   string      `json:"move"`
	Info   *SearchInfo `json:"info,omitempty"`
	// Crashed, with the move "resign", says that the program behind the player died while
	// choosing this move, and how (exit status 3, signal: killed): an engine bridge sends
	// it, and the referee records the game as crashed rather than resigned. At most
	// MaxNote bytes.
	Crashed string `json:"crashed,omitempty"`
}

// GameNotice tells a player a game it plays in starts (TypeGameStart) or ended
// (TypeGameEnd). End notices carry the result, so learning players can learn from it.
type GameNotice struct {
	V        int       `json:"v"`
	Type     string    `json:"type"`
	GameID   string    `json:"game_id"`
	Game     string    `json:"game"`
	Seat     int       `json:"seat"`
	Players  []string  `json:"players"`            // player names by seat
	Position string    `json:"position,omitempty"` // start: initial position; end: final one
	Moves    []string  `json:"moves,omitempty"`    // end: every move played
	Result   string    `json:"result,omitempty"`   // end: "1-0", "0-1", "1/2-1/2" (by seat order)
	Reason   string    `json:"reason,omitempty"`   // end: a Reason code
	Returns  []float64 `json:"returns,omitempty"`  // end: the reward of each seat
}

// GameEvent is published for spectators on EventSubject: a game started, a move was played,
// or the game ended.
type GameEvent struct {
	V        int       `json:"v"`
	Type     string    `json:"type"`
	GameID   string    `json:"game_id"`
	Game     string    `json:"game"`
	Players  []string  `json:"players,omitempty"`
	Ply      int       `json:"ply"`
	Seat     int       `json:"seat"`
	Move     string    `json:"move,omitempty"`
	Position string    `json:"position"`
	Result   string    `json:"result,omitempty"`
	Reason   string    `json:"reason,omitempty"`
	Detail   string    `json:"detail,omitempty"` // end: a short human-readable account of a forfeit
	Returns  []float64 `json:"returns,omitempty"`
}

// Encode marshals a message. It never fails for the types of this package. The messages
// of turns, notices and events have encoders of their own (AppendTurnRequest and the
// others), which write the same bytes as encoding/json.
func Encode(msg any) []byte {
	if b, ok := encodeFast(msg); ok {
		return b
	}
	return encodeJSON(msg)
}

// encodeJSON is Encode through encoding/json.
func encodeJSON(msg any) []byte {
	b, err := json.Marshal(msg)
	if err != nil {
		panic(fmt.Sprintf("protocol: encode %T: %v", msg, err))
	}
	return b
}

// decodeStrict unmarshals data into v, rejecting oversize input, unknown fields (matched
// exactly, case included), repeated fields and trailing data, then checks the header.
func decodeStrict(data []byte, v any, want string, h func() Header) error {
	return decodeStrictLimit(data, v, MaxMessageSize, wantType(want), h)
}

// decodeStrictLimit is decodeStrict with a size limit and a check of the type of its own.
// The JSON is read by strictjson, the strict read every reader of Arena shares.
func decodeStrictLimit(data []byte, v any, limit int, checkType func(Header) error, h func() Header) error {
	if len(data) > limit {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrMalformed, len(data), limit)
	}
	if err := strictjson.Decode(data, v); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return checkHeader(h(), checkType)
}

// decodeFast is decodeStrict behind a fast path: scan fills in the message and reports
// true, or leaves it zero and reports false when the strict decoder must decide.
func decodeFast(data []byte, scan func([]byte) bool, v any, want string, h func() Header) error {
	if len(data) <= MaxMessageSize && scan(data) {
		return checkHeader(h(), wantType(want))
	}
	return decodeStrict(data, v, want, h)
}

// DecodeHello decodes and validates a Hello.
func DecodeHello(data []byte) (Hello, error) {
	var m Hello
	if err := decodeStrict(data, &m, TypeHello, func() Header { return Header{m.V, m.Type} }); err != nil {
		return Hello{}, err
	}
	if err := CheckName("player name", m.Name); err != nil {
		return Hello{}, err
	}
	if len(m.Agent) > MaxLabel || len(m.Version) > MaxLabel || len(m.Games) > MaxLabel {
		return Hello{}, fmt.Errorf("%w: agent, version or games too long", ErrMalformed)
	}
	return m, nil
}

// DecodeWelcome decodes and validates a Welcome.
func DecodeWelcome(data []byte) (Welcome, error) {
	var m Welcome
	if err := decodeStrict(data, &m, TypeWelcome, func() Header { return Header{m.V, m.Type} }); err != nil {
		return Welcome{}, err
	}
	if m.HeartbeatMS <= 0 {
		return Welcome{}, fmt.Errorf("%w: heartbeat_ms must be positive", ErrMalformed)
	}
	return m, nil
}

// DecodeRollCall decodes a RollCall.
func DecodeRollCall(data []byte) (RollCall, error) {
	var m RollCall
	if err := decodeStrict(data, &m, TypeRollCall, func() Header { return Header{m.V, m.Type} }); err != nil {
		return RollCall{}, err
	}
	return m, nil
}

// DecodeTurnRequest decodes and validates a TurnRequest.
func DecodeTurnRequest(data []byte) (TurnRequest, error) {
	var m TurnRequest
	if err := decodeFast(data, m.scan, &m, TypeTurn, func() Header { return Header{m.V, m.Type} }); err != nil {
		return TurnRequest{}, err
	}
	if err := CheckName("game_id", m.GameID); err != nil {
		return TurnRequest{}, err
	}
	if m.Game == "" || m.Seat < 0 || m.Ply < 0 || m.Clock.MoveMS < 0 || m.Clock.RemainingMS < 0 || m.Clock.IncrementMS < 0 || m.Clock.MovesToGo < 0 || m.Clock.MarginMS < 0 {
		return TurnRequest{}, fmt.Errorf("%w: turn request needs a game, and seat, ply and clock must not be negative", ErrMalformed)
	}
	return m, nil
}

// DecodeTurnReply decodes and validates a TurnReply. It checks the form only; whether the
// reply answers the right turn and whether the move is legal is the referee's business.
func DecodeTurnReply(data []byte) (TurnReply, error) {
	var m TurnReply
	if err := decodeFast(data, m.scan, &m, TypeMove, func() Header { return Header{m.V, m.Type} }); err != nil {
		return TurnReply{}, err
	}
	if m.Move == "" || len(m.Move) > 64 {
		return TurnReply{}, fmt.Errorf("%w: move must be 1-64 bytes", ErrMalformed)
	}
	if m.Crashed != "" && (m.Move != Resign || len(m.Crashed) > MaxNote) {
		return TurnReply{}, fmt.Errorf("%w: crashed goes with the move %q only, and holds at most %d bytes", ErrMalformed, Resign, MaxNote)
	}
	if m.Info != nil && (len(m.Info.PV) > 256 || m.Info.Depth < 0 || m.Info.Nodes < 0 || len(m.Info.Note) > MaxNote) {
		return TurnReply{}, fmt.Errorf("%w: info: pv longer than 256 moves, negative depth or nodes, or a note over %d bytes", ErrMalformed, MaxNote)
	}
	return m, nil
}

// DecodeGameNotice decodes and validates a GameNotice of either type.
func DecodeGameNotice(data []byte) (GameNotice, error) {
	var m GameNotice
	var h Header
	if len(data) > MaxMessageSize {
		return GameNotice{}, fmt.Errorf("%w: %d bytes, limit %d", ErrMalformed, len(data), MaxMessageSize)
	}
	header := func() Header { return Header{m.V, m.Type} }
	if m.scan(data) {
		want := TypeGameStart
		if m.Type == TypeGameEnd {
			want = TypeGameEnd
		}
		if err := checkHeader(header(), wantType(want)); err != nil {
			return GameNotice{}, err
		}
	} else if err := json.Unmarshal(data, &h); err == nil && h.Type == TypeGameEnd {
		err := decodeStrict(data, &m, TypeGameEnd, header)
		if err != nil {
			return GameNotice{}, err
		}
	} else if err := decodeStrict(data, &m, TypeGameStart, header); err != nil {
		return GameNotice{}, err
	}
	if err := CheckName("game_id", m.GameID); err != nil {
		return GameNotice{}, err
	}
	if m.Seat < 0 || m.Seat >= len(m.Players) {
		return GameNotice{}, fmt.Errorf("%w: seat %d out of range for %d players", ErrMalformed, m.Seat, len(m.Players))
	}
	return m, nil
}

// DecodeGameEvent decodes and validates a GameEvent of any of its three types.
func DecodeGameEvent(data []byte) (GameEvent, error) {
	var m GameEvent
	var h Header
	if len(data) > MaxMessageSize {
		return GameEvent{}, fmt.Errorf("%w: %d bytes, limit %d", ErrMalformed, len(data), MaxMessageSize)
	}
	header := func() Header { return Header{m.V, m.Type} }
	fast := m.scan(data)
	if fast {
		h.Type = m.Type
	} else {
		_ = json.Unmarshal(data, &h) // a bad header is reported by decodeStrict below
	}
	switch h.Type {
	case TypeEventStart, TypeEventMove, TypeEventEnd:
	default:
		h.Type = TypeEventStart
	}
	if fast {
		if err := checkHeader(header(), wantType(h.Type)); err != nil {
			return GameEvent{}, err
		}
	} else if err := decodeStrict(data, &m, h.Type, header); err != nil {
		return GameEvent{}, err
	}
	if err := CheckName("game_id", m.GameID); err != nil {
		return GameEvent{}, err
	}
	if m.Ply < 0 || m.Seat < 0 {
		return GameEvent{}, fmt.Errorf("%w: ply and seat must not be negative", ErrMalformed)
	}
	return m, nil
}
