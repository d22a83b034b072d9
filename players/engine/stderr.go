package engine

import (
	"sync"

	"github.com/rs/zerolog"
)

// Bounds of what a Bridge logs of an engine's standard error.
const (
	// StderrHead is how many lines of standard error are logged as they come, per game.
	StderrHead = 20
	// StderrTail is how many of the last lines of a game's standard error are kept, and
	// logged with the game's count of lines when some were not logged as they came.
	StderrTail = 10
	// StderrHeadTotal is how many lines are logged as they come over the bridge's life;
	// past it every game gets only its count and tail.
	StderrHeadTotal = 1000
	// stderrLineMax is how much of each line is logged or kept.
	stderrLineMax = 200
)

// stderrLog keeps what an engine writes to its standard error within bounds, so that an
// engine that writes without end can neither fill the log nor be held up by it: it logs
// the first StderrHead lines of each game (StderrHeadTotal in all) as they come, counts
// the rest, and keeps the last StderrTail lines, which it logs with the counts when the
// game's part ends (the game ends, a turn of another game comes, the bridge closes).
// Lines are cut at stderrLineMax bytes. Its line method is the Options.Stderr of a
// Bridge's engines; it never blocks for more than a lock and, rarely, one log entry.
type stderrLog struct {
	log zerolog.Logger

	mu     sync.Mutex
	game   string // the game whose turns the engine plays now; "" between games
	lines  int    // lines of the current part
	bytes  int64
	logged int      // lines of the current part logged as they came
	tail   []string // the last StderrTail lines of the part, oldest first
	total  int      // lines logged as they came, over the bridge's life
}

// line takes one line of the engine's standard error.
func (s *stderrLog) line(line string) {
	if len(line) > stderrLineMax {
		line = clipQuote(line)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines++
	s.bytes += int64(len(line)) + 1
	if len(s.tail) == StderrTail {
		s.tail = append(s.tail[:0], s.tail[1:]...)
	}
	s.tail = append(s.tail, line)
	if s.logged < StderrHead && s.total < StderrHeadTotal {
		s.logged++
		s.total++
		s.log.Info().Str("game_id", s.game).Str("stderr", line).Msg("engine stderr")
	}
}

// turn starts the part of the game id, ending the previous part if it was another game's.
func (s *stderrLog) turn(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id != s.game {
		s.flush()
		s.game = id
	}
}

// end ends the part of the game id, if it is the current one.
func (s *stderrLog) end(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == s.game {
		s.flush()
		s.game = ""
	}
}

// close ends the current part.
func (s *stderrLog) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flush()
}

// flush logs the counts and the tail of the current part when some of its lines were not
// logged as they came, and starts a new part. The caller holds mu.
func (s *stderrLog) flush() {
	if s.lines > s.logged {
		s.log.Warn().Str("game_id", s.game).Int("lines", s.lines).Int64("bytes", s.bytes).
			Int("not_logged", s.lines-s.logged).Strs("last", s.tail).
			Msg("engine stderr: more than is logged line by line; its count and last lines")
	}
	s.lines, s.bytes, s.logged, s.tail = 0, 0, 0, s.tail[:0]
}
