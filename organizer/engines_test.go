package organizer_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/organizer"
	_ "github.com/arenaref/arena/players/engine/engineagent"
	"github.com/arenaref/arena/protocol"
)

// TestEnginesOnlyLocal checks that a tournament that names an engine agent, whose command
// would run on the referee's machine, is refused by the referee daemon's API (the
// tournament came over the network), and that a tournament made locally with one is
// refused when a Director without Config.Programs (the daemon, resuming it) plays it. The
// command never runs.
func TestEnginesOnlyLocal(t *testing.T) {
	ctx := context.Background()
	cfg, db := newDirectorConfig(t, false)
	daemon := organizer.New(cfg)
	t.Cleanup(daemon.Close)
	local := cfg
	local.Programs = true
	here := organizer.New(local)
	t.Cleanup(here.Close)
	marker := filepath.Join(t.TempDir(), "ran")
	cmd := "touch " + marker

	dm := organizer.NewDaemon(daemon, time.Second)
	t.Cleanup(func() { dm.Shutdown(0) })
	file := fmt.Sprintf("players = [\"mine\", \"random\"]\ntime_control = \"1s\"\n[agents.mine]\nagent = \"engine\"\nparams = { cmd = %q }\n", cmd)
	r := dm.Create(ctx, protocol.APIRequest{Source: "cup.toml", Config: file})
	if r.Type != protocol.TypeAPIError || r.Error != protocol.APIBadConfig || !strings.Contains(r.Message, "cup.toml: players: mine: ") ||
		!strings.Contains(r.Message, agent.ErrPrograms.Error()) {
		t.Errorf("the daemon's create: %+v; want %s naming the player and saying why", r, protocol.APIBadConfig)
	}

	s := organizer.DefaultSpec()
	s.Players = []string{"mine", "random"}
	s.Agents = map[string]agent.Spec{"mine": {Agent: "engine", Params: map[string]string{"cmd": cmd}}}
	if _, _, err := daemon.Create(ctx, s, "", true); !errors.Is(err, agent.ErrPrograms) {
		t.Errorf("Create without Programs: %v, want an error wrapping agent.ErrPrograms", err)
	}
	id, _, err := here.Create(ctx, s, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := daemon.Run(ctx, id, nil, nil); !errors.Is(err, agent.ErrPrograms) || !strings.Contains(err.Error(), "player mine: ") {
		t.Errorf("Run without Programs: %v, want an error naming the player and wrapping agent.ErrPrograms", err)
	}
	if games, err := db.Games(ctx, id); err != nil || len(games) != 0 {
		t.Errorf("%d games recorded (%v), want none", len(games), err)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the engine's command ran: %v", err)
	}
}

// TestReadyRefusesMissingPlayers checks that Ready fails, naming them, for an engine whose
// command cannot start and for an external player that does not connect within the wait,
// and is ready at once for built-in players.
func TestReadyRefusesMissingPlayers(t *testing.T) {
	ctx := context.Background()
	cfg, _ := newDirectorConfig(t, false)
	cfg.Programs = true
	d := organizer.New(cfg)
	t.Cleanup(d.Close)

	s := organizer.DefaultSpec()
	s.Players = []string{"random", "hp1"}
	release, err := d.Ready(ctx, s)
	if err != nil {
		t.Fatalf("Ready with built-in players: %v", err)
	}
	release()

	s.Players = []string{"random", "broken"}
	s.Agents = map[string]agent.Spec{"broken": {Agent: "engine", Params: map[string]string{"cmd": "./no-such-engine"}}}
	if _, err := d.Ready(ctx, s); err == nil || !strings.Contains(err.Error(), "player broken: engine ./no-such-engine: ") {
		t.Errorf("Ready with a missing engine: %v, want an error naming the player and the command", err)
	}

	s.Players, s.Agents = []string{"random", "ghost"}, nil
	s.Wait = organizer.Duration{Duration: 200 * time.Millisecond}
	start := time.Now()
	if _, err := d.Ready(ctx, s); err == nil || !strings.Contains(err.Error(), "ghost did not connect within 200ms") {
		t.Errorf("Ready with an absent player: %v, want an error naming it", err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("Ready waited %v for a wait of 200ms", waited)
	}
}
