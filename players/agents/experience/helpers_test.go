package experience

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// sized returns othello on an n by n board.
func sized(t testing.TB, n int) *othello.Game {
	t.Helper()
	g, err := othello.NewSize(n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// openTemp opens a new base in a temporary directory and closes it at the end of the test.
func openTemp(t testing.TB, spec string) (*Base, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "exp.db")
	b, err := Open(path, spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, path
}

// line parses space-separated moves.
func line(t testing.TB, text string) []game.Move {
	t.Helper()
	var ms []game.Move
	for _, f := range strings.Fields(text) {
		m, err := othello.ParseMove(f)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	return ms
}

// after plays moves from start.
func after(t testing.TB, start *othello.State, moves []game.Move) *othello.State {
	t.Helper()
	s := *start
	for _, m := range moves {
		if err := s.Play(m); err != nil {
			t.Fatalf("play %s: %v", othello.MoveString(m), err)
		}
	}
	return &s
}

// finish appends to moves the moves of a game played to the end from start+moves by
// choosing, at each turn, the legal move pick says (an index into the legal moves).
func finish(start *othello.State, moves []game.Move, pick func(n int) int) []game.Move {
	s := *start
	for _, m := range moves {
		if err := s.Play(m); err != nil {
			panic(err)
		}
	}
	out := append([]game.Move(nil), moves...)
	var buf [othello.Squares + 1]game.Move
	for !s.IsTerminal() {
		legal := s.LegalMoves(s.ToMove(), buf[:0])
		m := legal[pick(len(legal))]
		s.Play(m)
		out = append(out, m)
	}
	return out
}

func firstMove(int) int { return 0 }

// played is a game as merged: its start and moves.
type played struct {
	start othello.State
	moves []game.Move
}

// randomGame plays a random game. With an opening, it starts from a position some random
// moves into the game (those moves are not part of it), as when a tournament plays from
// an opening book.
func randomGame(rng *rand.Rand, g *othello.Game, opening bool) played {
	start := *g.Initial()
	if opening {
		pre := finish(&start, nil, func(n int) int { return rng.IntN(n) })
		k := rng.IntN(min(len(pre), 6) + 1)
		for _, m := range pre[:k] {
			start.Play(m)
		}
	}
	return played{start: start, moves: finish(&start, nil, func(n int) int { return rng.IntN(n) })}
}

// snap is a node as compared between bases: only keys, never ids.
type snap struct {
	value    int
	freq     int64
	legal    int
	children map[game.Move]Key
	parents  map[Key]bool
}

// snapshot returns every node of b by key.
func snapshot(t testing.TB, b *Base) map[Key]snap {
	t.Helper()
	b.mu.RLock()
	keys := make([]Key, len(b.nodes))
	for i := range b.nodes {
		keys[i] = b.nodes[i].key
	}
	b.mu.RUnlock()
	out := make(map[Key]snap, len(keys))
	for _, k := range keys {
		info, ok := b.Node(k)
		if !ok {
			t.Fatalf("node %v listed but not found", k)
		}
		ps := map[Key]bool{}
		for _, p := range info.Parents {
			ps[p] = true
		}
		out[k] = snap{value: info.Value, freq: info.Freq, legal: info.Legal, children: info.Children, parents: ps}
	}
	return out
}

// bruteForce builds the graph of games from scratch, independently of the base, and
// computes every value and frequency by plain recursion.
func bruteForce(games []played) map[Key]snap {
	type raw struct {
		children map[game.Move]Key
		parents  map[Key]bool
		legal    int
		margin   int
		terminal bool
	}
	g := map[Key]*raw{}
	get := func(s *othello.State) *raw {
		k := KeyOf(s)
		r := g[k]
		if r == nil {
			r = &raw{children: map[game.Move]Key{}, parents: map[Key]bool{}, legal: len(s.LegalMoves(s.ToMove(), nil)),
				margin: s.Margin(), terminal: s.IsTerminal()}
			g[k] = r
		}
		return r
	}
	for _, p := range games {
		s := p.start
		get(&s)
		for _, m := range p.moves {
			from := KeyOf(&s)
			if err := s.Play(m); err != nil {
				panic(err)
			}
			get(&s).parents[from] = true
			g[from].children[m] = KeyOf(&s)
		}
	}
	out := map[Key]snap{}
	var eval func(k Key) (int, int64)
	eval = func(k Key) (int, int64) {
		if sn, ok := out[k]; ok {
			return sn.value, sn.freq
		}
		r := g[k]
		v, f := r.margin, int64(1)
		if !r.terminal {
			f = 0
			first := true
			for _, c := range r.children {
				cv, cf := eval(c)
				f += cf
				if first || (k.Side == othello.Black && cv > v) || (k.Side == othello.White && cv < v) {
					v, first = cv, false
				}
			}
		}
		out[k] = snap{value: v, freq: f, legal: r.legal, children: r.children, parents: r.parents}
		return v, f
	}
	for k := range g {
		eval(k)
	}
	return out
}

// diffGraphs describes the first few differences between two graphs, or returns "".
func diffGraphs(got, want map[Key]snap) string {
	var d []string
	if len(got) != len(want) {
		d = append(d, fmt.Sprintf("%d nodes, want %d", len(got), len(want)))
	}
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			d = append(d, fmt.Sprintf("%v missing", k))
		case g.value != w.value || g.freq != w.freq || g.legal != w.legal:
			d = append(d, fmt.Sprintf("%v: value %d freq %d legal %d, want %d %d %d", k, g.value, g.freq, g.legal, w.value, w.freq, w.legal))
		case fmt.Sprint(g.children) != fmt.Sprint(w.children) || fmt.Sprint(g.parents) != fmt.Sprint(w.parents):
			d = append(d, fmt.Sprintf("%v: children %v parents %v, want %v %v", k, g.children, g.parents, w.children, w.parents))
		}
		if len(d) >= 5 {
			break
		}
	}
	return strings.Join(d, "\n")
}

// mergeAll merges games into b, failing the test on an error.
func mergeAll(t testing.TB, b *Base, games []played) {
	t.Helper()
	for i, p := range games {
		if _, err := b.Merge(&p.start, p.moves, Record{GameID: fmt.Sprint(i), Seat: othello.Black}); err != nil {
			t.Fatalf("merge game %d: %v", i, err)
		}
	}
}
