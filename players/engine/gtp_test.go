package engine_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/testutil/grhinotest"
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
	// extra are commands it knows beyond the core (showboard, time_settings, time_left);
	// noList makes it refuse list_commands, leaving known_command to tell them.
	extra  []string
	noList bool
	// passes is what it does with "play COLOUR pass": "" takes it; "self" refuses it and
	// its board skips a side with no move by itself, as GRhino's does; "refuse" refuses it
	// and its board does not skip.
	passes string
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
		if e.noList {
			return fail("unknown command")
		}
		return ok(append([]string{"protocol_version", "name", "boardsize", "clear_board", "play", "genmove", "quit"}, e.extra...)...)
	case "known_command":
		return ok(strconv.FormatBool(len(fields) == 2 && slices.Contains(e.extra, fields[1])))
	case "showboard", "time_settings", "time_left":
		if !slices.Contains(e.extra, fields[0]) {
			return fail("unknown command")
		}
		if fields[0] == "showboard" {
			return ok("Next move: "+e.g.Seats()[e.st.ToMove()], e.st.String())
		}
		return ok("")
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
		if len(fields) == 3 && fields[2] == "pass" && e.passes != "" {
			return fail("syntax error")
		}
		if len(fields) != 3 || !e.colourToMove(fields[1]) {
			return fail("illegal move")
		}
		m, err := e.st.ParseMove(fields[2])
		if err != nil || e.st.Play(m) != nil {
			return fail("illegal move")
		}
		e.skip()
		return ok("")
	case "genmove":
		if len(fields) == 2 && e.passes == "self" && !e.colourToMove(fields[1]) {
			return ok("pass")
		}
		if len(fields) != 2 || !e.colourToMove(fields[1]) {
			return fail("not your turn")
		}
		m := e.st.LegalMoves(e.st.ToMove(), nil)[0]
		text := strings.ToUpper(e.st.MoveString(m))
		if err := e.st.Play(m); err != nil {
			panic(err)
		}
		e.skip()
		return ok(text)
	case "quit":
		return ok("")
	}
	return fail("unknown command")
}

// skip passes for a side that has no move, when the engine's board does that by itself.
func (e *gtpEngine) skip() {
	for e.passes == "self" && !e.st.IsTerminal() {
		if legal := e.st.LegalMoves(e.st.ToMove(), nil); len(legal) != 1 || legal[0] != othello.Pass {
			return
		}
		_ = e.st.Play(othello.Pass)
	}
}

func (e *gtpEngine) colourToMove(colour string) bool {
	return strings.EqualFold(colour, e.g.Seats()[e.st.ToMove()])
}

