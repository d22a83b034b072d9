package local

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/testutil/testgame"
	_ "github.com/arenaref/arena/players/agents/heuristic"
	"github.com/arenaref/arena/players/agents/random"
	"github.com/arenaref/arena/protocol"
)

// recorder is a random player that keeps the notices it is sent and the turns it sees.
type recorder struct {
	agent.Agent
	notices []protocol.GameNotice
	turns   int
}

func (r *recorder) Choose(ctx context.Context, t agent.Turn) (agent.Decision, error) {
	r.turns++
	return r.Agent.Choose(ctx, t)
}
func (r *recorder) GameStarted(n protocol.GameNotice) { r.notices = append(r.notices, n) }
func (r *recorder) GameEnded(n protocol.GameNotice)   { r.notices = append(r.notices, n) }

func TestPlay(t *testing.T) {
	g, err := othello.NewSize(6)
	if err != nil {
		t.Fatal(err)
	}
	rnd, _ := random.New(agent.Config{Seed: 1})
	hp1, err := agent.New("hp1", agent.Config{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{Agent: rnd}
	res, err := Play(context.Background(), g, nil, []Player{{"rec", rec}, {"hp1", hp1}}, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Final.IsTerminal() || len(res.Moves) == 0 || len(res.Info) != len(res.Moves) {
		t.Fatalf("result: terminal %v, %d moves, %d infos", res.Final.IsTerminal(), len(res.Moves), len(res.Info))
	}
	// Replaying the moves reaches the final position.
	s := g.NewState()
	for _, text := range res.Moves {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if s.String() != res.Final.String() {
		t.Errorf("moves lead to %s, final is %s", s, res.Final)
	}
	if len(rec.notices) != 2 {
		t.Fatalf("%d notices, want start and end", len(rec.notices))
	}
	start, end := rec.notices[0], rec.notices[1]
	if start.Type != protocol.TypeGameStart || start.GameID != "g1" || start.Seat != 0 || start.Position != g.NewState().String() {
		t.Errorf("start notice %+v", start)
	}
	if end.Type != protocol.TypeGameEnd || len(end.Moves) != len(res.Moves) || end.Position != res.Final.String() || end.Reason != protocol.ReasonNormal {
		t.Errorf("end notice %+v", end)
	}
	want := map[bool]string{true: "1-0", false: "0-1"}[res.Returns[0] > res.Returns[1]]
	if res.Returns[0] == res.Returns[1] {
		want = "1/2-1/2"
	}
	if end.Result != want {
		t.Errorf("result %q, want %q", end.Result, want)
	}
	if rec.turns == 0 {
		t.Error("the recorder never moved")
	}
}

func TestPlayErrors(t *testing.T) {
	g := othello.New()
	rnd, _ := random.New(agent.Config{Seed: 1})
	illegal := agent.Func(func(context.Context, agent.Turn) (agent.Decision, error) {
		return agent.Decision{Move: 0}, nil // a1 is never legal at the start
	})
	failing := agent.Func(func(context.Context, agent.Turn) (agent.Decision, error) {
		return agent.Decision{}, errors.New("broken")
	})
	for _, tc := range []struct {
		name  string
		seats []Player
		want  string
	}{
		{"illegal move", []Player{{"bad", illegal}, {"r", rnd}}, "bad played a1"},
		{"agent error", []Player{{"bad", failing}, {"r", rnd}}, "broken"},
		{"one player", []Player{{"r", rnd}}, "1 players for 2 seats"},
	} {
		if _, err := Play(context.Background(), g, nil, tc.seats, "g"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := Play(context.Background(), testgame.NewPennies(3), nil, []Player{{"a", rnd}, {"b", rnd}}, "g"); !errors.Is(err, ErrNotSequential) {
		t.Errorf("pennies: %v, want ErrNotSequential", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Play(ctx, g, nil, []Player{{"a", rnd}, {"b", rnd}}, "g"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
