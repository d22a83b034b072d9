package sqlite

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/store"
)

// durabilityEnv names the database a durabilityWriter child writes to. The parent test
// sets it; without it the child test skips.
const durabilityEnv = "ARENA_STORE_DURABILITY_DB"

const (
	durableMoves    = 40
	durableSchedule = 3000
)

func durableGame(tid int64, sg store.ScheduledGame) store.Game {
	g := scheduledGame(tid, sg, durableMoves)
	g.Ratings = []store.RatingChange{
		rc(sg.Players[0], 1500, 1500+float64(sg.Index)),
		rc(sg.Players[1], 1500, 1500-float64(sg.Index)),
	}
	return g
}

// TestMain runs the test binary as the durability writer when TestKillLosesNoCommittedGame
// starts it as a child process, and runs the tests otherwise.
func TestMain(m *testing.M) {
	if path := os.Getenv(durabilityEnv); path != "" {
		durabilityWriter(path)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// durabilityWriter is the child of TestKillLosesNoCommittedGame: it resumes the one
// tournament in the database, as a restarted referee would, recording its pending games
// one by one and printing "committed N" on stdout as soon as RecordGame for index N has
// returned, until it is killed.
func durabilityWriter(path string) {
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	pending, err := db.Pending(ctx, 1)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	for _, sg := range pending {
		if _, err := db.RecordGame(ctx, durableGame(1, sg)); err != nil {
			fmt.Println("error", err)
			os.Exit(2)
		}
		fmt.Printf("committed %d\n", sg.Index) // os.Stdout is unbuffered
	}
	fmt.Println("done")
	db.Close()
}

// TestKillLosesNoCommittedGame kills a process that is recording games with SIGKILL at a
// random moment, several times over, and checks that every game the process saw committed
// is in the database whole, that no game is there in part, that the resumed schedule is
// exactly the games not recorded, and that the file passes SQLite's integrity check. With
// WAL and synchronous=NORMAL a commit is in the operating system's hands when it returns,
// which is all a killed process needs; a power failure is another matter (see doc.go).
func TestKillLosesNoCommittedGame(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "arena.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	players := []string{"alice", "bob", "carol", "dave"}
	mustEnsure(t, db, players...)
	var schedule []store.ScheduledGame
	for len(schedule) < durableSchedule {
		for _, sg := range roundRobin(1, players...) {
			sg.Index = len(schedule) + 1
			sg.Round = sg.Index/12 + 1
			schedule = append(schedule, sg)
		}
	}
	tid := mustScheduled(t, db, schedule, players...)
	if tid != 1 {
		t.Fatalf("tournament id %d, want 1", tid)
	}
	db.Close()

	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	committed := map[int]bool{}
	const runs = 5
	for run := range runs {
		killAfter := 1 + rng.IntN(40)                             // reported games
		delay := time.Duration(rng.IntN(3000)) * time.Microsecond // then into the next one
		got := killWriter(t, path, killAfter, delay)
		t.Logf("run %d: killed %v after game %d, %d games reported", run, delay, killAfter, len(got))
		for _, idx := range got {
			if committed[idx] {
				t.Fatalf("run %d: game %d reported committed twice", run, idx)
			}
			committed[idx] = true
		}
	}

	db, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen after the kills: %v", err)
	}
	defer db.Close()
	var check string
	if err := db.r.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	games, err := db.Games(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[int]bool{}
	for _, g := range games {
		recorded[g.Index] = true
		if want := asRead(durableGame(tid, schedule[g.Index-1]), g.ID); !reflect.DeepEqual(g, want) {
			t.Errorf("game %d is not whole: %d moves, ratings %v, players %v", g.Index, len(g.Moves), g.Ratings, g.Players)
		}
	}
	for idx := range committed {
		if !recorded[idx] {
			t.Errorf("game %d was reported committed but is not in the database", idx)
		}
	}
	// A kill can fall between a commit and its report, at most once a run.
	if extra := len(recorded) - len(committed); extra < 0 || extra > runs {
		t.Errorf("%d games recorded, %d reported: %d unreported, want at most %d", len(recorded), len(committed), extra, runs)
	}
	pending, err := db.Pending(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending)+len(recorded) != len(schedule) {
		t.Errorf("%d pending and %d recorded of %d scheduled", len(pending), len(recorded), len(schedule))
	}
	for _, sg := range pending {
		if recorded[sg.Index] {
			t.Errorf("game %d is recorded and pending", sg.Index)
		}
	}
	if tour, err := db.Tournament(ctx, tid); err != nil || tour.Played != len(recorded) {
		t.Errorf("Tournament: played %d, %v; want %d", tour.Played, err, len(recorded))
	}
}

// asRead is g as Games returns it once recorded with id.
func asRead(g store.Game, id int64) store.Game {
	g.ID = id
	g.Started = g.Started.Truncate(time.Microsecond)
	g.Ended = g.Ended.Truncate(time.Microsecond)
	for i := range g.Moves {
		if len(g.Moves[i].PV) == 0 {
			g.Moves[i].PV = nil
		}
	}
	return g
}

// killWriter runs durabilityWriter on path, kills it with SIGKILL delay after it has
// reported killAfter games, and returns the indices it reported.
func killWriter(t *testing.T, path string, killAfter int, delay time.Duration) []int {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), durabilityEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill() // in case of a t.Fatal below

	var reported []int
	killed := false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "committed "):
			idx, err := strconv.Atoi(strings.TrimPrefix(line, "committed "))
			if err != nil {
				t.Fatalf("child said %q", line)
			}
			reported = append(reported, idx)
		case strings.HasPrefix(line, "error"):
			t.Fatalf("child: %s", line)
		case line == "done":
			t.Fatal("the child recorded the whole schedule before it was killed")
		}
		if !killed && len(reported) == killAfter {
			time.Sleep(delay)
			if err := cmd.Process.Kill(); err != nil { // SIGKILL
				t.Fatal(err)
			}
			killed = true
			// Keep reading: lines written before the kill are still in the pipe.
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("the child ended before it was killed: %v", err)
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != -1 {
		t.Fatalf("the child exited with %v, want killed by a signal", err)
	}
	return reported
}
