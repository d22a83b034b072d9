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

// Credential roles: what a client may do on a secured bus (package auth gives each its
// permissions).
const (
	RolePlayer    = "player"    // its own turns and notices, its hello
	RoleSpectator = "spectator" // game and tournament events, read only
	RoleAdmin     = "admin"     // the referee daemon's API (submit, status, cancel, players) and events
	RoleReferee   = "referee"   // everything: the referee itself on an external NATS server
	// RoleHost is a host of submitted engines (arena host): it runs them as their
	// players, so it may say hello for any player and answer any player's turns, and use
	// the host API.
	RoleHost = "host"
)

// Credential kinds.
const (
	CredentialPassword = "password" // Public is a bcrypt hash of the password
	CredentialNkey     = "nkey"     // Public is the nkey's public user key (starts with U)
)

// Credential lets one client onto a secured bus. The store keeps only what checks a
// secret (a bcrypt hash, or an nkey's public key), never the secret itself, so a copy of
// the database lets nobody onto the bus. Package auth makes credentials and turns them
// into a NATS server's users.
type Credential struct {
	Name    string // the client's user name; for a player, its player name
	Role    string // RolePlayer, RoleSpectator, RoleAdmin, RoleReferee or RoleHost
	Kind    string // CredentialPassword or CredentialNkey
	Public  string
	Created time.Time
}

// Player is a program that plays in tournaments, known by its unique name.
type Player struct {
	Name    string
	Agent   string
	Version string
}

// Tournament is one event: a game type, a format ("round-robin", "gauntlet", ...), a time
// control in the referee's notation ("100ms", "60+0.5"), the roster and the seed that fixed
// the schedule. Finished is zero while Status is StatusRunning.
//
// Config is the caller's full description of the tournament as JSON, whatever it needs to
// resume the tournament after a restart; the store keeps it verbatim and never looks inside.
// A nil Config is kept as {} and read back as {}.
//
// Schedule is every game the tournament is to play; CreateTournament writes it with the
// tournament, so a tournament that exists has its whole schedule. Tournaments made before
// schedules were kept have none.
//
// Played (the number of recorded games) and Total (the number of scheduled games) are
// filled in when a tournament is read, and ignored by CreateTournament.
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
	Config      []byte
	Schedule    []ScheduledGame
	Played      int
	Total       int
}

// ScheduledGame is one game of a tournament's schedule: its Index (1-based, unique within the
// tournament, the Index its Game will be recorded under), its round, its players by seat and
// the opening it starts from, with OpeningIndex its 1-based line in the openings list (0 and
// no moves when it has none).
type ScheduledGame struct {
	Index        int
	Round        int
	Players      []string
	Opening      []string
	OpeningIndex int
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
	Note    string
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
// a short human-readable account of a forfeit. Opening are the moves played from the
// initial position before the players took over (nil when none). Late, for a game lost
// on time, is how long after its deadline the forfeiting player's reply came (0 when none
// came, or for any other ending).
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
	Late          time.Duration
	Scores        []float64
	Returns       []float64
	StartPosition string
	FinalPosition string
	Started       time.Time
	Ended         time.Time
	Opening       []string
	Moves         []Move
	Ratings       []RatingChange
	// Ladder tags a game of a ladder with its phase and entries; nil for other games.
	Ladder *LadderTag
}

// Ladder entry statuses. A validating entry plays its validation games; an active one is
// rated and scheduled while present; a failed one forfeited validation (Reason says how)
// and plays no more; a retired one was replaced by a newer version of its player, or
// the ladder ended. A disabled one was stopped by the teacher, and its player may not
// enter again until it is enabled; a removed one is out of the ladder, its games
// unrated, and its player may enter again with a new version.
const (
	EntryValidating = "validating"
	EntryActive     = "active"
	EntryFailed     = "failed"
	EntryRetired    = "retired"
	EntryDisabled   = "disabled"
	EntryRemoved    = "removed"
)

// Ladder phases and game phases.
const (
	LadderOpen     = "open"     // entries are accepted and games scheduled
	LadderFinal    = "final"    // past the deadline: the final phase is being played
	LadderFinished = "finished" // the final standings are frozen

	PhaseValidation = "validation"
	PhaseLadder     = "ladder"
	PhaseFinal      = "final"
)

// LadderEntry is one entrant of a ladder: a player name with the version it announced.
type LadderEntry struct {
	ID         int64
	Tournament int64
	Player     string
	Version    string
	Status     string
	Reason     string
	Joined     time.Time
	Updated    time.Time
}

