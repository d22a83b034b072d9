package learned

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/ai/learn/model"
	"github.com/arenaref/arena/protocol"
)

// Name is the name the agent is registered under.
const Name = "learned"

// The agent is registered with no game before any init function of the package runs:
// its games register from the init functions of their files, and Register adds each.
var _ = func() bool {
	agent.Register(Name, "evaluation learned by arena train, from a weights file (weights=PATH, depth=N)",
		[]string{}, func(cfg agent.Config) (agent.Agent, error) { return New(cfg) })
	return true
}()

// ErrNoWeights is returned when the weights parameter is missing.
var ErrNoWeights = errors.New("learned: the weights=PATH parameter is required")

// Agent plays a learned evaluation. It is safe for concurrent use.
type Agent struct {
	file  *model.File
	game  game.Game // the weights'
	depth int

	mu   sync.Mutex // guards rng
	rng  *rand.Rand
	pool sync.Pool // *Searcher
}

var (
	_ agent.Agent       = (*Agent)(nil)
	_ agent.GameChecker = (*Agent)(nil)
)

// New loads the weights file named by the weights parameter.
func New(cfg agent.Config) (*Agent, error) {
	set := cfg.Settings()
	path := set.String("weights", "")
	depth := set.Int("depth", 1, 1, MaxDepth)
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
	lg, err := GameOf(g)
	if err != nil {
		return nil, fmt.Errorf("learned: %s weights: %w", f.Game, err)
	}
	a := &Agent{file: f, game: g, depth: depth, rng: rand.New(rand.NewPCG(uint64(seed), 0x1ea12ed))}
	a.pool.New = func() any { return NewSearcher(lg, eval) }
	return a, nil
}

// CheckGame refuses games other than the weights': the game they were trained on, with
// its options (for Othello, the board size).
func (a *Agent) CheckGame(g game.Game) error {
	if g.Name() != a.game.Name() {
		return agent.WrongGame(Name, g.Name(), "the weights are for "+a.file.Game)
	}
	return nil
}

// File returns the weights file the agent plays.
func (a *Agent) File() *model.File { return a.file }

// Choose searches the position to the agent's depth. A turn with a deadline (as every
// turn from a referee has) is searched one ply deeper at a time, so that the deadline, if
// it comes first, stops it with the deepest search done.
func (a *Agent) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	if t.Game == nil {
		return agent.Decision{}, agent.WrongGame(Name, t.GameName(), "the weights are for "+a.file.Game)
	}
	if err := a.CheckGame(t.Game); err != nil {
		return agent.Decision{}, err
	}
	rng := a.newRand()
	x := a.pool.Get().(*Searcher)
	defer a.pool.Put(x)
	var res Result
	if t.Deadline.IsZero() {
		res = x.Search(t.State, a.depth, rng)
	} else {
		// The depth is fixed, but not beyond the move's time: the search deepens and
		// stops at the deadline with the deepest depth it finished, rather than lose on
		// time.
		ctx, cancel := context.WithDeadline(ctx, t.Deadline)
		defer cancel()
		res = x.SearchBy(ctx, t.State, a.depth, rng)
	}
	return agent.Decision{Move: res.Move, Info: protocol.SearchInfo{Depth: res.Depth, Nodes: res.Nodes, Score: res.Value}}, nil
}

func (a *Agent) newRand() *rand.Rand {
	a.mu.Lock()
	defer a.mu.Unlock()
	return rand.New(rand.NewPCG(a.rng.Uint64(), a.rng.Uint64()))
}
