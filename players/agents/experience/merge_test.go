package experience

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// On 4x4, "b1 a1 a2" and "a2 a1 b1" reach the same position T3, and c1 from there reaches
// T4, where black has four moves. Games A and C go through the first order, B and D
// through the second; A and D end alike, B and C leave T4 by other moves.
func transpositionGames(t *testing.T) (start *othello.State, games map[string][]game.Move) {
	g := sized(t, 4)
	start = g.Initial()
	pA, pB := line(t, "b1 a1 a2 c1"), line(t, "a2 a1 b1 c1")
	t4 := after(t, start, pA)
	if KeyOf(t4) != KeyOf(after(t, start, pB)) {
		t.Fatal("premise: the two orders do not transpose")
	}
	legal := t4.LegalMoves(t4.ToMove(), nil)
	if t4.ToMove() != othello.Black || len(legal) < 3 {
		t.Fatalf("premise: T4 has %d moves for %d", len(legal), t4.ToMove())
	}
	suffix := func(i int) []game.Move { return finish(t4, []game.Move{legal[i]}, firstMove) }
	s1, s2, s3 := suffix(0), suffix(1), suffix(2)
	return start, map[string][]game.Move{
		"A": append(append([]game.Move{}, pA...), s1...),
		"B": append(append([]game.Move{}, pB...), s2...),
		"C": append(append([]game.Move{}, pA...), s3...),
		"D": append(append([]game.Move{}, pB...), s1...),
	}
}

func permutations(xs []string) [][]string {
	if len(xs) <= 1 {
		return [][]string{append([]string{}, xs...)}
	}
	var out [][]string
	for i := range xs {
		rest := append(append([]string{}, xs[:i]...), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]string{xs[i]}, p...))
		}
	}
	return out
}

func TestBackupThroughTranspositions(t *testing.T) {
	start, games := transpositionGames(t)
	margin := func(name string) int { return after(t, start, games[name]).Margin() }
	// T4 (black to move) has three explored children, each a single line to its end.
	vT4 := max(margin("A"), margin("B"), margin("C"))

	for _, order := range permutations([]string{"A", "B", "C", "D"}) {
		t.Run(order[0]+order[1]+order[2]+order[3], func(t *testing.T) {
			b, _ := openTemp(t, "othello:size=4")
			var all []played
			for _, name := range order {
				res, err := b.Merge(start, games[name], Record{GameID: name, Seat: othello.White})
				if err != nil {
					t.Fatal(err)
				}
				if res.Margin != margin(name) {
					t.Errorf("game %s: margin %d, want %d", name, res.Margin, margin(name))
				}
				all = append(all, played{start: *start, moves: games[name]})
			}
			if d := diffGraphs(snapshot(t, b), bruteForce(all)); d != "" {
				t.Fatalf("graph differs from brute force:\n%s", d)
			}
			// Every node of both prefixes, on whatever game's path it was, carries T4's
			// value, and counts T4's three paths (the root counts both prefixes).
			for _, prefix := range []string{"b1", "b1 a1", "b1 a1 a2", "a2", "a2 a1", "a2 a1 b1", "b1 a1 a2 c1"} {
				info, ok := b.Node(KeyOf(after(t, start, line(t, prefix))))
				if !ok {
					t.Fatalf("%s: not in the base", prefix)
				}
				if info.Value != vT4 || info.Freq != 3 {
					t.Errorf("after %s: value %d freq %d, want %d 3", prefix, info.Value, info.Freq, vT4)
				}
			}
			root, _ := b.Node(KeyOf(start))
			if root.Value != vT4 || root.Freq != 6 || len(root.Children) != 2 {
				t.Errorf("root: value %d freq %d children %d, want %d 6 2", root.Value, root.Freq, len(root.Children), vT4)
			}
			t3, _ := b.Node(KeyOf(after(t, start, line(t, "b1 a1 a2"))))
			if len(t3.Parents) != 2 {
				t.Errorf("T3 has %d parents, want 2", len(t3.Parents))
			}
		})
	}
}

