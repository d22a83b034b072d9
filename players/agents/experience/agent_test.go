package experience

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/games/othello"
	_ "github.com/arenaref/arena/players/agents/minimax"
	"github.com/arenaref/arena/players/player/local"
	"github.com/arenaref/arena/protocol"
)

func newAgent(t *testing.T, params map[string]string) *Agent {
	t.Helper()
	a, err := New(agent.Config{Seed: 1, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

func opponent(t *testing.T, depth string) agent.Agent {
	t.Helper()
	a, err := agent.New("minimax", agent.Config{Params: map[string]string{"depth": depth, "tt": "0", "exact": "0"}})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestAgentParams(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "six.db")
	a := newAgent(t, map[string]string{"base": existing, "size": "6"})
	a.Close()
	for _, tc := range []struct {
		name   string
		params map[string]string
		want   string
	}{
		{"no base", map[string]string{}, "base=PATH"},
		{"unknown option", map[string]string{"base": filepath.Join(dir, "a.db"), "depth": "2"}, `unknown option "depth"`},
		{"bad learn", map[string]string{"base": filepath.Join(dir, "a.db"), "learn": "maybe"}, "learn"},
		{"itself as fallback", map[string]string{"base": filepath.Join(dir, "a.db"), "fallback": "experience"}, "cannot be the experience agent"},
		{"unknown fallback", map[string]string{"base": filepath.Join(dir, "a.db"), "fallback": "nobody"}, "unknown agent"},
		{"bad fallback option", map[string]string{"base": filepath.Join(dir, "a.db"), "fb.bogus": "1"}, "bogus"},
		{"bad size", map[string]string{"base": filepath.Join(dir, "a.db"), "size": "5"}, "size"},
		{"base of another game", map[string]string{"base": existing}, "othello:size=6"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(agent.Config{Params: tc.params})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New = %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
	if _, err := New(agent.Config{Params: map[string]string{}}); !errors.Is(err, ErrNoBase) {
		t.Errorf("no base: %v, want ErrNoBase", err)
	}
}

// TestAgentWrongGame: a game other than the base's, another board size or not Othello at
// all, is refused by CheckGame and by Choose with an error wrapping agent.ErrWrongGame, as
// a tournament and the player runtime expect (playertest found CheckGame's plain error).
func TestAgentWrongGame(t *testing.T) {
	a := newAgent(t, map[string]string{"base": filepath.Join(t.TempDir(), "six.db"), "size": "6"})
	for _, g := range []game.Game{othello.New(), checkers.New(checkers.Standard)} {
		err := a.CheckGame(g)
		if !errors.Is(err, agent.ErrWrongGame) || !strings.Contains(err.Error(), "othello:size=6") {
			t.Errorf("CheckGame(%s) = %v, want an error wrapping agent.ErrWrongGame naming the base's game", g.Name(), err)
		}
		st := g.NewState()
		_, err = a.Choose(context.Background(), agent.Turn{GameID: "g", Game: g, State: st, Seat: 0, Legal: st.LegalMoves(0, nil)})
		if !errors.Is(err, agent.ErrWrongGame) {
			t.Errorf("Choose on %s = %v, want an error wrapping agent.ErrWrongGame", g.Name(), err)
		}
	}
}

// TestAgentLearns plays the agent against minimax in process, checks that each game is
// merged, that the replies say where the moves came from, and that what it learned
// survives closing and reopening the base.
func TestAgentLearns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gina.db")
	g, _ := othello.NewSize(6)
	a := newAgent(t, map[string]string{"base": path, "size": "6"})
	if err := a.CheckGame(othello.New()); err == nil {
		t.Error("CheckGame accepted 8x8 for a 6x6 base")
	}
	if err := a.CheckGame(g); err != nil {
		t.Errorf("CheckGame(6x6): %v", err)
	}
	opp := opponent(t, "3")
	for i := range 6 {
		seats := []local.Player{{Name: "gina", Agent: a}, {Name: "mm", Agent: opp}}
		if i%2 == 1 {
			seats[0], seats[1] = seats[1], seats[0]
		}
		res, err := local.Play(context.Background(), g, nil, seats, "g"+string(rune('0'+i)))
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Err(); err != nil {
			t.Fatal(err)
		}
		for ply, info := range res.Info {
			mine := (ply%2 == 0) == (i%2 == 0) // gina moves on even plies as black, odd as white (no passes early on)
			if mine && ply < 6 && (info == nil || !strings.HasPrefix(info.Note, "experience: ")) {
				t.Fatalf("game %d ply %d: note %+v", i, ply, info)
			}
		}
	}
	rows, err := a.Base().Games()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 {
		t.Fatalf("%d games merged, want 6", len(rows))
	}
	if rows[0].Hits != 0 || rows[0].Decisions == 0 {
		t.Errorf("first game: %d of %d moves from an empty base", rows[0].Hits, rows[0].Decisions)
	}
	// Which later game takes moves from the base depends on the fallback's random
	// choices among tied moves (ties=random): one of the five must.
	hits := 0
	for _, r := range rows[1:] {
		hits += r.Hits
	}
	if hits == 0 {
		t.Errorf("no move of the games after the first came from the base")
	}
	st, _ := a.Base().Stats()
	if n := a.Base().Nodes(); n != st.Nodes || n == 0 {
		t.Errorf("Nodes = %d, Stats says %d", n, st.Nodes)
	}
	a.Close()

	// Reopened, the base is the same, and the first position is known.
	b := newAgent(t, map[string]string{"base": path, "size": "6"})
	st2, _ := b.Base().Stats()
	if st2.Nodes != st.Nodes || st2.Games != 6 {
		t.Errorf("reopened: %d nodes, %d games; want %d and 6", st2.Nodes, st2.Games, st.Nodes)
	}
	if _, ok := b.Base().Node(KeyOf(g.Initial())); !ok {
		t.Error("the initial position is not in the reopened base")
	}
}

// TestAgentLearnsOnlyFinishedGames checks that learn=false and games cut short teach
// nothing.
func TestAgentLearnsOnlyFinishedGames(t *testing.T) {
	g, _ := othello.NewSize(4)
	static := newAgent(t, map[string]string{"base": filepath.Join(t.TempDir(), "s.db"), "size": "4", "learn": "false"})
	if _, err := local.Play(context.Background(), g, nil, []local.Player{{Name: "s", Agent: static}, {Name: "mm", Agent: opponent(t, "1")}}, "x"); err != nil {
		t.Fatal(err)
	}
	if st, _ := static.Base().Stats(); st.Games != 0 || st.Nodes != 0 {
		t.Errorf("learn=false merged: %+v", st)
	}

	a := newAgent(t, map[string]string{"base": filepath.Join(t.TempDir(), "a.db"), "size": "4"})
	start := protocol.GameNotice{V: 1, Type: protocol.TypeGameStart, GameID: "f", Game: g.Name(), Position: g.Initial().String()}
	a.GameStarted(start)
	end := start
	end.Type, end.Moves, end.Reason = protocol.TypeGameEnd, []string{"b1"}, protocol.ReasonTimeForfeit
	a.GameEnded(end)
	if st, _ := a.Base().Stats(); st.Games != 0 {
		t.Errorf("a forfeited game was merged: %+v", st)
	}
	// An end notice of a game whose start the agent never saw is ignored too.
	end.GameID, end.Reason = "unseen", protocol.ReasonNormal
	a.GameEnded(end)
	if st, _ := a.Base().Stats(); st.Games != 0 {
		t.Errorf("a game without its start was merged: %+v", st)
	}
	if err := a.Err(); err != nil {
		t.Errorf("Err = %v", err)
	}
}

// TestAgentConcurrentGames plays several games at once through one agent and base.
func TestAgentConcurrentGames(t *testing.T) {
	g, _ := othello.NewSize(6)
	a := newAgent(t, map[string]string{"base": filepath.Join(t.TempDir(), "c.db"), "size": "6"})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			opp := opponent(t, "1")
			seats := []local.Player{{Name: "gina", Agent: a}, {Name: "mm", Agent: opp}}
			if i%2 == 1 {
				seats[0], seats[1] = seats[1], seats[0]
			}
			_, err := local.Play(context.Background(), g, nil, seats, "c"+string(rune('a'+i)))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Err(); err != nil {
		t.Fatal(err)
	}
	st, _ := a.Base().Stats()
	if st.Games != 8 {
		t.Errorf("%d games merged, want 8", st.Games)
	}
}

func TestLastGame(t *testing.T) {
	a := newAgent(t, map[string]string{"base": filepath.Join(t.TempDir(), "l.db"), "size": "4"})
	if _, ok, err := a.Base().LastGame(); ok || err != nil {
		t.Fatalf("empty base: LastGame = %v, %v", ok, err)
	}
	g, _ := othello.NewSize(4)
	for i, id := range []string{"first", "second"} {
		if _, err := local.Play(context.Background(), g, nil, []local.Player{{Name: "a", Agent: a}, {Name: "m", Agent: opponent(t, "1")}}, id); err != nil {
			t.Fatal(err)
		}
		last, ok, err := a.Base().LastGame()
		if err != nil || !ok || last.GameID != id || last.N != int64(i+1) {
			t.Errorf("after %s: LastGame = %+v, %v, %v", id, last, ok, err)
		}
	}
}