// LadderTag is what a ladder knows of one of its games: its phase and the entries by seat,
// 0 for a seat that is no entry (a ladder's validation opponent).
type LadderTag struct {
	Phase   string
	Entries []int64
}

// LadderGame is a game of a ladder without its moves, with its tag.
type LadderGame struct {
	GameSummary
	LadderTag
}

// LadderState is a ladder's phase and the caller's data about it, kept verbatim (JSON).
type LadderState struct {
	Tournament int64
	Phase      string
	Data       []byte
	Updated    time.Time
}

// GameSummary is a recorded game without its moves: one line of a games list, cheap to
// read for many games. Plies counts the plies from the start position, the opening's moves
// and the players' plies (a simultaneous ply once). Ratings are filled in by PlayerGames
// only.
type GameSummary struct {
	ID           int64
	TournamentID int64
	Index        int
	Round        int
	Game         string
	Players      []string
	Result       string
	Reason       string
	Scores       []float64
	Returns      []float64
	Plies        int
	Started      time.Time
	Ended        time.Time
	Ratings      []RatingChange
}

// Store keeps tournaments, games, ratings and the credentials of a secured bus.
// Implementations are safe for concurrent use.
type Store interface {
	// EnsurePlayer adds a player, or updates the agent and version of a known one.
	EnsurePlayer(ctx context.Context, p Player) error
	// CreateTournament records a new tournament with its Config and Schedule in one
	// transaction and returns its id. An empty Status means StatusRunning; a zero Created
	// means now. Schedule indices must be unique and at least 1, and every scheduled game
	// must have players.
	CreateTournament(ctx context.Context, t Tournament) (int64, error)
	// FinishTournament sets a tournament's final status (finished, failed or cancelled)
	// and its finishing time.
	FinishTournament(ctx context.Context, id int64, status string) error
	// SetTournamentStatus sets any status. Finished, failed and cancelled stamp the
	// finishing time; running clears it, for a stopped tournament that is resumed.
	SetTournamentStatus(ctx context.Context, id int64, status string) error
	// RecordGame writes a game with its seats, moves and rating changes in one
	// transaction and returns the game's id. Every player must be known (EnsurePlayer).
	// In a tournament with a schedule, the game's Index must be scheduled and its
	// players must be the scheduled ones, seat by seat (ErrInvalid otherwise).
	RecordGame(ctx context.Context, g Game) (int64, error)
	// RecordGames records games as RecordGame does, all in one transaction, and returns
	// their ids in order: if one of them cannot be recorded, none is (a game already
	// recorded fails the whole batch with ErrDuplicate).
	RecordGames(ctx context.Context, games []Game) ([]int64, error)
	// Tournament returns one tournament, with its Config, Schedule, Played and Total.
	Tournament(ctx context.Context, id int64) (Tournament, error)
	// Tournaments returns all tournaments (status "") or those with the given status,
	// newest first, with Config, Played and Total but without Schedule.
	Tournaments(ctx context.Context, status string) ([]Tournament, error)
	// Pending returns the scheduled games of a tournament that have no recorded game at
	// their Index, by Index: what a resumed tournament still has to play.
	Pending(ctx context.Context, tournamentID int64) ([]ScheduledGame, error)
	// Games returns a tournament's games, with moves and rating changes, by Index.
	Games(ctx context.Context, tournamentID int64) ([]Game, error)
	// Game returns one game by its id, with moves and rating changes (ErrNotFound if
	// there is none).
	Game(ctx context.Context, id int64) (Game, error)
	// GameSummaries returns a tournament's games without moves or rating changes, by
	// Index (ErrNotFound if there is no such tournament).
	GameSummaries(ctx context.Context, tournamentID int64) ([]GameSummary, error)
	// LastGameSummaries is GameSummaries of the n games of highest Index only, still in
	// Index order: a page of a long tournament's latest games.
	LastGameSummaries(ctx context.Context, tournamentID int64, n int) ([]GameSummary, error)
	// PlayerGames returns the games a player played, with their rating changes but
	// without moves, oldest (lowest id) first; none for an unknown player.
	PlayerGames(ctx context.Context, name string) ([]GameSummary, error)
	// TournamentInfo is Tournament without the Schedule, cheap for a long tournament.
	TournamentInfo(ctx context.Context, id int64) (Tournament, error)
	// CurrentRatings returns the latest rating of every player with a rated game of the
	// given game type; players without one are absent.
	CurrentRatings(ctx context.Context, game string) (map[string]float64, error)
	// RatingHistory returns the rating changes of a tournament's games in the order they
	// were recorded, which is the order they were applied.
	RatingHistory(ctx context.Context, tournamentID int64) ([]RatingChange, error)
	// AddCredential adds a credential; a zero Created means now. A name already present
	// fails with ErrDuplicate (remove it first to replace it); a name that is not a valid
	// protocol name, an unknown role or kind, or a Public that is not a bcrypt hash or an
	// nkey's public user key as Kind says fails with ErrInvalid.
	AddCredential(ctx context.Context, c Credential) error
	// Credentials returns all credentials, by name.
	Credentials(ctx context.Context) ([]Credential, error)
	// RemoveCredential removes the credential with the given name (ErrNotFound if there
	// is none).
	RemoveCredential(ctx context.Context, name string) error
	Ladders
	// Close releases the store.
	Close() error
	Submissions
}