func TestMergeCounts(t *testing.T) {
	start, games := transpositionGames(t)
	b, _ := openTemp(t, "othello:size=4")
	a := games["A"]
	res, err := b.Merge(start, a, Record{Seat: othello.Black})
	if err != nil {
		t.Fatal(err)
	}
	if want := (MergeResult{NewNodes: len(a) + 1, NewArcs: len(a), Changed: 0, Margin: after(t, start, a).Margin()}); res != want {
		t.Errorf("first game: %+v, want %+v", res, want)
	}
	// The same game again changes nothing but is recorded.
	res, err = b.Merge(start, a, Record{Seat: othello.Black})
	if err != nil {
		t.Fatal(err)
	}
	if res.NewNodes != 0 || res.NewArcs != 0 || res.Changed != 0 {
		t.Errorf("repeated game: %+v, want no change", res)
	}
	// D reaches T3 by the other order and then ends as A: two new nodes (after a2 and
	// after a2 a1), three new arcs (the last into T3), and of the existing nodes only the
	// root changes (it gains a path; T3 and below are as they were).
	res, err = b.Merge(start, games["D"], Record{Seat: othello.Black})
	if err != nil {
		t.Fatal(err)
	}
	if res.NewNodes != 2 || res.NewArcs != 3 || res.Changed != 1 {
		t.Errorf("transposing game: %+v, want 2 new nodes, 3 new arcs, 1 changed", res)
	}
	st, err := b.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Nodes != len(a)+3 || st.Arcs != len(a)+3 || st.Games != 3 {
		t.Errorf("stats %+v", st)
	}
}

func TestBackupMatchesBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		size  int
		games int
	}{
		{"4x4", 4, 300},
		{"6x6", 6, 120},
		{"8x8", 8, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := sized(t, tc.size)
			b, path := openTemp(t, g.Name())
			rng := rand.New(rand.NewPCG(uint64(tc.size), 7))
			var all []played
			for i := range tc.games {
				p := randomGame(rng, g, i%3 == 0)
				all = append(all, p)
				mergeAll(t, b, []played{p})
				if i%25 == 0 || i == tc.games-1 {
					if d := diffGraphs(snapshot(t, b), bruteForce(all)); d != "" {
						t.Fatalf("after %d games:\n%s", i+1, d)
					}
				}
			}
			// And the file says the same: reopen (which checks every node against its
			// children) and compare again.
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			b2, err := Open(path, g.Name())
			if err != nil {
				t.Fatal(err)
			}
			defer b2.Close()
			if d := diffGraphs(snapshot(t, b2), bruteForce(all)); d != "" {
				t.Fatalf("after reopening:\n%s", d)
			}
		})
	}
}

