package engine_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/protocol"
)

// lineConn is an in-memory engine: every line sent to it is recorded, and answer decides
// what it writes back.
type lineConn struct {
	mu     sync.Mutex
	sent   []string
	out    chan string
	answer func(line string) []string
}

func newLineConn(answer func(line string) []string) *lineConn {
	return &lineConn{out: make(chan string, 1024), answer: answer}
}

func (c *lineConn) Send(line string) error {
	c.mu.Lock()
	c.sent = append(c.sent, line)
	c.mu.Unlock()
	for _, l := range c.answer(line) {
		c.out <- l
	}
	return nil
}

func (c *lineConn) Recv(ctx context.Context) (string, error) {
	select {
	case l := <-c.out:
		return l, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// onGo answers "arena 1" with ready and each go with the next of answers (a go past them
// gets no answer).
func onGo(answers ...[]string) func(string) []string {
	n := 0
	return func(line string) []string {
		switch {
		case line == "arena 1":
			return []string{"ready x"}
		case line == "go" && n < len(answers):
			n++
			return answers[n-1]
		}
		return nil
	}
}

func TestLineAnswers(t *testing.T) {
	g := lookupOthello(t)
	d3 := func() game.Move { m, _ := g.NewState().ParseMove("d3"); return m }()
	tests := []struct {
		name   string
		answer []string
		move   string // the move expected, "resign", or "" for an error
		info   protocol.SearchInfo
		line   string // the line the error must quote
		cause  error
	}{
		{name: "plain", answer: []string{"d3"}, move: "d3"},
		{name: "upper", answer: []string{"D3"}, move: "d3"},
		{name: "blanks", answer: []string{"", "   ", "\t d3 \t"}, move: "d3"},
		{name: "comments", answer: []string{"# thinking", "#", "d3"}, move: "d3"},
		{name: "info", answer: []string{"info depth 6 nodes 120000 score 3.5 pv D3 c5 f6", "d3"}, move: "d3",
			info: protocol.SearchInfo{Depth: 6, Nodes: 120000, Score: 3.5, PV: []string{"d3", "c5", "f6"}}},
		{name: "info merged", answer: []string{"INFO depth 3 time 120 nodes 40", "info depth 4 score -1", "d3"}, move: "d3",
			info: protocol.SearchInfo{Depth: 4, Nodes: 40, Score: -1}},
		{name: "info bad values", answer: []string{"info depth x nodes -5 score NaN pv", "d3"}, move: "d3",
			info: protocol.SearchInfo{PV: []string{}}},
		{name: "resign", answer: []string{"Resign"}, move: "resign"},
		{name: "garbage", answer: []string{"hello there"}, line: "hello there", cause: game.ErrBadMove},
		{name: "not a move", answer: []string{"z9"}, line: "z9", cause: game.ErrBadMove},
		{name: "move and more", answer: []string{"d3 c4"}, line: "d3 c4", cause: game.ErrBadMove},
		{name: "illegal", answer: []string{"  a1 "}, line: "  a1 ", cause: game.ErrIllegalMove},
		{name: "pass not legal", answer: []string{"pass"}, line: "pass", cause: game.ErrIllegalMove},
		{name: "silent", answer: nil, cause: context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newLineConn(onGo(tt.answer))
			_, dec, err := firstMove(t, g, c)
			switch {
			case tt.move == "resign":
				if err != nil || !dec.Resign {
					t.Fatalf("Move = %+v, %v; want a resignation", dec, err)
				}
			case tt.move != "":
				if err != nil || dec.Move != d3 || dec.Resign {
					t.Fatalf("Move = %+v, %v; want d3", dec, err)
				}
				if !infoEqual(dec.Info, tt.info) {
					t.Errorf("info %+v, want %+v", dec.Info, tt.info)
				}
			default:
				var ae *engine.AnswerError
				if !errors.As(err, &ae) || ae.Line != tt.line || !errors.Is(err, tt.cause) {
					t.Fatalf("Move error %v; want an AnswerError quoting %q, wrapping %v", err, tt.line, tt.cause)
				}
				if !slices.Equal(ae.Transcript, tt.answer) {
					t.Errorf("transcript %q, want %q", ae.Transcript, tt.answer)
				}
			}
		})
	}
}

// firstMove starts a line dialect on c and asks it for a move in the initial position,
// with 200ms to answer both.
func firstMove(t *testing.T, g game.Game, c *lineConn) (engine.Dialect, agent.Decision, error) {
	t.Helper()
	dl := engine.NewLine()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := dl.Start(ctx, c); err != nil {
		t.Fatal(err)
	}
	dec, err := dl.Move(ctx, c, bridgeTurn(g, "g", g.NewState(), nil, time.Second))
	return dl, dec, err
}

func infoEqual(a, b protocol.SearchInfo) bool {
	return a.Depth == b.Depth && a.Nodes == b.Nodes && a.Score == b.Score && slices.Equal(a.PV, b.PV) &&
		(a.PV == nil) == (b.PV == nil)
}

func TestLineCommands(t *testing.T) {
	g := lookupOthello(t)
	c := newLineConn(onGo([]string{"c3"}))
	dl := engine.NewLine()
	ctx := context.Background()
	id, err := dl.Start(ctx, c)
	if err != nil || id != (engine.Identity{Name: "x"}) {
		t.Fatalf("Start = %+v, %v", id, err)
	}
	if err := dl.NewGame(ctx, c, g, 1); err != nil {
		t.Fatal(err)
	}
	if err := dl.NewGame(ctx, c, g, 2); err == nil {
		t.Error("NewGame accepted seat 2 of a two-seat game")
	}
	st := g.NewState()
	m, _ := st.ParseMove("d3")
	st.Play(m)
	turn := bridgeTurn(g, "g", st, []string{"d3"}, 100*time.Millisecond)
	turn.Clock = protocol.Clock{MoveMS: 100, RemainingMS: 5000, IncrementMS: 50}
	turn.Deadline = time.Now().Add(80 * time.Millisecond) // the runtime keeps 20ms back
	if _, err := dl.Move(ctx, c, turn); err != nil {
		t.Fatal(err)
	}
	if err := dl.GameOver(ctx, c, protocol.GameNotice{Result: "0-1", Reason: "time_forfeit"}); err != nil {
		t.Fatal(err)
	}
	if err := dl.GameOver(ctx, c, protocol.GameNotice{}); err != nil {
		t.Fatal(err)
	}
	if err := dl.Quit(ctx, c); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"arena 1",
		"newgame othello white",
		"position " + st.String(),
		"moves d3",
		"legal c3 e3 c5",
		"time",
		"go",
		"gameover 0-1 time_forfeit",
		"gameover * unknown",
		"quit",
	}
	if len(c.sent) != len(want) {
		t.Fatalf("sent %q\nwant %q", c.sent, want)
	}
	for i, w := range want {
		if w == "time" {
			// 80ms at most remain; the remaining time loses what the bridge kept back.
			var v [3]int
			f := strings.Fields(c.sent[i])
			for j := range v {
				if len(f) == 4 {
					v[j], _ = strconv.Atoi(f[j+1])
				}
			}
			if len(f) != 4 || f[0] != "time" || v[0] < 1 || v[0] > 80 || v[1] != 5000-(100-v[0]) || v[2] != 50 {
				t.Errorf("time line %q, want about time 80 4980 50", c.sent[i])
			}
			continue
		}
		if c.sent[i] != w {
			t.Errorf("command %d: %q, want %q", i, c.sent[i], w)
		}
	}
}

