package train

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/ai/learn/model"
	"github.com/arenaref/arena/players/ai/learn/td"
)

// mover chooses moves for one side of a training game.
type mover interface {
	move(s game.State, legal []game.Move) (game.Move, error)
}

// agentMover plays a registered agent in process, as the player runtime would.
type agentMover struct {
	a    agent.Agent
	g    game.Game
	seat game.Seat
	name string
}

func newAgentMover(g game.Game, o Opponent, seat game.Seat, rng *rand.Rand) (*agentMover, error) {
	a, err := agent.New(o.Agent, agent.Config{Seed: int64(rng.Uint64() >> 1), Params: o.Params})
	if err != nil {
		return nil, fmt.Errorf("opponent %s: %w", o.Name, err)
	}
	return &agentMover{a: a, g: g, seat: seat, name: o.Name}, nil
}

func (m *agentMover) move(s game.State, legal []game.Move) (game.Move, error) {
	d, err := m.a.Choose(context.Background(), agent.Turn{GameID: "train", Game: m.g, State: s.Clone(), Seat: m.seat, Legal: legal})
	if err != nil {
		return 0, fmt.Errorf("opponent %s: %w", m.name, err)
	}
	for _, l := range legal {
		if l == d.Move && !d.Resign && !d.NoReply && d.Raw == "" {
			return d.Move, nil
		}
	}
	return 0, fmt.Errorf("opponent %s: chose %v, not a legal move", m.name, s.MoveString(d.Move))
}

func (m *agentMover) close() { agent.Close(m.a) }

// searcherOf returns the search of an evaluation that plays without learning: the
// learner's own in self-play and test phases, an opponent's. Searchers are kept from
// game to game (a searcher's board and tables are made once), one per evaluation, which
// the two sides of one game may share, as they search in turn.
func (t *Trainer) searcherOf(e model.Evaluator) Searcher {
	x, ok := t.searchers[e]
	if !ok {
		x = newSearcher(t.lg, e)
		if t.searchers == nil {
			t.searchers = map[model.Evaluator]*searcher{}
		}
		t.searchers[e] = x
	}
	return x
}

// opponent makes the mover of an opponent for one game: an agent, a member of a
// random-weights pool, or for SelfPlay the learner's own evaluation as it stands. The
// returned function releases it.
func (t *Trainer) opponent(o Opponent, seat game.Seat, rng *rand.Rand) (mover, func(), error) {
	switch o.Agent {
	case SelfPlay:
		return &searchMover{x: t.searcherOf(t.eval), depth: t.cfg.Depth, rng: rng}, func() {}, nil
	case RandomWeights:
		return &searchMover{x: t.searcherOf(t.pool[o.Name]), depth: t.cfg.Depth, rng: rng}, func() {}, nil
	}
	a, err := newAgentMover(t.game, o, seat, rng)
	if err != nil {
		return nil, nil, err
	}
	return a, a.close, nil
}

// searchMover plays an evaluation by search, without learning.
type searchMover struct {
	x     Searcher
	depth int
	rng   *rand.Rand
}

func (m *searchMover) move(s game.State, _ []game.Move) (game.Move, error) {
	mv, _ := m.x.Search(s, m.depth, m.rng)
	return mv, nil
}

