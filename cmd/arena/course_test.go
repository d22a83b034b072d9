package main

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// courseEntrant is one entrant of the course test: how it plays, and, for the well-behaved
// ones, its known strength: minimax at depth 2 that plays a random move on a share
// Blunder of its turns, so a higher Blunder is a weaker entrant.
type courseEntrant struct {
	Name    string
	Kind    string  // builtin, external, hosted, or a misbehaviour
	Blunder float64 // well-behaved entrants only
	Wave    int     // 0, 1 or 2: when it joins
	Fails   string  // for a misbehaving one, the reason its validation must fail with
}

// courseEntrants is the course test's 30 entrants: 26 well-behaved ones of graded strength
// (16 built-in players, 6 external engines through the line protocol, 4 submitted engines
// run by the host in sandboxes) and 4 that misbehave.
func courseEntrants() []courseEntrant {
	var es []courseEntrant
	kinds := map[int]string{1: "external", 4: "hosted", 6: "external", 9: "external", 11: "hosted", 14: "external", 17: "hosted", 19: "external", 22: "external", 24: "hosted"}
	for i := range 26 {
		kind := kinds[i]
		if kind == "" {
			kind = "builtin"
		}
		es = append(es, courseEntrant{Name: fmt.Sprintf("s%02d", i+1), Kind: kind, Blunder: float64(i) / 25, Wave: i % 3})
	}
	es = append(es,
		courseEntrant{Name: "s27", Kind: "illegal", Wave: 0, Fails: protocol.ReasonIllegalMove},
		courseEntrant{Name: "s28", Kind: "garbage", Wave: 1, Fails: protocol.ReasonProtocol},
		courseEntrant{Name: "s29", Kind: "crash", Wave: 2, Fails: protocol.ReasonCrashed},
		courseEntrant{Name: "s30", Kind: "hosted-crash", Wave: 1, Fails: protocol.ReasonCrashed},
	)
	return es
}

