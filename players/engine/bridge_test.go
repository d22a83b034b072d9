package engine_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/protocol"
)

// TestBridgePlays plays two games through the bridge with engines that are unusual but
// correct: every one must be played to its end.
func TestBridgePlays(t *testing.T) {
	for _, behave := range []string{"normal", "upper", "crlf", "stderr", "upper,crlf,stderr"} {
		t.Run(behave, func(t *testing.T) {
			logPath := filepath.Join(t.TempDir(), "engine.log")
			b := newBridge(t, fakeArgv("--behave", behave, "--log", logPath), engine.Options{})
			id, err := b.Start(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if id.Name != "fakeengine" || id.Version != "1.0" {
				t.Errorf("identity %+v, want fakeengine 1.0", id)
			}
			pid := b.Pid()
			for _, gid := range []string{"g1", "g2"} {
				r := playGame(t, b, gid, 2*time.Second)
				if r.resigned || len(r.moves) < 50 {
					t.Fatalf("%s: %d moves, resigned %v: want a whole game", gid, len(r.moves), r.resigned)
				}
				if r.infos != len(r.moves) {
					t.Errorf("%s: search info on %d of %d moves", gid, r.infos, len(r.moves))
				}
			}
			if b.Pid() != pid {
				t.Errorf("the engine was restarted (pid %d, then %d) without a reason", pid, b.Pid())
			}
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			groupGone(t, pid, 2*time.Second)

			// What the engine was told, in the order of docs/engines.md.
			data, _ := os.ReadFile(logPath)
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			want := []string{"arena 1", "newgame othello black", "position ", "moves", "legal d3 c4 f5 e6", "time ", "go", "position "}
			if len(lines) < len(want)+1 {
				t.Fatalf("engine log:\n%s", data)
			}
			for i, w := range want {
				if !strings.HasPrefix(lines[i+1], w) { // lines[0] is the pid
					t.Errorf("command %d: %q, want %q...", i+1, lines[i+1], w)
				}
			}
			if last := lines[len(lines)-1]; last != "quit" {
				t.Errorf("last command %q, want quit", last)
			}
			if !strings.Contains(string(data), "\ngameover 1-0 normal\nnewgame othello black\n") {
				t.Errorf("no gameover between the games:\n%s", data)
			}
		})
	}
}

func TestBridgeSlowStart(t *testing.T) {
	b := newBridge(t, fakeArgv("--behave", "slow-start", "--delay", "3s"), engine.Options{StartTimeout: 200 * time.Millisecond})
	began := time.Now()
	_, err := b.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "start-up timeout 200ms") || !strings.Contains(err.Error(), `no "ready" in time`) {
		t.Fatalf("Start: %v, want an error about the start-up timeout", err)
	}
	if took := time.Since(began); took > 2*time.Second {
		t.Errorf("Start took %v with a 200ms start-up timeout", took)
	}
	// A turn with no engine to play it is resigned.
	g := lookupOthello(t)
	d, err := chooseAsRuntime(b, bridgeTurn(g, "g1", g.NewState(), nil, time.Second))
	if err != nil || !d.Resign {
		t.Errorf("Choose without an engine: %+v, %v; want a resignation", d, err)
	}
}

func TestBridgeBadHandshake(t *testing.T) {
	b := newBridge(t, fakeArgv("--behave", "bad-ready"), engine.Options{})
	_, err := b.Start(context.Background())
	var ae *engine.AnswerError
	if !errors.As(err, &ae) || ae.Line != "hello" || !errors.Is(err, engine.ErrProtocol) {
		t.Fatalf("Start: %v, want an AnswerError quoting %q", err, "hello")
	}
}

// TestBridgeCrash: an engine that dies mid-game loses that game as crashed, saying how it
// ended, and is restarted for the next one, which it loses the same way.
func TestBridgeCrash(t *testing.T) {
	b := newBridge(t, fakeArgv("--behave", "crash", "--ply", "6"), engine.Options{})
	if _, err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := b.Pid()
	for _, gid := range []string{"g1", "g2"} {
		r := playGame(t, b, gid, 2*time.Second)
		if r.crashed != "exit status 3" || len(r.moves) != 6 {
			t.Fatalf("%s: %d moves, crashed %q; want a crash (exit status 3) at ply 6", gid, len(r.moves), r.crashed)
		}
		// The end of the game restarts the engine.
		if pid := b.Pid(); pid == 0 || pid == first {
			t.Fatalf("%s: engine pid %d after the crash (first %d): not restarted", gid, pid, first)
		}
		groupGone(t, first, 2*time.Second)
		first = b.Pid()
	}
}

