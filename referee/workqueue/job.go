package workqueue

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/internal/strictjson"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/referee"
)

// Subjects and names of the work queue.
const (
	GamesStream   = "ARENA_GAMES"
	ResultsStream = "ARENA_RESULTS"
	GamesPrefix   = "arena.v1.work.games."
	ResultsPrefix = "arena.v1.work.results."

	workersConsumer  = "workers"
	recorderConsumer = "recorder"

	// maxMessage bounds a job or an outcome; an outcome carries every move of a game.
	maxMessage = 4 << 20
)

// ErrBadMessage is wrapped by the errors of DecodeJob and DecodeOutcome.
var ErrBadMessage = errors.New("workqueue: bad message")

// Job is one game to play, as it travels on the work queue: everything a worker needs to
// play it with its own referee.
type Job struct {
	V          int      `json:"v"`
	Database   string   `json:"database"`   // the owner's database id (Config.Database), set by Feed.Put
	Tournament string   `json:"tournament"` // a protocol.ValidName; the game id is Tournament-Index
	Index      int      `json:"index"`      // positive
	Game       string   `json:"game"`       // the game's name, options included
	Players    []string `json:"players"`
	TC         string   `json:"tc"` // as clock.Parse reads it
	MaxPlies   int      `json:"max_plies,omitempty"`
	Round      int      `json:"round,omitempty"`
	Opening    []string `json:"opening,omitempty"`
	MarginMS   int64    `json:"margin_ms,omitempty"`
	WaitMS     int64    `json:"wait_ms,omitempty"`
	Ponder     bool     `json:"ponder,omitempty"`
	// Tag is the owner's own data about the game (a ladder's phase and entries), returned
	// with the outcome so that an owner that restarted can still place it.
	Tag json.RawMessage `json:"tag,omitempty"`
}

// JobOf is the job that plays m as game index of tournament.
func JobOf(tournament string, index int, m referee.Match, tag json.RawMessage) Job {
	return Job{
		V: protocol.Version, Tournament: tournament, Index: index, Game: m.Game.Name(), Players: m.Players,
		TC: m.TC.String(), MaxPlies: m.MaxPlies, Round: m.Round, Opening: m.Opening,
		MarginMS: m.Margin.Milliseconds(), WaitMS: m.Wait.Milliseconds(), Ponder: m.Ponder, Tag: tag,
	}
}

// GameID is the id of the job's game.
func (j Job) GameID() string { return j.Tournament + "-" + strconv.Itoa(j.Index) }

// Subject is where the job waits on the work queue.
func (j Job) Subject() string { return GamesPrefix + j.key() }

// ResultSubject is where the job's outcome waits for the owner.
func (j Job) ResultSubject() string { return ResultsPrefix + j.key() }

// key is the last tokens of the job's subjects: database, tournament, index.
func (j Job) key() string { return j.Database + "." + j.Tournament + "." + strconv.Itoa(j.Index) }

// Match is the referee's match for the job.
func (j Job) Match() (referee.Match, error) {
	g, err := game.Lookup(j.Game)
	if err != nil {
		return referee.Match{}, fmt.Errorf("job %s: %w", j.GameID(), err)
	}
	tc, err := clock.Parse(j.TC)
	if err != nil {
		return referee.Match{}, fmt.Errorf("job %s: %w", j.GameID(), err)
	}
	return referee.Match{
		GameID: j.GameID(), Game: g, Players: j.Players, TC: tc, MaxPlies: j.MaxPlies, Round: j.Round,
		Opening: j.Opening, Margin: time.Duration(j.MarginMS) * time.Millisecond, Wait: time.Duration(j.WaitMS) * time.Millisecond,
		Ponder: j.Ponder,
	}, nil
}

func (j Job) check() error {
	switch {
	case j.V != protocol.Version:
		return fmt.Errorf("version %d, want %d", j.V, protocol.Version)
	case !protocol.ValidName(j.Database):
		return fmt.Errorf("database %q is not a valid name", j.Database)
	case !protocol.ValidName(j.Tournament):
		return fmt.Errorf("tournament %q is not a valid name", j.Tournament)
	case j.Index < 1:
		return fmt.Errorf("index %d, want a positive one", j.Index)
	case j.Game == "" || len(j.Players) == 0:
		return errors.New("no game or no players")
	case j.MaxPlies < 0 || j.Round < 0 || j.MarginMS < 0 || j.WaitMS < 0:
		return errors.New("a negative max_plies, round, margin_ms or wait_ms")
	}
	for _, p := range j.Players {
		if !protocol.ValidName(p) {
			return fmt.Errorf("player %q is not a valid name", p)
		}
	}
	return nil
}

