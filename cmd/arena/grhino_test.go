package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/grhinotest"
)

// TestGRhinoUntouched plays GRhino, a real GTP Othello engine from Debian (packages grhino
// and grhino-data), as it is shipped, against minimax: every game must end normally,
// passes included (GRhino refuses "play white pass" and passes by itself).
func TestGRhinoUntouched(t *testing.T) {
	rhino := grhinotest.Program(t)
	bins := buildBinaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel)
	server := startProc(ctx, t, "arena server", bins.arena, "server", "--listen", "127.0.0.1:0")
	url := server.waitFor(t, "nats://", 10*time.Second)
	url = strings.Fields(url[strings.Index(url, "nats://"):])[0]
	games := engineTournament(ctx, t, bins.arena, url, "minimax", "200ms", 1, 5, "--protocol", "gtp", "--", rhino, "-l", "1")
	passes := 0
	for _, g := range games {
		for _, m := range g.Moves {
			if m.Move == "pass" {
				passes++
			}
		}
		if g.Reason != "normal" {
			t.Errorf("game %d: %s %s after %d moves (%s), want a normal end", g.Index, g.Result, g.Reason, len(g.Moves), g.Detail)
		}
	}
	t.Logf("%d games, %d passes", len(games), passes)
}