// TestBridgeBadAnswers: an answer that is no legal move is passed on as it is, for the
// referee to judge and record; the dialect's error quotes the engine's line exactly.
func TestBridgeBadAnswers(t *testing.T) {
	tests := []struct {
		behave string
		line   string
		raw    string // what goes to the referee: the answer's first word
		cause  error
	}{
		{"garbage", "?? no idea", "??", game.ErrBadMove},
		{"illegal", "d4", "d4", game.ErrIllegalMove},
		{"long-line", "xxxx", "xxxx", engine.ErrLineTooLong},
	}
	g := lookupOthello(t)
	for _, tt := range tests {
		t.Run(tt.behave, func(t *testing.T) {
			b := newBridge(t, fakeArgv("--behave", tt.behave, "--ply", "3"), engine.Options{})
			r := playGame(t, b, "g1", 2*time.Second)
			if !strings.HasPrefix(r.raw, tt.raw) || len(r.moves) != 3 {
				t.Fatalf("%d moves, passed on %.20q; want %q passed on at ply 3", len(r.moves), r.raw, tt.raw)
			}
			pid := b.Pid()
			if pid == 0 {
				t.Fatal("a bad answer stopped the engine")
			}

			// The same through the dialect directly, for the error.
			p := startEngine(t, fakeArgv("--behave", tt.behave), engine.Options{})
			d := engine.NewLine()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if _, err := d.Start(ctx, p); err != nil {
				t.Fatal(err)
			}
			_, err := d.Move(ctx, p, bridgeTurn(g, "g1", g.NewState(), nil, 2*time.Second))
			var ae *engine.AnswerError
			if !errors.As(err, &ae) || !strings.HasPrefix(ae.Line, tt.line) || !errors.Is(err, tt.cause) {
				t.Fatalf("Move: %v; want an AnswerError quoting %q, wrapping %v", err, tt.line, tt.cause)
			}
			if tt.behave != "long-line" && (ae.Line != tt.line || !strings.Contains(err.Error(), `"`+tt.line+`"`)) {
				t.Errorf("error %q does not quote the line %q exactly", err, tt.line)
			}
		})
	}
}

// TestBridgeSlowMove: an engine that does not answer in time leaves the turn unanswered
// (the referee's clock decides: time_forfeit), but is kept,
// and its late answer is not taken for the next game's first move.
func TestBridgeSlowMove(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "engine.log")
	b := newBridge(t, fakeArgv("--behave", "slow-move", "--ply", "4", "--delay", "400ms", "--log", logPath), engine.Options{})
	r := playGame(t, b, "g1", 200*time.Millisecond)
	if !r.noReply || len(r.moves) != 4 {
		t.Fatalf("%d moves, no reply %v; want the turn at ply 4 left unanswered", len(r.moves), r.noReply)
	}
	pid := b.Pid()
	// The first moves of the next game are played before ply 4: the late answer (the
	// first legal move at ply 4 of the last game) must be dropped.
	g := lookupOthello(t)
	st := g.NewState()
	var moves []string
	for range 4 {
		d, err := chooseAsRuntime(b, bridgeTurn(g, "g2", st, moves, 2*time.Second))
		if err != nil || d.Resign {
			t.Fatalf("g2 ply %d: %+v, %v", len(moves), d, err)
		}
		if err := st.Play(d.Move); err != nil {
			t.Fatalf("g2 ply %d: the bridge chose %s: %v", len(moves), st.MoveString(d.Move), err)
		}
		moves = append(moves, st.MoveString(d.Move))
	}
	if b.Pid() != pid {
		t.Error("a slow answer restarted the engine")
	}
}

// TestBridgeCloseKillsGroup: closing the bridge ends an engine that ignores quit, the end
// of its input and SIGTERM, and the child it started, and leaves no zombie.
func TestBridgeCloseKillsGroup(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "engine.log")
	token := tag(t)
	b := newBridge(t, fakeArgv("--behave", "ignore-quit,child", "--log", logPath, "--tag", token), engine.Options{QuitTimeout: 100 * time.Millisecond})
	playGame(t, b, "g1", 2*time.Second)
	pid := b.Pid()
	_, child := engineAndChild(t, token, pid)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	groupGone(t, pid, 2*time.Second)
	if !pidGone(pid) || !pidGone(child) {
		t.Errorf("after Close: engine %d gone %v, child %d gone %v", pid, pidGone(pid), child, pidGone(child))
	}
	data, _ := os.ReadFile(logPath)
	if !strings.HasSuffix(string(data), "quit\n") {
		t.Errorf("the engine was not told to quit:\n%s", data)
	}
	if d, err := chooseAsRuntime(b, bridgeTurn(lookupOthello(t), "g2", lookupOthello(t).NewState(), nil, time.Second)); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("Choose after Close: %+v, %v; want ErrClosed", d, err)
	}
}

