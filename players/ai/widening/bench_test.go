package widening

import (
	"context"
	"math/rand/v2"
	"testing"
)

// benchProblems are the hand-made problems the solver benchmarks run on: ladders, the
// broken ladder (a deep loss), the net, snapback, escape and ko.
func benchProblems(b *testing.B) []Problem {
	var ps []Problem
	for _, h := range handMade {
		ps = append(ps, parseDiagram(b, h.diagram, h.toMove))
	}
	return ps
}

// BenchmarkSolve solves the hand-made problems with the default strategy and reports
// search nodes per second and game-function trials per second.
func BenchmarkSolve(b *testing.B) {
	for _, keep := range []bool{false, true} {
		name := "fresh-table"
		if keep {
			name = "kept-table"
		}
		b.Run(name, func(b *testing.B) {
			ps := benchProblems(b)
			var nodes, trials int64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, p := range ps {
					res, err := Solve(context.Background(), p, Options{KeepTable: keep})
					if err != nil {
						b.Fatal(err)
					}
					nodes += res.Nodes
					trials += res.Trials
				}
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(nodes)/sec, "nodes/s")
			b.ReportMetric(float64(trials)/sec, "trials/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// BenchmarkStrategies solves the hand-made problems once per strategy (brute force
// excepted: it does not finish them) and reports nodes per second.
func BenchmarkStrategies(b *testing.B) {
	ps := benchProblems(b)
	for _, st := range Strategies()[:8] {
		b.Run(st.Name, func(b *testing.B) {
			var nodes int64
			for i := 0; i < b.N; i++ {
				for _, p := range ps {
					res, _ := Solve(context.Background(), p, Options{Strategy: st})
					nodes += res.Nodes
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// randomGame returns the moves of a random legal game on a board of the given size,
// stopping before the board gets crowded.
func randomGame(size int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 1))
	bd := newBoard(size)
	var moves []int
	c := Black
	for tries := 0; len(moves) < size*size/2 && tries < 10*size*size; tries++ {
		p := rng.IntN(size * size)
		if bd.play(p, c) {
			moves = append(moves, p)
			c = c.Opponent()
		}
	}
	return moves
}

// BenchmarkPlayUndo plays a random half-board game and takes it back, per move.
func BenchmarkPlayUndo(b *testing.B) {
	for _, size := range []int{9, 19} {
		b.Run(PointName(size*size-1, size)[1:]+"x", func(b *testing.B) {
			moves := randomGame(size, 5)
			bd := newBoard(size)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c := Black
				for _, m := range moves {
					bd.play(m, c)
					c = c.Opponent()
				}
				for range moves {
					bd.undo()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(moves)), "ns/move")
		})
	}
}

// BenchmarkCopyBoard copies a board value, the price of copy-make per move, to set
// against BenchmarkPlayUndo (make/unmake); the board keeps make/unmake.
func BenchmarkCopyBoard(b *testing.B) {
	bd := newBoard(19)
	c := Black
	for _, m := range randomGame(19, 5) {
		bd.play(m, c)
		c = c.Opponent()
	}
	bd.undos, bd.saves = nil, nil
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		boardSink = *bd
	}
}

// boardSink keeps BenchmarkCopyBoard's copies from being optimised away.
var boardSink board
