package conformance

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/arenaref/arena/game"
)

// Config says how Check explores a game. Zero fields take their defaults.
type Config struct {
	// Playouts is the number of random games played from the initial position
	// (default 20).
	Playouts int
	// Seed seeds the random move choices (default 1), so that a failure can be replayed.
	Seed uint64
	// MaxPlies is how many plies a random game may last before Check reports that the
	// game does not end (default 1000).
	MaxPlies int
}

func (c Config) withDefaults() Config {
	if c.Playouts == 0 {
		c.Playouts = 20
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.MaxPlies == 0 {
		c.MaxPlies = 1000
	}
	return c
}

// Result is the outcome of one check: its name, and the first failure it found (nil when
// it passed).
type Result struct {
	Name string
	Err  error
}

// Report is what Check found: every check in order, and how many positions it met.
type Report struct {
	Checks    []Result
	Positions int
}

// Failed returns the checks that failed.
func (r Report) Failed() []Result {
	var out []Result
	for _, c := range r.Checks {
		if c.Err != nil {
			out = append(out, c)
		}
	}
	return out
}

// visited is a position met during a playout, kept for the checks that run after.
type visited struct {
	playout int
	state   game.State
}

func (v visited) String() string {
	return fmt.Sprintf("playout %d, ply %d, position %q", v.playout, v.state.Ply(), v.state.String())
}

// Check checks that g keeps the game.Game and game.State contracts. It plays random games
// from the initial position, checking each position as it goes, then runs further checks
// on every position met; each check stops at its first failure, which names the position.
// A panic of the game's code is a failure of the check it happened in.
func Check(g game.Game, cfg Config) Report {
	cfg = cfg.withDefaults()
	var rep Report
	run := func(name string, check func() error) bool {
		err := guard(check)
		rep.Checks = append(rep.Checks, Result{Name: name, Err: err})
		return err == nil
	}
	if !run("Game", func() error { return checkGame(g) }) {
		return rep
	}
	var states []visited
	var games [][][]game.Move
	if !run("Playouts", func() (err error) { states, games, err = playouts(g, cfg); return err }) {
		return rep
	}
	rep.Positions = len(states)
	run("TurnOrder", func() error { return each(states, func(v visited) error { return checkTurn(g, v.state) }) })
	run("Returns", func() error { return each(states, func(v visited) error { return checkReturns(g, v.state) }) })
	run("MoveText", func() error { return each(states, func(v visited) error { return checkMoveText(g, v.state) }) })
	run("PositionText", func() error { return each(states, func(v visited) error { return checkPositionText(g, v.state) }) })
	run("Clone", func() error {
		rng := rand.New(rand.NewPCG(cfg.Seed, 2))
		return each(states, func(v visited) error { return checkClone(g, v.state, rng) })
	})
	run("IllegalMoves", func() error {
		rng := rand.New(rand.NewPCG(cfg.Seed, 3))
		return each(states, func(v visited) error { return checkIllegal(g, v.state, rng) })
	})
	run("Determinism", func() error { return checkReplay(g, states, games) })
	run("Garbage", func() error { return checkGarbage(g, states[0].state) })
	return rep
}

// guard runs check, turning a panic into its error.
func guard(check func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return check()
}

// each runs check on every state and stops at the first failure.
func each(states []visited, check func(visited) error) error {
	for _, v := range states {
		if err := check(v); err != nil {
			return fmt.Errorf("%v: %v", v, err)
		}
	}
	return nil
}

func checkGame(g game.Game) error {
	if g.Name() == "" {
		return errors.New("Name() is empty")
	}
	seats := g.Seats()
	if len(seats) == 0 {
		return errors.New("Seats() is empty")
	}
	for i, name := range seats {
		if name == "" {
			return fmt.Errorf("Seats()[%d] is empty", i)
		}
	}
	s := g.NewState()
	if s == nil {
		return errors.New("NewState() returned nil")
	}
	if s.Ply() != 0 {
		return fmt.Errorf("NewState().Ply() = %d, want 0", s.Ply())
	}
	if a, b := s.String(), g.NewState().String(); a != b {
		return fmt.Errorf("two calls of NewState differ: %q and %q", a, b)
	}
	return nil
}

// playouts plays random games and returns every position met, terminal ones included,
// and each game's moves (one entry per seat in a simultaneous turn, one otherwise). It
// checks as it goes what the later checks cannot: that games end, and that playing a
// legal move works and counts one ply.
func playouts(g game.Game, cfg Config) ([]visited, [][][]game.Move, error) {
	rng := rand.New(rand.NewPCG(cfg.Seed, 1))
	nSeats := len(g.Seats())
	var out []visited
	var games [][][]game.Move
	var buf []game.Move
	for i := 0; i < cfg.Playouts; i++ {
		s := g.NewState()
		var played [][]game.Move
		for !s.IsTerminal() {
			v := visited{playout: i, state: s.Clone()}
			out = append(out, v)
			if len(played) >= cfg.MaxPlies {
				return nil, nil, fmt.Errorf("%v: game not over after %d plies (raise MaxPlies if the game is that long)", v, cfg.MaxPlies)
			}
			if err := checkTurn(g, s); err != nil {
				return nil, nil, fmt.Errorf("%v: %v", v, err)
			}
			before := s.Ply()
			if seat := s.ToMove(); seat == game.Simultaneous {
				joint := make([]game.Move, nSeats)
				for seat := range joint {
					buf = s.LegalMoves(game.Seat(seat), buf[:0])
					joint[seat] = buf[rng.IntN(len(buf))]
				}
				if err := s.PlayJoint(joint); err != nil {
					return nil, nil, fmt.Errorf("%v: PlayJoint(%v) of legal moves: %v", v, joint, err)
				}
				if s.Ply() <= before {
					return nil, nil, fmt.Errorf("%v: Ply() went from %d to %d after a joint move", v, before, s.Ply())
				}
				played = append(played, joint)
			} else {
				buf = s.LegalMoves(seat, buf[:0])
				m := buf[rng.IntN(len(buf))]
				if err := s.Play(m); err != nil {
					return nil, nil, fmt.Errorf("%v: Play(%s) of a legal move: %v", v, v.state.MoveString(m), err)
				}
				if s.Ply() != before+1 {
					return nil, nil, fmt.Errorf("%v: Ply() went from %d to %d after one move", v, before, s.Ply())
				}
				played = append(played, []game.Move{m})
			}
		}
		out = append(out, visited{playout: i, state: s.Clone()})
		games = append(games, played)
	}
	return out, games, nil
}

// checkReplay plays every random game again from a new initial position and checks that
// each position comes out the same: same text, turn, legal moves and returns. A game
// whose rules depend on anything but the moves (the clock, chance, leftovers of another
// game) fails here.
func checkReplay(g game.Game, states []visited, games [][][]game.Move) error {
	nSeats := len(g.Seats())
	k := 0
	for i, moves := range games {
		s := g.NewState()
		for ply := 0; ; ply++ {
			want := states[k]
			k++
			if want.playout != i {
				return fmt.Errorf("playout %d: the positions do not line up with the moves", i)
			}
			if s.String() != want.state.String() || s.ToMove() != want.state.ToMove() ||
				!equalMoves(legal(s, nSeats), legal(want.state, nSeats)) || !slices.Equal(s.Returns(nil), want.state.Returns(nil)) {
				return fmt.Errorf("%v: played again, the same moves give %q, to move %v", want, s.String(), s.ToMove())
			}
			if ply == len(moves) {
				break
			}
			var err error
			if len(moves[ply]) == 1 && s.ToMove() != game.Simultaneous {
				err = s.Play(moves[ply][0])
			} else {
				err = s.PlayJoint(moves[ply])
			}
			if err != nil {
				return fmt.Errorf("%v: played again, move %v is refused: %v", want, moves[ply], err)
			}
		}
	}
	return nil
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
func checkGarbage(g game.Game, s game.State) error {
	junk := []string{"\x00", "\xff\xfe", "not a position or a move at all", "{}", "-1", "99999999999999999999"}
	for _, text := range junk {
		if _, err := g.ParseState(text); err != nil && !errors.Is(err, game.ErrBadPosition) {
			return fmt.Errorf("ParseState(%q): error %q does not wrap ErrBadPosition", text, err)
		}
		if _, err := s.ParseMove(text); err != nil && !errors.Is(err, game.ErrBadMove) {
			return fmt.Errorf("ParseMove(%q): error %q does not wrap ErrBadMove", text, err)
		}
	}
	return nil
}

func equalMoves(a, b [][]game.Move) bool {
	return slices.EqualFunc(a, b, func(x, y []game.Move) bool { return slices.Equal(x, y) })
}
