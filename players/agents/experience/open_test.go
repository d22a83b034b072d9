package experience

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// adviceTrace asks for advice at every position of games, with a fallback that always
// picks the last legal move, and returns the answers.
func adviceTrace(t *testing.T, b *Base, games []played) []string {
	t.Helper()
	var out []string
	for _, p := range games {
		s := p.start
		for _, m := range p.moves {
			pos := s
			legal := pos.LegalMoves(pos.ToMove(), nil)
			adv, err := b.Advise(&pos, func() (game.Move, error) { return legal[len(legal)-1], nil })
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%+v", adv))
			s.Play(m)
		}
	}
	return out
}

func TestPersistence(t *testing.T) {
	g := sized(t, 6)
	b, path := openTemp(t, g.Name())
	if b.Game() != "othello:size=6" {
		t.Errorf("game %q", b.Game())
	}
	rng := rand.New(rand.NewPCG(21, 22))
	var games []played
	for i := range 60 {
		p := randomGame(rng, g, i%4 == 0)
		games = append(games, p)
		rec := Record{GameID: fmt.Sprintf("g%d", i), Seat: game.Seat(i % 2), Decisions: 10 + i%7, Hits: i % 5}
		if _, err := b.Merge(&p.start, p.moves, rec); err != nil {
			t.Fatal(err)
		}
	}
	probe := append(append([]played{}, games[:10]...), randomGame(rng, g, false), randomGame(rng, g, true))
	wantGraph := snapshot(t, b)
	wantStats, err := b.Stats()
	if err != nil {
		t.Fatal(err)
	}
	wantGames, err := b.Games()
	if err != nil {
		t.Fatal(err)
	}
	wantAdvice := adviceTrace(t, b, probe)
	b.mu.RLock()
	wantNodes := map[Key]NodeInfo{}
	for i := range b.nodes {
		k := b.nodes[i].key
		b.mu.RUnlock()
		wantNodes[k], _ = b.Node(k)
		b.mu.RLock()
	}
	b.mu.RUnlock()

	if len(wantGames) != 60 || wantGames[59].N != 60 || wantGames[59].GameID != "g59" || wantGames[59].Nodes != wantStats.Nodes {
		t.Errorf("games: %d rows, last %+v", len(wantGames), wantGames[len(wantGames)-1])
	}
	var dec, hits int64
	for _, r := range wantGames {
		dec += int64(r.Decisions)
		hits += int64(r.Hits)
	}
	if wantStats.Decisions != dec || wantStats.Hits != hits || wantStats.Games != 60 || wantStats.FileBytes <= 0 {
		t.Errorf("stats %+v, sums %d %d", wantStats, dec, hits)
	}

	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Stats(); !errors.Is(err, ErrClosed) {
		t.Errorf("stats after close: %v", err)
	}
	if _, err := b.Merge(&games[0].start, games[0].moves, Record{}); err == nil {
		t.Error("merge after close: no error")
	}
	if _, err := os.Stat(path + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file left behind: %v", err)
	}

	b2, err := Open(path, "othello:size=6")
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	if d := diffGraphs(snapshot(t, b2), wantGraph); d != "" {
		t.Fatalf("graph after reopening:\n%s", d)
	}
	for k, want := range wantNodes {
		if got, _ := b2.Node(k); !reflect.DeepEqual(got, want) {
			t.Fatalf("node %v: %+v, want %+v", k, got, want)
		}
	}
	st, _ := b2.Stats()
	st.FileBytes, wantStats.FileBytes = 0, 0
	if st != wantStats {
		t.Errorf("stats %+v, want %+v", st, wantStats)
	}
	if gs, _ := b2.Games(); !reflect.DeepEqual(gs, wantGames) {
		t.Errorf("games differ after reopening")
	}
	if got := adviceTrace(t, b2, probe); !reflect.DeepEqual(got, wantAdvice) {
		t.Errorf("advice differs after reopening")
	}
}

func TestOpenInUse(t *testing.T) {
	b, path := openTemp(t, "othello")
	_, err := Open(path, "othello")
	if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("second open: %v", err)
	}
	// The failed attempt left the first one working.
	p := randomGame(rand.New(rand.NewPCG(1, 1)), othello.New(), false)
	mergeAll(t, b, []played{p})

	// Another process is refused too.
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperOpen$")
	cmd.Env = append(os.Environ(), "EXPERIENCE_HELPER_OPEN="+path)
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "HELPER: in use") {
		t.Errorf("other process: %s", out)
	}

	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b2, err := Open(path, "othello")
	if err != nil {
		t.Fatalf("open after close: %v", err)
	}
	b2.Close()
}

// TestHelperOpen is run in a child process by TestOpenInUse.
func TestHelperOpen(t *testing.T) {
	path := os.Getenv("EXPERIENCE_HELPER_OPEN")
	if path == "" {
		t.Skip("helper process only")
	}
	b, err := Open(path, "othello")
	if errors.Is(err, ErrInUse) {
		fmt.Println("HELPER: in use")
		return
	}
	if err == nil {
		b.Close()
	}
	fmt.Println("HELPER: opened or other error:", err)
}

// sqliteFile makes an SQLite database at path by running stmts.
func sqliteFile(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// baseFile makes a closed base of game with a few games at path.
func baseFile(t *testing.T, path, spec string) {
	t.Helper()
	b, err := Open(path, spec)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := game.Lookup(spec)
	rng := rand.New(rand.NewPCG(8, 9))
	mergeAll(t, b, []played{randomGame(rng, g.(*othello.Game), false), randomGame(rng, g.(*othello.Game), false)})
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestOpenRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(t *testing.T, path string)
		spec string
		want string // in the error
	}{
		{"text file", func(t *testing.T, path string) {
			os.WriteFile(path, []byte(strings.Repeat("not a database\n", 400)), 0o644)
		}, "othello", "not an SQLite database"},
		{"short garbage", func(t *testing.T, path string) {
			os.WriteFile(path, []byte("x"), 0o644)
		}, "othello", "not an SQLite database"},
		{"another program's database", func(t *testing.T, path string) {
			sqliteFile(t, path, "CREATE TABLE foo (a INTEGER)", "INSERT INTO foo VALUES (1)")
		}, "othello", "no meta table"},
		{"another program's WAL database", func(t *testing.T, path string) {
			sqliteFile(t, path, "PRAGMA journal_mode=WAL", "CREATE TABLE foo (a INTEGER)", "INSERT INTO foo VALUES (1)")
		}, "othello", "no meta table"},
		{"another program's meta table", func(t *testing.T, path string) {
			sqliteFile(t, path, "CREATE TABLE meta (key TEXT, value TEXT)", "INSERT INTO meta VALUES ('format', 'other')")
		}, "othello", `meta format is "other"`},
		{"another game", func(t *testing.T, path string) {
			baseFile(t, path, "othello:size=6")
		}, "othello", `for game "othello:size=6", not "othello"`},
		{"another board size", func(t *testing.T, path string) {
			baseFile(t, path, "othello")
		}, "othello:size=4", `for game "othello", not "othello:size=4"`},
		{"newer format version", func(t *testing.T, path string) {
			baseFile(t, path, "othello")
			sqliteFile(t, path, "UPDATE meta SET value = '2' WHERE key = 'version'")
		}, "othello", `format version "2"`},
		{"missing table", func(t *testing.T, path string) {
			baseFile(t, path, "othello")
			sqliteFile(t, path, "DROP TABLE arcs")
		}, "othello", "table arcs is missing"},
		{"tampered value", func(t *testing.T, path string) {
			baseFile(t, path, "othello")
			sqliteFile(t, path, "UPDATE nodes SET value = value + 1 WHERE id = 0")
		}, "othello", "node 0: value"},
		{"tampered frequency", func(t *testing.T, path string) {
			baseFile(t, path, "othello")
			sqliteFile(t, path, "UPDATE nodes SET freq = freq + 1 WHERE id = 0")
		}, "othello", "node 0: value"},
		{"illegal arc", func(t *testing.T, path string) {
			baseFile(t, path, "othello")
			sqliteFile(t, path, "UPDATE arcs SET move = 0 WHERE parent = 0")
		}, "othello", "not legal"},
		{"arc to a missing node", func(t *testing.T, path string) {
			baseFile(t, path, "othello")
			sqliteFile(t, path, "UPDATE arcs SET child = 99999 WHERE parent = 0")
		}, "othello", "missing node"},
		{"duplicate position", func(t *testing.T, path string) {
			baseFile(t, path, "othello")
			sqliteFile(t, path, "INSERT INTO nodes SELECT (SELECT max(id)+1 FROM nodes), black, white, side, value, freq, legal FROM nodes WHERE id = 0")
		}, "othello", "repeats the position"},
		{"corrupt pages", func(t *testing.T, path string) {
			baseFile(t, path, "othello")
			data, _ := os.ReadFile(path)
			if len(data) < 3*4096 {
				t.Fatalf("base of %d bytes", len(data))
			}
			for i := 4096 + 100; i < len(data); i += 7 {
				data[i] ^= 0x5a
			}
			os.WriteFile(path, data, 0o644)
		}, "othello", "damaged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "exp.db")
			tc.make(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Open(path, tc.spec)
			if err == nil {
				b.Close()
				t.Fatal("opened")
			}
			if !errors.Is(err, ErrBadBase) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want one wrapping ErrBadBase containing %q", err, tc.want)
			}
			after, _ := os.ReadFile(path)
			if !bytes.Equal(before, after) {
				t.Error("the file changed")
			}
			if _, err := os.Stat(path + ".lock"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("lock file left behind: %v", err)
			}
		})
	}
}

