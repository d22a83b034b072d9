package gametest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arenaref/arena/game"
)

// Option changes how Run explores a game.
type Option func(*config)

type config struct {
	playouts int
	seed     uint64
	maxPlies int
}

// Playouts sets the number of random games Run plays from the initial position
// (default 20).
func Playouts(n int) Option { return func(c *config) { c.playouts = n } }

// Seed sets the seed of the random move choices (default 1), so a failure can be
// reproduced.
func Seed(seed uint64) Option { return func(c *config) { c.seed = seed } }

// MaxPlies sets how many plies a random game may last before Run reports that the game
// does not end (default 1000).
func MaxPlies(n int) Option { return func(c *config) { c.maxPlies = n } }

// visited is a position met during a playout, kept for the checks that run after.
type visited struct {
	playout int
	state   game.State
}

func (v visited) String() string {
	return fmt.Sprintf("playout %d, ply %d, position %q", v.playout, v.state.Ply(), v.state.String())
}

// Run checks that g keeps the game.Game and game.State contracts. It plays random games
// from the initial position, checking each position as it goes, then runs further checks
// on every position met. Each group of checks is a subtest, which stops at its first
// failure and names the position.
func Run(t *testing.T, g game.Game, opts ...Option) {
	t.Helper()
	cfg := config{playouts: 20, seed: 1, maxPlies: 1000}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.playouts < 1 || cfg.maxPlies < 1 {
		t.Fatalf("gametest: Playouts and MaxPlies must be positive")
	}

	var states []visited
	t.Run("Game", func(t *testing.T) { checkGame(t, g) })
	t.Run("Playouts", func(t *testing.T) { states = playouts(t, g, cfg) })
	if len(states) == 0 {
		t.Fatalf("gametest: no positions to check")
	}
	t.Run("TurnOrder", func(t *testing.T) { each(t, states, func(v visited) error { return checkTurn(g, v.state) }) })
	t.Run("Returns", func(t *testing.T) { each(t, states, func(v visited) error { return checkReturns(g, v.state) }) })
	t.Run("MoveText", func(t *testing.T) { each(t, states, func(v visited) error { return checkMoveText(g, v.state) }) })
	t.Run("PositionText", func(t *testing.T) { each(t, states, func(v visited) error { return checkPositionText(g, v.state) }) })
	t.Run("Clone", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(cfg.seed, 2))
		each(t, states, func(v visited) error { return checkClone(g, v.state, rng) })
	})
	t.Run("IllegalMoves", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(cfg.seed, 3))
		each(t, states, func(v visited) error { return checkIllegal(g, v.state, rng) })
	})
	t.Run("Garbage", func(t *testing.T) { checkGarbage(t, g, states[0].state) })
}

// each runs check on every state and stops at the first failure.
func each(t *testing.T, states []visited, check func(visited) error) {
	t.Helper()
	for _, v := range states {
		if err := check(v); err != nil {
			t.Fatalf("%v: %v", v, err)
		}
	}
}

func checkGame(t *testing.T, g game.Game) {
	if g.Name() == "" {
		t.Errorf("Name() is empty")
	}
	seats := g.Seats()
	if len(seats) == 0 {
		t.Fatalf("Seats() is empty")
	}
	for i, name := range seats {
		if name == "" {
			t.Errorf("Seats()[%d] is empty", i)
		}
	}
	s := g.NewState()
	if s == nil {
		t.Fatalf("NewState() returned nil")
	}
	if s.Ply() != 0 {
		t.Errorf("NewState().Ply() = %d, want 0", s.Ply())
	}
	if a, b := s.String(), g.NewState().String(); a != b {
		t.Errorf("two calls of NewState differ: %q and %q", a, b)
	}
}

