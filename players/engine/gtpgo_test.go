package engine_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
	"github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/lab/gnugo/gnugotest"
	"github.com/arenaref/arena/players/engine"
)

// goEngine answers as GNU Go does the commands the dialect sends in a Go game: it refuses
// list_games, takes every other command, and answers genmove with genmove.
func goEngine(genmove string) func(string) []string {
	return func(line string) []string {
		switch cmd, _, _ := strings.Cut(line, " "); cmd {
		case "list_games":
			return []string{"? unknown command", ""}
		case "genmove":
			return []string{"= " + genmove, ""}
		}
		return []string{"= ", ""}
	}
}

func lookupGame(t *testing.T, name string) game.Game {
	t.Helper()
	g, err := game.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGTPGoMoves checks the moves of Go games on the wire, both ways: the game's moves
// are sent as GTP vertices (letters skip I; "pass"), after the board size and, for a
// capture problem, the stones of its position; the engine's vertex, in either case, or
// pass is read as the game's move, and a vertex off the board or with the letter I is no
// move.
func TestGTPGoMoves(t *testing.T) {
	tests := []struct {
		name    string
		game    string
		moves   []string
		genmove string // the engine's answer
		sent    string // the commands after the handshake, | between them
		move    string // the move read, in the game's notation; "" for an error
		err     error
	}{
		{name: "9x9, J is the ninth column", game: "atari-go", moves: []string{"E5", "J9", "A1"}, genmove: "H8",
			sent: "boardsize 9|clear_board|play black E5|play white J9|play black A1|genmove white", move: "H8"},
		{name: "lower case", game: "atari-go", genmove: "j1",
			sent: "boardsize 9|clear_board|genmove black", move: "J1"},
		{name: "padded", game: "atari-go", genmove: "  C7  ",
			sent: "boardsize 9|clear_board|genmove black", move: "C7"},
		{name: "19x19, T is the last column", game: "atari-go:size=19", moves: []string{"T19", "H8"}, genmove: "t1",
			sent: "boardsize 19|clear_board|play black T19|play white H8|genmove black", move: "T1"},
		{name: "5x5", game: "atari-go:size=5", moves: []string{"E5"}, genmove: "A5",
			sent: "boardsize 5|clear_board|play black E5|genmove white", move: "A5"},
		{name: "no letter I", game: "atari-go", genmove: "I5",
			sent: "boardsize 9|clear_board|genmove black", err: game.ErrBadMove},
		{name: "off the 9x9 board", game: "atari-go", genmove: "K9",
			sent: "boardsize 9|clear_board|genmove black", err: game.ErrBadMove},
		{name: "row off the board", game: "atari-go", genmove: "A10",
			sent: "boardsize 9|clear_board|genmove black", err: game.ErrBadMove},
		{name: "point taken", game: "atari-go", moves: []string{"E5"}, genmove: "E5",
			sent: "boardsize 9|clear_board|play black E5|genmove white", err: game.ErrIllegalMove},
		{name: "capture problem set up", game: "capture", genmove: "D3",
			sent: "boardsize 7|clear_board|play black C2|play black B3|play white C3|play black D4|genmove black", move: "D3"},
		{name: "capture problem, white to move", game: "capture:problem=7", genmove: "C3",
			sent: "boardsize 5|clear_board|play white A2|play white B2|play black A3|play black B3|genmove black", move: "C3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := lookupGame(t, tt.game)
			c := newScriptConn(goEngine(tt.genmove))
			d := engine.NewGTP()
			ctx := ctxFor(t, 10*time.Second)
			if _, err := d.Start(ctx, c); err != nil {
				t.Fatal(err)
			}
			c.commands()
			turn := turnAt(t, g, tt.moves...)
			dec, err := d.Move(ctx, c, turn)
			if got := strings.Join(c.commands(), "|"); got != tt.sent {
				t.Errorf("sent %s\nwant %s", got, tt.sent)
			}
			if tt.err != nil {
				var ae *engine.AnswerError
				if !errors.Is(err, tt.err) || !errors.As(err, &ae) || ae.Line != "= "+tt.genmove {
					t.Fatalf("error %v, want %v as an *AnswerError quoting the engine's line", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := turn.State.MoveString(dec.Move); got != tt.move {
				t.Errorf("move %s, want %s", got, tt.move)
			}
		})
	}
}

// TestGTPGoPasses: a pass of the opponent is sent as "play COLOUR pass" (Go engines take
// it), whoever passed; the engine's pass, in any case, is the game's pass; and the next
// turn sends only the opponent's move since, the engine's own pass being on its board.
func TestGTPGoPasses(t *testing.T) {
	g := lookupGame(t, "atari-go")
	tests := []struct {
		name    string
		moves   []string
		genmove string
		sent    string
		pass    bool
	}{
		{name: "opponent passed", moves: []string{"E5", "pass"}, genmove: "D5",
			sent: "play black E5|play white pass|genmove black"},
		{name: "black passed first", moves: []string{"pass"}, genmove: "E6",
			sent: "play black pass|genmove white"},
		{name: "engine passes", moves: []string{"E5"}, genmove: "pass", pass: true,
			sent: "play black E5|genmove white"},
		{name: "engine passes, upper case", moves: []string{"E5", "D4"}, genmove: "PASS", pass: true,
			sent: "play black E5|play white D4|genmove black"},
		{name: "engine passes, title case", moves: []string{"E5", "pass", "D4"}, genmove: "Pass", pass: true,
			sent: "play black E5|play white pass|play black D4|genmove white"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answer := tt.genmove
			c := newScriptConn(func(line string) []string { return goEngine(answer)(line) })
			d := engine.NewGTP()
			ctx := ctxFor(t, 10*time.Second)
			turn := turnAt(t, g, tt.moves...)
			dec, err := d.Move(ctx, c, turn)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(c.commands(), "|"); got != "boardsize 9|clear_board|"+tt.sent {
				t.Errorf("sent %s, want boardsize 9|clear_board|%s", got, tt.sent)
			}
			if isPass := dec.Move == turn.State.(*atarigo.State).PassMove(); isPass != tt.pass || dec.Resign {
				t.Errorf("decision %+v (%s), want pass %v", dec, turn.State.MoveString(dec.Move), tt.pass)
			}
			// The next turn sends only the opponent's move since: the engine played its own.
			answer = "B9"
			next := append(append([]string(nil), tt.moves...), turn.State.MoveString(dec.Move), "A9")
			if _, err := d.Move(ctx, c, turnAt(t, g, next...)); err != nil {
				t.Fatal(err)
			}
			want := "play " + g.Seats()[1-turn.Seat] + " A9|genmove " + g.Seats()[turn.Seat]
			if got := strings.Join(c.commands(), "|"); got != want {
				t.Errorf("next turn sent %s, want %s", got, want)
			}
		})
	}
}

// TestGTPGoGames: the games an engine's list_games must name for a Go game, and an answer
// with no games, or a refusal, which leaves every game to the engine.
func TestGTPGoGames(t *testing.T) {
	tests := []struct {
		listGames string // the answer to list_games
		game      string
		err       string // NewGame's error contains this; "" for none
	}{
		{"= go", "atari-go", ""},
		{"= Go", "capture:problem=2", ""},
		{"= atari-go", "atari-go:size=13", ""},
		{"= atarigo", "capture", ""},
		{"= ", "atari-go", ""},
		{"? unknown command", "atari-go", ""},
		{"= othello", "atari-go", "the engine plays othello (list_games), not atari-go"},
		{"= go", "othello", "the engine plays go (list_games), not othello"},
		{"= capture", "atari-go", "not atari-go"},
	}
	for _, tt := range tests {
		t.Run(tt.listGames+"/"+tt.game, func(t *testing.T) {
			handle := goEngine("")
			c := newScriptConn(func(line string) []string {
				if line == "list_games" {
					return []string{tt.listGames, ""}
				}
				return handle(line)
			})
			d := engine.NewGTP()
			if _, err := d.Start(ctxFor(t, time.Second), c); err != nil {
				t.Fatal(err)
			}
			err := d.NewGame(ctxFor(t, time.Second), c, lookupGame(t, tt.game), 0)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("NewGame: %v, want %q", err, tt.err)
			}
		})
	}
}

// TestGTPRefusesOtherGames: a game whose moves GTP cannot say is refused by the dialect
// too, with the registry's reason, before anything is sent.
func TestGTPRefusesOtherGames(t *testing.T) {
	c := newScriptConn(goEngine("A1"))
	err := engine.NewGTP().NewGame(ctxFor(t, time.Second), c, lookupGame(t, testgame.CountName), 0)
	if err == nil || !strings.Contains(err.Error(), "the gtp protocol plays othello, atari-go and capture") {
		t.Errorf("NewGame(testcount): %v", err)
	}
	if sent := c.commands(); len(sent) > 0 {
		t.Errorf("sent %q", sent)
	}
}

// TestGTPGoSetUpChanges: a capture game after another with a different position clears
// the board and sets the new position up, though the size is the same.
func TestGTPGoSetUpChanges(t *testing.T) {
	c := newScriptConn(goEngine("G7"))
	d := engine.NewGTP()
	ctx := ctxFor(t, 10*time.Second)
	for _, name := range []string{"capture:problem=1", "capture:problem=2"} {
		if err := d.NewGame(ctx, c, lookupGame(t, name), 0); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Move(ctx, c, turnAt(t, lookupGame(t, name))); err != nil {
			t.Fatal(err)
		}
	}
	sent := strings.Join(c.commands(), "|")
	want := "boardsize 7|clear_board|play black C2|play black B3|play white C3|play black D4|genmove black|" +
		"clear_board|play black C2|play white E2|play black B3|play white C3|play black D4|play white B5|genmove black"
	if sent != want {
		t.Errorf("sent %s\nwant %s", sent, want)
	}
}

// TestGTPGNUGoBoards plays GNU Go against itself through the dialect, in atari-go and in
// every embedded capture problem, and checks after every move of GNU Go's that its board
// (list_stones) is the game's: the problem's stones set up, the moves at the right points,
// and stones taken before the end removed as the game removes them. (GNU Go takes nothing
// from itself, so in problem 1 white first takes B3, a black stone other than the
// target, with moves of the test's own.) Every move GNU Go makes must be legal, to the
// game's end.
func TestGTPGNUGoBoards(t *testing.T) {
	gnugo := gnugotest.Program(t)
	p, err := engine.Start(context.Background(), []string{gnugo, "--mode", "gtp", "--level", "0", "--never-resign"}, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	d := engine.NewGTP()
	if _, err := d.Start(ctxFor(t, 10*time.Second), p); err != nil {
		t.Fatal(err)
	}
	opening := map[string][]string{"capture:problem=1": {"pass", "A3", "pass", "B4", "pass", "B2"}}
	names := []string{"atari-go", "atari-go:size=7"}
	for _, pr := range atarigo.Problems() {
		names = append(names, fmt.Sprintf("capture:problem=%d", pr.Number))
	}
	taken := 0
	for _, name := range names {
		g := lookupGame(t, name)
		if err := d.NewGame(ctxFor(t, 5*time.Second), p, g, 0); err != nil {
			t.Fatal(err)
		}
		var moves []string
		for turn := turnAt(t, g); !turn.State.IsTerminal(); turn = turnAt(t, g, moves...) {
			before := stoneCount(turn.State)
			if len(moves) < len(opening[name]) {
				moves = append(moves, opening[name][len(moves)])
			} else {
				dec, err := d.Move(ctxFor(t, 5*time.Second), p, turn)
				if err != nil || dec.Resign {
					t.Fatalf("%s after %s: %v (resigned %v)", name, strings.Join(moves, " "), err, dec.Resign)
				}
				moves = append(moves, turn.State.MoveString(dec.Move))
				after := turnAt(t, g, moves...).State
				for _, c := range []atarigo.Color{atarigo.Black, atarigo.White} {
					if got, want := gtpStones(t, p, c), stoneList(after, c); got != want {
						t.Fatalf("%s after %s: GNU Go's %s stones are %q, the game's %q", name, strings.Join(moves, " "), c, got, want)
					}
				}
			}
			if stoneCount(turnAt(t, g, moves...).State) <= before && moves[len(moves)-1] != "pass" {
				taken++
			}
		}
		t.Logf("%s: %s", name, strings.Join(moves, " "))
	}
	if taken == 0 {
		t.Error("no move took stones: the boards were not compared after a capture")
	}
}

// gtpStones asks the engine for its stones of colour c (list_stones, GNU Go's), sorted.
func gtpStones(t *testing.T, c engine.LineConn, colour atarigo.Color) string {
	t.Helper()
	if err := c.Send("list_stones " + colour.String()); err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, 5*time.Second)
	var answer []string
	for {
		line, err := c.Recv(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if line == "" && len(answer) > 0 {
			break
		}
		answer = append(answer, line)
	}
	text, ok := strings.CutPrefix(strings.Join(answer, " "), "=")
	if !ok {
		t.Fatalf("list_stones %s: %q", colour, answer)
	}
	points := strings.Fields(strings.ToUpper(text))
	slices.Sort(points)
	return strings.Join(points, " ")
}

// stoneList is the game's points of colour c in GTP notation, sorted.
func stoneList(st game.State, c atarigo.Color) string {
	s := st.(*atarigo.State)
	var points []string
	for p := range atarigo.Point(s.Size() * s.Size()) {
		if s.At(p) == c {
			points = append(points, s.MoveString(game.Move(p)))
		}
	}
	slices.Sort(points)
	return strings.Join(points, " ")
}

// stoneCount is the number of stones on the board.
func stoneCount(st game.State) int {
	return len(strings.Fields(stoneList(st, atarigo.Black) + " " + stoneList(st, atarigo.White)))
}
