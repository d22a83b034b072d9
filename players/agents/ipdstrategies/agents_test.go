package ipdstrategies_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/ipd"
	pipd "github.com/arenaref/arena/players/agents/ipdstrategies"
	"github.com/arenaref/arena/players/agents/random"
)

var allAgents = []string{
	pipd.Satisficing, pipd.TitForTat, pipd.AlwaysCooperate, pipd.AlwaysDefect, pipd.GrimTrigger,
	pipd.WinStayLoseShift, pipd.TitForTwoTats, pipd.GenerousTitForTat, random.Name,
}

func newAgent(t testing.TB, name string, params map[string]string) agent.Agent {
	t.Helper()
	a, err := agent.New(name, agent.Config{Seed: 1, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func lookup(t testing.TB, spec string) *ipd.Game {
	t.Helper()
	g, err := game.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*ipd.Game)
}

// play runs a game in process, as the referee would but without NATS: each round both
// agents get a Turn built from the same position, then the joint move is applied. It
// returns the final state.
func play(t testing.TB, g *ipd.Game, gameID string, a, b agent.Agent) *ipd.State {
	t.Helper()
	st, err := playErr(g, gameID, a, b)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func playErr(g *ipd.Game, gameID string, a, b agent.Agent) (*ipd.State, error) {
	st := g.NewState().(*ipd.State)
	var moves []string
	seatAgents := []agent.Agent{a, b}
	for !st.IsTerminal() {
		joint := make([]game.Move, 2)
		for seat, ag := range seatAgents {
			obs, err := json.Marshal(st.Observation(game.Seat(seat)))
			if err != nil {
				return nil, err
			}
			legal := st.LegalMoves(game.Seat(seat), nil)
			d, err := ag.Choose(context.Background(), agent.Turn{
				GameID: gameID, Game: g, State: st.Clone(), Seat: game.Seat(seat),
				Legal: legal, Moves: slices.Clone(moves), Observation: obs,
			})
			if err != nil {
				return nil, err
			}
			if d.Resign || !slices.Contains(legal, d.Move) {
				return nil, fmt.Errorf("seat %d: decision %+v at %q", seat, d, st)
			}
			joint[seat] = d.Move
		}
		moves = append(moves, st.MoveString(joint[0])+","+st.MoveString(joint[1]))
		if err := st.PlayJoint(joint); err != nil {
			return nil, err
		}
	}
	return st, nil
}

func TestRegistered(t *testing.T) {
	for _, name := range allAgents[:len(allAgents)-1] {
		if !agent.Known(name) {
			t.Errorf("agent %q not registered", name)
		}
		if got := agent.Games(name); !reflect.DeepEqual(got, []string{ipd.Name}) {
			t.Errorf("%s plays %v, want [ipd]", name, got)
		}
		if agent.Doc(name) == "" {
			t.Errorf("%s has no doc", name)
		}
	}
}

// The paper's Fig. 2: a satisficing agent (lambda 0.5, A_0 = C, alpha_0 = 4) against
// tit-for-tat with the Fig. 1 payoffs. Row t holds tit-for-tat's action, the satisficing
// agent's action A_t, its payoff pi_t, and alpha_t, the aspiration it held during round t
// (compared with pi_t to choose A_{t+1}, then updated by eq. 1). The paper prints 2.87 for
// alpha_3, which is 2.875 rounded.
func TestPaperWorkedExample(t *testing.T) {
	g := lookup(t, "ipd:payoff=fig1,rounds=4")
	sat := newAgent(t, pipd.Satisficing, map[string]string{"lambda": "0.5", "aspiration": "4", "initial": "C"})
	st := play(t, g, "fig2", sat, newAgent(t, pipd.TitForTat, nil))

	wantTFT := []string{"C", "C", "D", "D"}
	wantA := []string{"C", "D", "D", "C"}
	wantPay := []float64{3, 4, 2, 1}
	wantAsp := []float64{4, 3.5, 3.75, 2.875}
	p := pipd.Satisficer{Lambda: 0.5, Aspiration: 4, Initial: ipd.C}
	var own []game.Move
	var pays []float64
	for i := range 4 {
		j := st.Actions(i)
		if got := st.MoveString(j[1]); got != wantTFT[i] {
			t.Errorf("t=%d: tit-for-tat played %s, want %s", i, got, wantTFT[i])
		}
		if got := st.MoveString(j[0]); got != wantA[i] {
			t.Errorf("t=%d: A_t = %s, want %s", i, got, wantA[i])
		}
		if got := st.Payoffs(i)[0]; got != wantPay[i] {
			t.Errorf("t=%d: pi_t = %v, want %v", i, got, wantPay[i])
		}
		// alpha_t is the aspiration after the rounds before t.
		next, asp := p.Replay(own, pays)
		if asp != wantAsp[i] {
			t.Errorf("t=%d: alpha_t = %v, want %v", i, asp, wantAsp[i])
		}
		if st.MoveString(next) != wantA[i] {
			t.Errorf("t=%d: the rule chose %s, want %s", i, st.MoveString(next), wantA[i])
		}
		own = append(own, j[0])
		pays = append(pays, st.Payoffs(i)[0])
	}
	// After round 3 (payoff 1 below 2.875) the agent switches back to D.
	if next, asp := p.Replay(own, pays); next != ipd.D || asp != 1.9375 {
		t.Errorf("after t=3: %v, %v; want D, 1.9375", next, asp)
	}
}

// Issue 6 (d): exact totals over 200 rounds of the standard matrix.
func TestPairwiseTotals(t *testing.T) {
	tests := []struct {
		a, b string
		want []float64
	}{
		{pipd.TitForTat, pipd.TitForTat, []float64{600, 600}},
		{pipd.TitForTat, pipd.AlwaysDefect, []float64{199, 204}},
		{pipd.AlwaysDefect, pipd.AlwaysDefect, []float64{200, 200}},
		{pipd.AlwaysCooperate, pipd.AlwaysDefect, []float64{0, 1000}},
		{pipd.AlwaysDefect, pipd.TitForTat, []float64{204, 199}},
		{pipd.GrimTrigger, pipd.AlwaysDefect, []float64{199, 204}},
		{pipd.TitForTwoTats, pipd.AlwaysDefect, []float64{198, 208}},
		{pipd.WinStayLoseShift, pipd.AlwaysDefect, []float64{100, 600}},
		{pipd.WinStayLoseShift, pipd.TitForTat, []float64{600, 600}},
		{pipd.GenerousTitForTat, pipd.AlwaysCooperate, []float64{600, 600}},
	}
	g := lookup(t, "ipd")
	if g.Length() != 200 {
		t.Fatalf("ipd lasts %d rounds", g.Length())
	}
	for _, tt := range tests {
		t.Run(tt.a+"_v_"+tt.b, func(t *testing.T) {
			st := play(t, g, "pair", newAgent(t, tt.a, nil), newAgent(t, tt.b, nil))
			if got := st.Returns(nil); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("totals %v, want %v", got, tt.want)
			}
		})
	}
}

func TestStrategies(t *testing.T) {
	g := lookup(t, "ipd:rounds=10")
	tests := []struct {
		agent    string
		position string // the agent is the first seat
		want     string
	}{
		{pipd.TitForTat, "0/10 -", "C"},
		{pipd.TitForTat, "2/10 CC,CD", "D"},
		{pipd.TitForTat, "2/10 CD,DC", "C"},
		{pipd.GrimTrigger, "3/10 CD,DC,CC", "D"},
		{pipd.GrimTrigger, "3/10 CC,DC,CC", "C"},
		{pipd.WinStayLoseShift, "0/10 -", "C"},
		{pipd.WinStayLoseShift, "1/10 DC", "D"},
		{pipd.WinStayLoseShift, "1/10 DD", "C"},
		{pipd.WinStayLoseShift, "1/10 CD", "D"},
		{pipd.TitForTwoTats, "2/10 CC,CD", "C"},
		{pipd.TitForTwoTats, "3/10 CD,CC,CD", "C"},
		{pipd.TitForTwoTats, "3/10 CC,CD,CD", "D"},
		{pipd.AlwaysCooperate, "1/10 CD", "C"},
		{pipd.AlwaysDefect, "0/10 -", "D"},
	}
	for _, tt := range tests {
		t.Run(tt.agent+" "+tt.position, func(t *testing.T) {
			st, err := g.ParseState(tt.position)
			if err != nil {
				t.Fatal(err)
			}
			d, err := newAgent(t, tt.agent, nil).Choose(context.Background(), agent.Turn{
				GameID: "x", Game: g, State: st, Seat: 0, Legal: st.LegalMoves(0, nil)})
			if err != nil {
				t.Fatal(err)
			}
			if got := st.MoveString(d.Move); got != tt.want {
				t.Errorf("played %s, want %s", got, tt.want)
			}
		})
	}
}

func TestGenerosity(t *testing.T) {
	g := lookup(t, "ipd")
	rate := func(params map[string]string, seed int64) float64 {
		a, err := agent.New(pipd.GenerousTitForTat, agent.Config{Seed: seed, Params: params})
		if err != nil {
			t.Fatal(err)
		}
		st := play(t, g, "gen", a, newAgent(t, pipd.AlwaysDefect, nil))
		c := 0
		for i := 1; i < st.Round(); i++ {
			if st.Actions(i)[0] == ipd.C {
				c++
			}
		}
		return float64(c) / float64(st.Round()-1)
	}
	sum := 0.0
	for seed := range int64(10) {
		sum += rate(nil, seed)
	}
	// 1,990 draws; the standard error of the mean is about 0.0106.
	if mean := sum / 10; mean < 1.0/3-0.05 || mean > 1.0/3+0.05 {
		t.Errorf("forgave %v of defections, want about 1/3", mean)
	}
	if r := rate(map[string]string{"generosity": "0"}, 1); r != 0 {
		t.Errorf("generosity 0 forgave %v", r)
	}
	if r := rate(map[string]string{"generosity": "1"}, 1); r != 1 {
		t.Errorf("generosity 1 forgave %v", r)
	}
	if rate(nil, 3) != rate(nil, 3) {
		t.Errorf("same seed, different choices")
	}
}

func TestBadParams(t *testing.T) {
	for _, tt := range []struct {
		name   string
		params map[string]string
	}{
		{pipd.Satisficing, map[string]string{"lambda": "1.5"}},
		{pipd.Satisficing, map[string]string{"lambda": "x"}},
		{pipd.Satisficing, map[string]string{"aspiration": "NaN"}},
		{pipd.Satisficing, map[string]string{"initial": "X"}},
		{pipd.Satisficing, map[string]string{"alpha": "1"}},
		{pipd.GenerousTitForTat, map[string]string{"generosity": "-0.1"}},
		{pipd.TitForTat, map[string]string{"generosity": "0.1"}},
	} {
		if _, err := agent.New(tt.name, agent.Config{Params: tt.params}); err == nil {
			t.Errorf("%s %v: no error", tt.name, tt.params)
		}
	}
	if _, err := agent.New(pipd.Satisficing, agent.Config{Params: map[string]string{"initial": "d", "lambda": "0.9", "aspiration": "0.7"}}); err != nil {
		t.Errorf("valid params refused: %v", err)
	}
}

// Every agent, random included, plays every option set, and the same agent value serves
// many games at once (run with -race).
func TestAllAgentsConcurrently(t *testing.T) {
	specs := []string{"ipd:rounds=20", "ipd:payoff=fig1,rounds=20", "ipd:payoff=general,sigma=0.8,delta=0.3,rounds=30,continue=0.9,noise=0.1,seed=5"}
	built := make([]agent.Agent, len(allAgents))
	for i, name := range allAgents {
		built[i] = newAgent(t, name, nil)
	}
	var wg sync.WaitGroup
	for _, spec := range specs {
		g := lookup(t, spec)
		for i := range built {
			for j := range built {
				wg.Add(1)
				go func() {
					defer wg.Done()
					st, err := playErr(g, fmt.Sprintf("%s-%d-%d", spec, i, j), built[i], built[j])
					if err != nil {
						t.Errorf("%s v %s: %v", allAgents[i], allAgents[j], err)
					} else if !st.IsTerminal() {
						t.Errorf("%s v %s not over", allAgents[i], allAgents[j])
					}
				}()
			}
		}
	}
	wg.Wait()
}

func TestWrongGame(t *testing.T) {
	a := newAgent(t, pipd.TitForTat, nil)
	if _, err := a.Choose(context.Background(), agent.Turn{}); err == nil {
		t.Error("no error without an ipd position")
	}
}
