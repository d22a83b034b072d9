package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// faultCase is one fault committed by a faultplayer process in a real tournament.
type faultCase struct {
	name   string
	fault  string   // the faultplayer's --fault
	flags  []string // more faultplayer flags
	others []string // built-in agents it plays against
	// fromPly and seat say which turns the fault applies to, as the faultplayer's
	// --from-ply and --seat (seat -1 for any); the test works out from them which games
	// the fault ends, and at which ply.
	fromPly int
	seat    int
	// want are the reasons accepted for a game the fault applies to, the faulting player
	// losing it. {"normal"} means the fault must not cost the game.
	want []string
	// after, when set, are the reasons accepted for the faulty player's games after the
	// first one the fault applied to: it is then gone for good (crash).
	after []string
	wait  string // the tournament's --wait
	check func(t *testing.T, r *faultRun)
}

// faultRun is what one subtest produced.
type faultRun struct {
	tid    int64
	games  []store.Game
	player *proc // the faultplayer
	name   string
}

// TestFaults plays real tournaments, with an arena server, a faultplayer process and the
// tournament itself each a process of its own, and checks from the database that every
// fault ends its game with the right reason and that the tournament plays every game of
// its schedule regardless.
//
// The targets are issue 3's (item 5): a stale reply is ignored and the right one that
// follows it accepted; a crash mid-game is lost as disconnected, and the crashed player's
// later games are forfeited (disconnected or absent) without holding up the tournament; a
// player that disconnects between games and comes back within --wait loses nothing.
func TestFaults(t *testing.T) {
	bins := buildBinaries(t)
	tests := []faultCase{
		{name: "none", fault: "none", others: []string{"random"}, seat: -1, want: []string{"normal"}},
		{name: "hang", fault: "hang", others: []string{"random"}, seat: -1, want: []string{"time_forfeit"}},
		{name: "slow", fault: "slow=300ms", fromPly: 2, others: []string{"random"}, seat: -1, want: []string{"time_forfeit"}},
		{name: "garbage", fault: "garbage", fromPly: 4, others: []string{"random"}, seat: -1, want: []string{"protocol_error"}},
		{name: "oversize", fault: "oversize", fromPly: 1, others: []string{"random"}, seat: -1, want: []string{"protocol_error"}},
		{name: "illegal", fault: "illegal", fromPly: 6, others: []string{"random"}, seat: 1, want: []string{"illegal_move"}},
		{name: "stale", fault: "stale", fromPly: 2, others: []string{"random"}, seat: -1, want: []string{"normal"},
			check: func(t *testing.T, r *faultRun) {
				// Every turn from ply 2 on got a stale reply before the right one.
				if n := strings.Count(r.player.output(), "\nturn "); n < 10 {
					t.Errorf("faultplayer saw %d turns; too few to have tested stale replies", n)
				}
			}},
		{name: "stale-only", fault: "stale-only", fromPly: 2, others: []string{"random"}, seat: -1, want: []string{"time_forfeit"}},
		{name: "crash", fault: "crash", fromPly: 4, others: []string{"random", "hp1"}, seat: -1, wait: "2s",
			// The referee finds nobody listening once the turn times out; later games find
			// the player gone (disconnected) or, once its heartbeat has lapsed, absent.
			want:  []string{"disconnected"},
			after: []string{"disconnected", "absent"},
			check: func(t *testing.T, r *faultRun) {
				st := r.player.stop(t)
				if st == nil || st.ExitCode() != 3 {
					t.Errorf("faultplayer exit state %v, want exit status 3 (its crash)", st)
				}
			}},
		{name: "disconnect-between-games", fault: "disconnect-between-games", flags: []string{"--down", "500ms"},
			others: []string{"random", "hp1"}, seat: -1, wait: "3s", want: []string{"normal"},
			check: func(t *testing.T, r *faultRun) {
				// It must really have gone away and come back between its games.
				if n := strings.Count(r.player.output(), "connect "); n < 4 {
					t.Errorf("faultplayer connected %d times, want at least 4 (once, then after each of its first 3 games)\n%s", n, r.player.output())
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runFaultCase(t, bins, tc) })
	}
}

func runFaultCase(t *testing.T, bins testBinaries, tc faultCase) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	// Cancelled last, after the processes were stopped one by one, so that none is simply
	// killed by the context.
	t.Cleanup(cancel)
	var procs []*proc
	// Registered first, so it runs last: after every process was stopped, none may be left.
	t.Cleanup(func() {
		for _, p := range procs {
			p.stop(t)
			if !p.exited() {
				t.Errorf("%s (pid %d) is still running after the test", p.name, p.cmd.Process.Pid)
			}
		}
	})
	start := func(name string, args ...string) *proc {
		p := startProc(ctx, t, name, args...)
		procs = append(procs, p)
		return p
	}

	server := start("arena server", bins.arena, "server", "--listen", "127.0.0.1:0")
	url := server.waitFor(t, "nats://", 10*time.Second)
	url = url[strings.Index(url, "nats://"):]
	url = strings.Fields(url)[0]

	fpName := "fp-" + tc.name
	args := append([]string{"--nats", url, "--name", fpName, "--fault", tc.fault,
		"--from-ply", strconv.Itoa(tc.fromPly), "--log-level", "warn"}, tc.flags...)
	if tc.seat >= 0 {
		args = append(args, "--seat", strconv.Itoa(tc.seat))
	}
	fp := start("faultplayer", append([]string{bins.faultplayer}, args...)...)
	fp.waitFor(t, "connect 1", 10*time.Second)

	wait := tc.wait
	if wait == "" {
		wait = "10s"
	}
	names := append([]string{fpName}, tc.others...)
	dbPath := filepath.Join(t.TempDir(), "faults.db")
	began := time.Now()
	tour := exec.CommandContext(ctx, bins.arena, "tournament", "--nats", url, "--players", strings.Join(names, ","),
		"--rounds", "1", "--tc", "100ms", "--db", dbPath, "--wait", wait, "--seed", "5", "--json")
	var stdout, stderr bytes.Buffer
	tour.Stdout, tour.Stderr = &stdout, &stderr
	tour.WaitDelay = 5 * time.Second
	err := tour.Run()
	t.Logf("tournament took %v", time.Since(began).Round(time.Millisecond))
	if ctx.Err() != nil {
		t.Fatalf("tournament did not finish in time (hung?)\nstderr:\n%s\nfaultplayer:\n%s", stderr.String(), fp.output())
	}
	if err != nil {
		t.Fatalf("tournament: %v\nstderr:\n%s\nfaultplayer:\n%s", err, stderr.String(), fp.output())
	}
	var doc struct {
		Tournament int64 `json:"tournament"`
		Games      int   `json:"games"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil || doc.Tournament == 0 {
		t.Fatalf("stdout is not the JSON standings (%v):\n%s", err, stdout.String())
	}

	db, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tour1, err := db.Tournament(ctx, doc.Tournament)
	if err != nil {
		t.Fatal(err)
	}
	if tour1.Status != store.StatusFinished {
		t.Errorf("tournament status %q, want %q", tour1.Status, store.StatusFinished)
	}
	games, err := db.Games(ctx, doc.Tournament)
	if err != nil {
		t.Fatal(err)
	}
	r := &faultRun{tid: doc.Tournament, games: games, player: fp, name: fpName}

	// The schedule is played whole: n*(n-1) games in one round, each index once.
	n := len(names)
	if len(games) != n*(n-1) || doc.Games != n*(n-1) {
		t.Errorf("%d games stored, %d reported; want %d", len(games), doc.Games, n*(n-1))
	}
	seen := map[int]bool{}
	for _, g := range games {
		if seen[g.Index] || g.Index < 1 || g.Index > n*(n-1) {
			t.Errorf("game index %d is a duplicate or out of range", g.Index)
		}
		seen[g.Index] = true
	}

	gone := false // the faultplayer crashed in an earlier game
	for _, g := range games {
		seat := slices.Index(g.Players, fpName)
		desc := fmt.Sprintf("game %d (%s, %d moves, %s %s: %s)", g.Index, strings.Join(g.Players, "-"), len(g.Moves), g.Result, g.Reason, g.Detail)
		t.Log(desc)
		switch {
		case seat < 0 || tc.seat >= 0 && seat != tc.seat:
			// A game the fault does not touch is played to its end.
			if g.Reason != "normal" {
				t.Errorf("%s: reason %q, want normal: the fault does not apply", desc, g.Reason)
			}
		case gone:
			checkForfeit(t, desc, g, seat, tc.after)
		case slices.Equal(tc.want, []string{"normal"}):
			if g.Reason != "normal" {
				t.Errorf("%s: reason %q, want normal: %s must not cost the game", desc, g.Reason, tc.fault)
			}
		default:
			checkForfeit(t, desc, g, seat, tc.want)
			// The fault struck at the player's first turn at or after --from-ply; seats
			// alternate (a pass is a ply too), so that ply's parity is the seat's.
			ply := tc.fromPly
			if ply%2 != seat {
				ply++
			}
			if g.Reason != "no_responders" && len(g.Moves) != ply {
				t.Errorf("%s: ended after %d moves, want %d (the faultplayer's first turn from ply %d)", desc, len(g.Moves), ply, tc.fromPly)
			}
			if line := fmt.Sprintf("\nturn t%d-%d %d\n", r.tid, g.Index, ply); g.Reason != "no_responders" && !strings.Contains(fp.output(), line) {
				t.Errorf("%s: the faultplayer never printed %q: the request did not reach it", desc, strings.TrimSpace(line))
			}
			gone = tc.after != nil
		}
	}
	if tc.check != nil {
		tc.check(t, r)
	}
	if t.Failed() {
		t.Logf("tournament stderr:\n%s", stderr.String())
	}
}

// checkForfeit checks that g was lost by the player at seat for one of the reasons.
func checkForfeit(t *testing.T, desc string, g store.Game, seat int, reasons []string) {
	t.Helper()
	if !slices.Contains(reasons, g.Reason) {
		t.Errorf("%s: reason %q, want one of %v", desc, g.Reason, reasons)
		return
	}
	if len(g.Scores) != 2 || g.Scores[seat] != 0 || g.Scores[1-seat] != 1 {
		t.Errorf("%s: scores %v, want a loss for seat %d", desc, g.Scores, seat)
	}
	if g.Detail == "" {
		t.Errorf("%s: a forfeit without a detail", desc)
	}
}