func TestOpenCreates(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		make func(path string)
	}{
		{"missing file", func(string) {}},
		{"empty file", func(path string) { os.WriteFile(path, nil, 0o644) }},
		{"database without tables", func(path string) { sqliteFile(t, path, "PRAGMA user_version = 0", "VACUUM") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".db")
			tc.make(path)
			b, err := Open(path, "othello:size=8")
			if err != nil {
				t.Fatal(err)
			}
			if b.Game() != "othello" {
				t.Errorf("game %q, want the canonical othello", b.Game())
			}
			st, err := b.Stats()
			if err != nil || st.Nodes != 0 || st.Games != 0 || st.FileBytes == 0 {
				t.Errorf("stats %+v, %v", st, err)
			}
			b.Close()
		})
	}
	for _, tc := range []struct {
		name, path, spec string
	}{
		{"unknown game", filepath.Join(dir, "x.db"), "chess"},
		{"not othello", filepath.Join(dir, "x.db"), "ipd"},
		{"bad option", filepath.Join(dir, "x.db"), "othello:size=5"},
		{"missing directory", filepath.Join(dir, "no", "x.db"), "othello"},
		{"directory", dir, "othello"},
		{"memory", ":memory:", "othello"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if b, err := Open(tc.path, tc.spec); err == nil {
				b.Close()
				t.Fatal("opened")
			}
			if _, err := os.Stat(filepath.Join(dir, "x.db")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("file left behind: %v", err)
			}
		})
	}
}

// A base left by a process that died holds everything it committed: the WAL (with or
// without its index) is read back on opening.
func TestOpenAfterCrash(t *testing.T) {
	g := sized(t, 6)
	b, path := openTemp(t, g.Name())
	rng := rand.New(rand.NewPCG(1, 2))
	var games []played
	for range 30 {
		games = append(games, randomGame(rng, g, false))
	}
	mergeAll(t, b, games)
	for _, files := range [][]string{{"", "-wal", "-shm"}, {"", "-wal"}} {
		t.Run(strings.Join(files[1:], " "), func(t *testing.T) {
			// Copy the files of the open base, as a killed process would leave them.
			cp := filepath.Join(t.TempDir(), "copy.db")
			for _, suffix := range files {
				data, err := os.ReadFile(path + suffix)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(cp+suffix, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			b2, err := Open(cp, g.Name())
			if err != nil {
				t.Fatal(err)
			}
			defer b2.Close()
			if d := diffGraphs(snapshot(t, b2), bruteForce(games)); d != "" {
				t.Fatal(d)
			}
		})
	}
}
