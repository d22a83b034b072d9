package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// firstMoveEngine is a line-protocol engine in sh that plays the first legal move, or
// with the argument "last", the last: an engine that knows nothing of the game's rules.
const firstMoveEngine = `#!/bin/sh
pick=first
[ "$1" = last ] && pick=last
while read -r cmd rest; do
  case "$cmd" in
    arena) echo "ready $pick-mover 1" ;;
    legal) set -- $rest; first=$1; for m in "$@"; do last=$m; done ;;
    go) if [ $pick = first ]; then echo "$first"; else echo "$last"; fi ;;
    quit) exit 0 ;;
  esac
done
`

// TestCourseScriptGame runs the course of docs/games.md on the script game of its example,
// tic-tac-toe, with real processes: arena course init on the game file, a secured
// referee with its web view and a host, both told of the game by ARENA_GAMES, and three
// students: alice submits an engine that the host runs in a sandbox, bob runs the mcts
// agent as arena player, carol an engine of her own through arena engine. The ladder
// plays to its deadline and a final; the test checks the leaderboard, the games' move
// texts in the PGN export, and the web page's API.
func TestCourseScriptGame(t *testing.T) {
	if testing.Short() {
		t.Skip("a course takes half a minute")
	}
	requireSandbox(t)
	b := buildBinaries(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := sandboxTempDir(t)
	rules, err := os.ReadFile("../../docs/examples/tictactoe.star")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "tictactoe.star"), string(rules))
	writeFile(t, filepath.Join(dir, "students.csv"), "name,full name\nalice,Alice\nbob,Bob\ncarol,Carol\n")
	db := filepath.Join(dir, "ttt.db")
	busPort, webPort := freePort(t), freePort(t)
	busURL := "nats://127.0.0.1:" + strconv.Itoa(busPort)
	webURL := fmt.Sprintf("http://127.0.0.1:%d", webPort)
	const deadline = 25 * time.Second
	code, out, errOut := runCLI(t, "course", "init", "--roster", filepath.Join(dir, "students.csv"), "--db", db,
		"--dir", filepath.Join(dir, "course"), "--game", filepath.Join(dir, "tictactoe.star"), "--nats-url", busURL,
		"--web-url", webURL+"/", "--deadline", deadline.String(), "--tc", "300ms", "--final-top", "3", "--final-rounds", "1",
		"--games-per-hour", "36000")
	if code != 0 {
		t.Fatalf("course init: %d\n%s%s", code, out, errOut)
	}
	start := time.Now()
	copied := filepath.Join(dir, "course", "tictactoe.star")
	if !strings.Contains(out, game.EnvFiles+"="+copied+" arena referee") {
		t.Errorf("course init does not say to start the referee with %s=%s:\n%s", game.EnvFiles, copied, out)
	}
	readme, err := os.ReadFile(filepath.Join(dir, "course", "README.md"))
	if err != nil || !strings.Contains(string(readme), "ARENA_GAMES=tictactoe.star arena check-engine --game tictactoe -- ./my-engine") {
		t.Errorf("the students' README does not tell them how to check an engine on the game (%v):\n%s", err, readme)
	}
	env := append(os.Environ(), game.EnvFiles+"="+copied)
	cred := func(name string) string { return filepath.Join(dir, "course", "credentials", name+".cred") }
	start1 := func(name string, args ...string) *proc {
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Env = env
		return startCmd(t, name, cmd)
	}
	ref := start1("referee", b.arena, "referee", "--db", db, "--listen", "127.0.0.1:"+strconv.Itoa(busPort), "--auth",
		"--http", "127.0.0.1:"+strconv.Itoa(webPort), "--heartbeat", "250ms", "--log-level", "warn")
	ref.waitFor(t, "referee ready", 30*time.Second)
	start1("host", b.arena, "host", "--nats", busURL, "--credentials", filepath.Join(dir, "course", "host.cred"),
		"--dir", filepath.Join(dir, "engines"), "--log-level", "warn")

	src := filepath.Join(dir, "alice")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(src, "engine.sh"), firstMoveEngine)
	writeFile(t, filepath.Join(src, "arena.toml"), "protocol = \"line\"\nrun = \"/bin/sh engine.sh\"\n")
	makeTarGz(t, filepath.Join(dir, "alice.tar.gz"), src)
	submit := exec.CommandContext(ctx, b.arena, "submit-engine", "--nats", busURL, "--credentials", cred("alice"), "--wait", "2m", filepath.Join(dir, "alice.tar.gz"))
	if out, err := submit.CombinedOutput(); err != nil {
		t.Fatalf("submit-engine: %v\n%s", err, out)
	}
	start1("bob", b.arena, "player", "--nats", busURL, "--credentials", cred("bob"), "--agent", "mcts",
		"--params", "iterations=400", "--seed", "2", "--log-level", "warn")
	writeFile(t, filepath.Join(dir, "carol.sh"), firstMoveEngine)
	start1("carol", b.arena, "engine", "--nats", busURL, "--credentials", cred("carol"), "--log-level", "warn",
		"--game", "tictactoe", "--", "/bin/sh", filepath.Join(dir, "carol.sh"), "last")

	sdb, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	const id = 1
	waitLadderFinished(ctx, t, sdb, id, start.Add(deadline+3*time.Minute))
	board, err := organizer.LadderBoard(ctx, sdb, id)
	if err != nil {
		t.Fatal(err)
	}
	ranks := map[string]organizer.LeaderRow{}
	for _, r := range board.Rows {
		t.Logf("%d %-6s %-7s rating %5.0f ± %3.0f games %3d (+%d =%d -%d) final %.1f/%d %s",
			r.Rank, r.Player, r.Status, r.Rating, r.Error, r.Games, r.Wins, r.Draws, r.Losses, r.FinalPoints, r.FinalGames, r.Reason)
		ranks[r.Player] = r
	}
	for _, name := range []string{"alice", "bob", "carol"} {
		r, ok := ranks[name]
		if !ok || r.Status != store.EntryActive || r.Rank == 0 || r.Games == 0 || r.FinalGames == 0 {
			t.Errorf("%s: %+v, want an active, ranked entry with ladder and final games", name, r)
		}
	}
	// mcts does not lose tic-tac-toe; engines that play the first or the last empty cell do.
	if r := ranks["bob"]; r.Rank != 1 || r.Losses > 0 {
		t.Errorf("bob (mcts) is ranked %d with %d losses, want first with none", r.Rank, r.Losses)
	}

	// The export carries the game's own move texts.
	code, pgn, errOut := runCLI(t, "export", "--db", db, "--format", "pgn")
	if code != 0 {
		t.Fatalf("export: %d %s", code, errOut)
	}
	if !strings.Contains(pgn, `[Variant "tictactoe"]`) || !regexp.MustCompile(`1\. [abc][123] [abc][123] `).MatchString(pgn) {
		t.Errorf("the PGN export has no tic-tac-toe games in the game's move text:\n%s", lastBytes(pgn, 1500))
	}

	// The web page: the ladder's leaderboard and a game's replay, drawn from the game file.
	var ladder struct {
		Rows []struct{ Player string } `json:"rows"`
	}
	getJSON(t, fmt.Sprintf("%s/api/ladders/%d", webURL, id), &ladder)
	if len(ladder.Rows) != 3 {
		t.Errorf("the ladder's page lists %d entries, want 3: %+v", len(ladder.Rows), ladder.Rows)
	}
	games, err := sdb.LadderGames(ctx, id)
	if err != nil || len(games) == 0 {
		t.Fatalf("ladder games: %d, %v", len(games), err)
	}
	var replay map[string]any
	getJSON(t, fmt.Sprintf("%s/api/games/%d", webURL, games[0].ID), &replay)
	// The referee's web view read the game file: it draws the positions with its draw().
	if d, ok := replay["start_drawing"].(map[string]any); replay["game"] != "tictactoe" || !ok || d["board"] != "squares" || d["width"] != 3.0 {
		t.Errorf("the replay of game %d has no drawing of a 3x3 board: %v", games[0].ID, replay)
	}
}

// getJSON decodes the JSON answer of a GET of url into v, failing the test otherwise.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %s", url, resp.Status, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("GET %s: %v: %s", url, err, body)
	}
}
