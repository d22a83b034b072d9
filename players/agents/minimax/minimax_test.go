package minimax

import (
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/checkers"
	"github.com/arenaref/arena/games/othello"
	_ "github.com/arenaref/arena/internal/testutil/testgame"
	_ "github.com/arenaref/arena/players/agents/random"
	"github.com/arenaref/arena/players/ai/boards"
	"github.com/arenaref/arena/players/ai/search"
	"github.com/arenaref/arena/protocol"
)

func TestMobilityMatchesMoveMask(t *testing.T) {
	for _, n := range othello.Sizes() {
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		for range 300 {
			s := newGame(t, n).Initial()
			randomPlay(t, s, rng, rng.IntN(n*n))
			black, white := s.Bitboards()
			g := geometries[n]
			me, opp := black, white
			if s.Side() == othello.White {
				me, opp = opp, me
			}
			if got, want := mobility(me, opp, g.board), s.MoveMask(); got != want {
				t.Fatalf("%dx%d %s: mobility %x, MoveMask %x", n, n, s, got, want)
			}
			// The other side's moves, through a copy with the turn handed over.
			o, err := s.Game().FromBitboards(black, white, 1-s.Side())
			if err != nil {
				t.Fatal(err)
			}
			if got, want := mobility(opp, me, g.board), o.MoveMask(); got != want {
				t.Fatalf("%dx%d %s: opponent mobility %x, MoveMask %x", n, n, s, got, want)
			}
		}
	}
}

// TestStableDiscsNeverFlip plays random games and checks that a disc found stable keeps
// its colour to the end.
func TestStableDiscsNeverFlip(t *testing.T) {
	found := 0
	for _, n := range othello.Sizes() {
		g := geometries[n]
		rng := rand.New(rand.NewPCG(uint64(n), 2))
		for range 200 {
			s := newGame(t, n).Initial()
			var stableBlack, stableWhite uint64
			for !s.IsTerminal() {
				randomPlay(t, s, rng, 1)
				black, white := s.Bitboards()
				if lost := stableBlack&^black | stableWhite&^white; lost != 0 {
					t.Fatalf("%dx%d %s: discs %x were stable and flipped", n, n, s, lost)
				}
				stableBlack |= g.stable(black, black|white)
				stableWhite |= g.stable(white, black|white)
			}
			found += bits.OnesCount64(stableBlack | stableWhite)
		}
	}
	if found == 0 {
		t.Error("no stable disc found in any game")
	}
}

func TestStableFullBoard(t *testing.T) {
	g := geometries[8]
	if got := g.stable(0x00ff00ff00ff00ff, ^uint64(0)); got != 0x00ff00ff00ff00ff {
		t.Errorf("full board: stable %x", got)
	}
	// A lone corner is stable, its X-square is not.
	if got := g.stable(1|1<<9, 1|1<<9|1<<18); got != 1 {
		t.Errorf("corner and X-square: stable %x, want the corner", got)
	}
}

// TestExactSolveMatchesBruteForce solves endgames of every size with the search and with
// plain minimax over the game's rules, passes included.
func TestExactSolveMatchesBruteForce(t *testing.T) {
	passes := 0
	for _, tc := range []struct{ n, empties, count int }{{4, 10, 20}, {6, 9, 12}, {8, 9, 10}, {8, 6, 20}} {
		a := newAgent(t, map[string]string{"depth": "1"})
		for _, s := range positions(t, tc.n, tc.empties, tc.count, uint64(tc.n*100+tc.empties)) {
			want := solve(s, &passes)
			r := search.New[game.Move](search.Config{MoveIndices: boards.OthelloMoveIndices}).
				Search(context.Background(), positionAt(t, othelloGame{}, s), search.Limits{})
			if !r.Exact || scoreDiscs(r.Score) != float64(want) {
				t.Fatalf("%s: search %v (exact %v), brute force %d", s, scoreDiscs(r.Score), r.Exact, want)
			}
			// The agent in fixed-depth mode solves at this many empties too.
			d, err := a.Choose(context.Background(), turnFor(s))
			if err != nil {
				t.Fatal(err)
			}
			c := *s
			if err := c.Play(d.Move); err != nil {
				t.Fatal(err)
			}
			if got := -solve(&c, new(int)); got != want {
				t.Fatalf("%s: agent plays %s worth %d, best is %d", s, othello.MoveString(d.Move), got, want)
			}
		}
	}
	if passes == 0 {
		t.Error("no pass met in any endgame")
	}
}