func TestMergeRefusesAndChangesNothing(t *testing.T) {
	g := sized(t, 6)
	start := g.Initial()
	rng := rand.New(rand.NewPCG(1, 2))
	full := finish(start, nil, func(n int) int { return rng.IntN(n) })
	illegal := append([]game.Move{}, full...)
	illegal[5] = othello.Square(0, 0) // a1 is never legal six plies in
	if s := after(t, start, full[:5]); s.MoveMask()&1 != 0 {
		t.Fatal("premise: a1 is legal")
	}
	afterEnd := append(append([]game.Move{}, full...), othello.Pass)
	for _, tc := range []struct {
		name  string
		start *othello.State
		moves []game.Move
		rec   Record
		is    error
	}{
		{"unfinished", start, full[:len(full)-1], Record{Seat: othello.Black}, ErrUnfinished},
		{"no moves", start, nil, Record{Seat: othello.Black}, ErrUnfinished},
		{"illegal move", start, illegal, Record{Seat: othello.Black}, game.ErrIllegalMove},
		{"pass when a move exists", start, append([]game.Move{othello.Pass}, full...), Record{Seat: othello.Black}, game.ErrIllegalMove},
		{"move after the end", start, afterEnd, Record{Seat: othello.Black}, game.ErrGameOver},
		{"other board size", othello.NewState(), finish(othello.NewState(), nil, firstMove), Record{Seat: othello.Black}, nil},
		{"bad seat", start, full, Record{Seat: 2}, nil},
		{"more hits than decisions", start, full, Record{Seat: othello.White, Decisions: 3, Hits: 4}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := openTemp(t, g.Name())
			mergeAll(t, b, []played{randomGame(rng, g, false), randomGame(rng, g, false)})
			before := snapshot(t, b)
			stBefore, _ := b.Stats()
			_, err := b.Merge(tc.start, tc.moves, tc.rec)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v, want one wrapping %v", err, tc.is)
			}
			if d := diffGraphs(snapshot(t, b), before); d != "" {
				t.Errorf("graph changed:\n%s", d)
			}
			st, _ := b.Stats()
			if st.Games != stBefore.Games || st.Nodes != stBefore.Nodes {
				t.Errorf("stats %+v, were %+v", st, stBefore)
			}
		})
	}
}

// A transaction that fails leaves memory as the file: nothing of the merge.
func TestMergeFailedWriteLeavesMemory(t *testing.T) {
	g := sized(t, 6)
	b, path := openTemp(t, g.Name())
	rng := rand.New(rand.NewPCG(3, 4))
	mergeAll(t, b, []played{randomGame(rng, g, false)})
	before := snapshot(t, b)
	if _, err := b.db.Exec(`CREATE TRIGGER fail BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'injected'); END`); err != nil {
		t.Fatal(err)
	}
	p := randomGame(rng, g, false)
	if _, err := b.Merge(&p.start, p.moves, Record{Seat: othello.Black}); err == nil {
		t.Fatal("merge succeeded despite the failing trigger")
	}
	if d := diffGraphs(snapshot(t, b), before); d != "" {
		t.Fatalf("memory changed by a failed merge:\n%s", d)
	}
	if _, err := b.db.Exec(`DROP TRIGGER fail`); err != nil {
		t.Fatal(err)
	}
	mergeAll(t, b, []played{p})
	want := snapshot(t, b)
	b.Close()
	b2, err := Open(path, g.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	if d := diffGraphs(snapshot(t, b2), want); d != "" {
		t.Fatalf("file differs from memory:\n%s", d)
	}
}

// A game from an opening position starts a second root; a later game through that
// position gives it a parent, and the new parent inherits its paths.
func TestMergeFromOpening(t *testing.T) {
	g := sized(t, 6)
	b, _ := openTemp(t, g.Name())
	start := g.Initial()
	full := finish(start, nil, firstMove)
	mid := after(t, start, full[:4])
	if _, err := b.Merge(mid, full[4:], Record{Seat: othello.Black}); err != nil {
		t.Fatal(err)
	}
	info, _ := b.Node(KeyOf(mid))
	if len(info.Parents) != 0 || info.Freq != 1 {
		t.Fatalf("opening root: %+v", info)
	}
	res, err := b.Merge(start, full, Record{Seat: othello.White})
	if err != nil {
		t.Fatal(err)
	}
	if res.NewNodes != 4 || res.NewArcs != 4 || res.Changed != 0 {
		t.Errorf("%+v, want 4 new nodes and arcs, no existing node changed", res)
	}
	info, _ = b.Node(KeyOf(mid))
	if len(info.Parents) != 1 {
		t.Errorf("opening root has %d parents, want 1", len(info.Parents))
	}
	root, _ := b.Node(KeyOf(start))
	if root.Freq != 1 || root.Value != after(t, start, full).Margin() {
		t.Errorf("root %+v", root)
	}
	if !reflect.DeepEqual(root.Parents, []Key{}) {
		t.Errorf("root parents %v", root.Parents)
	}
}
