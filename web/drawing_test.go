package web

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// markedGame is a script game registered for these tests: tic-tac-toe whose drawing has
// labels that would be markup in a page ("<b>" on x's pieces, "&" on o's), a dot marker
// and a wall.
const markedGame = "webdrawtest"

var markedOnce sync.Once

func registerMarked(t testing.TB) {
	t.Helper()
	markedOnce.Do(func() {
		src, err := os.ReadFile("../docs/examples/tictactoe.star")
		if err != nil {
			t.Fatal(err)
		}
		rules, _, _ := strings.Cut(strings.Replace(string(src), `name = "tictactoe"`, `name = "`+markedGame+`"`, 1), "def draw(")
		rules += `def draw(board):
    return {"board": "squares", "width": 3, "height": 3,
            "pieces": [{"at": [i % 3, i // 3], "seat": seats.index(board[i]), "label": "<b>" if board[i] == "x" else "&"} for i in range(9) if board[i] != "."],
            "markers": [{"at": [1, 1], "kind": "dot"}],
            "walls": [{"at": [0, 0], "dir": "h"}]}
`
		path := filepath.Join(os.TempDir(), fmt.Sprintf("arena-web-%d-%s.star", os.Getpid(), markedGame))
		if err := os.WriteFile(path, []byte(rules), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(path)
		if _, err := game.Lookup(path); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := game.Lookup(markedGame); err != nil {
		t.Fatalf("%s is not registered: %v", markedGame, err)
	}
}

// drawingText writes a drawing as a sorted list of its parts, one word each: the board,
// then p<x>,<y>:<seat>[:<label>] for a piece, w<x>,<y><dir> for a wall and
// m<x>,<y>:<kind>[:<label>] for a marker. drawingTextJS writes a drawn board the same way.
func drawingText(d game.Drawing) string {
	var parts []string
	for _, p := range d.Pieces {
		s := fmt.Sprintf("p%d,%d:%d", p.At[0], p.At[1], p.Seat)
		if p.Label != "" {
			s += ":" + p.Label
		}
		parts = append(parts, s)
	}
	for _, w := range d.Walls {
		parts = append(parts, fmt.Sprintf("w%d,%d%s", w.At[0], w.At[1], w.Dir))
	}
	for _, m := range d.Markers {
		s := fmt.Sprintf("m%d,%d:%s", m.At[0], m.At[1], m.Kind)
		if m.Label != "" {
			s += ":" + m.Label
		}
		parts = append(parts, s)
	}
	sort.Strings(parts)
	return fmt.Sprintf("%s %dx%d %s", d.Board, d.Width, d.Height, strings.Join(parts, " "))
}

// drawingOfText is the drawing of a position of the game spec, made here from the rules.
func drawingOfText(t testing.TB, spec, pos string) game.Drawing {
	t.Helper()
	g, err := game.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.ParseState(pos)
	if err != nil {
		t.Fatal(err)
	}
	d, err := game.Draw(st)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// recordGame plays a game of spec with pick and records it in a tournament of its own.
func recordGame(t testing.TB, f *fixture, spec string, maxPlies int, pick func(game.State, game.Seat, []game.Move) game.Move) store.Game {
	t.Helper()
	ctx := context.Background()
	tid, err := f.db.CreateTournament(ctx, store.Tournament{Game: spec, Format: "round-robin", TimeControl: "1s", Players: []string{"alice", "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	start, final, moves, _ := playOut(t, spec, maxPlies, pick)
	g := store.Game{TournamentID: tid, Index: 1, Game: spec, Players: []string{"alice", "bob"}, Result: store.ResultDraw, Reason: "normal", Scores: []float64{0.5, 0.5},
		StartPosition: start, FinalPosition: final, Moves: moves}
	if g.ID, err = f.db.RecordGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGameDrawings: a recorded game's JSON has the drawing of every position of a game
// that draws, the same as the rules draw from the position's text, and none for a game
// that does not.
func TestGameDrawings(t *testing.T) {
	registerMarked(t)
	f := newFixture(t)
	hs := newTestServer(t, Config{Store: f.db})
	for _, tc := range []struct {
		spec  string
		plies int
	}{{"quoridor:size=5,walls=3", 12}, {"gomoku:size=9", 9}, {"atari-go", 9}, {"othello", 60}, {"checkers", 30}, {markedGame, 9}} {
		t.Run(tc.spec, func(t *testing.T) {
			rec := recordGame(t, f, tc.spec, tc.plies, last)
			var g struct {
				StartPosition string        `json:"start_position"`
				StartDrawing  *game.Drawing `json:"start_drawing"`
				Moves         []struct {
					Position string        `json:"position"`
					Drawing  *game.Drawing `json:"drawing"`
				} `json:"moves"`
			}
			if err := json.NewDecoder(get(t, fmt.Sprintf("%s/api/games/%d", hs.URL, rec.ID)).Body).Decode(&g); err != nil {
				t.Fatal(err)
			}
			if len(g.Moves) != len(rec.Moves) || g.StartDrawing == nil {
				t.Fatalf("%d moves, start drawing %v", len(g.Moves), g.StartDrawing)
			}
			if got, want := drawingText(*g.StartDrawing), drawingText(drawingOfText(t, tc.spec, g.StartPosition)); got != want {
				t.Errorf("start drawing\n got  %s\n want %s", got, want)
			}
			for i, m := range g.Moves {
				if m.Drawing == nil {
					t.Fatalf("move %d has no drawing", i)
				}
				if got, want := drawingText(*m.Drawing), drawingText(drawingOfText(t, tc.spec, m.Position)); got != want {
					t.Fatalf("move %d's drawing\n got  %s\n want %s", i, got, want)
				}
			}
		})
	}
	t.Run("ipd", func(t *testing.T) {
		body := get(t, fmt.Sprintf("%s/api/games/%d", hs.URL, f.ipd.ID))
		var raw map[string]any
		if err := json.NewDecoder(body.Body).Decode(&raw); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(raw)
		if strings.Contains(string(b), `"drawing"`) || raw["start_drawing"] != nil {
			t.Errorf("a game that does not draw has drawings: %.300s", b)
		}
	})
}

// TestLiveDrawings: a start and a move event carry the drawing of their position, which
// the game kept in memory has too; an event whose position does not parse has none.
func TestLiveDrawings(t *testing.T) {
	h := newHub(16)
	c := &client{}
	h.subscribe(c)
	spec := "quoridor:size=5,walls=3"
	start := "c1 c5 3 3 - - w 0"
	after := "c1 c5 2 3 a1 - b 1"
	for _, ev := range []protocol.GameEvent{
		{V: 1, Type: protocol.TypeEventStart, GameID: "t1-1", Game: spec, Position: start},
		{V: 1, Type: protocol.TypeEventMove, GameID: "t1-1", Game: spec, Move: "a1h", Position: after},
		{V: 1, Type: protocol.TypeEventMove, GameID: "t1-1", Game: spec, Ply: 1, Seat: 1, Move: "x", Position: "not a position"},
	} {
		h.publish(ev, nil, drawText(ev.Game, ev.Position), time.Now())
	}
	for i, want := range []string{start, after, ""} {
		frame := string(<-c.ch)
		_, data, _ := strings.Cut(frame, "data: ")
		var ev eventJSON
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatal(err)
		}
		switch {
		case want == "" && ev.Drawing != nil:
			t.Errorf("event %d: a drawing of a position that does not parse: %s", i, ev.Drawing)
		case want == "":
		case ev.Drawing == nil:
			t.Errorf("event %d: no drawing", i)
		default:
			var d game.Drawing
			if err := json.Unmarshal(ev.Drawing, &d); err != nil {
				t.Fatal(err)
			}
			if got, want := drawingText(d), drawingText(drawingOfText(t, spec, want)); got != want {
				t.Errorf("event %d's drawing\n got  %s\n want %s", i, got, want)
			}
		}
	}
	g, _ := h.game("t1-1")
	if g.StartDrawing == nil || len(g.Moves) != 2 || g.Moves[0].Drawing == nil || g.Moves[1].Drawing != nil {
		t.Errorf("the game in memory: start drawing %s, moves %+v", g.StartDrawing, g.Moves)
	}
	if !strings.Contains(string(g.Moves[0].Drawing), `"walls":[{"at":[0,3],"dir":"h"}]`) {
		t.Errorf("the wall a1h is not in the drawing %s", g.Moves[0].Drawing)
	}
}

// TestLiveEventDrawing: the stream's start event of a game the server knows has the
// game's seats and the drawing of its position, its move events the drawing.
func TestLiveEventDrawing(t *testing.T) {
	pub, stream := liveStream(t, newFixture(t))
	spec := "quoridor:size=5"
	publish(t, pub, protocol.GameEvent{Type: protocol.TypeEventStart, GameID: "t1-3", Game: spec, Position: "c1 c5 10 10 - - w 0"})
	publish(t, pub, protocol.GameEvent{Type: protocol.TypeEventMove, GameID: "t1-3", Game: spec, Move: "c2", Position: "c2 c5 10 10 - - b 1"})
	for _, want := range []string{`"seats":["white","black"],"drawing":{"board":"squares","width":5,"height":5,"coords":"bottom","to_move":0,"pieces":[{"at":[2,4],"seat":0},{"at":[2,0],"seat":1}]}}`,
		`"drawing":{"board":"squares","width":5,"height":5,"coords":"bottom","to_move":1,"pieces":[{"at":[2,3],"seat":0},{"at":[2,0],"seat":1}]}}`} {
		if ev := stream.next(); !strings.HasSuffix(ev.data, want) {
			t.Errorf("event %s %s\nwant it to end %s", ev.name, ev.data, want)
		}
	}
}

// TestLiveDrawingsBounded: the drawings kept in memory stop at maxLiveDrawingBytes, and
// an ended game's are counted off when it goes.
func TestLiveDrawingsBounded(t *testing.T) {
	h := newHub(1)
	big := json.RawMessage(`{"board":"squares","width":1,"height":1,"pieces":[` + strings.Repeat(" ", maxLiveDrawingBytes/3) + `]}`)
	now := time.Now()
	h.publish(protocol.GameEvent{V: 1, Type: protocol.TypeEventStart, GameID: "t1-1", Game: "othello"}, nil, big, now)
	for ply := range 3 {
		h.publish(protocol.GameEvent{V: 1, Type: protocol.TypeEventMove, GameID: "t1-1", Game: "othello", Ply: ply}, nil, big, now)
	}
	g, _ := h.game("t1-1")
	kept := 0
	for _, m := range g.Moves {
		if m.Drawing != nil {
			kept++
		}
	}
	if g.StartDrawing == nil || kept != 1 || h.drawn != 2*len(big) {
		t.Errorf("start drawing kept %v, %d of 3 moves' drawings kept, %d bytes counted; want the start's and one move's", g.StartDrawing != nil, kept, h.drawn)
	}
	h.publish(protocol.GameEvent{V: 1, Type: protocol.TypeEventEnd, GameID: "t1-1", Game: "othello", Ply: 3}, nil, nil, now)
	h.publish(protocol.GameEvent{V: 1, Type: protocol.TypeEventStart, GameID: "t1-2", Game: "othello"}, nil, nil, now.Add(2*endedKeep))
	if _, ok := h.game("t1-1"); ok || h.drawn != 0 {
		t.Errorf("after the game went: kept %v, %d bytes counted", ok, h.drawn)
	}
}

// TestLookupGame: the server looks a game up once, and never a file.
func TestLookupGame(t *testing.T) {
	g1, err := lookupGame("quoridor:size=5")
	if err != nil {
		t.Fatal(err)
	}
	if g2, _ := lookupGame("quoridor:size=5"); g2 != g1 {
		t.Error("looked up twice")
	}
	for _, spec := range []string{"../docs/examples/tictactoe.star", "x/y", "nosuchgame", ""} {
		if g, err := lookupGame(spec); g != nil || err == nil {
			t.Errorf("lookupGame(%q) = %v, %v; want an error", spec, g, err)
		}
	}
	if _, err := game.Lookup("tictactoe"); err == nil {
		t.Error("the file named by its path was read: tictactoe is registered")
	}
}
