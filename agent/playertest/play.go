package playertest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/protocol"
)

// opponentName is the name of the random mover in game notices.
const opponentName = "random-mover"

// reserve is the time the player runtime keeps back from a move time of move for the
// reply's trip to the referee, with its default Reserve and no lag observed yet (see
// player.Config.Reserve): a tenth, at most 20ms, never more than half.
func reserve(move time.Duration) time.Duration {
	return min(move/10, 20*time.Millisecond, move/2)
}

// turnOf builds the turn the player runtime would give seat in the referee's state st of
// game g with the given time: the position read back from its text, the legal moves
// computed from it and the observation as the referee encodes it; arrive gives it its
// deadline. It returns an error only when the game does not read its own position.
func turnOf(g game.Game, gameID string, st game.State, seat game.Seat, hist []string, clock protocol.Clock) (agent.Turn, error) {
	text := st.String()
	parsed, err := g.ParseState(text)
	if err != nil {
		return agent.Turn{}, fmt.Errorf("game %s does not read its own position %q: %v", g.Name(), text, err)
	}
	legal := parsed.LegalMoves(seat, nil)
	if len(legal) == 0 {
		return agent.Turn{}, fmt.Errorf("game %s: seat %d has no legal move in %q", g.Name(), seat, text)
	}
	t := agent.Turn{
		GameID: gameID,
		Game:   g,
		State:  parsed.Clone(),
		Seat:   seat,
		Legal:  legal,
		Moves:  slices.Clone(hist),
		Clock:  clock,
	}
	if o, ok := st.(game.Observer); ok {
		raw, err := json.Marshal(o.Observation(seat))
		if err != nil {
			return agent.Turn{}, fmt.Errorf("game %s: observation of seat %d: %v", g.Name(), seat, err)
		}
		if string(raw) != "null" {
			t.Observation = raw
		}
	}
	return t, nil
}

// arrive gives a turn its deadline, counted from at: the move time less the runtime's
// reserve. The suite calls it once it has read the position, so that reading it (which
// a script game can take longer over than an increment, under the race detector) is not
// the agent's time.
func arrive(t *agent.Turn, at time.Time) {
	t.Deadline = at.Add(clockMove(t.Clock) - reserve(clockMove(t.Clock)))
}

// clockMove is the move time the runtime reads from a clock.
func clockMove(c protocol.Clock) time.Duration { return time.Duration(c.MoveMS) * time.Millisecond }

// perMoveClock is the clock of a turn under a per-move limit, as the referee writes it.
func perMoveClock(d time.Duration) protocol.Clock {
	c := clock.New(clock.TimeControl{PerMove: d})
	return c.Wire()
}

// choose calls the agent as the runtime does, with a context ending at the deadline,
// and turns a panic into an error.
func choose(ctx context.Context, a agent.Agent, t agent.Turn) (d agent.Decision, err error) {
	ctx, cancel := context.WithDeadline(ctx, t.Deadline)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return a.Choose(ctx, t)
}

// judge returns what is wrong with an agent's answer to a turn, or nil.
func judge(t agent.Turn, d agent.Decision, err error) error {
	switch {
	case err != nil:
		return fmt.Errorf("the agent's Choose failed: %v", err)
	case d.Resign:
		return fmt.Errorf("resigned")
	case d.Raw != "":
		return fmt.Errorf("answered with raw text %q instead of a move", d.Raw)
	case d.NoReply:
		return fmt.Errorf("left the turn unanswered (NoReply)")
	case d.Crashed != "":
		return fmt.Errorf("crashed: %s", d.Crashed)
	case !slices.Contains(t.Legal, d.Move):
		texts := make([]string, len(t.Legal))
		for i, m := range t.Legal {
			texts[i] = t.State.MoveString(m)
		}
		return fmt.Errorf("chose %s, not a legal move (legal: %s)", moveText(t.State, d.Move), strings.Join(texts, " "))
	}
	return nil
}

// moveText writes a move that may be no move at all: MoveString need not cope with
// any value.
func moveText(s game.State, m game.Move) (text string) {
	defer func() {
		if recover() != nil {
			text = fmt.Sprintf("move number %d", m)
		}
	}()
	return fmt.Sprintf("%q (move number %d)", s.MoveString(m), m)
}

// turnFailure says where a turn went wrong: the agent, the game, the seat and the
// position as the game writes it.
func turnFailure(e *env, t agent.Turn, err error) error {
	return fmt.Errorf("%s, game %s, seat %d, ply %d, position %q: %w", e.who(), t.GameID, t.Seat, len(t.Moves), t.State.String(), err)
}

// match is one game of the agent against random movers in every other seat.
type match struct {
	e    *env
	a    agent.Agent
	id   string
	seat game.Seat // the agent's
	// opening is how many random plies are played, as a referee plays a match's opening,
	// before anybody is asked; the game starts from the initial position when it is 0.
	opening int
	rng     *rand.Rand        // the opening's and the random movers' choices
	tc      clock.TimeControl // the agent's time: a time per move, or a game clock
	// strict fails a reply that comes more than Tolerance after its deadline (per move)
	// or after the clock ran out (game clock).
	strict bool
	turns  int // the agent's turns so far
}

