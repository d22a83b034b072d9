package web

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// The benchmarks' database: one finished Othello tournament of benchGames games between
// benchPlayers players, each game of benchMoves moves, seeded once per test binary run
// into benchDir and removed by TestMain.
const (
	benchGames   = 100_000
	benchPlayers = 10
	benchMoves   = 6
)

var (
	benchDir  string
	benchOnce sync.Once
	benchPath string
	benchTID  int64
	benchErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// seeded returns the path of the seeded database and its tournament's id; the first call
// makes it (about ten seconds).
func seeded(b *testing.B) (string, int64) {
	b.Helper()
	benchOnce.Do(func() {
		start := time.Now()
		benchDir, benchErr = os.MkdirTemp("", "arena-web-bench-")
		if benchErr == nil {
			benchPath = filepath.Join(benchDir, "arena.db")
			benchTID, benchErr = seed(context.Background(), benchPath)
		}
		b.Logf("seeded %d games in %v", benchGames, time.Since(start).Round(time.Millisecond))
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchPath, benchTID
}

// seed writes the tournament with its schedule through the store, then its games in one
// transaction of plain inserts: RecordGame's one transaction per game would take minutes.
func seed(ctx context.Context, path string) (int64, error) {
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return 0, err
	}
	players := make([]string, benchPlayers)
	for i := range players {
		players[i] = fmt.Sprintf("engine-%02d", i)
		if err := db.EnsurePlayer(ctx, store.Player{Name: players[i], Agent: "minimax", Version: "1"}); err != nil {
			db.Close()
			return 0, err
		}
	}
	pairs := make([][2]int, 0, benchPlayers*(benchPlayers-1))
	for a := range players {
		for b := range players {
			if a != b {
				pairs = append(pairs, [2]int{a, b})
			}
		}
	}
	seat := func(i int) [2]int { return pairs[i%len(pairs)] }
	schedule := make([]store.ScheduledGame, benchGames)
	for i := range schedule {
		p := seat(i)
		schedule[i] = store.ScheduledGame{Index: i + 1, Round: i / len(pairs), Players: []string{players[p[0]], players[p[1]]}}
	}
	tid, err := db.CreateTournament(ctx, store.Tournament{
		Game: "othello", Format: "round-robin", TimeControl: "100ms", Rounds: benchGames / len(pairs),
		Seed: 1, Players: players, Schedule: schedule, Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	})
	if err != nil {
		db.Close()
		return 0, err
	}
	if err := db.FinishTournament(ctx, tid, store.StatusFinished); err != nil {
		db.Close()
		return 0, err
	}
	if err := db.Close(); err != nil {
		return 0, err
	}

	raw, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=on")
	if err != nil {
		return 0, err
	}
	defer raw.Close()
	tx, err := raw.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	prep := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var s *sql.Stmt
		s, err = tx.PrepareContext(ctx, q)
		return s
	}
	insGame := prep(`INSERT INTO games (tournament_id, idx, round, game, result, reason, returns, start_position,
		final_position, started, ended, plies) VALUES (?, ?, ?, 'othello', ?, ?, ?, ?, ?, ?, ?, ?)`)
	insSeat := prep(`INSERT INTO game_seats (game_id, seat, player_id, score) VALUES (?, ?, ?, ?)`)
	insMove := prep(`INSERT INTO moves (game_id, ply, seat, move, elapsed_us, depth, nodes, score, pv)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	insRating := prep(`INSERT INTO ratings (game_id, player_id, game_type, before, after) VALUES (?, ?, 'othello', ?, ?)`)
	if err != nil {
		return 0, err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	elo := make([]float64, benchPlayers)
	for i := range elo {
		elo[i] = 1500
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const ts = "2006-01-02T15:04:05.000000Z"
	moves := []string{"f5", "d6", "c3", "d3", "c4", "f4", "f6", "e6"}
	for i := range benchGames {
		p := seat(i)
		var result, reason string
		var scores [2]float64
		switch r := rng.IntN(10); {
		case r < 5:
			result, reason, scores = store.ResultFirstWins, "normal", [2]float64{1, 0}
		case r < 8:
			result, reason, scores = store.ResultSecondWins, "normal", [2]float64{0, 1}
		case r < 9:
			result, reason, scores = store.ResultDraw, "normal", [2]float64{0.5, 0.5}
		default:
			result, reason, scores = store.ResultSecondWins, "time_forfeit", [2]float64{0, 1}
		}
		started := t0.Add(time.Duration(i) * 2 * time.Second)
		returns := fmt.Sprintf("[%v,%v]", 2*scores[0]-1, 2*scores[1]-1)
		res, err := insGame.ExecContext(ctx, tid, i+1, i/len(pairs), result, reason, returns, "start", "final",
			started.Format(ts), started.Add(time.Second).Format(ts), benchMoves)
		if err != nil {
			return 0, err
		}
		gid, _ := res.LastInsertId()
		for s := range 2 {
			if _, err := insSeat.ExecContext(ctx, gid, s, p[s]+1, scores[s]); err != nil {
				return 0, err
			}
		}
		for ply := range benchMoves {
			if _, err := insMove.ExecContext(ctx, gid, ply, ply%2, moves[ply%len(moves)], 900+rng.IntN(200),
				4+ply%3, 1000*(ply+1), float64(ply%5)-2, `["e3","f4"]`); err != nil {
				return 0, err
			}
		}
		// Elo with K=16, so the player pages have rating histories.
		e := 1 / (1 + pow10((elo[p[1]]-elo[p[0]])/400))
		d := 16 * (scores[0] - e)
		for s, delta := range []float64{d, -d} {
			before := elo[p[s]]
			elo[p[s]] += delta
			if _, err := insRating.ExecContext(ctx, gid, p[s]+1, before, elo[p[s]]); err != nil {
				return 0, err
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return tid, nil
}

func pow10(x float64) float64 { return math.Pow(10, x) }

// percentiles reports the p50 and p99 of durations in milliseconds, and returns them.
func percentiles(b *testing.B, ds []time.Duration, prefix string) (p50, p99 float64) {
	b.Helper()
	if len(ds) == 0 {
		b.Fatalf("%s: no samples", prefix)
	}
	slices.Sort(ds)
	at := func(q float64) float64 {
		return float64(ds[min(len(ds)-1, int(q*float64(len(ds))))]) / float64(time.Millisecond)
	}
	p50, p99 = at(0.50), at(0.99)
	b.ReportMetric(p50, prefix+"p50-ms")
	b.ReportMetric(p99, prefix+"p99-ms")
	return p50, p99
}

// benchServer opens the seeded database read-only as cmd/arena web does, with standings.
func benchServer(b *testing.B, standings bool) (*Server, *sqlite.DB, int64) {
	b.Helper()
	path, tid := seeded(b)
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	cfg := Config{Store: db, Log: zerolog.Nop()}
	if standings {
		cfg.Standings = func(ctx context.Context, t store.Tournament, games []store.GameSummary) ([]protocol.StandingsRow, error) {
			return organizer.StandingsOf(ctx, db, t, games)
		}
	}
	s, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s, db, tid
}

// serve times requests to path on s, in the handler (server time, no network), checking
// each answer is 200 and its body contains want.
func serve(b *testing.B, s *Server, path, want string, n int) []time.Duration {
	b.Helper()
	ds := make([]time.Duration, 0, n)
	size := 0
	for range n {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, path, nil)
		start := time.Now()
		s.ServeHTTP(rec, req)
		ds = append(ds, time.Since(start))
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), want) {
			b.Fatalf("GET %s: %d %.200s", path, rec.Code, rec.Body.String())
		}
		size = rec.Body.Len()
	}
	b.ReportMetric(float64(size)/1e6, "resp-MB")
	return ds
}

// BenchmarkTournament100k times the API's pages over a tournament of 100,000 games:
// requests per iteration, server time p50/p99 in ms.
func BenchmarkTournament100k(b *testing.B) {
	const requests = 10
	cases := []struct {
		name      string
		standings bool
		path      func(tid int64) string
		want      string
	}{
		{"page/standings=none", false, func(tid int64) string { return fmt.Sprintf("/api/tournaments/%d", tid) }, `"played":100000`},
		{"page/standings=organizer", true, func(tid int64) string { return fmt.Sprintf("/api/tournaments/%d", tid) }, `"rank":1`},
		{"list", false, func(int64) string { return "/api/tournaments" }, `"played":100000`},
		{"game", false, func(int64) string { return fmt.Sprintf("/api/games/%d", benchGames/2) }, `"moves":[{`},
		{"player", false, func(int64) string { return "/api/players/engine-03" }, `"opponents":[{`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			s, _, tid := benchServer(b, c.standings)
			b.ReportAllocs()
			b.ResetTimer()
			var ds []time.Duration
			for range b.N {
				ds = append(ds, serve(b, s, c.path(tid), c.want, requests)...)
			}
			b.StopTimer()
			percentiles(b, ds, "")
		})
	}
	b.Run("standings-only", func(b *testing.B) {
		_, db, tid := benchServer(b, false)
		var ds []time.Duration
		for range b.N {
			for range requests {
				start := time.Now()
				rows, err := organizer.Standings(context.Background(), db, tid)
				ds = append(ds, time.Since(start))
				if err != nil || len(rows) != benchPlayers || rows[0].Games == 0 {
					b.Fatalf("standings: %d rows, %v", len(rows), err)
				}
			}
		}
		percentiles(b, ds, "")
	})
}

// BenchmarkLive500 opens 500 live pages (/api/live over loopback HTTP) and publishes
// moves on an embedded NATS server at a steady rate; it reports the delay from publish to
// a page reading the event, beside a bare NATS subscriber's (the reference), and the
// memory and goroutines each open page costs (client and server side together, as both
// run in this process).
func BenchmarkLive500(b *testing.B) {
	const (
		clients = 500
		moves   = 200
		every   = 10 * time.Millisecond // 100 moves a second
	)
	srv, err := embedded.Start(embedded.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Shutdown)
	conn := func() *nats.Conn {
		nc, err := nats.Connect(srv.URL())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(nc.Close)
		return nc
	}
	webNC, pubNC, refNC := conn(), conn(), conn()
	db, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "arena.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	s, err := New(Config{Store: db, NATS: webNC, Log: zerolog.Nop()})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(s)
	b.Cleanup(hs.Close)
	b.Cleanup(func() { s.Close() })

	for iter := range b.N {
		gameID := fmt.Sprintf("t1-%d", iter+1)
		subject := protocol.EventSubject(gameID)
		sent := make([]time.Time, moves) // by ply, written before the publish
		var sentMu sync.RWMutex
		sentAt := func(ply int) time.Time {
			sentMu.RLock()
			defer sentMu.RUnlock()
			return sent[ply]
		}

		var refDelays []time.Duration
		refDone := make(chan struct{})
		refSub, err := refNC.Subscribe(subject, func(m *nats.Msg) {
			var ev protocol.GameEvent
			if json.Unmarshal(m.Data, &ev) != nil || ev.Type != protocol.TypeEventMove {
				return
			}
			refDelays = append(refDelays, time.Since(sentAt(ev.Ply)))
			if ev.Ply == moves-1 {
				close(refDone)
			}
		})
		if err != nil {
			b.Fatal(err)
		}
		if err := refNC.Flush(); err != nil {
			b.Fatal(err)
		}

		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		goBefore := runtime.NumGoroutine()

		tr := &http.Transport{MaxIdleConnsPerHost: clients}
		hc := &http.Client{Transport: tr}
		delays := make([][]time.Duration, clients)
		var ready, done sync.WaitGroup
		bodies := make([]io.Closer, clients)
		for i := range clients {
			resp, err := hc.Get(hs.URL + "/api/live")
			if err != nil {
				b.Fatal(err)
			}
			bodies[i] = resp.Body
			ready.Add(1)
			done.Add(1)
			go func() {
				defer done.Done()
				r := bufio.NewReader(resp.Body)
				snap := false
				for {
					line, err := r.ReadSlice('\n')
					if err != nil {
						if !snap {
							ready.Done()
						}
						return
					}
					if !bytesHasPrefix(line, "data: ") {
						continue
					}
					if !snap {
						snap = true
						ready.Done()
						continue
					}
					var ev eventJSON
					if json.Unmarshal(line[len("data: "):], &ev) != nil || ev.Type != protocol.TypeEventMove {
						continue
					}
					delays[i] = append(delays[i], time.Since(sentAt(ev.Ply)))
					if ev.Ply == moves-1 {
						return
					}
				}
			}()
		}
		ready.Wait()
		runtime.GC()
		runtime.ReadMemStats(&after)
		goAfter := runtime.NumGoroutine()

		publish := func(ev protocol.GameEvent) {
			data, _ := json.Marshal(ev)
			if err := pubNC.Publish(subject, data); err != nil {
				b.Fatal(err)
			}
		}
		b.ResetTimer()
		publish(protocol.GameEvent{V: protocol.Version, Type: protocol.TypeEventStart, GameID: gameID, Game: "othello",
			Players: []string{"a", "b"}, Position: "start"})
		tick := time.NewTicker(every)
		for ply := range moves {
			<-tick.C
			sentMu.Lock()
			sent[ply] = time.Now()
			sentMu.Unlock()
			publish(protocol.GameEvent{V: protocol.Version, Type: protocol.TypeEventMove, GameID: gameID, Game: "othello",
				Ply: ply, Seat: ply % 2, Move: "f5", Position: strings.Repeat("-", 64) + " b"})
		}
		tick.Stop()
		finished := make(chan struct{})
		go func() { done.Wait(); close(finished) }()
		select {
		case <-finished:
		case <-time.After(30 * time.Second):
			b.Fatal("live pages did not receive every move within 30s")
		}
		<-refDone
		b.StopTimer()
		refSub.Unsubscribe()
		for _, c := range bodies {
			c.Close()
		}
		tr.CloseIdleConnections()

		var all []time.Duration
		for i, d := range delays {
			if len(d) != moves {
				b.Fatalf("page %d read %d of %d moves", i, len(d), moves)
			}
			all = append(all, d...)
		}
		if len(refDelays) != moves {
			b.Fatalf("reference subscriber read %d of %d moves", len(refDelays), moves)
		}
		percentiles(b, all, "page-")
		percentiles(b, refDelays, "nats-")
		b.ReportMetric((float64(after.HeapInuse)-float64(before.HeapInuse))/clients/1024, "heap-KiB/page")
		b.ReportMetric((float64(after.Sys)-float64(before.Sys))/clients/1024, "sys-KiB/page")
		b.ReportMetric(float64(goAfter-goBefore)/clients, "goroutines/page")
	}
}

func bytesHasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }
