package engine_test

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/protocol"
)

// nboardEngine models an Othello engine speaking NBoard: it names itself after "nboard 1",
// answers pings, reads the game from "set game" and answers "go" with status lines and
// "=== MOVE/EVAL/TIME", the move in upper case.
type nboardEngine struct {
	t     *testing.T
	st    game.State
	depth string
	games []string // every GGF received

	goAnswer []string // replaces the answer to go when not nil; empty means silence
	silent   bool     // answers nothing, not even pings
}

func (e *nboardEngine) handle(line string) []string {
	if e.silent {
		return nil
	}
	cmd, arg, _ := strings.Cut(line, " ")
	switch cmd {
	case "nboard":
		if arg != "1" {
			e.t.Errorf("nboard %q", arg)
		}
		return []string{"set myname FakeBoard"}
	case "set":
		what, val, _ := strings.Cut(arg, " ")
		switch what {
		case "depth":
			e.depth = val
		case "game":
			e.games = append(e.games, val)
			st, err := parseGGF(val)
			if err != nil {
				e.t.Errorf("set game %s: %v", val, err)
				return nil
			}
			e.st = st
		}
		return nil
	case "ping":
		return []string{"pong " + arg}
	case "go":
		if e.goAnswer != nil {
			return e.goAnswer
		}
		m := e.st.LegalMoves(e.st.ToMove(), nil)[0]
		text := strings.ToUpper(e.st.MoveString(m))
		if m == othello.Pass {
			text = "PA"
		}
		return []string{"status thinking", "nodestats 1234 0.01", "=== " + text + "/1.5/0.2"}
	}
	return nil
}

var (
	ggfBoard = regexp.MustCompile(`BO\[8 ([-*O]{64}) ([*O])\]`)
	ggfMove  = regexp.MustCompile(`([BW])\[([^\]]*)\]`)
)