// play plays the game to its end, or to MaxPlies, telling the agent of its start and end
// when it is a Learner, and returns the moves as the referee records them. It returns
// the first failure: an error, a panic, a move that is not legal, or, with a strict time
// control, a reply too late.
func (m *match) play(ctx context.Context) ([]string, error) {
	g, e := m.e.game, m.e
	st := g.NewState()
	players := make([]string, len(g.Seats()))
	for i := range players {
		players[i] = opponentName
	}
	players[m.seat] = e.name
	learner, _ := m.a.(agent.Learner)
	if learner != nil {
		n := protocol.GameNotice{V: protocol.Version, Type: protocol.TypeGameStart, GameID: m.id, Game: g.Name(),
			Seat: int(m.seat), Players: players, Position: st.String()}
		if err := notify(func() { learner.GameStarted(n) }); err != nil {
			return nil, fmt.Errorf("%s, game %s: GameStarted: %v", e.who(), m.id, err)
		}
	}
	var hist []string
	for range m.opening {
		next := st.Clone()
		text, err := playRandom(next, len(players), m.rng)
		if err != nil {
			return nil, fmt.Errorf("%s: random opening: %v", g.Name(), err)
		}
		if next.IsTerminal() {
			break // leave the agent something to play
		}
		st, hist = next, append(hist, text)
	}

	clk := clock.New(m.tc) // the agent's, counted as the referee counts it
	reason := protocol.ReasonNormal
	for !st.IsTerminal() {
		if st.Ply() >= MaxPlies {
			reason = protocol.ReasonMaxPlies
			break
		}
		toMove := st.ToMove()
		if toMove != game.Simultaneous && toMove != m.seat {
			text, err := playRandom(st, len(players), m.rng)
			if err != nil {
				return nil, fmt.Errorf("%s: random move in %q: %v", g.Name(), st.String(), err)
			}
			hist = append(hist, text)
			continue
		}
		left := clk.Budget()
		t, err := turnOf(g, m.id, st, m.seat, hist, clk.Wire())
		if err != nil {
			return nil, err
		}
		arrival := time.Now()
		arrive(&t, arrival)
		m.turns++
		d, err := choose(ctx, m.a, t)
		returned := time.Now()
		took := returned.Sub(arrival)
		if err := judge(t, d, err); err != nil {
			return nil, turnFailure(e, t, err)
		}
		if m.tc.IsClock() {
			if m.strict && took > left+Tolerance {
				return nil, turnFailure(e, t, fmt.Errorf("ran out of time: took %dms with %dms left on its clock (%v+%v, tolerance %v)",
					took.Milliseconds(), left.Milliseconds(), m.tc.Base, m.tc.Increment, Tolerance))
			}
			clk.Charge(took)
		} else if late := returned.Sub(t.Deadline); m.strict && late > Tolerance {
			return nil, turnFailure(e, t, fmt.Errorf("replied %dms after its deadline (%v per move, the deadline %v before its end; tolerance %v)",
				late.Milliseconds(), m.tc.PerMove, reserve(m.tc.PerMove), Tolerance))
		}
		mine := st.MoveString(d.Move)
		if toMove == game.Simultaneous {
			text, err := playJoint(st, len(players), m.seat, d.Move, m.rng)
			if err != nil {
				return nil, turnFailure(e, t, fmt.Errorf("the game refused the joint move with the agent's %s: %v", mine, err))
			}
			hist = append(hist, text)
		} else {
			if err := st.Play(d.Move); err != nil {
				return nil, turnFailure(e, t, fmt.Errorf("the game refused the agent's move %s: %v", mine, err))
			}
			hist = append(hist, mine)
		}
	}

	if learner != nil {
		rets := make([]float64, len(players))
		if reason == protocol.ReasonNormal {
			rets = st.Returns(nil)
		}
		n := protocol.GameNotice{V: protocol.Version, Type: protocol.TypeGameEnd, GameID: m.id, Game: g.Name(),
			Seat: int(m.seat), Players: players, Position: st.String(), Moves: slices.Clone(hist),
			Result: game.ResultString(game.Scores(rets)), Reason: reason, Returns: rets}
		if err := notify(func() { learner.GameEnded(n) }); err != nil {
			return nil, fmt.Errorf("%s, game %s: GameEnded: %v", e.who(), m.id, err)
		}
	}
	return hist, nil
}

// notify calls a Learner method, turning a panic into an error.
func notify(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	f()
	return nil
}

// playRandom plays a random legal move of the seat to move, or a random joint move, and
// returns it as the referee records it (a joint move's texts by seat, joined by commas).
func playRandom(st game.State, nSeats int, rng *rand.Rand) (string, error) {
	if st.ToMove() == game.Simultaneous {
		return playJoint(st, nSeats, -1, 0, rng)
	}
	legal := st.LegalMoves(st.ToMove(), nil)
	if len(legal) == 0 {
		return "", fmt.Errorf("seat %d to move has no legal move", st.ToMove())
	}
	m := legal[rng.IntN(len(legal))]
	text := st.MoveString(m)
	return text, st.Play(m)
}

// playJoint plays a joint move: mine for seat (when seat is not negative), a random legal
// move for every other seat.
func playJoint(st game.State, nSeats int, seat game.Seat, mine game.Move, rng *rand.Rand) (string, error) {
	joint := make([]game.Move, nSeats)
	texts := make([]string, nSeats)
	for s := range joint {
		if game.Seat(s) == seat {
			joint[s] = mine
		} else {
			legal := st.LegalMoves(game.Seat(s), nil)
			if len(legal) == 0 {
				return "", fmt.Errorf("seat %d has no legal move in a simultaneous turn", s)
			}
			joint[s] = legal[rng.IntN(len(legal))]
		}
		texts[s] = st.MoveString(joint[s])
	}
	return strings.Join(texts, ","), st.PlayJoint(joint)
}