// playouts plays random games and returns every position met, terminal ones included.
// It checks as it goes what the later checks cannot: that games end, and that playing a
// legal move works and counts one ply.
func playouts(t *testing.T, g game.Game, cfg config) []visited {
	rng := rand.New(rand.NewPCG(cfg.seed, 1))
	nSeats := len(g.Seats())
	var out []visited
	var buf []game.Move
	for i := 0; i < cfg.playouts; i++ {
		s := g.NewState()
		for !s.IsTerminal() {
			v := visited{playout: i, state: s.Clone()}
			out = append(out, v)
			if s.Ply() >= cfg.maxPlies {
				t.Fatalf("%v: game not over after %d plies (raise MaxPlies if the game is that long)", v, cfg.maxPlies)
			}
			if err := checkTurn(g, s); err != nil {
				t.Fatalf("%v: %v", v, err)
			}
			before := s.Ply()
			if seat := s.ToMove(); seat == game.Simultaneous {
				joint := make([]game.Move, nSeats)
				for seat := range joint {
					buf = s.LegalMoves(game.Seat(seat), buf[:0])
					joint[seat] = buf[rng.IntN(len(buf))]
				}
				if err := s.PlayJoint(joint); err != nil {
					t.Fatalf("%v: PlayJoint(%v) of legal moves: %v", v, joint, err)
				}
				if s.Ply() <= before {
					t.Fatalf("%v: Ply() went from %d to %d after a joint move", v, before, s.Ply())
				}
			} else {
				buf = s.LegalMoves(seat, buf[:0])
				m := buf[rng.IntN(len(buf))]
				if err := s.Play(m); err != nil {
					t.Fatalf("%v: Play(%s) of a legal move: %v", v, v.state.MoveString(m), err)
				}
				if s.Ply() != before+1 {
					t.Fatalf("%v: Ply() went from %d to %d after one move", v, before, s.Ply())
				}
			}
		}
		out = append(out, visited{playout: i, state: s.Clone()})
	}
	return out
}

// legal returns the legal moves of every seat.
func legal(s game.State, nSeats int) [][]game.Move {
	out := make([][]game.Move, nSeats)
	for seat := range out {
		out[seat] = s.LegalMoves(game.Seat(seat), nil)
	}
	return out
}

// checkTurn checks that ToMove, IsTerminal and LegalMoves agree.
func checkTurn(g game.Game, s game.State) error {
	nSeats := len(g.Seats())
	moves := legal(s, nSeats)
	switch seat := s.ToMove(); {
	case seat == game.Terminal:
		if !s.IsTerminal() {
			return errors.New("ToMove() is Terminal but IsTerminal() is false")
		}
		for i, ms := range moves {
			if len(ms) > 0 {
				return fmt.Errorf("game over but seat %d has legal moves %v", i, ms)
			}
		}
	case s.IsTerminal():
		return fmt.Errorf("IsTerminal() is true but ToMove() is %v", seat)
	case seat == game.Simultaneous:
		for i, ms := range moves {
			if len(ms) == 0 {
				return fmt.Errorf("simultaneous turn but seat %d has no legal moves", i)
			}
		}
	case seat < 0 || int(seat) >= nSeats:
		return fmt.Errorf("ToMove() = %v, not a seat of %d", seat, nSeats)
	default:
		for i, ms := range moves {
			if i == int(seat) && len(ms) == 0 {
				return fmt.Errorf("seat %d is to move but has no legal moves", i)
			}
			if i != int(seat) && len(ms) > 0 {
				return fmt.Errorf("seat %d is to move but seat %d has legal moves %v", seat, i, ms)
			}
		}
	}
	for i, ms := range moves {
		for j := range ms {
			if slices.Contains(ms[:j], ms[j]) {
				return fmt.Errorf("seat %d lists move %s twice", i, s.MoveString(ms[j]))
			}
		}
	}
	return nil
}

// checkReturns checks one value per seat, all zero before the end.
func checkReturns(g game.Game, s game.State) error {
	nSeats := len(g.Seats())
	r := s.Returns(nil)
	if len(r) != nSeats {
		return fmt.Errorf("Returns() has %d values for %d seats", len(r), nSeats)
	}
	for i, v := range r {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("Returns()[%d] = %v", i, v)
		}
		if !s.IsTerminal() && v != 0 {
			return fmt.Errorf("Returns() = %v before the end, want zeros", r)
		}
	}
	// Returns appends: what is already in buf stays.
	r2 := s.Returns([]float64{42})
	if len(r2) != nSeats+1 || r2[0] != 42 || !slices.Equal(r2[1:], r) {
		return fmt.Errorf("Returns([42]) = %v, want 42 followed by %v", r2, r)
	}
	return nil
}

