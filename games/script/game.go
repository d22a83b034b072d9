package script

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"go.starlark.net/starlark"

	"github.com/arenaref/arena/game"
)

// Game is a script game with its options applied.
type Game struct {
	p       *Program
	opts    *starlark.Dict
	spec    string
	initial *State
}

var _ game.Game = (*Game)(nil)

// New returns the game of p with opts (typed by the option defaults; unknown ones are an
// error wrapping game.ErrBadGameOption). The initial position is made at once, so that a
// script that cannot start, or that refuses the options with fail(...), is an error here,
// wrapping game.ErrRules.
func (p *Program) New(opts game.Options) (*Game, error) {
	d, err := p.options(opts)
	if err != nil {
		return nil, err
	}
	g := &Game{p: p, opts: d, spec: p.name}
	var set []string
	for _, k := range p.keys {
		v, _, _ := d.Get(starlark.String(k))
		if eq, _ := starlark.Equal(v, p.defaults[k]); !eq {
			set = append(set, k+"="+optionText(v))
		}
	}
	if len(set) > 0 {
		g.spec += ":" + strings.Join(set, ",")
	}
	v, err := g.call("start", p.start, d)
	if err == nil {
		s := &State{g: g, v: v}
		if err = s.settle(); err == nil {
			g.initial = s
			return g, nil
		}
	}
	return nil, fmt.Errorf("%s cannot start (a fail() in start refuses the options): %w", g.spec, err)
}

// Name is the game's name with the options that differ from their defaults.
func (g *Game) Name() string { return g.spec }

// Seats names the script's seats.
func (g *Game) Seats() []string { return g.p.seats }

// NewState returns the initial position.
func (g *Game) NewState() game.State { return g.initial.Clone() }

// ParseState reads a position with the script's parse_state, and checks it as it checks
// every position.
func (g *Game) ParseState(text string) (game.State, error) {
	if len(text) > 1<<16 {
		return nil, fmt.Errorf("%w: %d bytes", game.ErrBadPosition, len(text))
	}
	v, err := g.call("parse_state", g.p.parseState, g.opts, starlark.String(text))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", game.ErrBadPosition, err)
	}
	if v == starlark.None {
		return nil, fmt.Errorf("%w: %s: parse_state refused %q", game.ErrBadPosition, g.p.name, text)
	}
	s := &State{g: g, v: v}
	if err := s.settle(); err != nil {
		return nil, fmt.Errorf("%w: %v", game.ErrBadPosition, err)
	}
	return s, nil
}

// call runs one of the script's functions with the step limit. Its error wraps
// game.ErrRules and says where the script failed.
func (g *Game) call(name string, fn *starlark.Function, args ...starlark.Value) (starlark.Value, error) {
	thread := threads.Get().(*starlark.Thread)
	thread.Name = g.p.file
	thread.Uncancel()
	base := thread.ExecutionSteps()
	thread.SetMaxExecutionSteps(base + MaxSteps)
	v, err := starlark.Call(thread, fn, args, nil)
	if err != nil {
		err = fmt.Errorf("%w: %s", game.ErrRules, describe(err, thread.ExecutionSteps()-base))
	}
	threads.Put(thread)
	return v, err
}

// threads are reused between calls: a call takes a thread, lifts its step limit to
// MaxSteps beyond the steps it has run, and gives it back.
var threads = sync.Pool{New: func() any { return &starlark.Thread{Print: func(*starlark.Thread, string) {}} }}

// State is a position: the script's frozen value, and what the host learnt of it
// (status and returns), checked once when the position was made.
type State struct {
	g       *Game
	v       starlark.Value
	seat    game.Seat
	moves   []game.Move // shared by clones: never changed
	returns []float64   // shared by clones: never changed
	plies   int
	texts   map[game.Move]string // move texts asked for, by move; not shared
}

var _ game.State = (*State)(nil)

// settle freezes the state's value and learns its status (and returns, at the end),
// checking that they keep the contract. A value made by position(state, seat, moves)
// brings its status along; any other is asked with the script's status.
func (s *State) settle() error {
	g := s.g
	var st starlark.Value
	if pv, ok := s.v.(*positionValue); ok {
		s.v, st = pv.state, pv.status
		if _, nested := s.v.(*positionValue); nested {
			return fmt.Errorf("%w: %s: position(...) given a position as its state", game.ErrRules, g.p.file)
		}
	}
	s.v.Freeze()
	if st == nil {
		var err error
		if st, err = g.call("status", g.p.status, s.v); err != nil {
			return err
		}
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: status returned %.120s: %s", game.ErrRules, g.p.file, st.String(), fmt.Sprintf(format, args...))
	}
	pair, ok := st.(starlark.Indexable)
	if !ok || pair.Len() != 2 || st.Type() == "string" {
		return bad("want (seat, moves)")
	}
	seat, err := starlark.AsInt32(pair.Index(0))
	if err != nil || seat < -1 || int(seat) >= len(g.p.seats) {
		return bad("the seat must be -1 (the game is over) or 0 to %d", len(g.p.seats)-1)
	}
	list, ok := pair.Index(1).(starlark.Indexable)
	if !ok || pair.Index(1).Type() == "string" {
		return bad("the moves must be a list of integers")
	}
	s.seat, s.moves, s.returns = game.Seat(seat), nil, nil
	if seat == -1 {
		if list.Len() != 0 {
			return bad("a game that is over has no moves")
		}
		s.seat = game.Terminal
		return s.settleReturns()
	}
	if list.Len() == 0 {
		return bad("seat %d is to move and has no move (a game with no move for the seat to move is over, or gives it a pass move)", seat)
	}
	s.moves = make([]game.Move, list.Len())
	var small [16]uint64 // moves below 1024, the usual case, are checked for repeats here
	var seen map[game.Move]bool
	for i := range list.Len() {
		m, err := starlark.AsInt32(list.Index(i))
		if err != nil || m < 0 {
			return bad("move %.40s is not a non-negative integer", list.Index(i).String())
		}
		repeated := false
		if m < 1024 {
			repeated = small[m/64]&(1<<(m%64)) != 0
			small[m/64] |= 1 << (m % 64)
		} else {
			if seen == nil {
				seen = map[game.Move]bool{}
			}
			repeated, seen[game.Move(m)] = seen[game.Move(m)], true
		}
		if repeated {
			return bad("move %d is listed twice", m)
		}
		s.moves[i] = game.Move(m)
	}
	return nil
}