// TestLineLateAnswer: an answer to a go that ran out of time, with its info, is dropped
// before the next turn's answer is read.
func TestLineLateAnswer(t *testing.T) {
	g := lookupOthello(t)
	var (
		mu      sync.Mutex
		pending []string
	)
	c := newLineConn(nil)
	n := 0
	c.answer = func(line string) []string {
		mu.Lock()
		defer mu.Unlock()
		switch line {
		case "arena 1":
			return []string{"ready"}
		case "go":
			n++
			if n == 1 { // too late: held back until the second go
				pending = []string{"info depth 9 score 99", "d3"}
				return nil
			}
			return append(pending, "info depth 1", "c4")
		}
		return nil
	}
	dl := engine.NewLine()
	if _, err := dl.Start(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := dl.Move(ctx, c, bridgeTurn(g, "g", g.NewState(), nil, time.Second)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("first Move: %v, want a timeout", err)
	}
	dec, err := dl.Move(context.Background(), c, bridgeTurn(g, "g", g.NewState(), nil, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if got := g.NewState().MoveString(dec.Move); got != "c4" || dec.Info.Depth != 1 || dec.Info.Score != 0 {
		t.Errorf("second Move = %s %+v; want c4 with depth 1 and no score (the late d3 dropped)", got, dec.Info)
	}
}

func TestLineHandshake(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		id    engine.Identity
		line  string // the line an error quotes; "" for no error
	}{
		{name: "bare", lines: []string{"ready"}},
		{name: "name", lines: []string{"READY bot"}, id: engine.Identity{Name: "bot"}},
		{name: "name version", lines: []string{"  ready   bot 1.2 beta  "}, id: engine.Identity{Name: "bot", Version: "1.2 beta"}},
		{name: "chatter first", lines: []string{"", "# hi", "info starting", "ready bot"}, id: engine.Identity{Name: "bot"}},
		{name: "banner", lines: []string{"MyBot by me", "ready"}, line: "MyBot by me"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newLineConn(func(line string) []string { return tt.lines })
			id, err := engine.NewLine().Start(context.Background(), c)
			if tt.line == "" {
				if err != nil || id != tt.id {
					t.Fatalf("Start = %+v, %v; want %+v", id, err, tt.id)
				}
				return
			}
			var ae *engine.AnswerError
			if !errors.As(err, &ae) || ae.Line != tt.line {
				t.Fatalf("Start error %v, want an AnswerError quoting %q", err, tt.line)
			}
		})
	}
}

// FuzzLineAnswer feeds the line dialect arbitrary answers: it must never panic, and what it
// accepts must be a legal move or a resignation.
func FuzzLineAnswer(f *testing.F) {
	for _, s := range []string{"d3", "D3", "resign", "info depth 3 pv d3 c5\nd3", "# x\n\nd3", "pass", "a1", "info pv\nc4", "\x00\xff", "info score 1e400\nd3"} {
		f.Add(s)
	}
	g := lookupOthello(f)
	f.Fuzz(func(t *testing.T, answer string) {
		c := newLineConn(onGo(strings.Split(answer, "\n")))
		dl := engine.NewLine()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		if _, err := dl.Start(ctx, c); err != nil {
			t.Fatal(err)
		}
		turn := bridgeTurn(g, "g", g.NewState(), nil, time.Second)
		dec, err := dl.Move(ctx, c, turn)
		if err != nil {
			var ae *engine.AnswerError
			if !errors.As(err, &ae) {
				t.Fatalf("error %v is not an AnswerError", err)
			}
			return
		}
		if !dec.Resign && !slices.Contains(turn.Legal, dec.Move) {
			t.Fatalf("accepted %d, not a legal move", dec.Move)
		}
		if len(dec.Info.PV) > 256 || dec.Info.Depth < 0 || dec.Info.Nodes < 0 {
			t.Fatalf("info %+v breaks the protocol's limits", dec.Info)
		}
	})
}

var _ engine.LineConn = (*lineConn)(nil)

// TestLineFence: an engine that asks for the fence gets "ping N" before each go and its
// answer is read after "pong N" only: what it wrote before the pong, stray lines after it
// and pongs of earlier turns are never judged.
func TestLineFence(t *testing.T) {
	g := lookupOthello(t)
	d3 := func() game.Move { m, _ := g.NewState().ParseMove("d3"); return m }()
	tests := []struct {
		name   string
		before []string // written on ping, before the pong
		after  []string // written on go
		move   string   // "d3", "resign", or "" for an error
		line   string   // the line an error quotes
		cause  error
		stale  int // lines read away
	}{
		{name: "plain", after: []string{"move d3"}, move: "d3"},
		{name: "stale before the pong", before: []string{"move c4", "pong 0", "debug: hello"}, after: []string{"move d3"}, move: "d3", stale: 3},
		{name: "stray after the pong", after: []string{"debug: thinking", "d3", "move d3"}, move: "d3", stale: 2},
		{name: "info kept", after: []string{"info depth 5", "move D3"}, move: "d3"},
		{name: "resign", after: []string{"resign"}, move: "resign"},
		{name: "illegal", after: []string{"move a1"}, line: "move a1", cause: game.ErrIllegalMove},
		{name: "no move", after: []string{"move"}, line: "move", cause: game.ErrBadMove},
		{name: "two words", after: []string{"move d3 c4"}, line: "move d3 c4", cause: game.ErrBadMove},
		{name: "no pong", before: []string{"pong 2"}, cause: context.DeadlineExceeded, stale: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newLineConn(func(line string) []string {
				switch {
				case line == "arena 1":
					return []string{"# hi", "feature fence other", "ready x"}
				case line == "ping 1":
					if tt.name == "no pong" {
						return tt.before
					}
					return append(slices.Clone(tt.before), "pong 1")
				case line == "go":
					return tt.after
				}
				return nil
			})
			dl, dec, err := firstMove(t, g, c)
			sent := c.sent[len(c.sent)-2:]
			if !slices.Equal(sent, []string{"ping 1", "go"}) {
				t.Errorf("the turn ended with %q, want ping 1 and go", sent)
			}
			switch {
			case tt.move == "resign":
				if err != nil || !dec.Resign {
					t.Fatalf("Move = %+v, %v; want a resignation", dec, err)
				}
			case tt.move != "":
				if err != nil || dec.Move != d3 {
					t.Fatalf("Move = %+v, %v; want d3", dec, err)
				}
			default:
				var ae *engine.AnswerError
				if !errors.Is(err, tt.cause) || (tt.line != "" && (!errors.As(err, &ae) || ae.Line != tt.line)) {
					t.Fatalf("Move error %v; want one quoting %q, wrapping %v", err, tt.line, tt.cause)
				}
			}
			if st := engine.TakeStale(dl); st.Lines != tt.stale {
				t.Errorf("%d lines read away (first %q), want %d", st.Lines, st.First, tt.stale)
			}
		})
	}
}

