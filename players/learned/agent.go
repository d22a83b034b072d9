package learned

import (
	"context"
	"errors"
	"fmt"
	"github.com/arenaref/arena/agent"
	"math/rand/v2"
	"sync"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/learned/lookahead"
	"github.com/arenaref/arena/players/learned/model"
	"github.com/arenaref/arena/protocol"
)

// Name is the name the agent is registered under.
const Name = "learned"

func init() {
	agent.Register(Name, "Othello, checkers, giveaway: evaluation learned by arena train, from a weights file (weights=PATH, depth=N)",
		[]string{othello.Name, checkers.Name, checkers.GiveawayName}, func(cfg agent.Config) (agent.Agent, error) { return New(cfg) })
}

// ErrNoWeights is returned when the weights parameter is missing.
var ErrNoWeights = errors.New("learned: the weights=PATH parameter is required")

// Agent plays a learned evaluation. It is safe for concurrent use.
type Agent struct {
	file  *model.File
	eval  model.Evaluator
	size  int       // Othello board size; 0 for checkers weights
	game  game.Game // the weights' game
	depth int

	mu   sync.Mutex // guards rng
	rng  *rand.Rand
	pool sync.Pool // *lookahead.Searcher or *lookahead.CheckersSearcher
}

var (
	_ agent.Agent       = (*Agent)(nil)
	_ agent.GameChecker = (*Agent)(nil)
)

// New loads the weights file named by the weights parameter.
func New(cfg agent.Config) (*Agent, error) {
	set := cfg.Settings()
	path := set.String("weights", "")
	depth := set.Int("depth", 1, 1, lookahead.MaxDepth)
	if err := set.Err(); err != nil {
		return nil, err
	}
	if path == "" {
		return nil, ErrNoWeights
	}
	f, err := model.Load(path)
	if err != nil {
		return nil, fmt.Errorf("learned: %w", err)
	}
	return FromFile(f, depth, cfg.Seed)
}

// FromFile makes the agent of a weights file already read.
func FromFile(f *model.File, depth int, seed int64) (*Agent, error) {
	eval, err := f.Evaluator()
	if err != nil {
		return nil, fmt.Errorf("learned: %w", err)
	}
	g, err := f.LookupGame()
	if err != nil {
		return nil, fmt.Errorf("learned: %w", err)
	}
	a := &Agent{file: f, eval: eval, game: g, depth: depth, rng: rand.New(rand.NewPCG(uint64(seed), 0x1ea12ed))}
	if og, ok := g.(*othello.Game); ok {
		a.size = og.Size()
		a.pool.New = func() any { return &lookahead.Searcher{Eval: eval} }
		return a, nil
	}
	ce, ok := eval.(model.CheckersEvaluator)
	if !ok {
		return nil, fmt.Errorf("learned: %s weights of model %s cannot play", f.Game, f.Model)
	}
	a.pool.New = func() any { return &lookahead.CheckersSearcher{Eval: ce} }
	return a, nil
}

// CheckGame refuses games other than the weights': Othello of their board size, or
// the checkers variant they were trained on.
func (a *Agent) CheckGame(g game.Game) error {
	if a.size == 0 {
		if g.Name() != a.game.Name() {
			return agent.WrongGame(Name, g.Name(), "the weights are for "+a.file.Game)
		}
		return nil
	}
	og, ok := g.(*othello.Game)
	if !ok {
		return agent.WrongGame(Name, g.Name(), "the weights are for "+a.file.Game)
	}
	if og.Size() != a.size {
		return agent.WrongGame(Name, g.Name(), fmt.Sprintf("the weights are for %s, %dx%d", a.file.Game, a.size, a.size))
	}
	return nil
}

// File returns the weights file the agent plays.
func (a *Agent) File() *model.File { return a.file }

// Choose searches the position to the agent's depth.
func (a *Agent) Choose(_ context.Context, t agent.Turn) (agent.Decision, error) {
	if cs, ok := t.State.(*checkers.State); ok {
		return a.chooseCheckers(cs)
	}
	s, ok := t.State.(*othello.State)
	if !ok {
		return agent.Decision{}, agent.WrongGame(Name, t.GameName(), "it plays othello, checkers, giveaway")
	}
	if err := a.CheckGame(s.Game()); err != nil {
		return agent.Decision{}, err
	}
	rng := a.newRand()
	x := a.pool.Get().(*lookahead.Searcher)
	defer a.pool.Put(x)
	res := x.Search(s, a.depth, rng)
	return agent.Decision{Move: res.Move, Info: protocol.SearchInfo{Depth: a.depth, Nodes: int64(res.Nodes), Score: res.Value}}, nil
}

func (a *Agent) newRand() *rand.Rand {
	a.mu.Lock()
	defer a.mu.Unlock()
	return rand.New(rand.NewPCG(a.rng.Uint64(), a.rng.Uint64()))
}

func (a *Agent) chooseCheckers(s *checkers.State) (agent.Decision, error) {
	if err := a.CheckGame(s.Game()); err != nil {
		return agent.Decision{}, err
	}
	rng := a.newRand()
	x := a.pool.Get().(*lookahead.CheckersSearcher)
	defer a.pool.Put(x)
	res := x.Search(s, a.depth, rng)
	return agent.Decision{Move: res.Move, Info: protocol.SearchInfo{Depth: a.depth, Nodes: int64(res.Nodes), Score: res.Value}}, nil
}
