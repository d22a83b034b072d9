package atarigo_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
)

// midGame returns a busy capture position on an n by n board: the ladder start of
// ladderGame under rules that let a random game run long, after plies random moves.
func midGame(tb testing.TB, n, plies int) *atarigo.State {
	tb.Helper()
	g := ladderGame(tb, n, 20, 10000)
	s := g.Initial()
	rng := rand.New(rand.NewPCG(1, 1))
	var buf []game.Move
	for range plies {
		if s.IsTerminal() {
			break
		}
		buf = s.LegalMoves(s.ToMove(), buf[:0])
		if err := s.Play(buf[rng.IntN(len(buf)-1)]); err != nil { // never the pass
			tb.Fatal(err)
		}
	}
	return s
}

func TestNoAllocation(t *testing.T) {
	s := midGame(t, 19, 150)
	buf := make([]game.Move, 0, atarigo.MaxPoints+1)
	if n := testing.AllocsPerRun(100, func() { buf = s.LegalMoves(s.ToMove(), buf[:0]) }); n != 0 {
		t.Errorf("LegalMoves allocates %v times with room in buf", n)
	}
	buf = s.LegalMoves(s.ToMove(), buf[:0])
	var c atarigo.State
	i := 0
	if n := testing.AllocsPerRun(100, func() {
		c = *s
		if err := c.Play(buf[i%len(buf)]); err != nil {
			t.Fatal(err)
		}
		i++
	}); n != 0 {
		t.Errorf("Play allocates %v times", n)
	}
}

// benchPlayouts plays random games of g to the end, copying the start as a value, and
// reports the time per move.
func benchPlayouts(b *testing.B, start *atarigo.State) {
	rng := rand.New(rand.NewPCG(2, 2))
	buf := make([]game.Move, 0, atarigo.MaxPoints+1)
	var s atarigo.State
	moves := 0
	b.ReportAllocs()
	for b.Loop() {
		s = *start
		for !s.IsTerminal() {
			buf = s.LegalMoves(s.ToMove(), buf[:0])
			m := buf[rng.IntN(len(buf))]
			if len(buf) > 1 && m == s.PassMove() {
				m = buf[0]
			}
			if err := s.Play(m); err != nil {
				b.Fatal(err)
			}
			moves++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
}

func BenchmarkPlayout(b *testing.B) {
	for _, n := range []int{9, 19} {
		g, err := atarigo.NewAtariGo(n)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("atari-go/"+strconv.Itoa(n), func(b *testing.B) { benchPlayouts(b, g.Initial()) })
	}
	for _, n := range []int{9, 19} {
		b.Run("capture-safe20/"+strconv.Itoa(n), func(b *testing.B) {
			start, err := atarigo.CaptureGame(midGame(b, n, 0), 20, 2*n*n)
			if err != nil {
				b.Fatal(err)
			}
			benchPlayouts(b, start.Initial())
		})
	}
}

func BenchmarkLegalMoves19(b *testing.B) {
	s := midGame(b, 19, 150)
	buf := make([]game.Move, 0, atarigo.MaxPoints+1)
	b.ReportAllocs()
	for b.Loop() {
		buf = s.LegalMoves(s.ToMove(), buf[:0])
	}
}

func BenchmarkPlay19(b *testing.B) {
	s := midGame(b, 19, 150)
	moves := s.LegalMoves(s.ToMove(), nil)
	var c atarigo.State
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		c = *s
		if err := c.Play(moves[i%len(moves)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

var cloneSink game.State

func BenchmarkClone(b *testing.B) {
	for _, n := range []int{9, 19} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s := midGame(b, n, n*n/3)
			b.ReportAllocs()
			for b.Loop() {
				cloneSink = s.Clone()
			}
		})
	}
}
