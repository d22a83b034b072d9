package experience

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// lines returns distinct random games from start, by first move and final margin.
func lines(t *testing.T, start *othello.State, n int) map[game.Move]map[int][][]game.Move {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 12))
	out := map[game.Move]map[int][][]game.Move{}
	seen := map[string]bool{}
	for range n {
		ms := finish(start, nil, func(k int) int { return rng.IntN(k) })
		if seen[fmt.Sprint(ms)] {
			continue
		}
		seen[fmt.Sprint(ms)] = true
		mg := after(t, start, ms).Margin()
		if out[ms[0]] == nil {
			out[ms[0]] = map[int][][]game.Move{}
		}
		out[ms[0]][mg] = append(out[ms[0]][mg], ms)
	}
	return out
}

// pickLine returns a game from start through first whose margin satisfies ok, the
// skip-th such game in a fixed order.
func pickLine(t *testing.T, by map[game.Move]map[int][][]game.Move, first game.Move, skip int, ok func(int) bool) ([]game.Move, int) {
	t.Helper()
	for mg := -othello.Squares; mg <= othello.Squares; mg++ {
		if !ok(mg) {
			continue
		}
		if ls := by[first][mg]; len(ls) > skip {
			return ls[skip], mg
		}
	}
	t.Fatalf("no game through %s with the wanted margin", othello.MoveString(first))
	return nil, 0
}

type recorder struct {
	calls int
	move  game.Move
	err   error
}

func (r *recorder) fallback() (game.Move, error) {
	r.calls++
	return r.move, r.err
}

func TestAdvise(t *testing.T) {
	g := sized(t, 4)
	start := g.Initial() // black to move
	legal := start.LegalMoves(start.ToMove(), nil)
	if len(legal) != 4 {
		t.Fatalf("premise: %d legal moves", len(legal))
	}
	m0, m1, m2, m3 := legal[0], legal[1], legal[2], legal[3]
	by := lines(t, start, 4000)
	win := func(mg int) bool { return mg > 0 }
	loss := func(mg int) bool { return mg < 0 }
	draw := func(mg int) bool { return mg == 0 }

	// After m0 white is to move: a position where "good" means negative.
	wStart := after(t, start, []game.Move{m0})
	wLegal := wStart.LegalMoves(wStart.ToMove(), nil)
	wBy := lines(t, wStart, 4000)

	type game1 struct {
		first game.Move
		skip  int
		ok    func(int) bool
	}
	for _, tc := range []struct {
		name     string
		white    bool // advise in wStart rather than start
		games    []game1
		fallback game.Move
		want     Case
		wantMove game.Move // -1: the fallback's move
		called   bool
		known    int
	}{
		{name: "no experience", fallback: m2, want: CaseNoExperience, wantMove: m2, called: true},
		{name: "good", games: []game1{{m0, 0, loss}, {m1, 0, win}, {m2, 0, draw}},
			fallback: m3, want: CaseGood, wantMove: m1, known: 3},
		{name: "good for white", white: true, games: []game1{{wLegal[0], 0, win}, {wLegal[1], 0, loss}},
			fallback: wLegal[0], want: CaseGood, wantMove: wLegal[1], known: 2},
		{name: "all explored", games: []game1{{m0, 0, loss}, {m1, 0, loss}, {m2, 0, draw}, {m3, 0, loss}},
			fallback: m0, want: CaseAllExplored, wantMove: m2, known: 4},
		{name: "fallback unexplored", games: []game1{{m0, 0, loss}, {m1, 0, draw}},
			fallback: m3, want: CaseFallbackUnexplored, wantMove: m3, called: true, known: 2},
		{name: "fallback known", games: []game1{{m0, 0, loss}, {m1, 0, draw}},
			fallback: m0, want: CaseFallbackKnown, wantMove: m1, called: true, known: 2},
		{name: "draw is not good", games: []game1{{m2, 0, draw}},
			fallback: m2, want: CaseFallbackKnown, wantMove: m2, called: true, known: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := openTemp(t, g.Name())
			pos, lb := start, by
			if tc.white {
				pos, lb = wStart, wBy
			}
			for _, gm := range tc.games {
				ms, _ := pickLine(t, lb, gm.first, gm.skip, gm.ok)
				if _, err := b.Merge(pos, ms, Record{Seat: othello.Black}); err != nil {
					t.Fatal(err)
				}
			}
			r := &recorder{move: tc.fallback}
			adv, err := b.Advise(pos, r.fallback)
			if err != nil {
				t.Fatal(err)
			}
			if adv.Case != tc.want || adv.Move != tc.wantMove {
				t.Errorf("advice %s %s, want %s %s", adv.Case, othello.MoveString(adv.Move), tc.want, othello.MoveString(tc.wantMove))
			}
			if (r.calls > 0) != tc.called || r.calls > 1 {
				t.Errorf("fallback called %d times, want called %v", r.calls, tc.called)
			}
			if wantLegal := len(pos.LegalMoves(pos.ToMove(), nil)); adv.Known != tc.known || adv.Legal != wantLegal {
				t.Errorf("known %d legal %d, want %d %d", adv.Known, adv.Legal, tc.known, wantLegal)
			}
			if tc.want.FromBase() {
				info, _ := b.Node(KeyOf(after(t, pos, []game.Move{adv.Move})))
				if adv.Value != info.Value || adv.Freq != info.Freq {
					t.Errorf("value %d freq %d, the child has %d %d", adv.Value, adv.Freq, info.Value, info.Freq)
				}
			} else if adv.Value != 0 || adv.Freq != 0 {
				t.Errorf("value %d freq %d for a move not from the base", adv.Value, adv.Freq)
			}
		})
	}
}