// Submission states: as protocol.EngineStates, which the store does not import.
const (
	SubmissionSubmitted   = "submitted"
	SubmissionBuilding    = "building"
	SubmissionBuildFailed = "build_failed"
	SubmissionBuilt       = "built"
	SubmissionRunning     = "running"
	SubmissionRunFailed   = "run_failed"
	SubmissionStopped     = "stopped"
)

// MaxSubmissionLog is the longest log a submission's state keeps, in bytes.
const MaxSubmissionLog = 4096

// Submission is an engine a player submitted to be hosted (arena submit-engine): the
// archive as it came, its manifest's text, and where its host has got with it. Version
// counts a player's submissions from 1. SHA256 (lower-case hex) and Size are the
// archive's; Log is the tail of the build log or of the engine's standard error that
// came with the latest State; Updated is when State last changed.
type Submission struct {
	Name        string
	Version     int
	Created     time.Time
	Updated     time.Time
	ArchiveName string // the archive's file name as submitted; may be empty
	Archive     []byte // only from Submission; nil in lists
	SHA256      string
	Size        int64
	Manifest    string
	State       string
	Log         string
}

// Submissions keeps submitted engines, every version of every player, archives included,
// so that a host that restarts, or a new host, finds them all again.
type Submissions interface {
	// AddSubmission stores a new submission of s.Name with the next version, in state
	// submitted, and returns it as stored. SHA256 and Size are computed from s.Archive;
	// a zero Created means now. An invalid name, an empty archive, or an archive name
	// over 255 bytes fails with ErrInvalid.
	AddSubmission(ctx context.Context, s Submission) (Submission, error)
	// Submission returns one submission with its archive (ErrNotFound if there is none).
	Submission(ctx context.Context, name string, version int) (Submission, error)
	// Submissions returns the submissions of one player, or of all with name "",
	// newest first, without archives; at most limit of them when limit > 0.
	Submissions(ctx context.Context, name string, limit int) ([]Submission, error)
	// SetSubmissionState records a submission's new state and log, stamps Updated, and
	// returns the submission as stored (without its archive). An unknown submission fails
	// with ErrNotFound; an unknown state or a log over MaxSubmissionLog bytes with
	// ErrInvalid.
	SetSubmissionState(ctx context.Context, name string, version int, state, log string) (Submission, error)
	// PruneSubmissions deletes name's submissions but the newest keep (at least one) and
	// the newest that has not failed (the one a host runs), and returns the versions it
	// deleted, oldest first.
	PruneSubmissions(ctx context.Context, name string, keep int) ([]int, error)
}

// Ladders keeps the entries, game tags and state of ladders. Games of a ladder are recorded
// with RecordGame and a Game.Ladder tag, in the game's own transaction.
type Ladders interface {
	// AddLadderEntry adds an entry to a ladder and returns its id; an entry of the same
	// player and version already there fails with ErrDuplicate. Zero times mean now.
	AddLadderEntry(ctx context.Context, e LadderEntry) (int64, error)
	// SetLadderEntry sets an entry's status and reason (ErrNotFound if there is none).
	SetLadderEntry(ctx context.Context, id int64, status, reason string) error
	// LadderEntries returns a ladder's entries by id.
	LadderEntries(ctx context.Context, tournamentID int64) ([]LadderEntry, error)
	// LadderGames returns a ladder's tagged games without moves, by game id.
	LadderGames(ctx context.Context, tournamentID int64) ([]LadderGame, error)
	// SetLadderState stores a ladder's phase and data.
	SetLadderState(ctx context.Context, st LadderState) error
	// LadderState returns a ladder's state; a ladder that never stored one is open, with
	// data {}.
	LadderState(ctx context.Context, tournamentID int64) (LadderState, error)
}