// TestLineSettle: after a turn that went wrong, an engine is back in step, or is reported
// unresponsive to be restarted. A fenced engine must answer a ping; one without the fence
// must give the answers it owes (and the real one after an answer that was no move) and
// then fall silent.
func TestLineSettle(t *testing.T) {
	g := lookupOthello(t)
	tests := []struct {
		name    string
		fenced  bool
		onGo    []string // the answer judged
		late    []string // written after the answer, before Settle
		onPing  []string // a fenced engine's answer to Settle's ping
		ok      bool
		stale   int
		nextDec string // the move taken at the next turn, answered "c4" (or "move c4")
	}{
		{name: "junk then the move", onGo: []string{"debug: thinking"}, late: []string{"d3"}, ok: true, stale: 1, nextDec: "c4"},
		{name: "junk alone", onGo: []string{"hello there"}, ok: true, nextDec: "c4"},
		{name: "illegal move owes nothing", onGo: []string{"a1"}, ok: true, nextDec: "c4"},
		{name: "talking on", onGo: []string{"a1"}, late: []string{"x", "y"}, ok: false, stale: 1},
		{name: "fenced, caught up", fenced: true, onGo: []string{"move a1"}, late: []string{"junk"}, onPing: []string{"pong 2"}, ok: true, stale: 1, nextDec: "c4"},
		{name: "fenced, silent", fenced: true, onGo: []string{"move a1"}, ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gos := 0
			c := newLineConn(nil)
			c.answer = func(line string) []string {
				switch {
				case line == "arena 1" && tt.fenced:
					return []string{"feature fence", "ready"}
				case line == "arena 1":
					return []string{"ready"}
				case line == "ping 1", line == "ping 3":
					return []string{"pong " + line[5:]}
				case line == "ping 2":
					return tt.onPing
				case line == "go":
					gos++
					if gos == 1 {
						return append(slices.Clone(tt.onGo), tt.late...)
					}
					if tt.fenced {
						return []string{"move c4"}
					}
					return []string{"c4"}
				}
				return nil
			}
			dl := engine.NewLine()
			if _, err := dl.Start(context.Background(), c); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			if _, err := dl.Move(ctx, c, bridgeTurn(g, "g", g.NewState(), nil, time.Second)); err == nil {
				t.Fatal("the first answer was taken")
			}
			sctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
			defer cancel()
			st, err := dl.Settle(sctx, c)
			if (err == nil) != tt.ok || st.Lines != tt.stale {
				t.Fatalf("Settle = %d lines (%q), %v; want ok %v and %d lines", st.Lines, st.First, err, tt.ok, tt.stale)
			}
			if tt.nextDec == "" {
				return
			}
			dec, err := dl.Move(ctx, c, bridgeTurn(g, "g", g.NewState(), nil, time.Second))
			if got := g.NewState().MoveString(dec.Move); err != nil || got != tt.nextDec {
				t.Errorf("next Move = %s, %v; want %s", got, err, tt.nextDec)
			}
		})
	}
}