func TestAdviseTies(t *testing.T) {
	g := sized(t, 4)
	start := g.Initial()
	legal := start.LegalMoves(start.ToMove(), nil)
	by := lines(t, start, 4000)
	// A positive margin reached by at least two games through the higher move and one
	// through the lower.
	lo, hi := legal[0], legal[3]
	v := 0
	for mg := 1; mg <= 16; mg++ {
		if len(by[lo][mg]) >= 2 && len(by[hi][mg]) >= 2 {
			v = mg
			break
		}
	}
	if v == 0 {
		t.Fatal("premise: no shared winning margin")
	}
	for _, tc := range []struct {
		name   string
		lo, hi int // games merged through each
		want   game.Move
	}{
		{"equal frequency: lower move", 1, 1, lo},
		{"higher frequency wins", 1, 2, hi},
		{"higher frequency wins, lower move", 2, 1, lo},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := openTemp(t, g.Name())
			for i := range tc.lo {
				mergeAll(t, b, []played{{start: *start, moves: by[lo][v][i]}})
			}
			for i := range tc.hi {
				mergeAll(t, b, []played{{start: *start, moves: by[hi][v][i]}})
			}
			r := &recorder{move: legal[1]}
			adv, err := b.Advise(start, r.fallback)
			if err != nil {
				t.Fatal(err)
			}
			// Every game through either move ends at v, so both moves are worth v.
			if adv.Case != CaseGood || adv.Move != tc.want || adv.Value != v {
				t.Errorf("advice %+v, want %s with value %d", adv, othello.MoveString(tc.want), v)
			}
			if r.calls != 0 {
				t.Error("fallback called")
			}
		})
	}
}

func TestAdviseErrors(t *testing.T) {
	g := sized(t, 4)
	start := g.Initial()
	b, _ := openTemp(t, g.Name())
	rng := rand.New(rand.NewPCG(5, 6))
	p := randomGame(rng, g, false)
	mergeAll(t, b, []played{p})
	end := after(t, start, p.moves)
	boom := errors.New("boom")

	if _, err := b.Advise(end, (&recorder{}).fallback); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("finished position: %v", err)
	}
	if _, err := b.Advise(othello.NewState(), (&recorder{}).fallback); err == nil {
		t.Error("8x8 position in a 4x4 base: no error")
	}
	unknown := after(t, start, []game.Move{start.LegalMoves(start.ToMove(), nil)[0]})
	if _, ok := b.Node(KeyOf(unknown)); ok {
		// the random game went this way; take another first move
		unknown = after(t, start, []game.Move{start.LegalMoves(start.ToMove(), nil)[1]})
	}
	if _, err := b.Advise(unknown, (&recorder{err: boom}).fallback); !errors.Is(err, boom) {
		t.Errorf("fallback error: %v", err)
	}
	if _, err := b.Advise(unknown, (&recorder{move: othello.Pass}).fallback); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("illegal fallback move: %v", err)
	}
	if _, err := b.Advise(unknown, nil); err == nil {
		t.Error("no fallback where one is needed: no error")
	}
}

func TestCaseString(t *testing.T) {
	for c, want := range map[Case]string{CaseNoExperience: "no-experience", CaseGood: "good", CaseAllExplored: "all-explored",
		CaseFallbackUnexplored: "fallback-unexplored", CaseFallbackKnown: "fallback-known", Case(9): "Case(9)"} {
		if c.String() != want {
			t.Errorf("%d: %q, want %q", int(c), c.String(), want)
		}
	}
	for c, want := range map[Case]bool{CaseNoExperience: false, CaseGood: true, CaseAllExplored: true, CaseFallbackUnexplored: false, CaseFallbackKnown: true} {
		if c.FromBase() != want {
			t.Errorf("%s.FromBase() = %v", c, c.FromBase())
		}
	}
}
