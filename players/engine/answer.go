package engine

import (
	"errors"
	"fmt"
	"strings"
)

// ErrProtocol is wrapped by errors for lines that break a protocol's rules in ways that
// are not about a move, such as a handshake answered with something else than "ready".
var ErrProtocol = errors.New("engine: protocol error")

// AnswerError is how the line dialect reports an answer it cannot accept, or the lack of
// one: the engine's offending line, quoted exactly as it was sent, and why it is wrong.
// Dialects return it as *AnswerError, so callers find it with errors.As.
type AnswerError struct {
	// Line is the line the engine sent that was judged, without its line ending; empty
	// when the engine sent no answer at all (it was too slow, or it exited).
	Line string
	// Reason says in plain words what is wrong with Line, or what happened instead.
	Reason string
	// Transcript holds the lines the engine sent for the command, in order, the last
	// maxTranscript of them when there were more: what it said before going wrong.
	Transcript []string
	// Err is the cause, for errors.Is: game.ErrBadMove (not a move), game.ErrIllegalMove,
	// ErrProtocol, ErrLineTooLong, ErrExited, or the context's error when time ran out.
	Err error
}

// maxTranscript bounds AnswerError.Transcript: an engine may send any number of info lines.
const maxTranscript = 64

func (e *AnswerError) Error() string {
	if e.Line == "" {
		return "engine: " + e.Reason
	}
	return fmt.Sprintf("engine: answer %q: %s", e.Line, e.Reason)
}

func (e *AnswerError) Unwrap() error { return e.Err }

// transcript collects the lines of one command's answer, keeping the last maxTranscript.
type transcript []string

func (t *transcript) add(line string) {
	if len(*t) == maxTranscript {
		*t = append((*t)[:0], (*t)[1:]...)
	}
	*t = append(*t, line)
}

// fail builds the AnswerError for line, with the lines received so far.
func (t transcript) fail(line string, err error, format string, args ...any) *AnswerError {
	return &AnswerError{Line: line, Reason: fmt.Sprintf(format, args...), Transcript: append([]string(nil), t...), Err: err}
}

// silenceLines is how many of its last lines silence quotes.
const silenceLines = 4

// silence describes what the engine said before it went quiet, for error messages: its
// last silenceLines lines, each cut to staleQuote bytes, so that a flood does not make a
// message (and a log entry) of the whole transcript.
func (t transcript) silence() string {
	if len(t) == 0 {
		return "it sent nothing"
	}
	var q []string
	if len(t) > silenceLines {
		q = append(q, fmt.Sprintf("%d lines before", len(t)-silenceLines))
	}
	for _, l := range t[max(len(t)-silenceLines, 0):] {
		q = append(q, fmt.Sprintf("%q", clipQuote(l)))
	}
	return "it sent only " + strings.Join(q, ", ")
}

// ErrRefused is wrapped by the errors of a dialect whose engine answered with a failure a
// command that sets up the position (GTP's boardsize, clear_board or play). The engine
// cannot follow the game, but what it said is no answer to a turn: it is never to be
// judged as the engine's move. The error's message says which command was refused and
// what the engine said.
var ErrRefused = errors.New("engine: the engine refused a command that sets up the position")