// A position where white's only winning move is the corner h8 (found by a brute-force
// scan of random endgames; TestForcedCornerWin checks it by brute force again).
const cornerWin = "OXXXXXX-OOXXXOO-OOXXOX-O-OXXOOXOOOXXXXOOXOXXXOXO-OOX-OOX-OOO-OX- O"

func TestForcedCornerWin(t *testing.T) {
	s, err := othello.Parse(cornerWin)
	if err != nil {
		t.Fatal(err)
	}
	var winning []game.Move
	for _, m := range s.LegalMoves(s.ToMove(), nil) {
		c := *s
		_ = c.Play(m)
		if -solve(&c, new(int)) > 0 {
			winning = append(winning, m)
		}
	}
	if len(winning) != 1 || (winning[0] != 7 && winning[0] != 56 && winning[0] != 63) {
		t.Fatalf("winning moves %v, want one corner", winning)
	}
	for _, params := range []map[string]string{nil, {"depth": "2"}, {"depth": "1", "exact": "0"}} {
		tu := turnFor(s)
		tu.Deadline = time.Now().Add(500 * time.Millisecond)
		d, err := newAgent(t, params).Choose(context.Background(), tu)
		if err != nil {
			t.Fatal(err)
		}
		if params["exact"] == "0" {
			continue // a one-ply look need not see it; only legality is asked
		}
		if d.Move != winning[0] || d.Info.Score <= 0 {
			t.Errorf("params %v: played %s (info %+v), want %s", params, othello.MoveString(d.Move), d.Info, othello.MoveString(winning[0]))
		}
	}
}

// TestSearchMatchesMinimax: a fixed-depth search of every game, with or without the
// transposition table, has the value of plain minimax at that depth (capture sequences
// played out in checkers), and an exact result is a proven one or a draw.
func TestSearchMatchesMinimax(t *testing.T) {
	for _, sm := range samples(t, 12, 3) {
		t.Run(sm.name, func(t *testing.T) {
			_, g, err := lookup(sm.game, sm.name)
			if err != nil {
				t.Fatal(err)
			}
			with := search.New[game.Move](search.Config{MoveIndices: g.MoveIndices(), TableBytes: 1 << 20})
			without := search.New[game.Move](search.Config{MoveIndices: g.MoveIndices(), TableBytes: -1})
			pos := g.NewPosition()
			for i, s := range sm.states {
				for depth := 1; depth <= 4; depth++ {
					if err := pos.Reset(s); err != nil {
						t.Fatal(err)
					}
					want := plainValue(pos, depth)
					for name, sr := range map[string]*search.Searcher[game.Move]{"table": with, "no table": without} {
						r := sr.Search(context.Background(), pos, search.Limits{Depth: depth})
						if r.Score != want || (r.Depth != depth && !r.Exact) {
							t.Fatalf("position %d %s depth %d, %s: %d (depth %d), plain minimax %d", i, s, depth, name, r.Score, r.Depth, want)
						}
						if r.Exact && search.Proven(r.Score) == 0 && r.Score != 0 {
							t.Fatalf("position %d %s: exact score %d neither a result nor a draw", i, s, r.Score)
						}
					}
				}
			}
		})
	}
}