// turnAt returns the turn after moves in a game of g.
func turnAt(t *testing.T, g game.Game, moves ...string) agent.Turn {
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
	return agent.Turn{
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
	if b, err := exec.Command("go", "build", "-o", out, "../../internal/cmd/"+name).CombinedOutput(); err != nil {
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

// gtpPassLine is the shortest line of Othello after which a side must pass: black, to move
// after it, has no move.
var gtpPassLine = []string{"d3", "c3", "b3", "b2", "f5", "a3", "a1", "c1"}

// TestGTPOpponentPasses checks what is sent for the opponent's pass, in each way engines
// take it, and that a refused pass is never an answer to judge.
func TestGTPOpponentPasses(t *testing.T) {
	g := othello.New()
	afterPass := append(slices.Clone(gtpPassLine), "pass") // white to move again
	tests := []struct {
		name   string
		engine gtpEngine // passes, extra and noList
		first  string    // sent after the line's plays in the first game
		again  string    // and in the next game, by the same dialect
		err    string    // the first game fails with ErrRefused and this in the message
	}{
		{name: "takes play pass", first: "play black pass|genmove white", again: "play black pass|genmove white"},
		{name: "passes by itself, showboard", engine: gtpEngine{passes: "self", extra: []string{"showboard"}},
			first: "play black pass|showboard|genmove white", again: "genmove white"},
		{name: "passes by itself, showboard from known_command", engine: gtpEngine{passes: "self", extra: []string{"showboard"}, noList: true},
			first: "play black pass|showboard|genmove white", again: "genmove white"},
		{name: "passes by itself, no showboard", engine: gtpEngine{passes: "self"},
			first: "play black pass|genmove white", again: "genmove white"},
		{name: "cannot follow a pass", engine: gtpEngine{passes: "refuse", extra: []string{"showboard"}},
			first: "play black pass|showboard", err: `it answered "? syntax error" to "play black pass", and its board (showboard) still has black to move`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newGTPEngine()
			e.passes, e.extra, e.noList = tt.engine.passes, tt.engine.extra, tt.engine.noList
			c := newScriptConn(e.handle)
			d := engine.NewGTP()
			ctx := ctxFor(t, 10*time.Second)
			if _, err := d.Start(ctx, c); err != nil {
				t.Fatal(err)
			}
			for game, want := range []string{tt.first, tt.again} {
				if err := d.NewGame(ctx, c, g, othello.White); err != nil {
					t.Fatal(err)
				}
				c.commands()
				turn := turnAt(t, g, afterPass...)
				dec, err := d.Move(ctx, c, turn)
				sent := c.commands()
				for i, m := range gtpPassLine {
					if !strings.HasSuffix(sent[i], " "+m) {
						t.Fatalf("game %d: sent %q, want the line's plays first", game+1, sent)
					}
				}
				if got := strings.Join(sent[len(gtpPassLine):], "|"); got != want {
					t.Errorf("game %d: sent %s after the line, want %s", game+1, got, want)
				}
				if tt.err != "" {
					var ae *engine.AnswerError
					if !errors.Is(err, engine.ErrRefused) || !strings.Contains(fmt.Sprint(err), tt.err) {
						t.Fatalf("error %v, want ErrRefused saying %s", err, tt.err)
					}
					if errors.As(err, &ae) && ae.Line != "" {
						t.Fatalf("the refusal came back as the answer %q, which the bridge would pass on as a move", ae.Line)
					}
					return
				}
				if err != nil {
					t.Fatalf("game %d: %v", game+1, err)
				}
				if !slices.Contains(turn.Legal, dec.Move) {
					t.Fatalf("game %d: move %s is not legal", game+1, othello.MoveString(dec.Move))
				}
				if err := turn.State.Play(dec.Move); err != nil {
					t.Fatal(err)
				}
				if e.st.String() != turn.State.String() {
					t.Fatalf("game %d: engine's board %s, game %s", game+1, e.st, turn.State)
				}
			}
		})
	}
}

// TestGTPEnginePasses checks the engine's own forced pass: asked with genmove like any
// move, and counted as played on its board, whether the engine passed itself or its board
// had skipped already.
func TestGTPEnginePasses(t *testing.T) {
	g := othello.New()
	for _, passes := range []string{"", "self"} {
		t.Run("passes="+passes, func(t *testing.T) {
			e := newGTPEngine()
			e.passes = passes
			c := newScriptConn(e.handle)
			d := engine.NewGTP()
			ctx := ctxFor(t, 10*time.Second)
			turn := turnAt(t, g, gtpPassLine...)
			if len(turn.Legal) != 1 || turn.Legal[0] != othello.Pass {
				t.Fatalf("black's legal moves %v, want a forced pass", turn.Legal)
			}
			dec, err := d.Move(ctx, c, turn)
			if err != nil {
				t.Fatal(err)
			}
			if dec.Move != othello.Pass {
				t.Fatalf("move %s, want pass", othello.MoveString(dec.Move))
			}
			if sent := c.commands(); sent[len(sent)-1] != "genmove black" {
				t.Errorf("sent %q, want genmove black last", sent)
			}
			// White moves; black's next turn sends just that move.
			moves := append(slices.Clone(gtpPassLine), "pass")
			st := turnAt(t, g, moves...).State
			reply := st.MoveString(st.LegalMoves(othello.White, nil)[0])
			moves = append(moves, reply)
			next := turnAt(t, g, moves...)
			dec, err = d.Move(ctx, c, next)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Join(c.commands(), "|"), "play white "+reply+"|genmove black"; got != want {
				t.Errorf("sent %s, want %s", got, want)
			}
			if err := next.State.Play(dec.Move); err != nil {
				t.Fatal(err)
			}
			if e.st.String() != next.State.String() {
				t.Errorf("engine's board %s, game %s", e.st, next.State)
			}
		})
	}
}

// TestGTPRefusedSetUp checks that a refused command setting up the position fails the
// turn with ErrRefused, naming the command and quoting the engine, and is never an answer
// the bridge would pass on as a move; and that a play refused on a board brought up to
// date move by move is tried again on a replayed board.
func TestGTPRefusedSetUp(t *testing.T) {
	six, _ := othello.NewSize(6)
	tests := []struct {
		name   string
		answer map[string]string
		refuse map[string]int // exact commands refused so many times
		g      game.Game
		first  string // black's first move; d3 when ""
		err    string // in the message; "" for success
		sent   string // the second turn's commands, when it succeeds
	}{
		{name: "boardsize", answer: map[string]string{"boardsize": "? unacceptable size\n"}, g: six, first: "c2",
			err: `it answered "? unacceptable size" to "boardsize 6": it does not play on a 6x6 board`},
		{name: "clear_board", answer: map[string]string{"clear_board": "? cannot\n"}, g: othello.New(),
			err: `it answered "? cannot" to "clear_board"`},
		{name: "play, replayed and refused again", refuse: map[string]int{"play black c4": 2}, g: othello.New(),
			err: `it answered "? illegal move" to "play black c4", a legal move of the game`},
		{name: "play, replayed and taken", refuse: map[string]int{"play black c4": 1}, g: othello.New(),
			sent: "play black c4|clear_board|play black d3|play white c3|play black c4|genmove white"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newGTPEngine()
			maps.Copy(e.answer, tt.answer)
			refuse := tt.refuse
			handle := func(line string) []string {
				if refuse[line] > 0 {
					refuse[line]--
					return []string{"? illegal move", ""}
				}
				return e.handle(line)
			}
			c := newScriptConn(handle)
			d := engine.NewGTP()
			ctx := ctxFor(t, 10*time.Second)
			// The engine (white) answers c3 to d3 (its first legal move); black plays c4.
			first := cmp.Or(tt.first, "d3")
			dec, err := d.Move(ctx, c, turnAt(t, tt.g, first))
			if err == nil {
				if othello.MoveString(dec.Move) != "c3" {
					t.Fatalf("the engine played %s, not c3", othello.MoveString(dec.Move))
				}
				c.commands()
				_, err = d.Move(ctx, c, turnAt(t, tt.g, "d3", "c3", "c4"))
			}
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.Join(c.commands(), "|"); got != tt.sent {
					t.Errorf("sent %s, want %s", got, tt.sent)
				}
				return
			}
			var ae *engine.AnswerError
			if !errors.Is(err, engine.ErrRefused) || !strings.Contains(fmt.Sprint(err), tt.err) {
				t.Fatalf("error %v, want ErrRefused saying %s", err, tt.err)
			}
			if errors.As(err, &ae) && ae.Line != "" {
				t.Fatalf("the refusal came back as the answer %q, which the bridge would pass on as a move", ae.Line)
			}
		})
	}
}