// parseGGF reads what the dialect writes: the board and the moves, nothing else.
func parseGGF(s string) (game.State, error) {
	if !strings.HasPrefix(s, "(;GM[Othello]") || !strings.HasSuffix(s, ";)") {
		return nil, errors.New("not an Othello GGF game")
	}
	b := ggfBoard.FindStringSubmatchIndex(s)
	if b == nil {
		return nil, errors.New("no BO")
	}
	pos := strings.NewReplacer("*", "X").Replace(s[b[2]:b[3]] + " " + s[b[4]:b[5]])
	st, err := othello.Parse(pos)
	if err != nil {
		return nil, err
	}
	for _, m := range ggfMove.FindAllStringSubmatch(s[b[1]:], -1) {
		seat := othello.Black
		if m[1] == "W" {
			seat = othello.White
		}
		if st.ToMove() != seat {
			return nil, errors.New(m[0] + ": not this colour's turn")
		}
		text := m[2]
		if text != strings.ToUpper(text) {
			return nil, errors.New(m[0] + ": not upper case")
		}
		if text == "PA" {
			text = "pass"
		}
		mv, err := st.ParseMove(text)
		if err != nil {
			return nil, err
		}
		if err := st.Play(mv); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// startNBoard starts the NBoard dialect with default options on the engine e, in memory.
func startNBoard(t *testing.T, e *nboardEngine) (*scriptConn, engine.Dialect, context.Context) {
	t.Helper()
	c := newScriptConn(e.handle)
	d := engine.NewNBoard()
	ctx := ctxFor(t, 10*time.Second)
	if _, err := d.Start(ctx, c); err != nil {
		t.Fatal(err)
	}
	return c, d, ctx
}

func TestNBoardPlaysAGame(t *testing.T) {
	e := &nboardEngine{t: t}
	c := newScriptConn(e.handle)
	d := engine.NewNBoard(engine.NBoardDepth(4))
	if d.Name() != "nboard" {
		t.Fatalf("Name() = %q", d.Name())
	}
	ctx := ctxFor(t, 10*time.Second)
	id, err := d.Start(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if id.Name != "FakeBoard" || e.depth != "4" {
		t.Errorf("identity %+v, depth %q", id, e.depth)
	}
	g := othello.New()
	if err := d.NewGame(ctx, c, g, othello.Black); err != nil {
		t.Fatal(err)
	}
	c.commands()
	// The engine plays both sides: every turn is answered with the first legal move, passes
	// included.
	var moves []string
	passes := 0
	for {
		turn := turnAt(t, g, moves...)
		if turn.State.IsTerminal() {
			break
		}
		dec, err := d.Move(ctx, c, turn)
		if err != nil {
			t.Fatalf("ply %d: %v", len(moves), err)
		}
		if dec.Move != turn.Legal[0] || dec.Info.Score != 1.5 {
			t.Fatalf("ply %d: decision %+v, want %s scoring 1.5", len(moves), dec, othello.MoveString(turn.Legal[0]))
		}
		if e.st.String() != turn.State.String() {
			t.Fatalf("ply %d: engine's position %s, want %s", len(moves), e.st, turn.State)
		}
		sent := c.commands()
		if len(sent) != 3 || !strings.HasPrefix(sent[0], "set game ") || !strings.HasPrefix(sent[1], "ping ") || sent[2] != "go" {
			t.Fatalf("ply %d: sent %q", len(moves), sent)
		}
		if dec.Move == othello.Pass {
			passes++
		}
		moves = append(moves, othello.MoveString(dec.Move))
	}
	if first := e.games[0]; first != "(;GM[Othello]PC[Arena]PB[black]PW[white]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)" {
		t.Errorf("first game %s", first)
	}
	t.Logf("%d moves, %d passes; last game %s", len(moves), passes, e.games[len(e.games)-1])
	if err := d.GameOver(ctx, c, protocol.GameNotice{}); err != nil {
		t.Fatal(err)
	}
	if err := d.Quit(ctx, c); err != nil {
		t.Fatal(err)
	}
	if sent := c.commands(); len(sent) != 1 || sent[0] != "quit" {
		t.Errorf("sent %q at the end", sent)
	}
}

func TestNBoardPassIsPA(t *testing.T) {
	// Play games until one has a forced pass, then check the GGF carries PA.
	g := othello.New()
	var moves []string
	for stride := 1; stride < 100 && !strings.Contains(strings.Join(moves, " "), "pass"); stride++ {
		s := g.NewState()
		moves = moves[:0]
		for n := 0; !s.IsTerminal(); n++ {
			legal := s.LegalMoves(s.ToMove(), nil)
			m := legal[(n*stride)%len(legal)]
			moves = append(moves, s.MoveString(m))
			if err := s.Play(m); err != nil {
				t.Fatal(err)
			}
			if m == othello.Pass {
				break
			}
		}
	}
	if !strings.Contains(strings.Join(moves, " "), "pass") {
		t.Fatal("no pass found")
	}
	e := &nboardEngine{t: t}
	c, d, ctx := startNBoard(t, e)
	if e.depth != "10" {
		t.Errorf("default depth %q", e.depth)
	}
	if _, err := d.Move(ctx, c, turnAt(t, g, moves...)); err != nil {
		t.Fatal(err)
	}
	if last := e.games[len(e.games)-1]; !strings.Contains(last, "[PA]") {
		t.Errorf("no PA in %s", last)
	}
}

func TestNBoardAnswers(t *testing.T) {
	g := othello.New()
	tests := []struct {
		name   string
		answer []string
		move   string
		resign bool
		score  float64
		err    error
		quote  string
		line   string
	}{
		{name: "plain", answer: []string{"=== d3"}, move: "d3"},
		{name: "eval", answer: []string{"=== C4/-2.5"}, move: "c4", score: -2.5},
		{name: "eval and time", answer: []string{"status searching depth 3", "=== F5/0.0/1.3"}, move: "f5"},
		{name: "chatter", answer: []string{"nodestats 100 0.1", "search d3 0.5 0 4", "set myname X", "", "=== E6"}, move: "e6"},
		{name: "illegal", answer: []string{"=== A1/3"}, err: game.ErrIllegalMove, quote: `"=== A1/3"`, line: "=== A1/3"},
		{name: "bad move", answer: []string{"=== Z9"}, err: game.ErrBadMove, quote: `"=== Z9"`, line: "=== Z9"},
		{name: "empty", answer: []string{"==="}, err: game.ErrBadMove, quote: `"==="`, line: "==="},
		{name: "silence", answer: []string{}, err: context.DeadlineExceeded},
		{name: "garbage", answer: []string{"I like d3"}, err: context.DeadlineExceeded, quote: `"I like d3"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &nboardEngine{t: t, goAnswer: tt.answer}
			c := newScriptConn(e.handle)
			d := engine.NewNBoard()
			if _, err := d.Start(ctxFor(t, time.Second), c); err != nil {
				t.Fatal(err)
			}
			dec, err := d.Move(ctxFor(t, 100*time.Millisecond), c, turnAt(t, g))
			if tt.move != "" {
				if err != nil {
					t.Fatal(err)
				}
				if othello.MoveString(dec.Move) != tt.move || dec.Info.Score != tt.score {
					t.Fatalf("decision %+v, want %s scoring %v", dec, tt.move, tt.score)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; decision %+v", dec)
			}
			if !errors.Is(err, tt.err) {
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

func TestNBoardLateAnswerIsDropped(t *testing.T) {
	g := othello.New()
	e := &nboardEngine{t: t, goAnswer: []string{}}
	c := newScriptConn(e.handle)
	d := engine.NewNBoard()
	if _, err := d.Start(ctxFor(t, time.Second), c); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Move(ctxFor(t, 50*time.Millisecond), c, turnAt(t, g)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want a timeout", err)
	}
	c.print("=== H8") // the late answer to the first go: not legal in the next turn
	e.goAnswer = nil
	turn := turnAt(t, g, "f5", "f6")
	dec, err := d.Move(ctxFor(t, time.Second), c, turn)
	if err != nil {
		t.Fatal(err)
	}
	if dec.Move != turn.Legal[0] {
		t.Errorf("move %s, want %s", othello.MoveString(dec.Move), othello.MoveString(turn.Legal[0]))
	}
}

func TestNBoardRefuses(t *testing.T) {
	six, _ := othello.NewSize(6)
	d := engine.NewNBoard()
	c := newScriptConn(func(string) []string { return nil })
	if err := d.NewGame(ctxFor(t, time.Second), c, six, othello.Black); err == nil || !strings.Contains(err.Error(), "8x8") {
		t.Errorf("NewGame on 6x6: %v", err)
	}
	if _, err := engine.NewNBoard(engine.NBoardDepth(0)).Start(ctxFor(t, time.Second), c); err == nil {
		t.Error("depth 0 accepted")
	}
	// An engine that never answers the ping is too slow to start.
	e := &nboardEngine{t: t, silent: true}
	if _, err := engine.NewNBoard().Start(ctxFor(t, 50*time.Millisecond), newScriptConn(e.handle)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("silent engine: %v", err)
	}
}

// TestNBoardPasses checks both passes on the wire: the opponent's is PA in the GGF game,
// and the engine's own, "=== PA", is a pass.
func TestNBoardPasses(t *testing.T) {
	g := othello.New()
	e := &nboardEngine{t: t}
	c, d, ctx := startNBoard(t, e)
	// Black must pass: the engine answers PA.
	dec, err := d.Move(ctx, c, turnAt(t, g, gtpPassLine...))
	if err != nil {
		t.Fatal(err)
	}
	if dec.Move != othello.Pass {
		t.Fatalf("move %s, want pass", othello.MoveString(dec.Move))
	}
	// White moves after black's pass: the game sent has it as PA.
	turn := turnAt(t, g, append(slices.Clone(gtpPassLine), "pass")...)
	dec, err = d.Move(ctx, c, turn)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(turn.Legal, dec.Move) || dec.Move == othello.Pass {
		t.Errorf("move %s, want a legal move", othello.MoveString(dec.Move))
	}
	if last := e.games[len(e.games)-1]; !strings.HasSuffix(last, "W[C1]B[PA];)") {
		t.Errorf("game sent %s, want it to end with W[C1]B[PA]", last)
	}
}

// TestNBoardPassesWithFakeEngine plays games with passes against fakenboard, as a
// process: one that reads PA plays them to the end; one that does not know PA answers for
// the position it had before, which is judged an illegal move.
func TestNBoardPassesWithFakeEngine(t *testing.T) {
	fake := buildFake(t, t.TempDir(), "fakenboard")
	games := playPassGames(t, []string{fake}, engine.NewNBoard(engine.NBoardDepth(2)))
	if sets := count(games[0].sent, "set game "); sets == 0 || !strings.Contains(strings.Join(games[0].sent, "\n"), "B[PA]") {
		t.Errorf("game 1: %d games sent, none with B[PA]", sets)
	}

	p, err := engine.Start(context.Background(), []string{fake, "--fault", "no-pass"}, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	d := engine.NewNBoard()
	if _, err := d.Start(ctxFor(t, 10*time.Second), p); err != nil {
		t.Fatal(err)
	}
	_, err = d.Move(ctxFor(t, 5*time.Second), p, turnAt(t, othello.New(), append(slices.Clone(gtpPassLine), "pass")...))
	if !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("error %v, want an illegal move (the engine moved in the initial position)", err)
	}
}