// settleReturns learns the returns of a finished game.
func (s *State) settleReturns() error {
	g := s.g
	v, err := g.call("returns", g.p.returns, s.v)
	if err != nil {
		return err
	}
	list, ok := v.(starlark.Indexable)
	if !ok || list.Len() != len(g.p.seats) || v.Type() == "string" {
		return fmt.Errorf("%w: %s: returns gave %.120s: want a list of %d numbers, one per seat", game.ErrRules, g.p.file, v.String(), len(g.p.seats))
	}
	s.returns = make([]float64, list.Len())
	for i := range list.Len() {
		f, ok := starlark.AsFloat(list.Index(i))
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%w: %s: returns gave %.40s for seat %d: want a finite number", game.ErrRules, g.p.file, list.Index(i).String(), i)
		}
		s.returns[i] = f
	}
	return nil
}

// ToMove is the seat to move, or game.Terminal.
func (s *State) ToMove() game.Seat { return s.seat }

// LegalMoves appends the legal moves of seat, in the script's order.
func (s *State) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if seat != s.seat {
		return buf
	}
	return append(buf, s.moves...)
}

// Play plays m for the seat to move. An illegal move is refused without asking the
// script; a script that fails (or returns a state that breaks the contract) returns an
// error wrapping game.ErrRules and leaves the state unchanged.
func (s *State) Play(m game.Move) error {
	if s.seat == game.Terminal {
		return game.ErrGameOver
	}
	legal := false
	for _, l := range s.moves {
		legal = legal || l == m
	}
	if !legal {
		return fmt.Errorf("%w: %d", game.ErrIllegalMove, m)
	}
	v, err := s.g.call("play", s.g.p.play, s.v, starlark.MakeInt(int(m)))
	if err != nil {
		return err
	}
	next := State{g: s.g, v: v, plies: s.plies + 1}
	if err := next.settle(); err != nil {
		return err
	}
	*s = next
	return nil
}

// PlayJoint plays the entry of the seat to move.
func (s *State) PlayJoint(moves []game.Move) error {
	if s.seat < 0 || int(s.seat) >= len(moves) {
		return game.ErrGameOver
	}
	return s.Play(moves[s.seat])
}

// IsTerminal reports whether the game is over.
func (s *State) IsTerminal() bool { return s.seat == game.Terminal }

// Returns appends the script's returns at the end, zeros before.
func (s *State) Returns(buf []float64) []float64 {
	if s.returns == nil {
		for range s.g.p.seats {
			buf = append(buf, 0)
		}
		return buf
	}
	return append(buf, s.returns...)
}

// Ply counts the moves played since the initial position (or since the parsed one).
func (s *State) Ply() int { return s.plies }

// Clone returns a copy; the script's value, being frozen, is shared.
func (s *State) Clone() game.State {
	c := *s
	c.texts = nil
	return &c
}

// String is the script's state_text; a script that fails here gives "!" and the error.
func (s *State) String() string {
	v, err := s.g.call("state_text", s.g.p.stateText, s.v)
	if err != nil {
		return "!" + err.Error()
	}
	text, ok := v.(starlark.String)
	if !ok {
		return "!state_text returned a " + v.Type()
	}
	return string(text)
}

// MoveString is the script's move_text of m; a script that fails gives "#m".
func (s *State) MoveString(m game.Move) string {
	if t, ok := s.texts[m]; ok {
		return t
	}
	text := fmt.Sprintf("#%d", m)
	if v, err := s.g.call("move_text", s.g.p.moveText, s.v, starlark.MakeInt(int(m))); err == nil {
		if t, ok := v.(starlark.String); ok && t != "" && len(t) <= 64 {
			text = string(t)
		}
	}
	if s.texts == nil {
		s.texts = map[game.Move]string{}
	}
	s.texts[m] = text
	return text
}

// ParseMove reads a move's text: with the script's parse_move, or else by finding the
// legal move with that text.
func (s *State) ParseMove(text string) (game.Move, error) {
	if len(text) > 64 {
		return 0, fmt.Errorf("%w: %d bytes", game.ErrBadMove, len(text))
	}
	if s.g.p.parseMove == nil {
		for _, m := range s.moves {
			if s.MoveString(m) == text {
				return m, nil
			}
		}
		return 0, fmt.Errorf("%w: %.40q is no legal move's text", game.ErrBadMove, text)
	}
	v, err := s.g.call("parse_move", s.g.p.parseMove, s.v, starlark.String(text))
	if err != nil {
		return 0, fmt.Errorf("%w: %v", game.ErrBadMove, err)
	}
	if v == starlark.None {
		return 0, fmt.Errorf("%w: %.40q", game.ErrBadMove, text)
	}
	m, err := starlark.AsInt32(v)
	if err != nil || m < 0 {
		return 0, fmt.Errorf("%w: %.40q reads as %.40s, which is no move number", game.ErrBadMove, text, v.String())
	}
	return game.Move(m), nil
}
