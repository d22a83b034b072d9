package experience

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// benchBase returns a base of 8x8 holding random games until it has at least nodes
// nodes, written to SQLite (withFile) or planted in memory only, and the games.
func benchBase(b *testing.B, nodes int, withFile bool) (*Base, []played) {
	b.Helper()
	base, _ := openTemp(b, "othello")
	rng := rand.New(rand.NewPCG(41, 42))
	var games []played
	for len(base.nodes) < nodes {
		p := randomGame(rng, othello.New(), false)
		games = append(games, p)
		if withFile {
			mergeAll(b, base, []played{p})
			continue
		}
		if err := base.mergeInMemory(p); err != nil {
			b.Fatal(err)
		}
	}
	return base, games
}

// mergeInMemory is Merge without SQLite, for benchmarks that build large bases quickly.
func (b *Base) mergeInMemory(p played) error {
	states := []othello.State{p.start}
	s := p.start
	for _, m := range p.moves {
		if err := s.Play(m); err != nil {
			return err
		}
		states = append(states, s)
	}
	b.mergeMu.Lock()
	defer b.mergeMu.Unlock()
	pl, err := b.plan(states, p.moves)
	if err != nil {
		return err
	}
	b.apply(pl, Record{})
	return nil
}

func gamePool(n int) []played {
	rng := rand.New(rand.NewPCG(43, 44))
	pool := make([]played, n)
	for i := range pool {
		pool[i] = randomGame(rng, othello.New(), false)
	}
	return pool
}

// BenchmarkMerge merges a new random 8x8 game (about 60 moves, nearly all new positions)
// into a base that starts at 10k nodes, SQLite transaction included. The base grows by
// some 56 nodes an iteration.
func BenchmarkMerge(b *testing.B) {
	base, _ := benchBase(b, 10_000, true)
	rng := rand.New(rand.NewPCG(47, 48))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		p := randomGame(rng, othello.New(), false)
		b.StartTimer()
		if _, err := base.Merge(&p.start, p.moves, Record{Seat: othello.Black}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMergePlan is the in-memory part of a merge (finding the nodes, backing up
// through every ancestor) into a base of 100k nodes, without SQLite and without applying
// it, so the base stays the same size.
func BenchmarkMergePlan(b *testing.B) {
	base, games := benchBase(b, 100_000, false)
	// Half the games are new, half already known up to a new ending: replay a known game's
	// first 30 moves and finish it differently.
	pool := gamePool(500)
	rng := rand.New(rand.NewPCG(45, 46))
	for range 500 {
		p := games[rng.IntN(len(games))]
		pool = append(pool, played{start: p.start, moves: finish(&p.start, p.moves[:30], func(n int) int { return rng.IntN(n) })})
	}
	type prepared struct {
		states []othello.State
		moves  []game.Move
	}
	var pre []prepared
	for _, p := range pool {
		st := []othello.State{p.start}
		s := p.start
		for _, m := range p.moves {
			s.Play(m)
			st = append(st, s)
		}
		pre = append(pre, prepared{st, p.moves})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := pre[i%len(pre)]
		base.mergeMu.Lock()
		if _, err := base.plan(p.states, p.moves); err != nil {
			b.Fatal(err)
		}
		base.mergeMu.Unlock()
	}
}

// BenchmarkAdvise asks for advice at positions the base knows (10k nodes): the lookup and
// the choice among the children.
func BenchmarkAdvise(b *testing.B) {
	base, games := benchBase(b, 10_000, false)
	var positions []othello.State
	for _, p := range games {
		s := p.start
		for _, m := range p.moves {
			positions = append(positions, s)
			s.Play(m)
		}
	}
	var cur *othello.State
	fallback := func() (game.Move, error) { // the lowest legal square, or pass
		if mask := cur.MoveMask(); mask != 0 {
			return game.Move(bits.TrailingZeros64(mask)), nil
		}
		return othello.Pass, nil
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		cur = &positions[i%len(positions)]
		if _, err := base.Advise(cur, fallback); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSize merges 1000 random 8x8 games and reports the base's size per node: on
// disk while open (database and WAL, as Stats.FileBytes) and of the database file alone
// once closed (the WAL checkpointed and removed), and its growth per game. Run with
// -benchtime=1x.
func BenchmarkSize(b *testing.B) {
	pool := gamePool(1000)
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "size.db")
		base, err := Open(path, "othello")
		if err != nil {
			b.Fatal(err)
		}
		mergeAll(b, base, pool)
		st, err := base.Stats()
		if err != nil {
			b.Fatal(err)
		}
		if err := base.Close(); err != nil {
			b.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.FileBytes)/float64(st.Nodes), "open-bytes/node")
		b.ReportMetric(float64(fi.Size())/float64(st.Nodes), "closed-bytes/node")
		b.ReportMetric(float64(st.Nodes)/float64(st.Games), "nodes/game")
	}
}