// TestLineLateRealAnswer: when the real answer after a stray line comes later than Settle
// waits for it, the fence before the next turn takes it as owed (once), not as output out
// of turn; comments and info lines around it are chatter, and a turn sent since clears it.
func TestLineLateRealAnswer(t *testing.T) {
	g := lookupOthello(t)
	c := newLineConn(onGo([]string{"debug: thinking"}, []string{"c4"}))
	dl, _, err := firstMove(t, g, c)
	if !errors.Is(err, game.ErrBadMove) {
		t.Fatalf("first Move: %v, want the stray line judged as no move", err)
	}
	if _, err := dl.Settle(context.Background(), c); err != nil {
		t.Fatalf("Settle: %v", err)
	}
	for _, tt := range []struct {
		line string
		want bool
	}{{"# late", false}, {"info depth 2", false}, {"d3", true}, {"d3", false}} {
		if got := engine.Expected(dl, tt.line); got != tt.want {
			t.Errorf("expected(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
	c2 := newLineConn(onGo([]string{"debug: thinking"}, []string{"c4"}))
	dl2, _, _ := firstMove(t, g, c2)
	if _, err := dl2.Settle(context.Background(), c2); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := dl2.Move(ctx, c2, bridgeTurn(g, "g", g.NewState(), nil, time.Second)); err != nil {
		t.Fatalf("second Move: %v", err)
	}
	if engine.Expected(dl2, "d3") {
		t.Error("a line after the next turn's go taken as the owed answer of the turn before")
	}
}