// TestBridgeInterleavedGames: turns of two games in turn; the engine is told of each
// switch with newgame, and plays both.
func TestBridgeInterleavedGames(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "engine.log")
	b := newBridge(t, fakeArgv("--log", logPath), engine.Options{})
	g := lookupOthello(t)
	states := []game.State{g.NewState(), g.NewState()}
	moves := [][]string{nil, nil}
	for ply := range 6 {
		for i, id := range []string{"a", "b"} {
			d, err := chooseAsRuntime(b, bridgeTurn(g, id, states[i], moves[i], 2*time.Second))
			if err != nil || d.Resign {
				t.Fatalf("game %s ply %d: %+v, %v", id, ply, d, err)
			}
			if err := states[i].Play(d.Move); err != nil {
				t.Fatal(err)
			}
			moves[i] = append(moves[i], states[i].MoveString(d.Move))
		}
	}
	data, _ := os.ReadFile(logPath)
	if n := strings.Count(string(data), "newgame "); n != 12 {
		t.Errorf("%d newgame commands for 12 switches between games", n)
	}
}

// interleave plays the turns of games a and b in turn until both end or stop where the
// referee would judge, as a referee running both at once and a runtime serving them one
// event at a time would. It returns what happened in each.
func interleave(t *testing.T, b *engine.Bridge, tc time.Duration) map[string]*gameResult {
	t.Helper()
	g := lookupOthello(t)
	ids := []string{"a", "b"}
	states := map[string]game.State{}
	out := map[string]*gameResult{}
	for _, id := range ids {
		states[id] = g.NewState()
		out[id] = &gameResult{}
		b.GameStarted(protocol.GameNotice{V: 1, Type: protocol.TypeGameStart, GameID: id, Game: g.Name(),
			Players: []string{"x", "y"}, Position: states[id].String()})
	}
	done := map[string]bool{}
	for len(done) < len(ids) {
		for _, id := range ids {
			st, r := states[id], out[id]
			if done[id] {
				continue
			}
			d, err := chooseAsRuntime(b, bridgeTurn(g, id, st, r.moves, tc))
			if err != nil {
				t.Fatalf("%s ply %d: Choose: %v", id, len(r.moves), err)
			}
			if d.Resign || d.Raw != "" || d.NoReply || d.Crashed != "" {
				r.resigned, r.raw, r.noReply, r.crashed = d.Resign, d.Raw, d.NoReply, d.Crashed
			} else {
				r.moves = append(r.moves, st.MoveString(d.Move))
				if err := st.Play(d.Move); err != nil {
					t.Fatalf("%s ply %d: the bridge chose %s: %v", id, len(r.moves), st.MoveString(d.Move), err)
				}
				if !st.IsTerminal() {
					continue
				}
			}
			done[id] = true
			b.GameEnded(protocol.GameNotice{V: 1, Type: protocol.TypeGameEnd, GameID: id, Game: g.Name(),
				Players: []string{"x", "y"}, Result: "1-0", Reason: "normal", Moves: r.moves})
		}
	}
	return out
}

// TestBridgeCrashSparesOtherGames: an engine that crashes answering one game's turn loses
// that game only; the other game, in progress on the same engine, goes on to its end with
// the restarted engine.
func TestBridgeCrashSparesOtherGames(t *testing.T) {
	once := filepath.Join(t.TempDir(), "once")
	b := newBridge(t, fakeArgv("--behave", "crash", "--ply", "6", "--once", once), engine.Options{})
	if _, err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	pid := b.Pid()
	r := interleave(t, b, 2*time.Second)
	if r["a"].crashed != "exit status 3" || len(r["a"].moves) != 6 {
		t.Errorf("game a: %d moves, crashed %q; want the crash at ply 6", len(r["a"].moves), r["a"].crashed)
	}
	if b := r["b"]; b.crashed != "" || b.resigned || b.raw != "" || b.noReply || len(b.moves) < 50 {
		t.Errorf("game b: %+v; want it played to its end", *b)
	}
	if now := b.Pid(); now == pid || now == 0 {
		t.Errorf("engine pid %d after the crash (first %d): not restarted", now, pid)
	}
}

