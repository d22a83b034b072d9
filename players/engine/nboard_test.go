package engine_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

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
		if len(sent) != 4 || !strings.HasPrefix(sent[0], "set game ") || !strings.HasPrefix(sent[1], "ping ") || sent[2] != "go" || !strings.HasPrefix(sent[3], "ping ") {
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
		nodes  int64
		err    error
		quote  string
		line   string
	}{
		{name: "plain", answer: []string{"=== d3"}, move: "d3"},
		{name: "eval", answer: []string{"=== C4/-2.5"}, move: "c4", score: -2.5},
		{name: "eval and time", answer: []string{"status searching depth 3", "=== F5/0.0/1.3"}, move: "f5"},
		{name: "chatter", answer: []string{"nodestats 100 0.1", "search d3 0.5 0 4", "set myname X", "", "=== E6"}, move: "e6", nodes: 100},
		{name: "Edax", answer: []string{"status Edax is thinking", "nodestats 41250 0.03", "=== d3 64.00 0.0", "status Edax is waiting"},
			move: "d3", score: 64, nodes: 41250},
		{name: "Edax, negative", answer: []string{"=== c4 -12.50 1.2"}, move: "c4", score: -12.5},
		{name: "Edax, no time", answer: []string{"=== f5 3"}, move: "f5", score: 3},
		{name: "slash first", answer: []string{"=== e6/1.5 9"}, move: "e6", score: 1.5},
		{name: "eval not a number", answer: []string{"=== d3 +inf 0.0"}, move: "d3"},
		{name: "eval NaN", answer: []string{"=== d3/NaN"}, move: "d3"},
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
				if othello.MoveString(dec.Move) != tt.move || dec.Info.Score != tt.score || dec.Info.Nodes != tt.nodes {
					t.Fatalf("decision %+v, want %s scoring %v after %d nodes", dec, tt.move, tt.score, tt.nodes)
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

// TestNBoardReadsWhatFollowsTheAnswer: what an engine says after its answer (Edax's
// "status Edax is waiting") is read away by the turn, up to the pong of a ping sent after
// the answer, so that nothing is left for the bridge to take for stale output; an engine
// that does not answer that ping costs the turn no more than nboardTrail.
func TestNBoardReadsWhatFollowsTheAnswer(t *testing.T) {
	tests := []struct {
		name  string
		after []string // what the engine says after its answer
		deaf  bool     // it answers no ping after go
	}{
		{name: "nothing"},
		{name: "Edax", after: []string{"status Edax is waiting"}},
		{name: "messages", after: []string{"status", "nodestats 10 0.0", "search d3 1.0 0 2", "set myname Later", ""}},
		{name: "other output", after: []string{"thinking done", "bestmove d3"}},
		{name: "deaf after go", after: []string{"status Edax is waiting"}, deaf: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &nboardEngine{t: t}
			gone := false
			c := newScriptConn(func(line string) []string {
				if gone {
					return nil
				}
				out := e.handle(line)
				if line == "go" {
					gone = tt.deaf
					out = append(out, tt.after...)
				}
				return out
			})
			d := engine.NewNBoard()
			if _, err := d.Start(ctxFor(t, time.Second), c); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			dec, err := d.Move(ctxFor(t, 5*time.Second), c, turnAt(t, othello.New()))
			took := time.Since(start)
			if err != nil || dec.Info.Score != 1.5 {
				t.Fatalf("decision %+v, %v", dec, err)
			}
			left := len(c.out)
			switch {
			case !tt.deaf && left > 0:
				t.Errorf("%d lines left after the turn, for the bridge to call stale", left)
			case tt.deaf && took > time.Second:
				t.Errorf("the turn took %v waiting for a pong that never came", took)
			}
		})
	}
}

// TestNBoardTrailLeavesTheDeadlineAlone: the wait for the pong after the answer is at
// most a quarter of the time left in the turn.
func TestNBoardTrailLeavesTheDeadlineAlone(t *testing.T) {
	e := &nboardEngine{t: t}
	answered := false
	c := newScriptConn(func(line string) []string {
		if answered {
			return nil // deaf from the answer on
		}
		answered = line == "go"
		return e.handle(line)
	})
	d := engine.NewNBoard()
	if _, err := d.Start(ctxFor(t, time.Second), c); err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, 400*time.Millisecond)
	deadline, _ := ctx.Deadline()
	if _, err := d.Move(ctx, c, turnAt(t, othello.New())); err != nil {
		t.Fatal(err)
	}
	if left := time.Until(deadline); left < 200*time.Millisecond {
		t.Errorf("the turn returned %v before its deadline, want at least 200ms (three quarters of 400ms, less the turn's own time)", left)
	}
}

// TestNBoardSettleCountsStrayLinesOnly: Settle reads up to the pong, and counts as stale
// only what is not one of NBoard's messages.
func TestNBoardSettleCountsStrayLinesOnly(t *testing.T) {
	e := &nboardEngine{t: t}
	c, d, ctx := startNBoard(t, e)
	c.print("status Edax is waiting", "nodestats 5 0.0", "=== d3/1.0", "search d3 1.0 0 2", "set depth 3", "book d3 1.0 1 2", "learned")
	st, err := d.Settle(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if st.Lines != 2 || st.First != "=== d3/1.0" {
		t.Errorf("stale %+v, want the late answer and set depth, the first quoted", st)
	}
}

// TestNBoardEdaxThroughBridge plays whole games through the bridge against fakenboard
// talking as Edax does ("=== h7 64.00 0.0" between status lines): every move keeps the
// engine's evaluation as its score and its node count, and nothing is logged as stale.
func TestNBoardEdaxThroughBridge(t *testing.T) {
	fake := buildFake(t, t.TempDir(), "fakenboard")
	var logs bytes.Buffer
	b := engine.NewBridge([]string{fake, "--edax", "--seed", "3"}, func() engine.Dialect { return engine.NewNBoard(engine.NBoardDepth(5)) },
		engine.Options{}, zerolog.New(zerolog.SyncWriter(&logs)))
	t.Cleanup(func() { b.Close() })
	id, err := b.Start(ctxFor(t, 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if id.Name != "Edax5" {
		t.Errorf("name %q, want Edax5 (from set myname after set depth)", id.Name)
	}
	g := othello.New()
	turns := 0
	for game := range 2 {
		st, moves := g.NewState(), []string(nil)
		for !st.IsTerminal() {
			turn := bridgeTurn(g, fmt.Sprint("g", game), st, moves, time.Second)
			dec, err := chooseAsRuntime(b, turn)
			if err != nil || !slices.Contains(turn.Legal, dec.Move) || dec.Resign || dec.Raw != "" {
				t.Fatalf("game %d, after %s: %+v, %v", game, strings.Join(moves, " "), dec, err)
			}
			lead := float64(strings.Count(st.String()[:64], "XO"[turn.Seat:turn.Seat+1]) - strings.Count(st.String()[:64], "OX"[turn.Seat:turn.Seat+1]))
			if dec.Info.Score != lead+0.25 || dec.Info.Nodes != 1000*int64(len(turn.Legal)) {
				t.Errorf("game %d, ply %d: score %v nodes %d, want the engine's %v and %d", game, len(moves), dec.Info.Score, dec.Info.Nodes, lead+0.25, 1000*len(turn.Legal))
			}
			moves = append(moves, st.MoveString(dec.Move))
			if err := st.Play(dec.Move); err != nil {
				t.Fatal(err)
			}
			turns++
		}
	}
	if err := b.Close(); err != nil { // and its goroutines are done with the log
		t.Fatal(err)
	}
	if out := logs.String(); strings.Contains(out, "stale") || strings.Contains(out, `"level":"warn"`) {
		t.Errorf("warnings logged over %d turns:\n%s", turns, out)
	}
	t.Logf("%d turns, each with the engine's score", turns)
}

// TestNBoardChatterBetweenTurns: a status line an NBoard engine sends unasked between
// turns is one of the protocol's messages, read away by the bridge's fence without being
// called stale.
func TestNBoardChatterBetweenTurns(t *testing.T) {
	fake := buildFake(t, t.TempDir(), "fakenboard")
	var logs bytes.Buffer
	b := engine.NewBridge([]string{fake, "--fault", "late-status"}, func() engine.Dialect { return engine.NewNBoard(engine.NBoardDepth(5)) },
		engine.Options{}, zerolog.New(zerolog.SyncWriter(&logs)))
	t.Cleanup(func() { b.Close() })
	g := othello.New()
	st, moves := g.NewState(), []string(nil)
	for range 3 {
		turn := bridgeTurn(g, "g", st, moves, time.Second)
		dec, err := chooseAsRuntime(b, turn)
		if err != nil || !slices.Contains(turn.Legal, dec.Move) {
			t.Fatalf("after %s: %+v, %v", strings.Join(moves, " "), dec, err)
		}
		moves = append(moves, st.MoveString(dec.Move))
		if err := st.Play(dec.Move); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond) // the engine's status line comes 300ms after its answer
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if out := logs.String(); strings.Contains(out, "stale") {
		t.Errorf("the engine's status lines were logged as stale:\n%s", out)
	}
}