// playGame plays one game between two agents from the given opening, black first, and
// returns the final position. Every move is checked to be in the turn's legal list.
func playGame(t testing.TB, agents [2]agent.Agent, opening []string, n int, moveTime time.Duration) *othello.State {
	t.Helper()
	s := newGame(t, n).Initial()
	for _, text := range opening {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	for !s.IsTerminal() {
		tu := turnFor(s)
		tu.State = s.Clone()
		if moveTime > 0 {
			tu.Deadline = time.Now().Add(moveTime)
			tu.Clock = protocol.Clock{MoveMS: moveTime.Milliseconds(), RemainingMS: moveTime.Milliseconds(), PerMove: true}
		}
		d, err := agents[s.Side()].Choose(context.Background(), tu)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(tu.Legal, d.Move) {
			t.Fatalf("%s: illegal move %d (legal %v)", s, d.Move, tu.Legal)
		}
		if err := s.Play(d.Move); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestMovesAlwaysLegal(t *testing.T) {
	rnd, err := agent.New("random", agent.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range othello.Sizes() {
		for _, params := range []map[string]string{{"depth": "3", "exact": "8"}, nil} {
			a := newAgent(t, params)
			for g := range 2 {
				agents := [2]agent.Agent{a, rnd}
				if g == 1 {
					agents = [2]agent.Agent{rnd, a}
				}
				playGame(t, agents, nil, n, 5*time.Millisecond)
			}
		}
	}
}

// TestFixedDepthDeterministic: in every game a fixed-depth search gives the same
// decision whatever earlier searches left in the table.
func TestFixedDepthDeterministic(t *testing.T) {
	params := map[string]string{"depth": "5"}
	for _, sm := range samples(t, 10, 5) {
		t.Run(sm.name, func(t *testing.T) {
			fresh, used := newAgent(t, params), newAgent(t, params)
			for _, s := range sm.states[len(sm.states)/2:] {
				decide(t, used, turnOf(sm.game, s))
			}
			for _, s := range sm.states[:len(sm.states)/2] {
				a, b := decide(t, fresh, turnOf(sm.game, s)), decide(t, used, turnOf(sm.game, s))
				if a.Move != b.Move || a.Info.Score != b.Info.Score || a.Info.Nodes != b.Info.Nodes || !slices.Equal(a.Info.PV, b.Info.PV) {
					t.Errorf("%s: %+v, then %+v", s, a, b)
				}
				if a.Info.Depth < 1 || len(a.Info.PV) == 0 || a.Info.PV[0] != s.MoveString(a.Move) {
					t.Errorf("%s: info %+v for move %s", s, a.Info, s.MoveString(a.Move))
				}
			}
		})
	}
}

func TestParams(t *testing.T) {
	for _, tc := range []struct {
		params map[string]string
		err    string
	}{
		{map[string]string{"depht": "3"}, `unknown option "depht"`},
		{map[string]string{"depth": "0"}, "depth"},
		{map[string]string{"depth": "x"}, "depth"},
		{map[string]string{"depth": "129"}, "depth"},
		{map[string]string{"tt": "-1"}, "tt"},
		{map[string]string{"exact": "129"}, "exact"},
		{map[string]string{"depth": "4", "tt": "0", "exact": "0"}, ""},
		{map[string]string{"depth": "2", "ties": "bogus"}, `ties="bogus"`},
		{map[string]string{"ties": "random"}, "needs depth"},
		{map[string]string{"ties": "first"}, ""},
		{map[string]string{"depth": "2", "ties": "random"}, ""},
	} {
		_, err := agent.New(Name, agent.Config{Params: tc.params})
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%v: %v", tc.params, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v: error %v, want one mentioning %q", tc.params, err, tc.err)
		}
	}
	// testcount is count_test.go's.
	if games := agent.Games(Name); !slices.Equal(games, []string{"checkers", "giveaway", "othello", "testcount"}) {
		t.Errorf("registered for %v", games)
	}
}

// TestRefuses: a turn of a game the agent was not taught, of a state that does not fit
// its game, for the wrong seat or after the end of the game is an error, wrapping
// agent.ErrWrongGame when the game is wrong.
func TestRefuses(t *testing.T) {
	a := newAgent(t, map[string]string{"depth": "2"})
	pennies, err := game.Lookup("testpennies")
	if err != nil {
		t.Fatal(err)
	}
	ch := checkers.New(checkers.Standard).Initial()
	wrongSeat := turnOf(ch.Game(), ch)
	wrongSeat.Seat = checkers.White
	over := checkersState(t, checkers.Giveaway, []int{14}, nil, nil, checkers.White)
	for _, tc := range []struct {
		name      string
		turn      agent.Turn
		wrongGame bool
	}{
		{"no game", agent.Turn{State: othello.NewState()}, true},
		{"no state", agent.Turn{Game: othello.New()}, true},
		{"unknown game", turnOf(pennies, pennies.NewState()), true},
		{"checkers state for othello", agent.Turn{Game: othello.New(), State: ch, Seat: ch.ToMove()}, true},
		{"nil othello state", agent.Turn{Game: othello.New(), State: (*othello.State)(nil)}, true},
		{"wrong seat", wrongSeat, false},
		{"game over", agent.Turn{Game: over.Game(), State: over, Seat: checkers.White, Legal: []game.Move{0}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := a.Choose(context.Background(), tc.turn)
			if err == nil || errors.Is(err, agent.ErrWrongGame) != tc.wrongGame {
				t.Errorf("error %v; want one, wrapping ErrWrongGame: %v", err, tc.wrongGame)
			}
		})
	}
}

// TestTenMillisecondsPerMove gives the agent turns of every game whose deadline is 9ms
// away, as the runtime does for 10ms per move, and checks that it always answers in time.
// The machine may be busy with other work (other tests, other builds): a late answer is
// asked again up to four times, after pauses of 50, 100, 200 and 400ms that let a burst
// of load pass (CI once saw one position 7ms late three times in a row while other
// packages' tests shared its two cores), and only a position late all five times fails,
// since a search that ignores its deadline is late every time while a descheduled
// process rarely is.
func TestTenMillisecondsPerMove(t *testing.T) {
	const slack = 3 * time.Millisecond
	a := newAgent(t, nil)
	var worst time.Duration
	retries := 0
	for _, sm := range samples(t, 60, 7) {
		for i, s := range sm.states {
			var late time.Duration
			var d agent.Decision
			for try := range 5 {
				if try > 0 {
					time.Sleep(25 * time.Millisecond << try)
				}
				tu := turnOf(sm.game, s)
				tu.GameID = "timed"
				tu.Clock = protocol.Clock{MoveMS: 10, RemainingMS: 10, PerMove: true}
				tu.Deadline = time.Now().Add(9 * time.Millisecond)
				var err error
				d, err = a.Choose(context.Background(), tu)
				late = time.Since(tu.Deadline)
				if err != nil || !slices.Contains(tu.Legal, d.Move) {
					t.Fatalf("%s position %d: move %d, err %v", sm.name, i, d.Move, err)
				}
				if d.Info.Depth < 1 {
					t.Errorf("%s position %d: no iteration completed in 9ms", sm.name, i)
				}
				if late <= slack {
					break
				}
				retries = max(retries, try+1)
			}
			worst = max(worst, late)
			if late > slack {
				t.Errorf("%s position %d: answered %v after the deadline five times (depth %d, %d nodes)",
					sm.name, i, late, d.Info.Depth, d.Info.Nodes)
			}
		}
	}
	t.Logf("latest answer after retries: %v after the deadline; most retries %d", worst, retries)
}

// TestFixedDepthStopsAtDeadline: a fixed-depth search, exact solving included, stops at
// the turn's deadline with a legal move, here late in 8x8 games where exact=18 solves
// positions that take far longer than the turn's 100ms. The slack is generous: this
// checks that the deadline is kept at all, not how closely.
func TestFixedDepthStopsAtDeadline(t *testing.T) {
	const slack = 50 * time.Millisecond
	var ps []*othello.State
	for empties := 16; empties <= 20; empties++ {
		ps = append(ps, positions(t, 8, empties, 3, uint64(empties))...)
	}
	for _, params := range []map[string]string{{"depth": "4", "exact": "18"}, {"depth": "4"}} {
		a := newAgent(t, params)
		for i, s := range ps {
			tu := turnFor(s)
			tu.Deadline = time.Now().Add(100 * time.Millisecond)
			d := decide(t, a, tu)
			if late := time.Since(tu.Deadline); late > slack {
				t.Errorf("%v position %d (%d empties): answered %v after the deadline (depth %d, %d nodes)",
					params, i, s.Empties(), late, d.Info.Depth, d.Info.Nodes)
			}
			if !slices.Contains(tu.Legal, d.Move) {
				t.Fatalf("%v position %d: illegal move %d", params, i, d.Move)
			}
		}
	}
}

func TestConcurrentChoose(t *testing.T) {
	a := newAgent(t, map[string]string{"depth": "4", "tt": "1"})
	ps := positions(t, 8, 40, 8, 9)
	want := make([]game.Move, len(ps))
	for i, s := range ps {
		d, err := a.Choose(context.Background(), turnFor(s))
		if err != nil {
			t.Fatal(err)
		}
		want[i] = d.Move
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ps {
				i := (i + g) % len(ps)
				d, err := a.Choose(context.Background(), turnFor(ps[i]))
				if err != nil || d.Move != want[i] {
					t.Errorf("position %d: %v %v, want %v", i, d.Move, err, want[i])
				}
			}
		}()
	}
	wg.Wait()
}