// TestCourseEndToEnd runs a whole course on this machine with real processes: arena course
// init, arena referee (secured, with its web view), arena host, and 30 entrants joining in
// three waves through the deadline and the final phase. It checks the final ranking
// against the known strength order (Spearman's rank correlation at least 0.9), the share of
// games, the failed entries' reasons, and that every game that ended was recorded once.
func TestCourseEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole course takes minutes")
	}
	requireSandbox(t)
	b := buildBinaries(t)
	engineBin := buildStatic(t, "../../internal/cmd/agentengine")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := sandboxTempDir(t)
	entrants := courseEntrants()
	var roster strings.Builder
	roster.WriteString("name,full name\n")
	for _, e := range entrants {
		fmt.Fprintf(&roster, "%s,Student %s\n", e.Name, e.Name)
	}
	writeFile(t, filepath.Join(dir, "students.csv"), roster.String())
	db := filepath.Join(dir, "course.db")
	busPort, webPort := freePort(t), freePort(t)
	busURL := "nats://127.0.0.1:" + strconv.Itoa(busPort)
	const wave = 10 * time.Second
	deadline := 3*wave + 30*time.Second
	code, out, errOut := runCLI(t, "course", "init", "--roster", filepath.Join(dir, "students.csv"), "--db", db,
		"--dir", filepath.Join(dir, "course"), "--nats-url", busURL, "--web-url", fmt.Sprintf("http://127.0.0.1:%d/", webPort),
		"--deadline", deadline.String(), "--tc", "1s", "--concurrency", "2", "--final-top", "6", "--final-rounds", "2",
		"--games-per-hour", "36000")
	if code != 0 {
		t.Fatalf("course init: %d\n%s%s", code, out, errOut)
	}
	cred := func(name string) string { return filepath.Join(dir, "course", "credentials", name+".cred") }
	start := time.Now()

	ref := startProc(ctx, t, "referee", b.arena, "referee", "--db", db, "--listen", "127.0.0.1:"+strconv.Itoa(busPort), "--auth",
		"--http", "127.0.0.1:"+strconv.Itoa(webPort), "--heartbeat", "250ms", "--log-level", "warn")
	ref.waitFor(t, "referee ready", 30*time.Second)

	// An independent count of the games that ended: a spectator on the bus.
	spec, err := auth.ReadFile(filepath.Join(dir, "course", "spectator.cred"))
	if err != nil {
		t.Fatal(err)
	}
	opts, err := spec.Options()
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(busURL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var endMu sync.Mutex
	ended := map[string]int{}
	if _, err := nc.Subscribe("arena.v1.game.*.events", func(m *nats.Msg) {
		var ev protocol.GameEvent
		if json.Unmarshal(m.Data, &ev) == nil && ev.Type == protocol.TypeEventEnd && ev.Reason != protocol.ReasonAborted {
			endMu.Lock()
			ended[ev.GameID]++
			endMu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}

	host := startProc(ctx, t, "host", b.arena, "host", "--nats", busURL, "--credentials", filepath.Join(dir, "course", "host.cred"),
		"--dir", filepath.Join(dir, "engines"), "--log-level", "warn")
	_ = host

	for w := range 3 {
		if d := time.Until(start.Add(time.Duration(w) * wave)); d > 0 {
			time.Sleep(d)
		}
		for _, e := range entrants {
			if e.Wave == w {
				startEntrant(ctx, t, b, engineBin, dir, busURL, cred(e.Name), e)
			}
		}
	}

	id := int64(1)
	sdb, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	waitLadderFinished(ctx, t, sdb, id, start.Add(deadline+5*time.Minute))
	t.Logf("the course took %v (deadline %v)", time.Since(start).Round(time.Second), deadline)
	board, err := organizer.LadderBoard(ctx, sdb, id)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]courseEntrant{}
	for _, e := range entrants {
		byName[e.Name] = e
	}
	var ranked []organizer.LeaderRow
	total, active := 0, 0
	for _, r := range board.Rows {
		e := byName[r.Player]
		t.Logf("%2d %-4s %-12s %-8s blunder %.2f  rating %5.0f ± %3.0f  games %3d (+%d =%d -%d) final %.1f/%d %s",
			r.Rank, r.Player, e.Kind, r.Status, e.Blunder, r.Rating, r.Error, r.Games, r.Wins, r.Draws, r.Losses, r.FinalPoints, r.FinalGames, r.Reason)
		switch {
		case e.Fails != "":
			if r.Status != store.EntryFailed || !strings.HasPrefix(r.Reason, e.Fails) {
				t.Errorf("%s (%s): %s %q, want failed with %s", r.Player, e.Kind, r.Status, r.Reason, e.Fails)
			}
		case r.Status != store.EntryActive || r.Rank == 0:
			t.Errorf("%s (%s) is %s %q, unranked: want it active and ranked", r.Player, e.Kind, r.Status, r.Reason)
		default:
			ranked = append(ranked, r)
			total += r.Games - r.FinalGames
			active++
		}
	}
	if len(board.Rows) != len(entrants) {
		t.Errorf("%d entries, want %d (one per entrant)", len(board.Rows), len(entrants))
	}
	// Matchmaking shares the ladder phase's games among the entrants present: the entry with
	// the fewest games plays next, so none is starved and a newcomer catches up with the
	// field. Its opponent is the most informative one, so entries with close neighbours
	// play more than the least-played: counts are not equal, and are checked for what the
	// rule promises. Entrants are placed by when they joined (LeaderRow.Joined, which the
	// referee stamps): the waves only say when the test starts them, and a hosted entrant's
	// submission holds up the rest of its wave by a load-dependent time. The final round
	// robin adds its games to the finalists only (Games counts both), so it is left out.
	if active > 0 {
		ladderEnd := start.Add(deadline)
		presence := func(r organizer.LeaderRow) float64 { return max(ladderEnd.Sub(r.Joined).Seconds(), 1) }
		ladder := func(r organizer.LeaderRow) int { return r.Games - r.FinalGames }
		byJoin := slices.Clone(ranked)
		sort.SliceStable(byJoin, func(i, j int) bool { return byJoin[i].Joined.Before(byJoin[j].Joined) })
		var totalPresence float64
		counts := make([]int, len(byJoin))
		for i, r := range byJoin {
			totalPresence += presence(r)
			counts[i] = ladder(r)
		}
		rate := float64(total) / totalPresence
		slices.Sort(counts)
		median := float64(counts[len(counts)/2])
		for i, r := range byJoin {
			want := rate * presence(r)
			t.Logf("%s joined at %4.1fs, on the ladder %4.1fs: %d rated ladder games (%.1f at the mean rate)", r.Player, r.Joined.Sub(start).Seconds(), presence(r), ladder(r), want)
			// Not starved: at least three quarters of the median, or of its share by time
			// when it came too late to catch up.
			if floor := 0.75 * min(median, want); float64(ladder(r)) < floor {
				t.Errorf("%s played %d rated ladder games, under %.1f (three quarters of the median %.0f, or of its share by time %.1f): starved", r.Player, ladder(r), floor, median, want)
			}
			// Not left behind by a later entrant: the fewest games play first. A later
			// entrant can still pass an earlier one by being chosen as the opponent more
			// often (under the race detector in CI, 26 games against 22), hence the slack.
			for _, later := range byJoin[i+1:] {
				if later.Joined.After(r.Joined.Add(time.Second)) && float64(ladder(r)) < 0.75*float64(ladder(later)) {
					t.Errorf("%s played %d rated ladder games, and %s, who joined %.1fs later, %d", r.Player, ladder(r), later.Player, later.Joined.Sub(r.Joined).Seconds(), ladder(later))
				}
			}
		}
		t.Logf("rated ladder games per active entrant: mean %.1f, median %.0f; %.2f per second on the ladder", float64(total)/float64(active), median, rate)
	}
	rho := spearman(ranked, byName)
	t.Logf("Spearman's rank correlation of the final ranking with the strength order: %.3f over %d entries", rho, len(ranked))
	if rho < 0.9 {
		t.Errorf("rank correlation %.3f, want at least 0.9", rho)
	}

	// Nothing lost or doubled: every game the spectator saw end is recorded once, under
	// its index, and the database has no other.
	time.Sleep(500 * time.Millisecond)
	endMu.Lock()
	defer endMu.Unlock()
	games, err := sdb.LadderGames(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[int]bool{}
	for _, g := range games {
		if recorded[g.Index] {
			t.Errorf("game %d recorded twice", g.Index)
		}
		recorded[g.Index] = true
		if n := ended[fmt.Sprintf("t%d-%d", id, g.Index)]; n != 1 {
			t.Errorf("game %d is recorded, and ended %d times on the bus", g.Index, n)
		}
		if g.Plies == 0 && g.Reason == protocol.ReasonNormal {
			t.Errorf("game %d ended normally with no moves", g.Index)
		}
	}
	for gid, n := range ended {
		idx, _ := strconv.Atoi(strings.TrimPrefix(gid, fmt.Sprintf("t%d-", id)))
		if !recorded[idx] {
			t.Errorf("game %s ended on the bus (%d times) and is not recorded", gid, n)
		}
	}
	all, err := sdb.GameSummaries(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(games) {
		t.Errorf("%d games in the tournament, %d tagged as the ladder's", len(all), len(games))
	}
	t.Logf("%d games recorded, %d seen ending on the bus", len(games), len(ended))
}

// waitLadderFinished waits for ladder id to finish, failing the test at giveUp.
func waitLadderFinished(ctx context.Context, t *testing.T, sdb store.Store, id int64, giveUp time.Time) {
	t.Helper()
	for {
		st, err := sdb.LadderState(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if st.Phase == store.LadderFinished {
			return
		}
		if time.Now().After(giveUp) {
			t.Fatalf("the ladder is still %s at the test's limit", st.Phase)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// startEntrant starts one entrant of the course test as the process its kind calls for.
func startEntrant(ctx context.Context, t *testing.T, b testBinaries, engineBin, dir, busURL, cred string, e courseEntrant) {
	t.Helper()
	ae := func(version string) []string {
		return []string{"--seed", strconv.Itoa(int(e.Blunder*100) + 1), "--version", version, fmt.Sprintf("minimax:depth=2:blunder=%.2f", e.Blunder)}
	}
	switch e.Kind {
	case "builtin":
		startProc(ctx, t, e.Name, b.arena, "player", "--nats", busURL, "--credentials", cred, "--agent", "minimax",
			"--params", fmt.Sprintf("depth=2,blunder=%.2f", e.Blunder), "--seed", strconv.Itoa(int(e.Blunder*100)+1), "--log-level", "warn")
	case "external":
		startProc(ctx, t, e.Name, append([]string{b.arena, "engine", "--nats", busURL, "--credentials", cred, "--log-level", "warn", "--", engineBin}, ae("1")...)...)
	case "illegal":
		startProc(ctx, t, e.Name, b.arena, "engine", "--nats", busURL, "--credentials", cred, "--log-level", "warn", "--", fakeEngineBin(t), "--behave", "illegal")
	case "garbage":
		startProc(ctx, t, e.Name, b.faultplayer, "--nats", busURL, "--credentials", cred, "--name", e.Name, "--fault", "garbage", "--log-level", "warn")
	case "crash":
		startProc(ctx, t, e.Name, b.arena, "engine", "--nats", busURL, "--credentials", cred, "--log-level", "warn", "--", fakeEngineBin(t), "--behave", "crash")
	case "hosted", "hosted-crash":
		src := filepath.Join(dir, "src-"+e.Name)
		if err := os.MkdirAll(src, 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(engineBin)
		if err != nil {
			t.Fatal(err)
		}
		writeFileMode(t, filepath.Join(src, "agentengine"), string(data), 0o755)
		run := "./agentengine " + strings.Join(ae("1"), " ")
		if e.Kind == "hosted-crash" {
			writeFile(t, filepath.Join(src, "crash.sh"), "#!/bin/sh\nread line\necho ready crasher 1\nread line\necho 'segfault, as it were' >&2\nexit 139\n")
			run = "/bin/sh crash.sh"
		}
		writeFile(t, filepath.Join(src, "arena.toml"), fmt.Sprintf("protocol = \"line\"\nrun = %q\n", run))
		archive := filepath.Join(dir, e.Name+".tar.gz")
		makeTarGz(t, archive, src)
		cmd := exec.CommandContext(ctx, b.arena, "submit-engine", "--nats", busURL, "--credentials", cred, "--wait", "2m", archive)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("submit-engine %s: %v\n%s", e.Name, err, out)
		}
	default:
		t.Fatalf("unknown kind %q", e.Kind)
	}
}

// spearman is the rank correlation of the ranking rows (best first) with the strength
// order of their entrants (the lower Blunder, the stronger; ties share their mean rank).
func spearman(rows []organizer.LeaderRow, byName map[string]courseEntrant) float64 {
	n := len(rows)
	if n < 2 {
		return 0
	}
	type item struct {
		got     float64
		blunder float64
	}
	items := make([]item, n)
	for i, r := range rows {
		items[i] = item{got: float64(i + 1), blunder: byName[r.Player].Blunder}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return items[order[a]].blunder < items[order[b]].blunder })
	want := make([]float64, n)
	for i := 0; i < n; {
		j := i
		for j < n && items[order[j]].blunder == items[order[i]].blunder {
			j++
		}
		for k := i; k < j; k++ {
			want[order[k]] = float64(i+j+1) / 2
		}
		i = j
	}
	var d2 float64
	for i := range items {
		d := items[i].got - want[i]
		d2 += d * d
	}
	return 1 - 6*d2/float64(n*(n*n-1))
}

func writeFile(t *testing.T, path, text string) { writeFileMode(t, path, text, 0o644) }

func writeFileMode(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

// makeTarGz packs the files of dir (flat) into a .tar.gz at path.
func makeTarGz(t *testing.T, path, dir string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: e.Name(), Mode: int64(info.Mode().Perm()), Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

var (
	staticBins = map[string]string{}
	staticMu   sync.Mutex
)

// fakeEngineBin is internal/cmd/fakeengine, built once.
func fakeEngineBin(t *testing.T) string { return buildStatic(t, "../../internal/cmd/fakeengine") }

// buildStatic builds a package as a static binary (no cgo), so that it runs in a sandbox
// that shows it no more than a minimal system.
func buildStatic(t *testing.T, pkg string) string {
	t.Helper()
	staticMu.Lock()
	defer staticMu.Unlock()
	if p, ok := staticBins[pkg]; ok {
		return p
	}
	buildBinaries(t) // makes binDir, removed by TestMain
	out := filepath.Join(binDir, "static-"+filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	staticBins[pkg] = out
	return out
}

// requireSandbox skips a test that needs bubblewrap sandboxes where there are none, and
// fails it instead under ARENA_REQUIRE_BWRAP=1 (as CI sets).
// sandboxTempDir returns a temporary directory that sandboxes, which run as other uids,
// can reach: it and its parent are made 0755.
func sandboxTempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func requireSandbox(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("ARENA_REQUIRE_BWRAP") == "1" {
			t.Fatalf("bwrap: %v (ARENA_REQUIRE_BWRAP=1)", err)
		}
		t.Skipf("bwrap is not installed (Debian package bubblewrap): %v", err)
	}
}