// TestGTPClock checks the time commands: time_settings for each kind of clock, sent once
// while it does not change, and time_left before every genmove, in whole seconds rounded
// down from the time until the deadline.
func TestGTPClock(t *testing.T) {
	g := othello.New()
	at := func(cl protocol.Clock, left time.Duration, moves ...string) agent.Turn {
		turn := turnAt(t, g, moves...)
		turn.Clock, turn.Deadline = cl, time.Now().Add(left)
		return turn
	}
	perMove := protocol.Clock{MoveMS: 2000, RemainingMS: 2000, PerMove: true}
	game := protocol.Clock{MoveMS: 10000, RemainingMS: 10000, IncrementMS: 100}
	periods := protocol.Clock{MoveMS: 60000, RemainingMS: 60000, MovesToGo: 40}
	tests := []struct {
		name  string
		extra []string
		turns []agent.Turn // played in one game, the engine white
		sent  []string     // the time commands sent before each genmove, "|" between
	}{
		{name: "per move", extra: []string{"time_settings", "time_left"},
			turns: []agent.Turn{at(perMove, 1800*time.Millisecond, "d3"), at(perMove, 900*time.Millisecond, "d3", "c3", "c4")},
			sent:  []string{"time_settings 0 2 1|time_left white 1 1", "time_left white 0 1"}},
		{name: "game clock", extra: []string{"time_settings", "time_left"},
			turns: []agent.Turn{at(game, 9800*time.Millisecond, "d3"),
				at(protocol.Clock{MoveMS: 7500, RemainingMS: 7500, IncrementMS: 100}, 7300*time.Millisecond, "d3", "c3", "c4")},
			sent: []string{"time_settings 10 0 0|time_left white 9 0", "time_left white 7 0"}},
		{name: "moves in a period", extra: []string{"time_settings", "time_left"},
			turns: []agent.Turn{at(periods, 59800*time.Millisecond, "d3"),
				at(protocol.Clock{MoveMS: 50000, RemainingMS: 50000, MovesToGo: 39}, 49800*time.Millisecond, "d3", "c3", "c4")},
			sent: []string{"time_settings 0 60 40|time_left white 59 40", "time_left white 49 39"}},
		{name: "time_left only", extra: []string{"time_left"},
			turns: []agent.Turn{at(perMove, 1800*time.Millisecond, "d3")},
			sent:  []string{"time_left white 1 1"}},
		{name: "neither", turns: []agent.Turn{at(game, 9800*time.Millisecond, "d3")}, sent: []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newGTPEngine()
			e.extra = tt.extra
			c := newScriptConn(e.handle)
			d := engine.NewGTP()
			ctx := ctxFor(t, 2*time.Minute) // later than every deadline, which time_left counts to
			if _, err := d.Start(ctx, c); err != nil {
				t.Fatal(err)
			}
			if err := d.NewGame(ctx, c, g, othello.White); err != nil {
				t.Fatal(err)
			}
			for i, turn := range tt.turns {
				c.commands()
				if _, err := d.Move(ctx, c, turn); err != nil {
					t.Fatal(err)
				}
				if got := timeCommands(c.commands()); got != tt.sent[i] {
					t.Errorf("turn %d: sent %q, want %q", i+1, got, tt.sent[i])
				}
			}
		})
	}

	t.Run("settings again only when they change", func(t *testing.T) {
		e := newGTPEngine()
		e.extra = []string{"time_settings", "time_left"}
		c := newScriptConn(e.handle)
		d := engine.NewGTP()
		ctx := ctxFor(t, 2*time.Minute) // later than every deadline, which time_left counts to
		if _, err := d.Start(ctx, c); err != nil {
			t.Fatal(err)
		}
		for i, step := range []struct {
			cl   protocol.Clock
			want string
		}{
			{perMove, "time_settings 0 2 1|time_left white 1 1"},
			{perMove, "time_left white 1 1"}, // a new game on the same clock
			{protocol.Clock{MoveMS: 5000, RemainingMS: 5000, PerMove: true}, "time_settings 0 5 1|time_left white 1 1"},
			{game, "time_settings 10 0 0|time_left white 1 0"},
		} {
			if err := d.NewGame(ctx, c, g, othello.White); err != nil {
				t.Fatal(err)
			}
			c.commands()
			if _, err := d.Move(ctx, c, at(step.cl, 1800*time.Millisecond, "d3")); err != nil {
				t.Fatal(err)
			}
			if got := timeCommands(c.commands()); got != step.want {
				t.Errorf("game %d: sent %q, want %q", i+1, got, step.want)
			}
		}
	})

	t.Run("refused time_left is not sent again", func(t *testing.T) {
		e := newGTPEngine()
		e.extra = []string{"time_left"}
		e.answer["time_left"] = "? not now\n"
		c := newScriptConn(e.handle)
		d := engine.NewGTP()
		ctx := ctxFor(t, 2*time.Minute) // later than every deadline, which time_left counts to
		if _, err := d.Start(ctx, c); err != nil {
			t.Fatal(err)
		}
		for i, want := range []string{"time_left white 1 1", ""} {
			c.commands()
			if _, err := d.Move(ctx, c, at(perMove, 1800*time.Millisecond, "d3")); err != nil {
				t.Fatalf("turn %d: %v", i+1, err)
			}
			if got := timeCommands(c.commands()); got != want {
				t.Errorf("turn %d: sent %q, want %q", i+1, got, want)
			}
		}
	})
}

