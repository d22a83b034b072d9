package experience

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/protocol"
)

// Name is the name the agent is registered under.
const Name = "experience"

// Fallback defaults: minimax at depth 2, as the paper's GINA used a 2-ply built-in
// player, choosing at random among equally good moves (ties=random) so that it can take
// the base off a line it has lost, and with no transposition table (tt=0) and no exact
// endgame (exact=0) to stay a plain 2-ply player.
const DefaultFallback = "minimax"

var defaultFallbackParams = map[string]string{"depth": "2", "ties": "random", "tt": "0", "exact": "0"}

func init() {
	agent.Register(Name, "Othello: experience-based learning (GINA): a base of positions met, backed-up outcomes, a fallback agent (base=PATH, size=N, fallback=AGENT, fb.KEY=VALUE, learn=false)",
		[]string{othello.Name}, func(cfg agent.Config) (agent.Agent, error) { return New(cfg) })
}

// ErrNoBase is returned when the base parameter is missing.
var ErrNoBase = errors.New("experience: the base=PATH parameter is required")

// Agent is the experience player: Advise on a Base with a fallback agent. It learns from
// the game_end notices of the games it plays. It is safe for concurrent use: games
// played at once share the base, which serialises its updates.
type Agent struct {
	base     *Base
	fallback agent.Agent
	learn    bool

	mu      sync.Mutex
	games   map[string]*gameStats // by game id
	lastErr error
}

// gameStats counts one game's decisions.
type gameStats struct {
	start     *othello.State
	decisions int
	hits      int
}

var (
	_ agent.Agent       = (*Agent)(nil)
	_ agent.Learner     = (*Agent)(nil)
	_ agent.GameChecker = (*Agent)(nil)
)

// New opens the base and makes the fallback. Parameters:
//
//	base=PATH       the experience base, an SQLite file (required; created when missing)
//	size=N          the board size, 8 (default), 6 or 4; a base holds one size
//	fallback=AGENT  the built-in agent asked when the base has no answer (default minimax)
//	fb.KEY=VALUE    a parameter of the fallback (default for minimax: depth=2, ties=random,
//	                tt=0, exact=0; giving any fb. parameter replaces all of those)
//	learn=false     consult the base but never add to it (a static copy, as an opponent)
func New(cfg agent.Config) (*Agent, error) {
	path, gameSpec, fb := "", othello.Name, DefaultFallback
	learn := true
	fbParams := map[string]string{}
	for k, v := range cfg.Params {
		switch {
		case k == "base":
			path = v
		case k == "size":
			gameSpec = othello.Name + ":size=" + v
		case k == "fallback":
			fb = v
		case k == "learn":
			switch v {
			case "true":
			case "false":
				learn = false
			default:
				return nil, fmt.Errorf("experience: learn=%q: want true or false", v)
			}
		case strings.HasPrefix(k, "fb.") && len(k) > 3:
			fbParams[k[3:]] = v
		default:
			return nil, fmt.Errorf("unknown option %q (known: base, size, fallback, fb.KEY, learn)", k)
		}
	}
	if path == "" {
		return nil, ErrNoBase
	}
	if fb == Name {
		return nil, errors.New("experience: the fallback cannot be the experience agent itself")
	}
	if len(fbParams) == 0 && fb == DefaultFallback {
		for k, v := range defaultFallbackParams {
			fbParams[k] = v
		}
	}
	g, err := game.Lookup(gameSpec)
	if err != nil {
		return nil, fmt.Errorf("experience: size: %w", err)
	}
	fallback, err := agent.New(fb, agent.Config{Seed: cfg.Seed, Params: fbParams})
	if err != nil {
		return nil, fmt.Errorf("experience: fallback: %w", err)
	}
	base, err := Open(path, g.Name())
	if err != nil {
		agent.Close(fallback)
		return nil, err
	}
	return &Agent{base: base, fallback: fallback, learn: learn, games: map[string]*gameStats{}}, nil
}

// Base returns the agent's experience base.
func (a *Agent) Base() *Base { return a.base }

// Close closes the base and the fallback.
func (a *Agent) Close() error {
	agent.Close(a.fallback)
	return a.base.Close()
}