// checkMoveText checks that every legal move's text reads back as the same move.
func checkMoveText(g game.Game, s game.State) error {
	for seat, ms := range legal(s, len(g.Seats())) {
		for _, m := range ms {
			text := s.MoveString(m)
			if text == "" {
				return fmt.Errorf("MoveString(%d) is empty", m)
			}
			back, err := s.ParseMove(text)
			if err != nil {
				return fmt.Errorf("seat %d: ParseMove(%q) of MoveString(%d): %v", seat, text, m, err)
			}
			if back != m {
				return fmt.Errorf("seat %d: ParseMove(MoveString(%d) = %q) = %d", seat, m, text, back)
			}
		}
	}
	return nil
}

// checkPositionText checks that the text form reads back as the same position.
func checkPositionText(g game.Game, s game.State) error {
	text := s.String()
	p, err := g.ParseState(text)
	if err != nil {
		return fmt.Errorf("ParseState(String()): %v", err)
	}
	if p == nil {
		return errors.New("ParseState(String()) returned a nil state and no error")
	}
	if got := p.String(); got != text {
		return fmt.Errorf("ParseState(String()).String() = %q", got)
	}
	if p.ToMove() != s.ToMove() {
		return fmt.Errorf("ParseState(String()).ToMove() = %v, want %v", p.ToMove(), s.ToMove())
	}
	if p.IsTerminal() != s.IsTerminal() {
		return fmt.Errorf("ParseState(String()).IsTerminal() = %v", p.IsTerminal())
	}
	nSeats := len(g.Seats())
	if a, b := legal(p, nSeats), legal(s, nSeats); !equalMoves(a, b) {
		return fmt.Errorf("ParseState(String()) has legal moves %v, want %v", a, b)
	}
	if a, b := p.Returns(nil), s.Returns(nil); !slices.Equal(a, b) {
		return fmt.Errorf("ParseState(String()) has returns %v, want %v", a, b)
	}
	return nil
}

// checkClone checks that a clone starts equal and that playing on it leaves the original
// alone.
func checkClone(g game.Game, s game.State, rng *rand.Rand) error {
	nSeats := len(g.Seats())
	text, ply, moves := s.String(), s.Ply(), legal(s, nSeats)
	c := s.Clone()
	if c.String() != text || c.Ply() != ply || c.ToMove() != s.ToMove() {
		return fmt.Errorf("Clone() differs: %q at ply %d", c.String(), c.Ply())
	}
	if s.IsTerminal() {
		return nil
	}
	if err := playRandom(c, nSeats, rng); err != nil {
		return fmt.Errorf("playing on a clone: %v", err)
	}
	if s.String() != text || s.Ply() != ply || !equalMoves(legal(s, nSeats), moves) {
		return fmt.Errorf("playing on a clone changed the original to %q at ply %d", s.String(), s.Ply())
	}
	// And the other way round: playing on a state leaves a clone taken earlier alone. The
	// state played on is itself a clone, so that the visited position stays as it was for
	// the checks that follow.
	base := s.Clone()
	c = base.Clone()
	if err := playRandom(base, nSeats, rng); err != nil {
		return fmt.Errorf("playing on a clone: %v", err)
	}
	if c.String() != text || c.Ply() != ply || !equalMoves(legal(c, nSeats), moves) {
		return fmt.Errorf("playing on a state changed its clone to %q at ply %d", c.String(), c.Ply())
	}
	return nil
}

func playRandom(s game.State, nSeats int, rng *rand.Rand) error {
	moves := legal(s, nSeats)
	if seat := s.ToMove(); seat != game.Simultaneous {
		ms := moves[seat]
		return s.Play(ms[rng.IntN(len(ms))])
	}
	joint := make([]game.Move, nSeats)
	for i, ms := range moves {
		joint[i] = ms[rng.IntN(len(ms))]
	}
	return s.PlayJoint(joint)
}

