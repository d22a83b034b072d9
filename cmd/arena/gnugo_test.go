package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/atarigo"
	"github.com/arenaref/arena/lab/gnugo/gnugotest"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// TestGNUGoOverGTP plays GNU Go, a real Go engine from Debian (package gnugo), over GTP
// behind `arena engine`, against the widening agent in `arena match` on a server: 20 games
// of atari-go, and both colours of every embedded capture problem. GNU Go plays Go, knowing
// nothing of either game's end; the referee judges every move and ends each game at its
// first capture (the target's, in a capture problem), its safe liberties or two passes.
// Every game must end normally, and its moves, replayed from the start, must be legal and
// lead to the recorded final position. GNU Go may not resign (--never-resign), so that a
// resignation could only be the bridge's.
func TestGNUGoOverGTP(t *testing.T) {
	gnugo, bins := gnugotest.Program(t), buildBinaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	url := strings.Fields(startProc(ctx, t, "arena server", bins.arena, "server", "--listen", "127.0.0.1:0").
		waitFor(t, "nats://", 10*time.Second))[4]
	tests := []struct {
		game  string   // the engine's --game
		specs []string // the games played, each in a match of games games
		games int
	}{
		{game: "atari-go", specs: []string{"atari-go"}, games: 20},
		{game: "capture", specs: problemSpecs(), games: 2},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			bridge := startProc(ctx, t, "arena engine", bins.arena, "engine", "--nats", url, "--name", "gnugo",
				"--protocol", "gtp", "--game", tt.game, "--quit-timeout", "500ms",
				"--", gnugo, "--mode", "gtp", "--level", "0", "--never-resign")
			defer bridge.stop(t)
			var games []store.Game
			for _, spec := range tt.specs {
				games = append(games, matchGames(ctx, t, bins.arena, url, spec, tt.games)...)
			}
			ends := map[string]int{}
			for _, g := range games {
				end := storedGameEnd(t, g)
				ends[end]++
				if g.Reason != "normal" {
					t.Errorf("%s game %d: %s %s after %d moves (%s), want a normal end", g.Game, g.Index, g.Result, g.Reason, len(g.Moves), g.Detail)
				}
			}
			if len(games) != len(tt.specs)*tt.games {
				t.Errorf("%d games, want %d", len(games), len(tt.specs)*tt.games)
			}
			t.Logf("%d games of %s, GNU Go against widening, ended by %v", len(games), tt.game, ends)
		})
	}
}

// problemSpecs returns the capture game of every embedded problem.
func problemSpecs() []string {
	var specs []string
	for _, p := range atarigo.Problems() {
		specs = append(specs, fmt.Sprintf("capture:problem=%d", p.Number))
	}
	return specs
}

// recordedAs is how arena match names the tournament it recorded.
var recordedAs = regexp.MustCompile(`recorded as tournament (\d+) in`)

// matchGames plays a match of n games of spec between the player "gnugo", on the server
// at url, and widening, and returns the games recorded.
func matchGames(ctx context.Context, t *testing.T, arena, url, spec string, n int) []store.Game {
	t.Helper()
	dbPath := filepath.Join(t.TempDir(), "arena.db")
	match := exec.CommandContext(ctx, arena, "match", "gnugo", "widening", "--nats", url, "--game", spec,
		"--games", strconv.Itoa(n), "--tc", "1s", "--db", dbPath, "--wait", "20s")
	match.WaitDelay = 5 * time.Second
	out, err := match.CombinedOutput()
	m := recordedAs.FindSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("arena match --game %s: %v\n%s", spec, err, out)
	}
	id, _ := strconv.ParseInt(string(m[1]), 10, 64)
	db, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	games, err := db.Games(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// storedGameEnd replays a recorded game's moves from its start, checking that each is
// legal and that they lead to the recorded final position, and says how it ended: "capture"
// (a winner by a capture), "passes" or "other" (a capture problem's safe liberties or its
// move limit).
func storedGameEnd(t *testing.T, g store.Game) string {
	t.Helper()
	spec, err := game.Lookup(g.Game)
	if err != nil {
		t.Fatal(err)
	}
	st, err := spec.ParseState(g.StartPosition)
	if err != nil {
		t.Fatalf("game %d: start %q: %v", g.Index, g.StartPosition, err)
	}
	for _, m := range g.Moves {
		mv, err := st.ParseMove(m.Move)
		if err == nil && !slices.Contains(st.LegalMoves(st.ToMove(), nil), mv) {
			err = game.ErrIllegalMove
		}
		if err == nil {
			err = st.Play(mv)
		}
		if err != nil {
			t.Errorf("%s game %d, ply %d: %s: %v", g.Game, g.Index, m.Ply, m.Move, err)
			return "illegal"
		}
	}
	if got := st.String(); got != g.FinalPosition {
		t.Errorf("%s game %d: the moves lead to %q, not to the final position recorded, %q", g.Game, g.Index, got, g.FinalPosition)
	}
	switch {
	case strings.Contains(g.FinalPosition, "winner="):
		return "capture"
	case strings.Contains(g.FinalPosition, "passes=2"):
		return "passes"
	}
	return "other"
}