// CheckGame refuses games other than the base's with an error wrapping
// agent.ErrWrongGame, as a tournament expects of a mismatch.
func (a *Agent) CheckGame(g game.Game) error {
	if g.Name() != a.base.Game() {
		return agent.WrongGame(Name, g.Name(), "the base is for "+a.base.Game())
	}
	return nil
}

// Choose decides by the base (seed 004's aggressive personality), asking the fallback
// when it must. The reply's note says which rule decided and the running hit rate.
func (a *Agent) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	s, ok := t.State.(*othello.State)
	if !ok {
		return agent.Decision{}, agent.WrongGame("experience", t.GameName(), "it plays othello")
	}
	if err := a.CheckGame(s.Game()); err != nil {
		return agent.Decision{}, err
	}
	var fbInfo protocol.SearchInfo
	adv, err := a.base.Advise(s, func() (game.Move, error) {
		d, err := a.fallback.Choose(ctx, t)
		fbInfo = d.Info
		return d.Move, err
	})
	if err != nil {
		return agent.Decision{}, err
	}
	a.mu.Lock()
	gs := a.game(t.GameID)
	gs.decisions++
	if adv.Case.FromBase() {
		gs.hits++
	}
	hits, decisions := gs.hits, gs.decisions
	a.mu.Unlock()
	info := fbInfo
	if adv.Case.FromBase() {
		info = protocol.SearchInfo{Score: float64(adv.Value)}
		if s.ToMove() == othello.White {
			info.Score = -info.Score
		}
	}
	info.Note = fmt.Sprintf("experience: %s (%d of %d legal moves known); this game %d/%d from the base; base %d nodes", adv.Case, adv.Known, adv.Legal, hits, decisions, a.base.Nodes())
	return agent.Decision{Move: adv.Move, Info: info}, nil
}

// game returns the stats of a game, making them. a.mu must be held.
func (a *Agent) game(id string) *gameStats {
	gs := a.games[id]
	if gs == nil {
		gs = &gameStats{}
		a.games[id] = gs
	}
	return gs
}

// GameStarted keeps the game's initial position, which merging needs.
func (a *Agent) GameStarted(n protocol.GameNotice) {
	g, err := game.Lookup(n.Game)
	if err != nil {
		return
	}
	st, err := g.ParseState(n.Position)
	if err != nil {
		return
	}
	s, ok := st.(*othello.State)
	if !ok {
		return
	}
	a.mu.Lock()
	a.game(n.GameID).start = s
	a.mu.Unlock()
}

// GameEnded merges a finished game into the base (unless learn=false). A game cut short
// (a forfeit, an abort) has no outcome to back up and is not merged; nor is a game whose
// start the agent did not see (it joined mid-game after a restart).
func (a *Agent) GameEnded(n protocol.GameNotice) {
	a.mu.Lock()
	gs := a.games[n.GameID]
	delete(a.games, n.GameID)
	a.mu.Unlock()
	if gs == nil || gs.start == nil || !a.learn || n.Reason != protocol.ReasonNormal {
		return
	}
	if err := a.merge(gs, n); err != nil {
		a.mu.Lock()
		a.lastErr = err
		a.mu.Unlock()
	}
}

func (a *Agent) merge(gs *gameStats, n protocol.GameNotice) error {
	s := *gs.start
	moves := make([]game.Move, 0, len(n.Moves))
	for _, text := range n.Moves {
		m, err := s.ParseMove(text)
		if err != nil {
			return fmt.Errorf("experience: game %s: move %q: %w", n.GameID, text, err)
		}
		if err := s.Play(m); err != nil {
			return fmt.Errorf("experience: game %s: move %q: %w", n.GameID, text, err)
		}
		moves = append(moves, m)
	}
	_, err := a.base.Merge(gs.start, moves, Record{GameID: n.GameID, Seat: game.Seat(n.Seat), Decisions: gs.decisions, Hits: gs.hits})
	return err
}

// Err returns the last error met while learning from a game, if any, and clears it.
func (a *Agent) Err() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	err := a.lastErr
	a.lastErr = nil
	return err
}
