package widening

import (
	"context"
	"errors"
	"testing"
	"time"
)

// handMade are capture problems with known answers, as diagrams (top row first; x or o
// marks the target, k the ko point). Moves are GTP names; wantMoves lists every move
// accepted as the answer, empty for a verdict without a move.
var handMade = []struct {
	name      string
	diagram   string
	toMove    Color
	want      Verdict
	wantMoves []string
}{
	{
		// Black D4 has two liberties; either atari starts a ladder that runs to the edge.
		name: "ladder", toMove: White, want: Won, wantMoves: []string{"D3", "E4"},
		diagram: `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . O . . . . .
			. . O x . . . . .
			. . . . O . . . .
			. . . . . . . . .
			. . . . . . . . .`,
	},
	{
		// The same ladder on 19x19: a long quiescence read.
		name: "ladder on 19x19", toMove: White, want: Won, wantMoves: []string{"D2", "E3"},
		diagram: `
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .
			. . . O . . . . . . . . . . . . . . .
			. . O x . . . . . . . . . . . . . . .
			. . . . O . . . . . . . . . . . . . .
			. . . . . . . . . . . . . . . . . . .`,
	},
	{
		// The ladder with a breaker on each of its two paths (F6 and C2): Black escapes.
		name: "ladder broken by ladder breakers", toMove: White, want: Lost,
		diagram: `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . X . . .
			. . . O . . . . .
			. . O x . . . . .
			. . . . O . . . .
			. . X . . . . . .
			. . . . . . . . .`,
	},
	{
		// Net (geta): White F6 leaves each extension two liberties and an atari that
		// ends against the wall; gi3 proves it at the root (the paper's 5-ply net).
		// Behind White's wall some deeper moves capture too, but the net comes first.
		name: "net", toMove: White, want: Won, wantMoves: []string{"F6"},
		diagram: `
			. . . . . . . . .
			. . . . . . . X .
			. . . . . . . . .
			. . . O . . . . .
			. . . O x . . . .
			. . . . O O . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .`,
	},
	{
		// Snapback: White throws in at C1 (or D1); Black's capture leaves one liberty.
		name: "snapback", toMove: White, want: Won, wantMoves: []string{"C1", "D1"},
		diagram: `
			. . . . . .
			. . . . . .
			. . . . . .
			O O O O O .
			O x X X O .
			O X . . O .`,
	},
	{
		// The snapback shape with Black to move: either liberty is self-atari.
		name: "snapback, defender to move", toMove: Black, want: Lost,
		diagram: `
			. . . . . .
			. . . . . .
			. . . . . .
			O O O O O .
			O x X X O .
			O X . . O .`,
	},
	{
		// A stone with two liberties in open space: each atari lets it out to three.
		name: "escapes", toMove: White, want: Lost,
		diagram: `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . O . . . .
			. . . O x . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .`,
	},
	{
		// A stone in atari in open space: extending gives it three liberties.
		name: "escapes from atari", toMove: Black, want: Won, wantMoves: []string{"E3"},
		diagram: `
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . O . . . .
			. . . O x O . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .`,
	},
	{
		// Straight three on the edge against a wall: three liberties, and it dies.
		name: "three liberties die", toMove: White, want: Won, wantMoves: []string{"A1", "B1", "C1"},
		diagram: `
			. . . . . .
			. . . . . .
			. . . . . .
			O O O O . .
			x X X O . .
			. . . O . .`,
	},
	{
		// The same with Black to move: it still dies (C1 is no eye next to White D1).
		name: "three liberties die, defender to move", toMove: Black, want: Lost,
		diagram: `
			. . . . . .
			. . . . . .
			. . . . . .
			O O O O . .
			x X X O . .
			. . . O . .`,
	},
	{
		// Black has just taken a ko at B1: White may not retake at C1 at once, and
		// Black connects next.
		name: "ko", toMove: White, want: Lost,
		diagram: `
			. . . . .
			. . . . .
			. . . . .
			. O X . .
			O x k X .`,
	},
	{
		// The same position with the ko lifted (White has found a threat): C1 captures.
		name: "ko lifted", toMove: White, want: Won, wantMoves: []string{"C1"},
		diagram: `
			. . . . .
			. . . . .
			. . . . .
			. O X . .
			O x . X .`,
	},
}

// TestHandMade solves every hand-made problem with every strategy in both table modes.
// Strategies 1 to 8 must all give the known verdict and an accepted move; the brute
// force search, which cannot finish most of them in a test's time (it reads the ladders,
// the net, the snapback and the dead three), must not contradict them.
func TestHandMade(t *testing.T) {
	for _, h := range handMade {
		p := parseDiagram(t, h.diagram, h.toMove)
		for _, st := range Strategies() {
			for _, keep := range []bool{false, true} {
				o := Options{Strategy: st, KeepTable: keep, Time: 5 * time.Second}
				if st.Number == 9 {
					o.Time = 100 * time.Millisecond // brute force cannot finish most: a short look
				}
				res, err := Solve(context.Background(), p, o)
				if err != nil {
					t.Fatal(err)
				}
				if st.Number == 9 && res.Verdict == Unknown {
					continue
				}
				if res.Verdict != h.want {
					t.Errorf("%s: strategy %v keep=%v: %v, want %v", h.name, st, keep, res.Verdict, h.want)
					continue
				}
				if len(h.wantMoves) == 0 {
					continue
				}
				ok := false
				for _, m := range h.wantMoves {
					ok = ok || point(t, m, p.Size) == res.Move
				}
				if !ok {
					t.Errorf("%s: strategy %v keep=%v: move %s, want one of %v", h.name, st, keep, PointName(res.Move, p.Size), h.wantMoves)
				}
			}
		}
	}
}

