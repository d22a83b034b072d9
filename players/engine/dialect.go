package engine

import (
	"context"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
)

// LineConn is a line-oriented connection to an engine process: what a Dialect speaks
// through. Lines carry no line ending; Recv strips "\n" and "\r\n".
type LineConn interface {
	// Send writes one line to the engine's standard input.
	Send(line string) error
	// Recv returns the engine's next line of standard output. It returns ctx's error when
	// ctx ends first (the caller's timeout), and ErrExited when the engine has gone.
	Recv(ctx context.Context) (string, error)
}

// Identity is what an engine says about itself during the handshake, when it says anything.
type Identity struct {
	Name    string
	Version string
}

// Dialect is one text protocol spoken with engines: the line protocol, GTP or NBoard.
// A Dialect holds no state of its own between calls beyond what it keeps per engine in
// the value returned by its constructor; each engine process gets its own Dialect value.
type Dialect interface {
	// Name is the protocol's name as --protocol spells it: "line", "gtp" or "nboard".
	Name() string
	// Start performs the handshake after the process starts; ctx carries the start-up
	// timeout.
	Start(ctx context.Context, c LineConn) (Identity, error)
	// NewGame tells the engine a game starts, in which it plays seat.
	NewGame(ctx context.Context, c LineConn, g game.Game, seat game.Seat) error
	// Move asks for a move in the turn's position and returns the engine's answer; ctx ends
	// at the turn's deadline. Every line the engine sent for this turn is in Transcript
	// order in the returned error when it fails, so check-engine can quote it.
	Move(ctx context.Context, c LineConn, t agent.Turn) (agent.Decision, error)
	// GameOver tells the engine how the game ended.
	GameOver(ctx context.Context, c LineConn, n protocol.GameNotice) error
	// Quit asks the engine to exit.
	Quit(ctx context.Context, c LineConn) error
	// Settle is called after a turn that went wrong (no answer in time, an answer that
	// could not be played): it reads away what the engine still owes to earlier commands
	// and whatever else it goes on sending, and checks with a harmless exchange that it
	// answers again. ctx carries the grace the engine has for that. It returns what was
	// read away; an error means the engine is unresponsive and is to be restarted.
	Settle(ctx context.Context, c LineConn) (Stale, error)
}

// Stale tallies output an engine sent that answered nothing being asked: the late answer
// to a turn that ran out of time, the rest of a flood. It is logged, never judged.
type Stale struct {
	Lines int
	Bytes int64
	First string // the first such line, cut to staleQuote bytes
}

// staleQuote is how much of the first stale line Stale keeps.
const staleQuote = 120

func (s *Stale) add(line string) {
	if s.Lines == 0 {
		s.First = line[:min(len(line), staleQuote)]
	}
	s.Lines++
	s.Bytes += int64(len(line)) + 1
}

// Merge adds what o counted to s.
func (s *Stale) Merge(o Stale) {
	if s.Lines == 0 {
		s.First = o.First
	}
	s.Lines += o.Lines
	s.Bytes += o.Bytes
}