// timeCommands keeps the time commands of sent, joined by "|".
func timeCommands(sent []string) string {
	var out []string
	for _, l := range sent {
		if strings.HasPrefix(l, "time_") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "|")
}

// recordConn is a LineConn that keeps the lines sent through it.
type recordConn struct {
	engine.LineConn
	sent []string
}

func (r *recordConn) Send(line string) error {
	r.sent = append(r.sent, line)
	return r.LineConn.Send(line)
}

// passGame is what playPassGames saw of one game.
type passGame struct {
	sent      []string // the commands sent
	oppPasses int      // the passes of the engine's opponent, the start's included
}

// playPassGames plays two whole games against the engine argv, through the dialect d,
// each from the end of gtpPassLine: in the first the engine is white and black has just
// passed; in the second the engine is black and must pass. The other side plays its first
// legal move. Every turn of the engine's must be answered with a legal move, the game
// played to its end.
func playPassGames(t *testing.T, argv []string, d engine.Dialect) [2]passGame {
	t.Helper()
	p, err := engine.Start(context.Background(), argv, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	rec := &recordConn{LineConn: p}
	if _, err := d.Start(ctxFor(t, 10*time.Second), rec); err != nil {
		t.Fatal(err)
	}
	g := othello.New()
	var out [2]passGame
	for i, start := range [][]string{append(slices.Clone(gtpPassLine), "pass"), gtpPassLine} {
		seat := turnAt(t, g, start...).Seat
		if err := d.NewGame(ctxFor(t, 5*time.Second), rec, g, seat); err != nil {
			t.Fatal(err)
		}
		moves, passes := slices.Clone(start), 0
		if i == 0 {
			out[i].oppPasses++
		}
		for {
			turn := turnAt(t, g, moves...)
			if turn.State.IsTerminal() {
				break
			}
			m := turn.Legal[0]
			if turn.Seat == seat {
				dec, err := d.Move(ctxFor(t, 5*time.Second), rec, turn)
				if err != nil {
					t.Fatalf("game %d, after %s: %v", i+1, strings.Join(moves, " "), err)
				}
				if !slices.Contains(turn.Legal, dec.Move) || dec.Resign {
					t.Fatalf("game %d, after %s: the engine answered %+v, not a legal move", i+1, strings.Join(moves, " "), dec)
				}
				m = dec.Move
				if m == othello.Pass {
					passes++
				}
			} else if m == othello.Pass {
				out[i].oppPasses++
			}
			moves = append(moves, othello.MoveString(m))
		}
		if i == 1 && passes == 0 {
			t.Errorf("game 2: the engine never passed, though it must have at its first turn")
		}
		t.Logf("game %d: %d plies to the end: %s", i+1, len(moves), strings.Join(moves, " "))
		out[i].sent, rec.sent = rec.sent, nil
	}
	if err := d.Quit(ctxFor(t, 5*time.Second), rec); err != nil {
		t.Fatal(err)
	}
	return out
}

// count returns how many of lines start with prefix.
func count(lines []string, prefix string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// checkTimeLeft checks that every genmove in sent follows a time_left.
func checkTimeLeft(t *testing.T, sent []string) {
	t.Helper()
	told := false
	for _, l := range sent {
		switch {
		case strings.HasPrefix(l, "time_left "):
			told = true
		case strings.HasPrefix(l, "genmove "):
			if !told {
				t.Errorf("%q was not preceded by time_left", l)
			}
			told = false
		}
	}
}

// TestGTPPassesWithFakeEngine plays games with passes against fakegtp, as a process, in
// the ways it takes passes: every pass of the opponent sent with play, or, for an engine
// that passes by itself, only the first, which it refuses.
func TestGTPPassesWithFakeEngine(t *testing.T) {
	fake := buildFake(t, t.TempDir(), "fakegtp")
	for _, pass := range []string{"play", "self"} {
		t.Run(pass, func(t *testing.T) {
			games := playPassGames(t, []string{fake, "--pass", pass}, engine.NewGTP())
			for i, gm := range games {
				want := gm.oppPasses
				if pass == "self" {
					want = min(want, 1-i) // the first, in the first game
				}
				if n := count(gm.sent, "play black pass") + count(gm.sent, "play white pass"); n != want {
					t.Errorf("game %d: %d passes sent with play, want %d (the opponent passed %d times)", i+1, n, want, gm.oppPasses)
				}
				checkTimeLeft(t, gm.sent)
			}
		})
	}
}

// TestGTPPassesWithGRhino plays games with passes against GRhino, a real Othello engine
// that refuses "play COLOUR pass" and passes by itself, and knows time_settings and
// time_left.
func TestGTPPassesWithGRhino(t *testing.T) {
	games := playPassGames(t, []string{grhinotest.Program(t), "-l", "1"}, engine.NewGTP())
	for i, gm := range games {
		want := min(gm.oppPasses, 1-i) // the pass GRhino refuses, then none
		if n := count(gm.sent, "play black pass") + count(gm.sent, "play white pass"); n != want {
			t.Errorf("game %d: %d passes sent with play, want %d (the opponent passed %d times)", i+1, n, want, gm.oppPasses)
		}
		checkTimeLeft(t, gm.sent)
	}
	if n := count(games[0].sent, "time_settings 0 1 1"); n != 1 {
		t.Errorf("game 1: %d time_settings for 1s a move sent, want 1", n)
	}
}
