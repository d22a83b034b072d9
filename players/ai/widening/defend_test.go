package widening

import (
	"context"
	"strings"
	"testing"
)

// edgeLadder has a black stone at F1 (the target) that White takes in a ladder along the
// first line if Black does nothing: more attacker moves than the ip games read.
const edgeLadder = `
		. . . . . . . . .
		. . . O X . . . .
		. . . O . X X . .
		. . . . . . . . .
		. . . . . . . . .
		. . O . . . X O .
		. . . O X . . X .
		. . . O X . . . .
		. . . O O x . . .`

// TestDefenceAgainstALongLadder is a defender-first problem whose threat is a ladder
// along the edge, longer than the three attacker moves the game definition functions
// read: without deeperThreat the root sees no threat and answers "any move"; with it,
// the defender's answer must be a move after which the attacker's own search fails.
func TestDefenceAgainstALongLadder(t *testing.T) {
	p := parseDiagram(t, edgeLadder, Black)
	for _, st := range Strategies()[:8] {
		t.Run(st.Name, func(t *testing.T) {
			attack := p
			attack.ToMove = White
			a, err := Solve(context.Background(), attack, Options{Strategy: st})
			if err != nil || a.Verdict != Won {
				t.Fatalf("attacker first: %+v, %v; want won (the edge ladder)", a, err)
			}
			r, err := Solve(context.Background(), p, Options{Strategy: st})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != Won || r.Move < 0 {
				t.Fatalf("defender first: %+v; want won with a move", r)
			}
			b := newBoard(p.Size)
			b.setup(p.Stones)
			if !b.play(r.Move, Black) {
				t.Fatalf("the saving move %s is illegal", PointName(r.Move, p.Size))
			}
			after := Problem{Size: p.Size, Stones: append([]Color(nil), b.color[:p.Size*p.Size]...), ToMove: White, Target: p.Target, Ko: b.ko}
			if c, err := Solve(context.Background(), after, Options{Strategy: st}); err != nil || c.Verdict != Lost {
				t.Errorf("after %s the attacker's search gives %+v, %v; want lost", PointName(r.Move, p.Size), c, err)
			}
		})
	}
}

// TestDefenceZone checks the candidate moves of deeperThreat: the target's liberties
// first, then the points next to them and the liberties of weak attacker strings.
func TestDefenceZone(t *testing.T) {
	p := parseDiagram(t, `
		. . . . .
		. . . . .
		. . O X .
		. . x . .
		. . O X .`, Black)
	b := newBoard(p.Size)
	b.setup(p.Stones)
	var names []string
	for _, m := range defenceZone(b, p.Target) {
		names = append(names, PointName(m, p.Size))
	}
	got := strings.Join(names, " ")
	// Liberties B2 and D2 first; then A2, B1, B3, E2 next to them; C4, a liberty of the
	// white stone at C3, which has two.
	want := []string{"B2 D2", "A2", "B1", "B3", "E2", "C4"}
	if !strings.HasPrefix(got, want[0]) {
		t.Errorf("zone %q does not start with the liberties %q", got, want[0])
	}
	for _, w := range want[1:] {
		if !strings.Contains(" "+got+" ", " "+w+" ") {
			t.Errorf("zone %q lacks %s", got, w)
		}
	}
	if len(names) != 7 {
		t.Errorf("zone %q: want 7 points", got)
	}
}
