package captureset

import (
	"context"
	"testing"
	"time"

	"github.com/arenaref/arena/lab/gnugo"
	"github.com/arenaref/arena/lab/gnugo/gnugotest"
)

// startGNUGo runs GNU Go at its default level for one test.
func startGNUGo(t *testing.T) *gnugo.Engine {
	t.Helper()
	program := gnugotest.Program(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e, err := gnugo.Start(ctx, gnugo.Config{Program: program})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func mustProblem(t *testing.T, line string) Problem {
	t.Helper()
	p, err := ParseProblem(line)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestVerifier judges moves on positions whose answers are plain: the ladder (black
// captures with D5, not E4; white escapes with D5), a ko, a string that is dead
// whatever black plays, and a capture at once.
func TestVerifier(t *testing.T) {
	v := NewVerifier(startGNUGo(t))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	attack := mustProblem(t, "a\t"+ladder+" b target=D4\tD5\tattack\tsrc")
	defend := mustProblem(t, "d\t"+ladder+" w target=D4\tD5\tdefend\tsrc")
	// Black has just taken at B2 with C2; white may not retake, and C3 (two liberties,
	// C4 and D3) is white's to save.
	ko := mustProblem(t, "k\t...../...../.XO../X.XO./.XO.. w ko=B2 target=C3\tD3\tdefend\tsrc")
	// A white stone on the first line, three liberties, no way out.
	edge := mustProblem(t, "e\t...../...../...../X.X../.O.X. b target=B1\tA1\tattack\tsrc")
	// A white stone in atari: not a problem of the set (ParseProblem refuses one
	// liberty), but Check takes any problem.
	atariPos, err := ParsePosition("........./........./........./...X...../..XOX..../........./........./........./......... b target=D5")
	if err != nil {
		t.Fatal(err)
	}
	atari := Problem{ID: "atari", Position: atariPos, Move: mustPoint(t, "D4"), Kind: Attack, Source: "src"}
	tests := []struct {
		p    Problem
		move string
		want Verdict
	}{
		{attack, "D5", Works},
		{attack, "E4", Fails}, // white D5 then has three liberties
		{attack, "A9", Fails}, // white then runs
		{attack, "D4", Illegal},
		{defend, "D5", Works},
		{defend, "A9", Fails}, // black then ladders it
		{defend, "E3", Illegal},
		{ko, "B2", Illegal}, // the ko point
		{ko, "D3", Works},
		{edge, "C1", Works},
		{edge, "A1", Works},
		{edge, "E5", Works},  // dead already: even a move elsewhere leaves it dead
		{atari, "D4", Works}, // takes it off the board
		{atari, "A9", Fails}, // white runs out at D4
	}
	for _, tt := range tests {
		t.Run(tt.p.ID+" "+tt.move, func(t *testing.T) {
			got, err := v.Check(ctx, tt.p, mustPoint(t, tt.move))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("%s %s in %s: %v, want %v", tt.p.Position.ToMove, tt.move, tt.p.Position, got, tt.want)
			}
		})
	}
}
