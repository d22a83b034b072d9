package learned_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	_ "github.com/arenaref/arena/games/ipd" // a game the agent must refuse
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/loadmeter"
	"github.com/arenaref/arena/players/agents/learned"
	"github.com/arenaref/arena/players/ai/learn/features"
	"github.com/arenaref/arena/players/ai/learn/model"
)

var specs = map[int]string{8: "othello", 6: "othello:size=6", 4: "othello:size=4"}

// writeWeights saves a file of a kind for a board size, with random weights (scale 0:
// all zero), and returns its path.
func writeWeights(t testing.TB, kind string, size int, scale float64, seed uint64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var e model.Evaluator
	switch kind {
	case model.KindTanhLinear:
		m := model.NewTanhLinear(features.Count)
		for k := range m.W {
			m.W[k] = rng.NormFloat64() * scale
		}
		e = m
	default:
		n, err := model.NewStrategyNet(size, kind == model.KindStrategyNetPairs)
		if err != nil {
			t.Fatal(err)
		}
		for k := range n.W {
			n.W[k] = rng.NormFloat64() * scale
		}
		e = n
	}
	f, err := model.NewFile(specs[size], e, model.Training{Method: "test"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("%s-%d.json", kind, size))
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

func newAgent(t testing.TB, params map[string]string, seed int64) *learned.Agent {
	t.Helper()
	a, err := learned.New(agent.Config{Seed: seed, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestNewErrors(t *testing.T) {
	good := writeWeights(t, model.KindStrategyNet, 6, 1, 1)
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	malformed := filepath.Join(dir, "malformed.json")
	if err := os.WriteFile(malformed, []byte(`{"format": "arena-weights", "version": 2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.json")
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(truncated, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		params map[string]string
		is     error    // wrapped, if not nil
		says   []string // in the message
	}{
		{"no params", nil, learned.ErrNoWeights, []string{"weights=PATH"}},
		{"empty weights", map[string]string{"weights": ""}, learned.ErrNoWeights, nil},
		{"depth only", map[string]string{"depth": "2"}, learned.ErrNoWeights, nil},
		{"unknown param", map[string]string{"weights": good, "dpeth": "2"}, nil, []string{"dpeth"}},
		{"depth 0", map[string]string{"weights": good, "depth": "0"}, nil, []string{"depth", `"0"`, "1 to 16"}},
		{"depth 17", map[string]string{"weights": good, "depth": "17"}, nil, []string{"depth", `"17"`}},
		{"depth -1", map[string]string{"weights": good, "depth": "-1"}, nil, []string{"depth", `"-1"`}},
		{"depth x", map[string]string{"weights": good, "depth": "x"}, nil, []string{"depth", `"x"`}},
		{"depth empty", map[string]string{"weights": good, "depth": ""}, nil, []string{"depth"}},
		{"depth 2.5", map[string]string{"weights": good, "depth": "2.5"}, nil, []string{"depth", "2.5"}},
		{"missing file", map[string]string{"weights": missing}, os.ErrNotExist, []string{missing}},
		{"directory", map[string]string{"weights": dir}, nil, []string{dir}},
		{"malformed file", map[string]string{"weights": malformed}, model.ErrBadFile, []string{malformed, "version 2"}},
		{"truncated file", map[string]string{"weights": truncated}, model.ErrBadFile, []string{truncated, "unexpected EOF"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := learned.New(agent.Config{Seed: 1, Params: tc.params})
			if err == nil {
				t.Fatalf("New made an agent for %s", a.File().Game)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %q does not wrap %q", err, tc.is)
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
		})
	}
}

func TestNewAccepts(t *testing.T) {
	path := writeWeights(t, model.KindTanhLinear, 8, 1, 2)
	s := othello.NewState()
	for _, tc := range []struct {
		depth string
		want  int
	}{{"", 1}, {"1", 1}, {"3", 3}, {"16", learned.MaxDepth}} {
		t.Run("depth="+tc.depth, func(t *testing.T) {
			params := map[string]string{"weights": path}
			if tc.depth != "" {
				params["depth"] = tc.depth
			}
			a := newAgent(t, params, 1)
			if a.File().Game != "othello" || a.File().Model != model.KindTanhLinear {
				t.Errorf("File() = %s %s", a.File().Game, a.File().Model)
			}
			if tc.want > 3 {
				return // a 16-ply search from the start takes too long to run here
			}
			d, err := a.Choose(context.Background(), turn(s))
			if err != nil {
				t.Fatal(err)
			}
			if d.Info.Depth != tc.want {
				t.Errorf("Info.Depth = %d, want %d", d.Info.Depth, tc.want)
			}
		})
	}
}

func TestFromFileErrors(t *testing.T) {
	f, err := model.Load(writeWeights(t, model.KindStrategyNet, 4, 1, 3))
	if err != nil {
		t.Fatal(err)
	}
	f.Version = 7
	if _, err := learned.FromFile(f, 1, 1); !errors.Is(err, model.ErrBadFile) {
		t.Errorf("FromFile of a version-7 file: %v, want ErrBadFile", err)
	}
}

func mustLookup(t testing.TB, spec string) game.Game {
	t.Helper()
	g, err := game.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestCheckGame(t *testing.T) {
	agents := map[int]*learned.Agent{}
	for _, size := range []int{8, 6, 4} {
		agents[size] = newAgent(t, map[string]string{"weights": writeWeights(t, model.KindStrategyNet, size, 1, 4)}, 1)
	}
	tests := []struct {
		size int // of the weights
		game string
		ok   bool
	}{
		{8, "othello", true},
		{8, "othello:size=8", true},
		{8, "othello:size=6", false},
		{8, "othello:size=4", false},
		{8, "ipd", false},
		{6, "othello:size=6", true},
		{6, "othello", false},
		{6, "othello:size=4", false},
		{6, "ipd", false},
		{4, "othello:size=4", true},
		{4, "othello:size=6", false},
		{4, "ipd:rounds=10", false},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s weights/%s", specs[tc.size], tc.game), func(t *testing.T) {
			var a agent.GameChecker = agents[tc.size]
			err := a.CheckGame(mustLookup(t, tc.game))
			if (err == nil) != tc.ok {
				t.Fatalf("CheckGame = %v, want ok %v", err, tc.ok)
			}
			if err != nil && !strings.Contains(err.Error(), specs[tc.size]) {
				t.Errorf("error %q does not name the weights' game %q", err, specs[tc.size])
			}
		})
	}
}

func turn(s *othello.State) agent.Turn {
	return agent.Turn{GameID: "g", Game: s.Game(), State: s, Seat: s.ToMove(), Legal: s.LegalMoves(s.ToMove(), nil)}
}

// randomStates returns count unfinished positions from random n x n games.
func randomStates(t testing.TB, n, count int, rng *rand.Rand) []*othello.State {
	t.Helper()
	g, err := othello.NewSize(n)
	if err != nil {
		t.Fatal(err)
	}
	var out []*othello.State
	for len(out) < count {
		s := g.Initial()
		for s.ToMove() != game.Terminal && len(out) < count {
			c := *s
			out = append(out, &c)
			legal := s.LegalMoves(s.ToMove(), nil)
			if err := s.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// TestChooseLegal: every kind of weights, on every size and at a few depths, chooses a
// legal move, and the move and score are those of the search at the agent's depth.
func TestChooseLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, kind := range []string{model.KindTanhLinear, model.KindStrategyNet, model.KindStrategyNetPairs} {
		for _, size := range []int{8, 6, 4} {
			path := writeWeights(t, kind, size, 1, 6)
			f, err := model.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			e, err := f.Evaluator()
			if err != nil {
				t.Fatal(err)
			}
			for depth := 1; depth <= 3; depth++ {
				t.Run(fmt.Sprintf("%s/%s/depth%d", kind, specs[size], depth), func(t *testing.T) {
					a := newAgent(t, map[string]string{"weights": path, "depth": fmt.Sprint(depth)}, 7)
					lg, err := learned.GameOf(mustLookup(t, specs[size]))
					if err != nil {
						t.Fatal(err)
					}
					x := learned.NewSearcher(lg, e)
					for _, s := range randomStates(t, size, 40/depth, rng) {
						tn := turn(s)
						d, err := a.Choose(context.Background(), tn)
						if err != nil {
							t.Fatalf("%s: %v", s, err)
						}
						if !slices.Contains(tn.Legal, d.Move) {
							t.Fatalf("%s: chose %s, not among %v", s, s.MoveString(d.Move), tn.Legal)
						}
						if d.Info.Depth != depth || d.Info.Nodes < 2 {
							t.Errorf("%s: Info %+v, want depth %d and some nodes", s, d.Info, depth)
						}
						// The score is the search's, and so is the node count, which does
						// not depend on how the ties at the root are broken.
						want := x.Search(s, depth, rng)
						if d.Info.Score != want.Value || learned.ToScore(want.Value) != want.Score {
							t.Errorf("%s: score %v, the search's value %v (score %d)", s, d.Info.Score, want.Value, want.Score)
						}
						if d.Info.Nodes != want.Nodes {
							t.Errorf("%s: %d nodes, the search %d", s, d.Info.Nodes, want.Nodes)
						}
					}
				})
			}
		}
	}
}

func TestChooseWrongPosition(t *testing.T) {
	a := newAgent(t, map[string]string{"weights": writeWeights(t, model.KindStrategyNet, 6, 1, 8)}, 1)
	for _, size := range []int{8, 4} {
		g, _ := othello.NewSize(size)
		s := g.Initial()
		d, err := a.Choose(context.Background(), turn(s))
		if err == nil {
			t.Errorf("Choose on %s chose %s", g.Name(), s.MoveString(d.Move))
		}
	}
	ipd := mustLookup(t, "ipd")
	s := ipd.NewState()
	if _, err := a.Choose(context.Background(), agent.Turn{Game: ipd, State: s, Seat: 0, Legal: s.LegalMoves(0, nil)}); err == nil {
		t.Error("Choose on an ipd position succeeded")
	}
	g6, _ := othello.NewSize(6)
	if _, err := a.Choose(context.Background(), turn(g6.Initial())); err != nil {
		t.Errorf("Choose on 6x6: %v", err)
	}
}

// TestChooseSeeded: agents of one seed make the same choices in the same sequence of
// turns; another seed makes others. Zero weights make every move a tie, so every choice
// is the random source's.
func TestChooseSeeded(t *testing.T) {
	path := writeWeights(t, model.KindStrategyNet, 8, 0, 9)
	states := randomStates(t, 8, 150, rand.New(rand.NewPCG(10, 10)))
	play := func(seed int64) []game.Move {
		a := newAgent(t, map[string]string{"weights": path, "depth": "2"}, seed)
		var moves []game.Move
		for _, s := range states {
			d, err := a.Choose(context.Background(), turn(s))
			if err != nil {
				t.Fatal(err)
			}
			moves = append(moves, d.Move)
		}
		return moves
	}
	a, b, c := play(11), play(11), play(12)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("two agents of seed 11 chose differently:\n%v\n%v", a, b)
	}
	if reflect.DeepEqual(a, c) {
		t.Error("seeds 11 and 12 chose the same 150 moves among ties")
	}
}

func TestRegistered(t *testing.T) {
	if !agent.Known(learned.Name) {
		t.Fatalf("%q is not registered", learned.Name)
	}
	if got := agent.Games(learned.Name); !reflect.DeepEqual(got[:3], []string{"checkers", "giveaway", "othello"}) {
		t.Errorf("agent.Games = %q, want checkers, giveaway, othello first", got)
	}
	if agent.Doc(learned.Name) == "" {
		t.Error("no description")
	}
	path := writeWeights(t, model.KindTanhLinear, 6, 1, 12)
	a, err := agent.New(learned.Name, agent.Config{Seed: 1, Params: map[string]string{"weights": path, "depth": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	la, ok := a.(*learned.Agent)
	if !ok {
		t.Fatalf("agent.New made a %T", a)
	}
	if la.File().Game != "othello:size=6" {
		t.Errorf("agent plays %s weights", la.File().Game)
	}
	if _, err := agent.New(learned.Name, agent.Config{}); !errors.Is(err, learned.ErrNoWeights) {
		t.Errorf("agent.New without weights: %v", err)
	}
}

// TestChooseConcurrent shares one agent between goroutines; run it with -race.
func TestChooseConcurrent(t *testing.T) {
	a := newAgent(t, map[string]string{"weights": writeWeights(t, model.KindTanhLinear, 6, 1, 13), "depth": "2"}, 1)
	const workers = 8
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		states := randomStates(t, 6, 40, rand.New(rand.NewPCG(uint64(w), 14)))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, s := range states {
				tn := turn(s)
				d, err := a.Choose(context.Background(), tn)
				if err != nil {
					errs <- err
					return
				}
				if !slices.Contains(tn.Legal, d.Move) {
					errs <- fmt.Errorf("%s: chose %s, not among %v", s, s.MoveString(d.Move), tn.Legal)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestDeepSearchStopsAtTheDeadline asks for a depth no move's time allows: the agent must
// answer by the turn's deadline (with some slack, and the process's own lateness on a
// loaded machine: loadmeter.Watch), with a legal move from a shallower search, rather than
// lose on time.
func TestDeepSearchStopsAtTheDeadline(t *testing.T) {
	a := newAgent(t, map[string]string{"weights": writeWeights(t, model.KindTanhLinear, 8, 1, 6), "depth": "12"}, 3)
	rng := rand.New(rand.NewPCG(9, 9))
	for _, s := range randomStates(t, 8, 5, rng) {
		tn := turn(s)
		stop := loadmeter.Watch()
		tn.Deadline = time.Now().Add(50 * time.Millisecond)
		d, err := a.Choose(context.Background(), tn)
		late := time.Since(tn.Deadline)
		if own := stop().Late; late > 50*time.Millisecond+own {
			t.Errorf("%s: answered %v after the deadline (the process %v late)", s, late, own)
		}
		if err != nil || !slices.Contains(tn.Legal, d.Move) || d.Info.Depth < 1 || d.Info.Depth >= 12 {
			t.Errorf("%s: %+v, %v; want a legal move from a search cut short", s, d, err)
		}
	}
}