// learnGame plays one training game, the learner on seat, and learns from it.
func (t *Trainer) learnGame(seat game.Seat, opp mover, rng *rand.Rand) (int, error) {
	s := t.game.NewState()
	var (
		tdGame  td.Game
		replies []game.Move // the reply each learner search expected
	)
	tdMethod := t.cfg.Method == MethodTD || t.cfg.Method == MethodTDLeaf || t.cfg.Method == MethodEvo
	creditUsed := t.use != nil && t.cfg.Credit == CreditUsed
	creditPlaced := t.use != nil && t.cfg.Credit == CreditPlaced
	if t.use != nil {
		t.use.Reset()
	}
	if creditUsed {
		t.use.Add(model.FromState(s.(*othello.State), seat))
	}
	expect := game.Move(-1) // the opponent's reply the learner's last search expected
	for {
		mover := s.ToMove()
		if mover == game.Terminal {
			break
		}
		t.moves = s.LegalMoves(mover, t.moves[:0])
		var m game.Move
		if ply := s.Ply(); ply < t.cfg.RandomPlies {
			// A random opening: neither side chooses, and the learner learns nothing
			// from its turns here.
			m = t.moves[rng.IntN(len(t.moves))]
		} else if mover == seat {
			var reply game.Move
			m, reply = t.x.Search(s, t.cfg.Depth, rng)
			if creditPlaced && m != othello.Pass {
				t.use.AddNode(t.net.Node(int(m), model.StateOwn))
			}
			if tdMethod {
				grad := make([]float64, len(t.tl.W))
				v := t.x.Predict(s, seat, t.cfg.Method == MethodTDLeaf, grad)
				tdGame.Values = append(tdGame.Values, v)
				tdGame.Grads = append(tdGame.Grads, grad)
				replies = append(replies, reply)
			}
			expect = reply
		} else {
			var err error
			if m, err = opp.move(s, t.moves); err != nil {
				return 0, err
			}
			if tdMethod && len(replies) > 0 && expect >= 0 {
				// Record whether the learner's search foresaw this reply.
				tdGame.Ignore = growIgnore(tdGame.Ignore, len(replies))
				tdGame.Ignore[len(replies)-1] = m != expect
			}
			expect = -1
		}
		if err := s.Play(m); err != nil {
			return 0, fmt.Errorf("train: %v", err)
		}
		if creditUsed {
			t.use.Add(model.FromState(s.(*othello.State), seat))
		}
	}
	r := resultOf(s, seat)
	switch {
	case t.net != nil:
		t.use.Reinforce(r, t.st.Wins, t.st.Losses)
	case t.cfg.Method == MethodEvo:
		// EVO learns from pairs of games (Trainer.evoStep), not by TD.
	case t.shouldLearn(r):
		tdGame.Values = append(tdGame.Values, float64(r)*model.WinValue)
		tdGame.Won = r > 0 && t.cfg.Method == MethodTDLeaf && t.cfg.Strategy == StrategyLB
		if tdGame.Ignore != nil || tdGame.Won {
			tdGame.Ignore = growIgnore(tdGame.Ignore, len(tdGame.Grads))
		} else {
			tdGame.Ignore = nil
		}
		if _, err := td.Update(t.tl.W, tdGame, t.cfg.Alpha, t.cfg.Lambda); err != nil {
			return 0, err
		}
	}
	return r, nil
}

// shouldLearn says whether a TD learner learns from a game with this result.
func (t *Trainer) shouldLearn(r int) bool {
	return t.cfg.Strategy == StrategyLB || r <= 0
}

func growIgnore(f []bool, n int) []bool {
	for len(f) < n {
		f = append(f, false)
	}
	return f
}

// testPhase plays the test opponents without learning: TestGames games with each colour
// the learner plays (black and white in turn, or only its seat when it has one).
func (t *Trainer) testPhase(played int) ([]TestScore, error) {
	var scores []TestScore
	games := 2 * t.cfg.TestGames
	if t.cfg.Seat != SeatBoth {
		games = t.cfg.TestGames
	}
	for i, o := range t.cfg.Test {
		sc := TestScore{Opponent: o.Name}
		for k := range games {
			rng := rand.New(rand.NewPCG(t.cfg.Seed^0x7e57, uint64(played)<<20|uint64(i)<<12|uint64(k)))
			seat := testSeat(t.cfg.Seat, k)
			a, closeOpp, err := t.opponent(o, 1-seat, rng)
			if err != nil {
				return nil, err
			}
			learner := &searchMover{x: t.searcherOf(t.eval), depth: t.cfg.Depth, rng: rng}
			err = playTest(t.game, learner, a, seat, t.cfg.RandomPlies, rng, &sc)
			closeOpp()
			if err != nil {
				return nil, err
			}
		}
		scores = append(scores, sc)
	}
	return scores, nil
}

// testSeat returns the learner's seat in its k-th test game under a seat setting: its
// seat, or black and white in turn for SeatBoth.
func testSeat(setting string, k int) game.Seat {
	switch setting {
	case SeatBlack:
		return 0
	case SeatWhite:
		return 1
	}
	return game.Seat(k % 2)
}

// playTest plays a game of learner, on seat, against opp, and adds its result to sc.
func playTest(g game.Game, learner, opp mover, seat game.Seat, randomPlies int, rng *rand.Rand, sc *TestScore) error {
	black, white := learner, opp
	if seat == 1 {
		black, white = opp, learner
	}
	s, err := play(g, black, white, randomPlies, rng)
	if err != nil {
		return err
	}
	switch resultOf(s, seat) {
	case 1:
		sc.Wins++
	case -1:
		sc.Losses++
	default:
		sc.Draws++
	}
	return nil
}

// play plays a game between two movers from the initial position, the first
// randomPlies plies at random, and returns the finished position.
func play(g game.Game, black, white mover, randomPlies int, rng *rand.Rand) (game.State, error) {
	s := g.NewState()
	var buf [64]game.Move
	for {
		seat := s.ToMove()
		if seat == game.Terminal {
			return s, nil
		}
		legal := s.LegalMoves(seat, buf[:0])
		m := black
		if seat == 1 {
			m = white
		}
		var mv game.Move
		var err error
		if s.Ply() < randomPlies {
			mv = legal[rng.IntN(len(legal))]
		} else if mv, err = m.move(s, legal); err != nil {
			return nil, err
		}
		if err := s.Play(mv); err != nil {
			return nil, fmt.Errorf("train: %v", err)
		}
	}
}