// checkIllegal checks that moves outside the legal list are refused without changing
// the state. Errors must wrap game.ErrIllegalMove, game.ErrNotYourTurn or
// game.ErrGameOver, as game.State documents.
func checkIllegal(g game.Game, s game.State, rng *rand.Rand) error {
	nSeats := len(g.Seats())
	text, ply, toMove, moves := s.String(), s.Ply(), s.ToMove(), legal(s, nSeats)
	unchanged := func(what string) error {
		if s.String() != text || s.Ply() != ply || s.ToMove() != toMove || !equalMoves(legal(s, nSeats), moves) {
			return fmt.Errorf("%s changed the state to %q at ply %d", what, s.String(), s.Ply())
		}
		return nil
	}
	refused := func(what string, err error) error {
		if err == nil {
			return fmt.Errorf("%s was accepted", what)
		}
		if !errors.Is(err, game.ErrIllegalMove) && !errors.Is(err, game.ErrNotYourTurn) && !errors.Is(err, game.ErrGameOver) {
			return fmt.Errorf("%s: error %q wraps none of ErrIllegalMove, ErrNotYourTurn, ErrGameOver", what, err)
		}
		return unchanged(what)
	}

	switch toMove {
	case game.Simultaneous:
		// One seat at a time plays a move outside its list while the others play legally.
		for seat := range nSeats {
			for _, bad := range illegalCandidates(moves[seat], rng) {
				joint := make([]game.Move, nSeats)
				for i, ms := range moves {
					joint[i] = ms[0]
				}
				joint[seat] = bad
				what := fmt.Sprintf("PlayJoint(%v) with seat %d's move %d not legal", joint, seat, bad)
				if err := refused(what, s.PlayJoint(joint)); err != nil {
					return err
				}
			}
		}
	case game.Terminal:
		var all []game.Move
		for _, ms := range moves {
			all = append(all, ms...)
		}
		for _, bad := range illegalCandidates(all, rng) {
			if err := refused(fmt.Sprintf("Play(%d) after the end", bad), s.Play(bad)); err != nil {
				return err
			}
		}
	default:
		for _, bad := range illegalCandidates(moves[toMove], rng) {
			if err := refused(fmt.Sprintf("Play(%d) not in the legal list %v", bad, moves[toMove]), s.Play(bad)); err != nil {
				return err
			}
		}
	}
	return nil
}

// illegalCandidates returns a few moves that are not in legal: extreme values, values just
// above the legal ones, and random small values, which are the likeliest to slip through a
// careless legality check.
func illegalCandidates(legal []game.Move, rng *rand.Rand) []game.Move {
	hi := game.Move(0)
	for _, m := range legal {
		hi = max(hi, m)
	}
	cands := []game.Move{-1, math.MinInt32, math.MaxInt32, hi + 1, hi + 2}
	for range 4 {
		cands = append(cands, game.Move(rng.IntN(2*int(hi)+16)))
	}
	out := cands[:0]
	for _, m := range cands {
		if !slices.Contains(legal, m) && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// checkGarbage checks that the text decoders refuse junk with the documented errors and
// do not panic.
func checkGarbage(t *testing.T, g game.Game, s game.State) {
	junk := []string{"\x00", "\xff\xfe", "not a position or a move at all", "{}", "-1", "99999999999999999999"}
	for _, text := range junk {
		if _, err := g.ParseState(text); err != nil && !errors.Is(err, game.ErrBadPosition) {
			t.Errorf("ParseState(%q): error %q does not wrap ErrBadPosition", text, err)
		}
		if _, err := s.ParseMove(text); err != nil && !errors.Is(err, game.ErrBadMove) {
			t.Errorf("ParseMove(%q): error %q does not wrap ErrBadMove", text, err)
		}
	}
}

func equalMoves(a, b [][]game.Move) bool {
	return slices.EqualFunc(a, b, func(x, y []game.Move) bool { return slices.Equal(x, y) })
}