// Encode is the job's wire form.
func (j Job) Encode() []byte {
	data, err := json.Marshal(j)
	if err != nil {
		panic(fmt.Sprintf("workqueue: encode job: %v", err)) // only plain fields: cannot happen
	}
	return data
}

// DecodeJob reads a job from the work queue: one JSON object of known fields that passes
// the checks above. Jobs come from the owner, but a worker checks them all the same.
func DecodeJob(data []byte) (Job, error) {
	var j Job
	if err := decodeStrict(data, &j); err != nil {
		return Job{}, err
	}
	if err := j.check(); err != nil {
		return Job{}, fmt.Errorf("%w: job: %v", ErrBadMessage, err)
	}
	return j, nil
}

// Outcome is how a job ended, on its way back to the owner: the game's result, or why it
// could not be played at all.
type Outcome struct {
	V      int            `json:"v"`
	Job    Job            `json:"job"`
	Worker string         `json:"worker"`          // who played it, for the log
	Error  string         `json:"error,omitempty"` // set when the game could not be played
	Result referee.Result `json:"result"`
}

// Encode is the outcome's wire form.
func (o Outcome) Encode() []byte {
	data, err := json.Marshal(o)
	if err != nil {
		panic(fmt.Sprintf("workqueue: encode outcome: %v", err))
	}
	return data
}

// DecodeOutcome reads an outcome: its job must pass DecodeJob's checks, and a result must
// be the job's game, with its players and one score per seat.
func DecodeOutcome(data []byte) (Outcome, error) {
	var o Outcome
	if err := decodeStrict(data, &o); err != nil {
		return Outcome{}, err
	}
	if err := o.Job.check(); err != nil {
		return Outcome{}, fmt.Errorf("%w: outcome's job: %v", ErrBadMessage, err)
	}
	if o.V != protocol.Version {
		return Outcome{}, fmt.Errorf("%w: outcome version %d", ErrBadMessage, o.V)
	}
	if o.Error != "" {
		return o, nil
	}
	r := o.Result
	n := len(o.Job.Players)
	switch {
	case r.GameID != o.Job.GameID():
		return Outcome{}, fmt.Errorf("%w: result of game %q for job %s", ErrBadMessage, r.GameID, o.Job.GameID())
	case !slices.Equal(r.Players, o.Job.Players):
		return Outcome{}, fmt.Errorf("%w: result players %v, job players %v", ErrBadMessage, r.Players, o.Job.Players)
	case len(r.Scores) != n || len(r.Returns) != n:
		return Outcome{}, fmt.Errorf("%w: %d scores and %d returns for %d seats", ErrBadMessage, len(r.Scores), len(r.Returns), n)
	case r.Reason == "" || r.Forfeit < -1 || r.Forfeit >= n:
		return Outcome{}, fmt.Errorf("%w: result without a reason, or forfeit seat %d", ErrBadMessage, r.Forfeit)
	}
	for _, mv := range r.Moves {
		if mv.Seat < 0 || mv.Seat >= n {
			return Outcome{}, fmt.Errorf("%w: a move by seat %d of %d", ErrBadMessage, mv.Seat, n)
		}
	}
	return o, nil
}

// decodeStrict decodes one JSON object of known fields, and nothing after it.
func decodeStrict(data []byte, v any) error {
	if len(data) > maxMessage {
		return fmt.Errorf("%w: %d bytes, at most %d", ErrBadMessage, len(data), maxMessage)
	}
	if err := strictjson.Decode(data, v); err != nil {
		return fmt.Errorf("%w: %v", ErrBadMessage, err)
	}
	return nil
}

// indexOf reads the index from the last token of a queue subject.
func indexOf(subject string) (index int, ok bool) {
	n, err := strconv.Atoi(subject[strings.LastIndexByte(subject, '.')+1:])
	return n, err == nil && n > 0
}
