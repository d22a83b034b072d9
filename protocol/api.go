package protocol

import "fmt"

// The referee's request/reply API, used by `arena submit`, `arena status`, `arena cancel`
// and `arena players` to talk to a running `arena referee`. Each operation has its own
// subject; requests are APIRequest and every answer is an APIReply.
const (
	SubjectAPICreate  = "arena.v1.referee.api.create"
	SubjectAPIStatus  = "arena.v1.referee.api.status"
	SubjectAPICancel  = "arena.v1.referee.api.cancel"
	SubjectAPIPlayers = "arena.v1.referee.api.players"
)

// API request types: the "type" of an APIRequest, one per subject.
const (
	TypeAPICreate  = "create"
	TypeAPIStatus  = "status"
	TypeAPICancel  = "cancel"
	TypeAPIPlayers = "players"
	TypeAPIOK      = "ok"
	TypeAPIError   = "error"
)

// API error codes, the "error" of an APIReply whose type is "error".
const (
	APIBadRequest = "bad_request" // the request itself is malformed
	APIBadConfig  = "bad_config"  // the tournament description is wrong; the message says where
	APINotFound   = "not_found"   // no tournament with that id
	APINotRunning = "not_running" // the tournament is not running (for cancel)
	APIInternal   = "internal"    // the referee failed (its database, say); see its log
)

// MaxAPIMessageSize is the largest API message: a tournament description may carry a whole
// openings file, so it is larger than the game messages' limit. It fits NATS's default
// maximum payload of 1 MiB.
const MaxAPIMessageSize = 1000 << 10

// APIRequest asks the referee to do one thing.
type APIRequest struct {
	V    int    `json:"v"`
	Type string `json:"type"`
	// Config is a tournament description in TOML (create).
	Config string `json:"config,omitempty"`
	// Source names where Config came from, such as its file name, for error messages.
	Source string `json:"source,omitempty"`
	// Openings is the text of the openings file the description names, read by the client
	// so that the referee need not share its file system (create).
	Openings string `json:"openings,omitempty"`
	// SPRT, when set, makes the tournament of create a match of its two players that stops
	// when this sequential test decides: elo0=E0,elo1=E1[,alpha=A,beta=B,model=M], as
	// arena match --sprt takes it.
	SPRT string `json:"sprt,omitempty"`
	// Tournament is a tournament id (status: 0 means all; cancel).
	Tournament int64 `json:"tournament,omitempty"`
}

// TournamentStatus is how far one tournament has got.
type TournamentStatus struct {
	ID      int64  `json:"id"`
	Name    string `json:"name,omitempty"`
	Game    string `json:"game"`
	Format  string `json:"format"`
	Status  string `json:"status"`
	Played  int    `json:"played"`
	Total   int    `json:"total"`
	Created string `json:"created"` // RFC 3339
	// Problem is why a running tournament's games make no progress, when the referee sees
	// it (a stalled work queue, say); empty otherwise.
	Problem string         `json:"problem,omitempty"`
	Rows    []StandingsRow `json:"standings,omitempty"`
}

// StandingsRow is one player's line in a tournament's standings.
type StandingsRow struct {
	Rank   int     `json:"rank"`
	Player string  `json:"player"`
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Score  float64 `json:"score"`
	Pct    float64 `json:"score_pct"`
	Elo    float64 `json:"elo"`
	// Rating and RatingError are the maximum-likelihood rating of the whole tournament and
	// its 95% error bar (1.96 standard errors), the pool's average at 1500; they are 0 for
	// games that are not two-player zero-sum.
	Rating      float64 `json:"rating,omitempty"`
	RatingError float64 `json:"rating_error,omitempty"`
	// Ends counts the player's games by reason code: those that ended without a fault
	// (normal, max_plies), and those that ended by a fault only when the fault was its own.
	// WonBy counts, by reason code, the games it won because an opponent was at fault.
	Ends  map[string]int `json:"terminations,omitempty"`
	WonBy map[string]int `json:"won_by_fault,omitempty"`
	// Payoff and MeanPayoff are the player's total and mean payoff per game, for games whose
	// returns are payoffs (general-sum games such as the prisoner's dilemma).
	Payoff     float64 `json:"payoff,omitempty"`
	MeanPayoff float64 `json:"mean_payoff,omitempty"`
	// Version and Status are a ladder entry's version and status (validating, active,
	// failed, retired), with Status carrying a failed entry's reason after a colon.
	Version string `json:"version,omitempty"`
	Status  string `json:"status,omitempty"`
}

// PlayerStatus is one player the referee has heard from.
type PlayerStatus struct {
	Name      string   `json:"name"`
	Agent     string   `json:"agent,omitempty"`
	Version   string   `json:"version,omitempty"`
	Games     []string `json:"games,omitempty"`
	LastSeen  string   `json:"last_seen"` // RFC 3339
	Connected bool     `json:"connected"` // heard from within three heartbeats
}

// APIReply answers an APIRequest: type "ok" with the fields the operation fills, or
// type "error" with an error code and a message for people.
type APIReply struct {
	V           int                `json:"v"`
	Type        string             `json:"type"`
	Error       string             `json:"error,omitempty"`
	Message     string             `json:"message,omitempty"`
	Tournament  int64              `json:"tournament,omitempty"` // create: the new id
	Games       int                `json:"games,omitempty"`      // create: games scheduled
	Tournaments []TournamentStatus `json:"tournaments,omitempty"`
	Players     []PlayerStatus     `json:"players,omitempty"`
}

// APIError builds an error reply.
func APIError(code, format string, args ...any) APIReply {
	return APIReply{V: Version, Type: TypeAPIError, Error: code, Message: fmt.Sprintf(format, args...)}
}

// DecodeAPIRequest decodes a request and checks its type is want.
func DecodeAPIRequest(data []byte, want string) (APIRequest, error) {
	var m APIRequest
	err := decodeStrictLimit(data, &m, MaxAPIMessageSize, func(h Header) error {
		if h.Type != want {
			return fmt.Errorf("%w: type %q, want %q", ErrMalformed, h.Type, want)
		}
		return nil
	}, func() Header { return Header{m.V, m.Type} })
	if err != nil {
		return APIRequest{}, err
	}
	if m.Tournament < 0 {
		return APIRequest{}, fmt.Errorf("%w: negative tournament id", ErrMalformed)
	}
	return m, nil
}

// DecodeAPIReply decodes a reply of either type.
func DecodeAPIReply(data []byte) (APIReply, error) {
	var m APIReply
	err := decodeStrictLimit(data, &m, MaxAPIMessageSize, func(h Header) error {
		if h.Type != TypeAPIOK && h.Type != TypeAPIError {
			return fmt.Errorf("%w: type %q, want ok or error", ErrMalformed, h.Type)
		}
		return nil
	}, func() Header { return Header{m.V, m.Type} })
	if err != nil {
		return APIReply{}, err
	}
	if m.Type == TypeAPIError && m.Error == "" {
		return APIReply{}, fmt.Errorf("%w: error reply without an error code", ErrMalformed)
	}
	return m, nil
}
