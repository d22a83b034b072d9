package engineagent

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	_ "github.com/arenaref/arena/games/all"
)

// TestParseConfig reads the agent's settings, as a player list or a tournament file gives
// them, and refuses bad ones with the setting named.
func TestParseConfig(t *testing.T) {
	tests := []struct {
		name    string
		params  map[string]string
		argv    []string
		dir     string
		proto   string
		wantErr string
	}{
		{name: "command only", params: map[string]string{"cmd": "python3 mine.py"}, argv: []string{"python3", "mine.py"}, proto: "line"},
		{name: "quoted words", params: map[string]string{"cmd": `python3 'my engine.py' --name "a b"`}, argv: []string{"python3", "my engine.py", "--name", "a b"}, proto: "line"},
		{name: "nothing expanded", params: map[string]string{"cmd": "./bot $HOME ~ ;"}, argv: []string{"./bot", "$HOME", "~", ";"}, proto: "line"},
		{name: "gtp with dir", params: map[string]string{"cmd": "/usr/games/gtp-rhino -l 1", "proto": "gtp", "dir": "/tmp"}, argv: []string{"/usr/games/gtp-rhino", "-l", "1"}, dir: "/tmp", proto: "gtp"},
		{name: "nboard depth", params: map[string]string{"cmd": "edax", "proto": "nboard", "depth": "4"}, argv: []string{"edax"}, proto: "nboard"},
		{name: "no cmd", params: map[string]string{"proto": "gtp"}, wantErr: "cmd: the engine's command is required"},
		{name: "blank cmd", params: map[string]string{"cmd": "  "}, wantErr: "cmd: the engine's command is required"},
		{name: "empty program", params: map[string]string{"cmd": "'' x"}, wantErr: "cmd: the engine's command is required"},
		{name: "unterminated quote", params: map[string]string{"cmd": "python3 'mine.py"}, wantErr: "unterminated quote"},
		{name: "unknown protocol", params: map[string]string{"cmd": "x", "proto": "uci"}, wantErr: `option proto="uci": want line, gtp, nboard`},
		{name: "depth for gtp", params: map[string]string{"cmd": "x", "proto": "gtp", "depth": "4"}, wantErr: "depth: a setting of the nboard protocol, not of gtp"},
		{name: "bad depth", params: map[string]string{"cmd": "x", "proto": "nboard", "depth": "0"}, wantErr: "depth"},
		{name: "misspelt key", params: map[string]string{"cmd": "x", "protocol": "gtp"}, wantErr: `unknown option "protocol"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseConfig(tt.params)
			if (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			if err == nil && (!slices.Equal(c.Argv, tt.argv) || c.Dir != tt.dir || c.Proto.Name != tt.proto || c.Dialect().Name() != tt.proto) {
				t.Fatalf("got argv %q, dir %q, protocol %s; want %q, %q, %s", c.Argv, c.Dir, c.Proto.Name, tt.argv, tt.dir, tt.proto)
			}
		})
	}
}

// TestParseSpecsNamesEngines reads engines from a player list as arena tournament
// --players gives it: the command keeps its quotes for the agent, colons and commas in
// quotes included, and builds the agent.
func TestParseSpecsNamesEngines(t *testing.T) {
	names, specs, err := agent.ParseList(`mine=engine:cmd=python3 'my engine.py' --opt 'a:b,c':proto=line, hp2 ,rhino=engine:cmd=/usr/games/gtp-rhino -l 1:proto=gtp`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, []string{"mine", "hp2", "rhino"}) {
		t.Fatalf("names %q", names)
	}
	c, err := parseConfig(specs["mine"].Params)
	if err != nil || !slices.Equal(c.Argv, []string{"python3", "my engine.py", "--opt", "a:b,c"}) || c.Proto.Name != "line" {
		t.Fatalf("mine: %+v, %v", c, err)
	}
	if c, err := parseConfig(specs["rhino"].Params); err != nil || len(c.Argv) != 3 || c.Proto.Name != "gtp" {
		t.Fatalf("rhino: %+v, %v", c, err)
	}
}

// TestNewRefusesWithoutPrograms checks that the agent starts nothing unless the
// tournament runs on this machine (agent.Config.Programs).
func TestNewRefusesWithoutPrograms(t *testing.T) {
	_, err := agent.New(Name, agent.Config{Params: map[string]string{"cmd": "touch /tmp/should-not-exist"}})
	if !errors.Is(err, agent.ErrPrograms) {
		t.Fatalf("agent.New without Programs: %v, want an error wrapping agent.ErrPrograms", err)
	}
}

// python3 returns the path of python3, or skips the test.
func python3(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	return p
}

// TestStartRealEngine starts a real Python engine, plays a move with it, and checks that
// its protocol's games are checked.
func TestStartRealEngine(t *testing.T) {
	py := python3(t)
	a, err := agent.New(Name, agent.Config{Programs: true, Params: map[string]string{"cmd": py + " random_engine.py", "dir": "testdata"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agent.Close(a) })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := a.(agent.Starter).Start(ctx); err != nil {
		t.Fatal(err)
	}
	if !agent.IsSequential(a) {
		t.Error("the engine agent is not sequential")
	}
	g, err := game.Lookup("othello")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.(agent.GameChecker).CheckGame(g); err != nil {
		t.Errorf("the line protocol refuses othello: %v", err)
	}
	st := g.NewState()
	legal := st.LegalMoves(st.ToMove(), nil)
	d, err := a.Choose(ctx, agent.Turn{GameID: "t1-1", Game: g, State: st, Seat: st.ToMove(), Legal: legal, Deadline: time.Now().Add(5 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(legal, d.Move) || d.Raw != "" && d.Raw != st.MoveString(d.Move) {
		t.Errorf("the engine chose %+v, not one of the legal moves", d)
	}

	nb, err := agent.New(Name, agent.Config{Programs: true, Params: map[string]string{"cmd": "edax", "proto": "nboard"}})
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close(nb)
	ag, err := game.Lookup("atari-go")
	if err != nil {
		t.Fatal(err)
	}
	if err := nb.(agent.GameChecker).CheckGame(ag); !errors.Is(err, agent.ErrWrongGame) || !strings.Contains(err.Error(), "nboard protocol plays") {
		t.Errorf("nboard CheckGame(atari-go) = %v, want the protocol's refusal", err)
	}
}

// TestStartMissingCommand checks that a command that does not exist fails Start at once,
// naming the command.
func TestStartMissingCommand(t *testing.T) {
	a, err := agent.New(Name, agent.Config{Programs: true, Params: map[string]string{"cmd": "./no-such-engine --fast"}})
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close(a)
	start := time.Now()
	err = a.(agent.Starter).Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "engine ./no-such-engine --fast: ") {
		t.Fatalf("Start = %v, want an error naming the command", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Start took %v to fail", d)
	}
	t.Log(err)
}
