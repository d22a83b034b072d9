package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/protocol"
)

// scriptConn is an engine in memory: every line sent to it goes to handle, whose answer
// lines the engine "prints" for Recv to read.
type scriptConn struct {
	mu     sync.Mutex
	handle func(line string) []string
	sent   []string
	out    chan string
}

func newScriptConn(handle func(line string) []string) *scriptConn {
	return &scriptConn{handle: handle, out: make(chan string, 4096)}
}

func (c *scriptConn) Send(line string) error {
	c.mu.Lock()
	c.sent = append(c.sent, line)
	answer := c.handle(line)
	c.mu.Unlock()
	for _, l := range answer {
		c.out <- l
	}
	return nil
}

func (c *scriptConn) Recv(ctx context.Context) (string, error) {
	select {
	case l := <-c.out:
		return l, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// print makes the engine print lines on its own, as if late.
func (c *scriptConn) print(lines ...string) {
	for _, l := range lines {
		c.out <- l
	}
}

// commands returns the lines sent so far and forgets them.
func (c *scriptConn) commands() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.sent
	c.sent = nil
	return s
}

var _ engine.LineConn = (*scriptConn)(nil)

// gtpEngine models an Othello engine speaking GTP the way real ones do: it echoes ids,
// answers several lines to list_commands, prints its moves in upper case and plays the
// first legal move. The fields change how it misbehaves.
type gtpEngine struct {
	g  *othello.Game
	st game.State

	games    string            // list_games answer; "" refuses the command
	answer   map[string]string // full answers (without the id) replacing the normal one, by command word
	numbered bool              // number the answers even when the command had no id
	n        int
}

func newGTPEngine() *gtpEngine {
	g := othello.New()
	return &gtpEngine{g: g, st: g.NewState(), games: "Othello", answer: map[string]string{}}
}

func (e *gtpEngine) handle(line string) []string {
	fields := strings.Fields(line)
	id := ""
	if len(fields) > 0 {
		if _, err := strconv.Atoi(fields[0]); err == nil {
			id, fields = fields[0], fields[1:]
		}
	}
	e.n++
	if id == "" && e.numbered {
		id = strconv.Itoa(e.n)
	}
	ok := func(s ...string) []string {
		s = strings.Split(strings.Join(s, "\n"), "\n")
		s[0] = "=" + id + " " + s[0]
		return append(s, "")
	}
	fail := func(s string) []string { return []string{"?" + id + " " + s, ""} }
	if len(fields) == 0 {
		return nil
	}
	if a, found := e.answer[fields[0]]; found {
		if a == "" {
			return nil // never answers
		}
		lines := strings.Split(a, "\n")
		if lines[0] != "" && (lines[0][0] == '=' || lines[0][0] == '?') {
			lines[0] = lines[0][:1] + id + lines[0][1:]
		}
		return lines
	}
	switch fields[0] {
	case "protocol_version":
		return ok("2")
	case "name":
		return ok("Fake Engine")
	case "version":
		return fail("unknown command")
	case "list_commands":
		return ok("protocol_version", "name", "boardsize", "clear_board", "play", "genmove", "quit")
	case "list_games":
		if e.games == "" {
			return fail("unknown command")
		}
		return ok(e.games)
	case "boardsize":
		n, _ := strconv.Atoi(fields[1])
		g, err := othello.NewSize(n)
		if err != nil {
			return fail("unacceptable size")
		}
		e.g, e.st = g, g.NewState()
		return ok("")
	case "clear_board":
		e.st = e.g.NewState()
		return ok("")
	case "play":
		if len(fields) != 3 || !e.colourToMove(fields[1]) {
			return fail("illegal move")
		}
		m, err := e.st.ParseMove(fields[2])
		if err != nil || e.st.Play(m) != nil {
			return fail("illegal move")
		}
		return ok("")
	case "genmove":
		if len(fields) != 2 || !e.colourToMove(fields[1]) {
			return fail("not your turn")
		}
		m := e.st.LegalMoves(e.st.ToMove(), nil)[0]
		text := strings.ToUpper(e.st.MoveString(m))
		if err := e.st.Play(m); err != nil {
			panic(err)
		}
		return ok(text)
	case "quit":
		return ok("")
	}
	return fail("unknown command")
}

func (e *gtpEngine) colourToMove(colour string) bool {
	return strings.EqualFold(colour, e.g.Seats()[e.st.ToMove()])
}

// turnAt returns the turn after moves in a game of g.
func turnAt(t *testing.T, g game.Game, moves ...string) players.Turn {
	t.Helper()
	s := g.NewState()
	for _, text := range moves {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Play(m); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	return players.Turn{
		GameID: "g1", Game: g, State: s, Seat: s.ToMove(),
		Legal: s.LegalMoves(s.ToMove(), nil), Moves: append([]string(nil), moves...),
		Clock:    protocol.Clock{MoveMS: 1000, RemainingMS: 1000, PerMove: true},
		Deadline: time.Now().Add(time.Second),
	}
}

func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func TestGTPPlaysAGame(t *testing.T) {
	for _, numbered := range []bool{false, true} {
		t.Run(fmt.Sprintf("numbered=%v", numbered), func(t *testing.T) {
			e := newGTPEngine()
			e.numbered = numbered
			c := newScriptConn(e.handle)
			d := engine.NewGTP()
			if d.Name() != "gtp" {
				t.Fatalf("Name() = %q", d.Name())
			}
			ctx := ctxFor(t, 10*time.Second)
			id, err := d.Start(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			if id != (engine.Identity{Name: "Fake Engine"}) {
				t.Errorf("identity %+v", id)
			}
			g := othello.New()
			if err := d.NewGame(ctx, c, g, othello.White); err != nil {
				t.Fatal(err)
			}
			c.commands()
			// The engine plays white; black plays its last legal move, so that the two
			// sides differ.
			s := g.NewState()
			var moves []string
			for !s.IsTerminal() {
				if s.ToMove() == othello.Black {
					legal := s.LegalMoves(othello.Black, nil)
					m := legal[len(legal)-1]
					moves = append(moves, s.MoveString(m))
					if err := s.Play(m); err != nil {
						t.Fatal(err)
					}
					continue
				}
				turn := turnAt(t, g, moves...)
				dec, err := d.Move(ctx, c, turn)
				if err != nil {
					t.Fatalf("ply %d: %v", len(moves), err)
				}
				// Only the opponent's last move and genmove go to the engine.
				sent := c.commands()
				want := []string{"genmove white"}
				if len(moves) > 0 {
					want = append([]string{"play black " + moves[len(moves)-1]}, want...)
				}
				if strings.Join(sent, "|") != strings.Join(want, "|") {
					t.Fatalf("ply %d: sent %q, want %q", len(moves), sent, want)
				}
				if err := s.Play(dec.Move); err != nil {
					t.Fatal(err)
				}
				if s.String() != e.st.String() {
					t.Fatalf("ply %d: engine's board %s, game %s", len(moves), e.st, s)
				}
				moves = append(moves, s.MoveString(dec.Move))
			}
			if err := d.GameOver(ctx, c, protocol.GameNotice{}); err != nil {
				t.Fatal(err)
			}
			// A new game starts on a cleared board, replaying nothing.
			if _, err := d.Move(ctx, c, turnAt(t, g)); err != nil {
				t.Fatal(err)
			}
			if sent := c.commands(); strings.Join(sent, "|") != "clear_board|genmove black" {
				t.Errorf("new game sent %q", sent)
			}
			if err := d.Quit(ctx, c); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestGTPReplaysWhenTheHistoryChanges(t *testing.T) {
	e := newGTPEngine()
	c := newScriptConn(e.handle)
	d := engine.NewGTP()
	ctx := ctxFor(t, 10*time.Second)
	g := othello.New()
	if _, err := d.Move(ctx, c, turnAt(t, g, "d3", "c5")); err != nil {
		t.Fatal(err)
	}
	want := "boardsize 8|clear_board|play black d3|play white c5|genmove black"
	if sent := strings.Join(c.commands(), "|"); sent != want {
		t.Errorf("sent %s, want %s", sent, want)
	}
	// A different game: the engine's board must be cleared and replayed.
	if _, err := d.Move(ctx, c, turnAt(t, g, "f5", "f6", "e6")); err != nil {
		t.Fatal(err)
	}
	want = "clear_board|play black f5|play white f6|play black e6|genmove white"
	if sent := strings.Join(c.commands(), "|"); sent != want {
		t.Errorf("sent %s, want %s", sent, want)
	}
}

func TestGTPPassAndSmallBoard(t *testing.T) {
	g, err := othello.NewSize(6)
	if err != nil {
		t.Fatal(err)
	}
	// Find a 6x6 position where the side to move must pass.
	s := g.NewState()
	var moves []string
	for n := 0; !s.IsTerminal(); n++ {
		legal := s.LegalMoves(s.ToMove(), nil)
		if len(legal) == 1 && legal[0] == othello.Pass {
			break
		}
		m := legal[(n*7)%len(legal)]
		moves = append(moves, s.MoveString(m))
		if err := s.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if s.IsTerminal() {
		t.Fatal("this fixed line of play no longer reaches a forced pass; choose another")
	}
	e := newGTPEngine()
	c := newScriptConn(e.handle)
	d := engine.NewGTP()
	ctx := ctxFor(t, 10*time.Second)
	if err := d.NewGame(ctx, c, g, s.ToMove()); err != nil {
		t.Fatal(err)
	}
	dec, err := d.Move(ctx, c, turnAt(t, g, moves...))
	if err != nil {
		t.Fatal(err)
	}
	if dec.Move != othello.Pass {
		t.Errorf("move %v, want pass", dec.Move)
	}
	sent := c.commands()
	if sent[0] != "boardsize 6" || sent[1] != "clear_board" {
		t.Errorf("sent %q", sent[:2])
	}
	for _, l := range sent {
		if strings.HasSuffix(l, " pass") && !strings.HasPrefix(l, "play ") {
			t.Errorf("sent %q", l)
		}
	}
}

func TestGTPAnswers(t *testing.T) {
	g := othello.New()
	tests := []struct {
		name    string
		genmove string // the answer to genmove, "" for none
		resign  bool
		move    string
		err     error  // errors.Is target
		quote   string // the error quotes this
		line    string // AnswerError.Line
	}{
		{name: "upper case", genmove: "= D3\n", move: "d3"},
		{name: "id", genmove: "=7 c4\n", move: "c4"},
		{name: "blank padding", genmove: "\n=   F5  \n", move: "f5"},
		{name: "multi-line", genmove: "= e6\nsome more text\n", move: "e6"},
		{name: "resign", genmove: "= RESIGN\n", resign: true},
		{name: "error", genmove: "? cannot think\n", quote: `"? cannot think"`, line: "? cannot think"},
		{name: "illegal", genmove: "= a1\n", err: game.ErrIllegalMove, quote: `"= a1"`, line: "= a1"},
		{name: "off the board", genmove: "= z9\n", err: game.ErrBadMove, quote: `"= z9"`, line: "= z9"},
		{name: "empty answer", genmove: "=\n", err: game.ErrBadMove, line: "="},
		{name: "garbage", genmove: "thinking about d3...\n= d3\n", quote: `"thinking about d3..."`, line: "thinking about d3..."},
		{name: "no answer", err: context.DeadlineExceeded, quote: `"genmove black"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newGTPEngine()
			e.answer["genmove"] = tt.genmove
			c := newScriptConn(e.handle)
			d := engine.NewGTP()
			if _, err := d.Start(ctxFor(t, time.Second), c); err != nil {
				t.Fatal(err)
			}
			if err := d.NewGame(ctxFor(t, time.Second), c, g, othello.Black); err != nil {
				t.Fatal(err)
			}
			dec, err := d.Move(ctxFor(t, 100*time.Millisecond), c, turnAt(t, g))
			if tt.move != "" || tt.resign {
				if err != nil {
					t.Fatal(err)
				}
				if dec.Resign != tt.resign || (!tt.resign && othello.MoveString(dec.Move) != tt.move) {
					t.Fatalf("decision %+v, want move %q resign %v", dec, tt.move, tt.resign)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; decision %+v", dec)
			}
			if tt.err != nil && !errors.Is(err, tt.err) {
				t.Errorf("error %v, want %v", err, tt.err)
			}
			if !strings.Contains(err.Error(), tt.quote) {
				t.Errorf("error %q does not quote %s", err, tt.quote)
			}
			var ae *engine.AnswerError
			if !errors.As(err, &ae) {
				t.Fatalf("error %v is no *engine.AnswerError", err)
			}
			if ae.Line != tt.line {
				t.Errorf("AnswerError.Line %q, want %q", ae.Line, tt.line)
			}
		})
	}
}

func TestGTPLateAnswerIsNotTakenForTheNext(t *testing.T) {
	g := othello.New()
	e := newGTPEngine()
	e.answer["genmove"] = "" // silent for now
	c := newScriptConn(e.handle)
	d := engine.NewGTP()
	if _, err := d.Move(ctxFor(t, 50*time.Millisecond), c, turnAt(t, g)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want a timeout", err)
	}
	// The answer comes late: it belongs to the first genmove, not to what follows.
	c.print("= h8", "")
	delete(e.answer, "genmove")
	turn := turnAt(t, g, "f5", "f6")
	dec, err := d.Move(ctxFor(t, time.Second), c, turn)
	if err != nil {
		t.Fatal(err)
	}
	if dec.Move != turn.Legal[0] {
		t.Errorf("move %s, want %s (the engine's first legal move)", othello.MoveString(dec.Move), othello.MoveString(turn.Legal[0]))
	}
}

func TestGTPStartAndNewGame(t *testing.T) {
	six, _ := othello.NewSize(6)
	tests := []struct {
		name    string
		setup   func(e *gtpEngine)
		g       game.Game
		startOK bool
		gameErr string // NewGame's error contains this; "" for none
		id      engine.Identity
	}{
		{name: "plain", g: othello.New(), startOK: true, id: engine.Identity{Name: "Fake Engine"}},
		{name: "no list_games", setup: func(e *gtpEngine) { e.games = "" }, g: othello.New(), startOK: true, id: engine.Identity{Name: "Fake Engine"}},
		{name: "reversi", setup: func(e *gtpEngine) { e.games = "Reversi" }, g: othello.New(), startOK: true, id: engine.Identity{Name: "Fake Engine"}},
		{name: "go only", setup: func(e *gtpEngine) { e.games = "go" }, g: othello.New(), startOK: true, gameErr: "not othello", id: engine.Identity{Name: "Fake Engine"}},
		{name: "games on lines", setup: func(e *gtpEngine) { e.games = "go\nothello" }, g: othello.New(), startOK: true, id: engine.Identity{Name: "Fake Engine"}},
		{name: "version", setup: func(e *gtpEngine) { e.answer["version"] = "= 1.2\n" }, g: othello.New(), startOK: true, id: engine.Identity{Name: "Fake Engine", Version: "1.2"}},
		{name: "boardsize refused", setup: func(e *gtpEngine) { e.answer["boardsize"] = "? unacceptable size\n" }, g: six, startOK: true, gameErr: "6x6", id: engine.Identity{Name: "Fake Engine"}},
		{name: "silent", setup: func(e *gtpEngine) { e.answer["protocol_version"] = "" }, g: othello.New()},
		{name: "garbage", setup: func(e *gtpEngine) { e.answer["protocol_version"] = "Welcome to FakeEngine!\n" }, g: othello.New()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newGTPEngine()
			if tt.setup != nil {
				tt.setup(e)
			}
			c := newScriptConn(e.handle)
			d := engine.NewGTP()
			id, err := d.Start(ctxFor(t, 100*time.Millisecond), c)
			if !tt.startOK {
				if err == nil {
					t.Fatal("Start succeeded")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if id != tt.id {
				t.Errorf("identity %+v, want %+v", id, tt.id)
			}
			err = d.NewGame(ctxFor(t, time.Second), c, tt.g, othello.Black)
			switch {
			case tt.gameErr == "" && err != nil:
				t.Fatal(err)
			case tt.gameErr != "" && (err == nil || !strings.Contains(err.Error(), tt.gameErr)):
				t.Fatalf("NewGame error %v, want one containing %q", err, tt.gameErr)
			}
		})
	}
}

// buildFake builds one of the fake engine programs of internal/ into dir.
func buildFake(t *testing.T, dir, name string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	if b, err := exec.Command("go", "build", "-o", out, "../../internal/"+name).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", name, err, b)
	}
	return out
}

// TestFakeEnginesAsProcesses plays whole games through real processes: the fake GTP and
// NBoard engines, started with Start, play both sides.
func TestFakeEnginesAsProcesses(t *testing.T) {
	dir := t.TempDir()
	fakes := map[string]string{"gtp": buildFake(t, dir, "fakegtp"), "nboard": buildFake(t, dir, "fakenboard")}
	dialects := map[string]func() engine.Dialect{"gtp": engine.NewGTP, "nboard": func() engine.Dialect { return engine.NewNBoard() }}
	g := othello.New()

	for _, proto := range []string{"gtp", "nboard"} {
		t.Run(proto+"/game", func(t *testing.T) {
			p, err := engine.Start(context.Background(), []string{fakes[proto], "--seed", "7"}, engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			d := dialects[proto]()
			if _, err := d.Start(ctxFor(t, 10*time.Second), p); err != nil {
				t.Fatal(err)
			}
			if err := d.NewGame(ctxFor(t, 5*time.Second), p, g, othello.Black); err != nil {
				t.Fatal(err)
			}
			var moves []string
			for {
				turn := turnAt(t, g, moves...)
				if turn.State.IsTerminal() {
					break
				}
				dec, err := d.Move(ctxFor(t, 5*time.Second), p, turn)
				if err != nil {
					t.Fatalf("after %q: %v", moves, err)
				}
				moves = append(moves, othello.MoveString(dec.Move))
			}
			if err := d.Quit(ctxFor(t, 5*time.Second), p); err != nil {
				t.Fatal(err)
			}
			select {
			case <-p.Exited():
			case <-time.After(5 * time.Second):
				t.Fatal("the engine did not exit after quit")
			}
		})

		t.Run(proto+"/crash", func(t *testing.T) {
			p, err := engine.Start(context.Background(), []string{fakes[proto], "--fault", "crash", "--from", "2"}, engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			d := dialects[proto]()
			if _, err := d.Start(ctxFor(t, 10*time.Second), p); err != nil {
				t.Fatal(err)
			}
			var moves []string
			for ply := 0; ; ply++ {
				dec, err := d.Move(ctxFor(t, 5*time.Second), p, turnAt(t, g, moves...))
				if ply < 2 {
					if err != nil {
						t.Fatal(err)
					}
					moves = append(moves, othello.MoveString(dec.Move))
					continue
				}
				if !errors.Is(err, engine.ErrExited) {
					t.Fatalf("error %v, want ErrExited", err)
				}
				break
			}
		})

		t.Run(proto+"/ignores-quit", func(t *testing.T) {
			p, err := engine.Start(context.Background(), []string{fakes[proto], "--fault", "ignore-quit"},
				engine.Options{QuitTimeout: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			d := dialects[proto]()
			if _, err := d.Start(ctxFor(t, 10*time.Second), p); err != nil {
				t.Fatal(err)
			}
			_ = d.Quit(ctxFor(t, time.Second), p)
			select {
			case <-p.Exited():
				t.Fatal("the engine exited after quit; it should have ignored it")
			case <-time.After(300 * time.Millisecond):
			}
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			select {
			case <-p.Exited():
			default:
				t.Errorf("process %d still there after Close", p.Pid())
			}
		})
	}
}