// TestSolveErrors checks that bad problems and options get errors, not panics.
func TestSolveErrors(t *testing.T) {
	good := parseDiagram(t, handMade[0].diagram, White)
	cases := []struct {
		name string
		p    Problem
		o    Options
	}{
		{"no problem", Problem{}, Options{}},
		{"empty target", func() Problem { p := good; p.Target = 0; return p }(), Options{}},
		{"no steps", good, Options{Strategy: Strategy{Number: 10, Name: "none"}}},
		{"bad width", good, Options{Strategy: Strategy{Number: 10, Steps: []Step{{OR: 4, AND: 1}}}}},
		{"negative time", good, Options{Time: -time.Second}},
		{"negative depth", good, Options{MaxDepth: -1}},
		{"negative budget", good, Options{Budget: -1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Solve(context.Background(), c.p, c.o)
			if err == nil {
				t.Fatalf("no error, result %+v", res)
			}
			if res.Verdict != Unknown || res.Move != -1 {
				t.Fatalf("result %+v with the error", res)
			}
		})
	}
}

// TestSolveStops checks that a cancelled context and a time limit end a solve with
// Unknown.
func TestSolveStops(t *testing.T) {
	p := parseDiagram(t, handMade[2].diagram, White) // the breaker problem: a deep proof
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Solve(ctx, p, Options{})
	if err != nil || res.Verdict != Unknown || res.Move != -1 {
		t.Fatalf("cancelled: %+v, %v", res, err)
	}
	res, err = Solve(context.Background(), p, Options{Time: time.Millisecond})
	if err != nil || res.Verdict != Unknown {
		t.Fatalf("1ms: %+v, %v", res, err)
	}
	res, err = Solve(context.Background(), p, Options{Budget: 5000})
	if err != nil || res.Verdict != Unknown {
		t.Fatalf("budget 5000: %+v, %v", res, err)
	}
	// The budget is checked at every node and trial: the solve stops within one
	// game-function call of it, and at the same point every time.
	again, _ := Solve(context.Background(), p, Options{Budget: 5000})
	if again.Nodes != res.Nodes || again.Trials != res.Trials || res.Nodes+res.Trials > 5000+int64(maxPoints) {
		t.Fatalf("budget 5000: %d nodes %d trials, then %d and %d", res.Nodes, res.Trials, again.Nodes, again.Trials)
	}
}

// TestMaxDepth checks that a depth bound too small for the breaker problem leaves it
// unknown, and that the search reports the depth of its proofs.
func TestMaxDepth(t *testing.T) {
	p := parseDiagram(t, handMade[2].diagram, White)
	res, err := Solve(context.Background(), p, Options{MaxDepth: 5})
	if err != nil || res.Verdict != Unknown {
		t.Fatalf("depth 5: %+v, %v", res, err)
	}
	res, err = Solve(context.Background(), p, Options{})
	if err != nil || res.Verdict != Lost || res.Depth <= 5 || res.Step != 2 {
		t.Fatalf("no bound: %+v, %v", res, err)
	}
}

// TestValidate is a table of invalid problems and the valid one they differ from.
func TestValidate(t *testing.T) {
	base := func() Problem {
		return Problem{Size: 3, Stones: []Color{Black, White, Empty, Empty, Empty, Empty, Empty, Empty, Empty}, ToMove: Black, Target: 1, Ko: -1}
	}
	if err := base().Validate(); err != nil {
		t.Fatalf("valid problem: %v", err)
	}
	cases := []struct {
		name   string
		change func(*Problem)
	}{
		{"size 1", func(p *Problem) { p.Size = 1 }},
		{"size 20", func(p *Problem) { p.Size = 20 }},
		{"short stones", func(p *Problem) { p.Stones = p.Stones[:8] }},
		{"bad colour", func(p *Problem) { p.Stones[4] = 3 }},
		{"no side to move", func(p *Problem) { p.ToMove = Empty }},
		{"target off the board", func(p *Problem) { p.Target = 9 }},
		{"negative target", func(p *Problem) { p.Target = -1 }},
		{"empty target", func(p *Problem) { p.Target = 2 }},
		{"ko off the board", func(p *Problem) { p.Ko = 9 }},
		{"ko on a stone", func(p *Problem) { p.Ko = 0 }},
		{"dead string", func(p *Problem) { p.Stones[3], p.Stones[4] = White, White; p.Stones[2] = Black }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := base()
			c.change(&p)
			if err := p.Validate(); !errors.Is(err, ErrInvalidProblem) {
				t.Fatalf("Validate = %v, want an ErrInvalidProblem", err)
			}
		})
	}
}

// TestBudgetCoversDeeperThreat checks that a defender-first solve that runs the deeper
// threat search (the edge ladder of TestDefenceAgainstALongLadder) stays within its
// work budget and gives the same result every time under it.
func TestBudgetCoversDeeperThreat(t *testing.T) {
	p := parseDiagram(t, edgeLadder, Black)
	full, err := Solve(context.Background(), p, Options{})
	if err != nil || full.Verdict != Won || full.Move < 0 {
		t.Fatalf("no budget: %+v, %v; want a saving move", full, err)
	}
	budget := (full.Nodes + full.Trials) / 2
	a, _ := Solve(context.Background(), p, Options{Budget: budget})
	b, _ := Solve(context.Background(), p, Options{Budget: budget})
	if a.Verdict != b.Verdict || a.Move != b.Move || a.Nodes != b.Nodes || a.Trials != b.Trials {
		t.Fatalf("budget %d: %+v, then %+v", budget, a, b)
	}
	if a.Nodes+a.Trials > budget+2*int64(maxPoints) {
		t.Fatalf("budget %d: spent %d nodes and %d trials", budget, a.Nodes, a.Trials)
	}
}