// TestBridgeRestartsAStalledEngine: an engine that is still thinking when its grace after
// a time-out ends is restarted at once, so that the next game meets an engine that
// answers; the stalled turn alone is left unanswered.
func TestBridgeRestartsAStalledEngine(t *testing.T) {
	once := filepath.Join(t.TempDir(), "once")
	b := newBridge(t, fakeArgv("--behave", "slow-move", "--delay", "5s", "--ply", "4", "--once", once),
		engine.Options{PingTimeout: 100 * time.Millisecond})
	if _, err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	pid := b.Pid()
	began := time.Now()
	r := playGame(t, b, "g1", 200*time.Millisecond)
	if !r.noReply || len(r.moves) != 4 {
		t.Fatalf("%d moves, no reply %v; want the turn at ply 4 left unanswered", len(r.moves), r.noReply)
	}
	if took := time.Since(began); took > 3*time.Second {
		t.Errorf("the stalled game took %v: the bridge waited for the engine", took)
	}
	if now := b.Pid(); now == pid || now == 0 {
		t.Fatalf("engine pid %d after the stall (first %d): not restarted", now, pid)
	}
	// The old engine gets 2s after quit before SIGTERM, so its group may outlive the
	// restart by that much and a little more on a busy machine.
	groupGone(t, pid, 5*time.Second)
	if r := playGame(t, b, "g2", 200*time.Millisecond); r.noReply || r.raw != "" || r.crashed != "" || len(r.moves) < 50 {
		t.Errorf("g2 after the restart: %+v; want a whole game", r)
	}
}

// TestBridgeSettlesAFlood: an engine that floods its output on one move loses that move
// (its first line is passed on to be judged), the rest of the flood and its late move are
// read away, and the next game is played whole with the same engine.
func TestBridgeSettlesAFlood(t *testing.T) {
	once := filepath.Join(t.TempDir(), "once")
	b := newBridge(t, fakeArgv("--behave", "flood", "--ply", "3", "--once", once), engine.Options{PingTimeout: 2 * time.Second})
	r := playGame(t, b, "g1", 2*time.Second)
	if !strings.HasPrefix(r.raw, "yyyy") || len(r.moves) != 3 {
		t.Fatalf("%d moves, passed on %.20q; want the flood's first line at ply 3", len(r.moves), r.raw)
	}
	pid := b.Pid()
	for _, id := range []string{"g2", "g3"} {
		if r := playGame(t, b, id, 2*time.Second); r.noReply || r.raw != "" || r.crashed != "" || len(r.moves) < 50 {
			t.Errorf("%s after the flood: %d moves, raw %.20q; want a whole game", id, len(r.moves), r.raw)
		}
	}
	if b.Pid() != pid {
		t.Error("the flood restarted the engine; it answered, and should have been kept")
	}
}

// TestBridgeOutOfTurn: an engine without the fence that goes on writing after its answer
// is restarted before its next turn, since what it writes could be taken for its answer,
// and its next game is whole; one that writes comments and empty lines around its answers
// (the fakeengine's crlf behaviour) is never restarted.
func TestBridgeOutOfTurn(t *testing.T) {
	tests := []struct {
		name     string
		behave   string
		restarts bool
	}{
		{"comments and blank lines", "crlf", false},
		{"a flood after the answer", "flood", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			argv := fakeArgv("--behave", tt.behave, "--ply", "4", "--once", filepath.Join(t.TempDir(), "once"))
			b := engine.NewBridge(argv, engine.NewLine, engine.Options{}, zerolog.New(zerolog.SyncWriter(&logs)))
			t.Cleanup(func() { b.Close() })
			r := playGame(t, b, "g", time.Second)
			if tt.restarts {
				if r.raw == "" {
					t.Fatalf("the flood's first line was not passed on: %+v", r)
				}
				r = playGame(t, b, "g2", time.Second)
			}
			if r.raw != "" || r.noReply || r.crashed != "" || len(r.moves) < 20 {
				t.Errorf("game: %+v, want a whole game", r)
			}
			b.Close()
			if got := strings.Contains(logs.String(), "restarting it") || strings.Contains(logs.String(), "is restarted"); got != tt.restarts {
				t.Errorf("restarted %v, want %v; log:\n%s", got, tt.restarts, logs.String())
			}
		})
	}
}
