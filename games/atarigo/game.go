package atarigo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
)

// Names the games are registered under.
const (
	AtariGoName = "atari-go"
	CaptureName = "capture"
)

// DefaultSize is the board size of atari-go without the size option.
const DefaultSize = 9

var seatNames = []string{"black", "white"}

func init() {
	game.Register(AtariGoName, func(opts game.Options) (game.Game, error) {
		if err := game.CheckOptions(opts, "size"); err != nil {
			return nil, err
		}
		size := DefaultSize
		if v, ok := opts["size"]; ok {
			n, err := optionInt(AtariGoName, "size", v, MinSize, MaxSize)
			if err != nil {
				return nil, err
			}
			size = n
		}
		return NewAtariGo(size)
	})
	game.Register(CaptureName, func(opts game.Options) (game.Game, error) {
		if err := game.CheckOptions(opts, "problem", "safe", "moves"); err != nil {
			return nil, err
		}
		problem, safe, moves := 1, DefaultSafe, 0
		for _, o := range []struct {
			key      string
			dst      *int
			min, max int
		}{
			{"problem", &problem, 1, len(problemSet())},
			{"safe", &safe, MinSafe, MaxSafe},
			{"moves", &moves, 1, MaxMoveLimit},
		} {
			if v, ok := opts[o.key]; ok {
				n, err := optionInt(CaptureName, o.key, v, o.min, o.max)
				if err != nil {
					return nil, err
				}
				*o.dst = n
			}
		}
		return NewCaptureGame(problem, safe, moves)
	})
}

// optionInt reads an option's value: plain decimal digits, so that one game has one
// spelling, from min to max. Errors wrap game.ErrBadGameOption.
func optionInt(gameName, key, v string, min, max int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || v != strconv.Itoa(n) || n < min || n > max {
		return 0, fmt.Errorf("%w: %s: %s %q is not a number from %d to %d", game.ErrBadGameOption, gameName, key, v, min, max)
	}
	return n, nil
}

// Game is atari-go on one board size, or the capture game from one starting position
// with its rules. Build one with NewAtariGo, NewCaptureGame, CaptureGame or through
// game.Lookup.
type Game struct {
	rules
	problem int    // capture: the problem number, 0 for a start given to CaptureGame
	start   *State // capture: the initial position
}

var _ game.Game = (*Game)(nil)

// NewAtariGo returns atari-go on an n by n board. A size outside MinSize..MaxSize is an
// error wrapping game.ErrBadGameOption.
func NewAtariGo(size int) (*Game, error) {
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("%w: %s: size %d is not from %d to %d", game.ErrBadGameOption, AtariGoName, size, MinSize, MaxSize)
	}
	return &Game{rules: rules{size: size}}, nil
}

// NewCaptureGame returns the capture game starting from embedded problem number problem
// (1 to len(Problems())), the defender winning at safe liberties (MinSafe..MaxSafe) or
// after moves plies (1..MaxMoveLimit, or 0 for DefaultMoveLimit of the board size).
// Errors wrap game.ErrBadGameOption.
func NewCaptureGame(problem, safe, moves int) (*Game, error) {
	ps := problemSet()
	if problem < 1 || problem > len(ps) {
		return nil, fmt.Errorf("%w: %s: problem %d is not from 1 to %d", game.ErrBadGameOption, CaptureName, problem, len(ps))
	}
	g, err := CaptureGame(ps[problem-1].Start, safe, moves)
	if err != nil {
		return nil, err
	}
	g.problem = problem
	return g, nil
}

// CaptureGame returns the capture game starting from start, a capture position (from
// NewCapture, ParseSGF with a target, or a capture game's ParseState), under the rules
// safe and moves as NewCaptureGame takes them; start's own rules are replaced, and its
// ply count kept. The game's name carries the rules but not the start, which reaches
// players as a position. Errors wrap game.ErrBadGameOption.
func CaptureGame(start *State, safe, moves int) (*Game, error) {
	if start == nil || !start.capture {
		return nil, fmt.Errorf("%w: %s: the start is not a capture position", game.ErrBadGameOption, CaptureName)
	}
	if safe < MinSafe || safe > MaxSafe {
		return nil, fmt.Errorf("%w: %s: safe %d is not from %d to %d", game.ErrBadGameOption, CaptureName, safe, MinSafe, MaxSafe)
	}
	if moves < 0 || moves > MaxMoveLimit {
		return nil, fmt.Errorf("%w: %s: moves %d is not from 1 to %d", game.ErrBadGameOption, CaptureName, moves, MaxMoveLimit)
	}
	g := &Game{rules: rules{capture: true, safe: safe, moves: moves}}
	s := *start
	s.safe, s.limit = int16(safe), int32(g.limit(s.b.size))
	if s.ply > s.limit {
		return nil, fmt.Errorf("%w: %s: the start has %d plies played, past the move limit %d", game.ErrBadGameOption, CaptureName, s.ply, s.limit)
	}
	s.settle()
	g.start = &s
	return g, nil
}

// Name returns the canonical spec. For atari-go: "atari-go" on 9x9, "atari-go:size=N"
// otherwise. For the capture game: "capture" followed by the options that differ from
// their defaults, in the order problem, safe, moves ("capture:problem=3,safe=4").
func (g *Game) Name() string {
	if !g.capture {
		if g.size == DefaultSize {
			return AtariGoName
		}
		return AtariGoName + ":size=" + strconv.Itoa(g.size)
	}
	var opts []string
	if g.problem > 1 {
		opts = append(opts, "problem="+strconv.Itoa(g.problem))
	}
	if g.safe != DefaultSafe {
		opts = append(opts, "safe="+strconv.Itoa(g.safe))
	}
	if g.moves != 0 {
		opts = append(opts, "moves="+strconv.Itoa(g.moves))
	}
	if len(opts) == 0 {
		return CaptureName
	}
	return CaptureName + ":" + strings.Join(opts, ",")
}

// IsCapture reports whether g is the capture game rather than atari-go.
func (g *Game) IsCapture() bool { return g.capture }

// Size returns the board size: atari-go's, or that of the capture game's start
// (ParseState reads capture positions of every size).
func (g *Game) Size() int {
	if g.capture {
		return g.start.b.size
	}
	return g.size
}

// Seats returns ["black", "white"].
func (g *Game) Seats() []string { return append([]string(nil), seatNames...) }

// NewState returns the initial position (a *State): the empty board with Black to move
// in atari-go, the problem's position in the capture game.
func (g *Game) NewState() game.State { return g.Initial() }

// Initial is NewState as a *State.
func (g *Game) Initial() *State {
	if g.capture {
		s := *g.start
		return &s
	}
	return newState(g.size)
}

// ParseState reads a position in the notation of State.String (a *State). Atari-go
// reads only positions of its board size, and refuses target= and played=. The capture
// game reads
// positions of every size, requires target=, and applies its own rules (safe, moves) to
// them. Errors wrap game.ErrBadPosition.
func (g *Game) ParseState(text string) (game.State, error) {
	s, err := g.Parse(text)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Parse is ParseState returning a *State.
func (g *Game) Parse(text string) (*State, error) { return g.rules.parse(text) }
