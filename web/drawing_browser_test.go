package web

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
)

// drawingTextJS is JavaScript that reads the first board drawn from a drawing under sel
// as drawingText writes a drawing: what the page shows, piece by piece, wall by wall and
// marker by marker, each at its place, with the pieces' labels as the page's text.
func drawingTextJS(sel string) string {
	return `(() => { const s = document.querySelector(` + strconv.Quote(sel+" svg.drawing") + `); if (!s) return "no drawing";
		const parts = [];
		for (const p of s.querySelectorAll("g.piece")) parts.push("p" + p.dataset.x + "," + p.dataset.y + ":" + p.dataset.seat + (p.textContent ? ":" + p.textContent : ""));
		for (const w of s.querySelectorAll("rect.wall")) parts.push("w" + w.dataset.x + "," + w.dataset.y + w.dataset.dir);
		for (const m of s.querySelectorAll(".marker")) parts.push("m" + m.dataset.x + "," + m.dataset.y + ":" + m.dataset.kind + (m.dataset.kind === "label" ? ":" + m.textContent : ""));
		parts.sort();
		return (s.classList.contains("intersections") ? "intersections" : "squares") + " " + s.dataset.width + "x" + s.dataset.height + " " + parts.join(" "); })()`
}

// newJS counts what the board under sel outlines as added by the last move.
func newJS(sel string) string {
	return `document.querySelectorAll(` + strconv.Quote(sel+" svg.drawing .new") + `).length`
}

// TestBrowserDrawings: script games and atari-go, which have no board of their own in the
// page, are drawn from their drawings, recorded and live: Quoridor's pawns and walls,
// gomoku's stones on the points, a game whose labels are markup shown as text, and a
// live atari-go game on the tournament and game pages, each exactly as the rules draw
// the position.
func TestBrowserDrawings(t *testing.T) {
	ctx := browser(t)
	registerMarked(t)
	f := newFixture(t)
	sub, pub := startNATS(t)
	hs := newTestServer(t, Config{Store: f.db, NATS: sub})
	sub.Flush()

	for _, tc := range []struct {
		spec  string
		plies int
		pick  func(game.State, game.Seat, []game.Move) game.Move
		board string // the drawing's start, board and size
		walls bool   // the final position has walls
	}{
		{"quoridor", 16, last, "squares 9x9 ", true},
		{"gomoku", 12, first, "intersections 15x15 ", false},
		{markedGame, 7, last, "squares 3x3 ", true},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			rec := recordGame(t, f, tc.spec, tc.plies, tc.pick)
			start := drawingText(drawingOfText(t, tc.spec, rec.StartPosition))
			final := drawingText(drawingOfText(t, tc.spec, rec.FinalPosition))
			if !strings.HasPrefix(final, tc.board) || strings.Contains(final, " w") != tc.walls || start == final {
				t.Fatalf("the game is no test of the drawing:\n start %s\n final %s", start, final)
			}
			open(t, ctx, hs.URL+"/game.html?id="+strconv.FormatInt(rec.ID, 10), "#board svg.drawing")
			if got := eval[string](t, ctx, drawingTextJS("#board")); got != start {
				t.Errorf("board at the start:\n got  %s\n want %s", got, start)
			}
			if n := eval[int](t, ctx, newJS("#board")); n != 0 {
				t.Errorf("%d things outlined as new at the start", n)
			}
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
				t.Fatal(err)
			}
			if got := eval[string](t, ctx, drawingTextJS("#board")); got != final {
				t.Errorf("board at the end:\n got  %s\n want %s", got, final)
			}
			if n := eval[int](t, ctx, newJS("#board")); n != 1 {
				t.Errorf("%d things outlined as added by the last move, want 1", n)
			}
			// Quoridor's seats are white and black, in that order: seat 0's pawn is light.
			if tc.spec == "quoridor" {
				if fill := eval[string](t, ctx, `document.querySelector('#board g.piece[data-seat="0"] circle').getAttribute("fill")`); fill != "#f5f5f5" {
					t.Errorf("white's pawn is drawn in %s", fill)
				}
			}
			if tc.spec == markedGame {
				if n := eval[int](t, ctx, `document.querySelectorAll("main b").length`); n != 0 {
					t.Errorf("a label made %d <b> elements", n)
				}
				if !eval[bool](t, ctx, `Array.from(document.querySelectorAll("#board g.piece text")).some(e => e.textContent === "<b>")`) {
					t.Error(`the label "<b>" is not shown as text`)
				}
			}
		})
	}

	t.Run("live atari-go", func(t *testing.T) {
		const spec = "atari-go"
		g, err := game.Lookup(spec)
		if err != nil {
			t.Fatal(err)
		}
		st := g.NewState()
		live := "t" + strconv.FormatInt(f.tid, 10) + "-7"
		publish(t, pub, protocol.GameEvent{Type: protocol.TypeEventStart, GameID: live, Game: spec, Players: []string{"alice", "bob"}, Position: st.String()})
		play := func(ply int, text string) string {
			t.Helper()
			m, err := st.ParseMove(text)
			if err == nil {
				err = st.Play(m)
			}
			if err != nil {
				t.Fatal(err)
			}
			publish(t, pub, protocol.GameEvent{Type: protocol.TypeEventMove, GameID: live, Game: spec, Ply: ply, Seat: ply % 2, Move: text, Position: st.String()})
			return drawingText(drawingOfText(t, spec, st.String()))
		}
		play(0, "E5")
		want := play(1, "C3")
		if !strings.HasPrefix(want, "intersections 9x9 ") || strings.Count(want, " p") != 2 {
			t.Fatalf("drawing %s", want)
		}
		open(t, ctx, hs.URL+"/tournament.html?id="+strconv.FormatInt(f.tid, 10), ".liveboard svg.drawing.intersections")
		if got := eval[string](t, ctx, drawingTextJS(".liveboard")); got != want {
			t.Errorf("live board from the snapshot:\n got  %s\n want %s", got, want)
		}
		// A move played while the page is open is drawn without a reload.
		want = play(2, "G7")
		if err := waitFor(ctx, drawingTextJS(".liveboard")+` === `+strconv.Quote(want)); err != nil {
			t.Errorf("live board after a move event: %v\n got  %s\n want %s", err, eval[string](t, ctx, drawingTextJS(".liveboard")), want)
		}
		open(t, ctx, hs.URL+"/game.html?live="+live, "#board svg.drawing")
		if err := waitFor(ctx, drawingTextJS("#board")+` === `+strconv.Quote(want)); err != nil {
			t.Errorf("live game page: %v\n got  %s\n want %s", err, eval[string](t, ctx, drawingTextJS("#board")), want)
		}
		if n := eval[int](t, ctx, newJS("#board")); n != 1 {
			t.Errorf("%d stones outlined as the last move's, want 1", n)
		}
	})
}
