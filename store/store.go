package store

import (
	"context"
	"errors"
	"time"
)

// Errors wrapped by implementations, so callers can tell the cases apart with errors.Is.
var (
	ErrNotFound  = errors.New("store: not found")
	ErrDuplicate = errors.New("store: already recorded")
	ErrInvalid   = errors.New("store: invalid input")
)

// Tournament statuses.
const (
	StatusRunning   = "running"
	StatusFinished  = "finished"
	StatusFailed    = "failed"
	StatusCancelled = "cancelled"
)

// Game results, by seat order: seat 0 won, seat 1 won, a draw, or no result (an aborted
// game that counts for nobody).
const (
	ResultFirstWins  = "1-0"
	ResultSecondWins = "0-1"
	ResultDraw       = "1/2-1/2"
	ResultNone       = "*"
)

// Player is a program that plays in tournaments, known by its unique name.
type Player struct {
	Name    string
	Agent   string
	Version string
}

// Tournament is one event: a game type, a format ("round-robin", "gauntlet", ...), a time
// control in the referee's notation ("100ms", "60+0.5"), the roster and the seed that fixed
// the schedule. Finished is zero while Status is StatusRunning.
type Tournament struct {
	ID          int64
	Game        string
	Format      string
	TimeControl string
	Rounds      int
	Seed        int64
	Players     []string
	Status      string
	Created     time.Time
	Finished    time.Time
}

// Move is one move of a game: the ply it was played at, the seat that played it, its text in
// the game's notation, the time the player took, and the search information the player
// reported (zero when it sent none).
type Move struct {
	Ply     int
	Seat    int
	Move    string
	Elapsed time.Duration
	Depth   int
	Nodes   int64
	Score   float64
	PV      []string
}

// RatingChange is one player's rating before and after a rated game.
type RatingChange struct {
	Player string
	Before float64
	After  float64
}

// Game is one finished game. Index is its place in the tournament's schedule and is unique
// within the tournament; it is how a resumed tournament knows which games are done.
// Players, Scores and Returns are by seat; Scores are 1, 0.5 or 0, Returns are the game's own
// payoffs (equal to Scores for win/draw/loss games, the payoffs in the prisoner's dilemma).
// Result is one of the Result constants and Reason a reason code (see protocol), with Detail
// a short human-readable account of a forfeit.
type Game struct {
	ID            int64
	TournamentID  int64
	Index         int
	Round         int
	Game          string
	Players       []string
	Result        string
	Reason        string
	Detail        string
	Scores        []float64
	Returns       []float64
	StartPosition string
	FinalPosition string
	Started       time.Time
	Ended         time.Time
	Moves         []Move
	Ratings       []RatingChange
}

// Store keeps tournaments, games and ratings. Implementations are safe for concurrent use.
type Store interface {
	// EnsurePlayer adds a player, or updates the agent and version of a known one.
	EnsurePlayer(ctx context.Context, p Player) error
	// CreateTournament records a new tournament and returns its id. An empty Status means
	// StatusRunning; a zero Created means now.
	CreateTournament(ctx context.Context, t Tournament) (int64, error)
	// FinishTournament sets a tournament's final status (finished, failed or cancelled)
	// and its finishing time.
	FinishTournament(ctx context.Context, id int64, status string) error
	// RecordGame writes a game with its seats, moves and rating changes in one
	// transaction and returns the game's id. Every player must be known (EnsurePlayer).
	RecordGame(ctx context.Context, g Game) (int64, error)
	// Tournament returns one tournament.
	Tournament(ctx context.Context, id int64) (Tournament, error)
	// Games returns a tournament's games, with moves and rating changes, by Index.
	Games(ctx context.Context, tournamentID int64) ([]Game, error)
	// CurrentRatings returns the latest rating of every player with a rated game of the
	// given game type; players without one are absent.
	CurrentRatings(ctx context.Context, game string) (map[string]float64, error)
	// RatingHistory returns the rating changes of a tournament's games in the order they
	// were recorded, which is the order they were applied.
	RatingHistory(ctx context.Context, tournamentID int64) ([]RatingChange, error)
	// Close releases the store.
	Close() error
}
