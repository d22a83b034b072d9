// Benchmarks of the referee over an embedded NATS server, with the real clock. The lead's
// figures come from:
//
//	go test -run '^$' -bench 'Turn|GamesPerSecond' -benchtime 3s -count 5 ./referee
//	go test -run '^$' -bench ForfeitLatency -benchtime 3s ./referee
//	go test -run '^$' -bench FalseForfeits -benchtime 10000x -timeout 30m ./referee
//
// and the profiles behind them from the same with -cpuprofile, one sub-benchmark at a time
// (-bench 'Turn/conc=1$' or -bench 'GamesPerSecond/othello$/conc=8$'; each part of the
// pattern is a regular expression of its own, so 'othello' alone also picks othello-runtime).
//
// Every throughput and latency figure comes with its bare-NATS reference, measured in the
// same run on the same connections, interleaved with the referee's own measurement round
// by round so that both see the same load on a shared machine: a NATS request/reply
// between the referee's connection and a responder on the players' one that answers at
// once with a reply of a turn reply's size.
//
// BenchmarkTurn plays games of testcount (200 plies) between instant players, at
// concurrency 1 and 8, and reports as p50 and p99 in microseconds: the round trip of a
// turn (request sent to reply arrival, as charged to the player), the bare NATS round
// trip, their ratio (target at concurrency 1: at most 1.5), and the referee's overhead per
// move (from a reply's arrival to the next turn request being sent; target p99 under 50),
// split into its wait (until the game's goroutine took the reply from the goroutine of the
// reply subscription) and its work (from then until the next request went out), with
// p50-sched and p99-sched, how long the process's goroutines waited to run once runnable
// (the Go runtime's /sched/latencies): on a saturated machine the wait is the tail.
// moves/s comes with nats-rtt/s, the bare round trips per second at the same
// concurrency.
//
// BenchmarkGamesPerSecond plays Othello (60-odd plies) between instant players at
// concurrency 1 to 32 (target: 500 games/s at the best one, growing until the cores are
// full), and reports games/s with nats-games/s, the games per second that bare round trips
// at the same concurrency would allow (their rate divided by the plies of a game), and
// the ratio of the two. The othello/ sub-benchmarks' players are the tests' instant
// responders; the othello-runtime/ ones are player.Serve with an agent that plays the
// first legal move, the player side a real player has.
//
// BenchmarkScriptGame is the referee's cost per move for a script game against the same
// game in Go: Connect Four (games/connect4) and the script library's fourinarow, played
// one game at a time between instant players (the first legal move, so every game is the
// same),
// reporting the overhead per move as BenchmarkTurn does (p50, p99, and its work part) and
// moves/s. The difference between the two is what judging a move through the script costs:
//
//	go test -run '^$' -bench ScriptGame -benchtime 3s -count 3 ./referee
//
// BenchmarkForfeitLatency measures how long after a deadline the referee decides a time
// forfeit (its probe of the player's subscription included). BenchmarkFalseForfeits plays
// b.N moves of players that always answer after 9ms of a 10ms budget and reports the time
// forfeits (target: 0); -benchtime 10000x gives the 10,000 moves of the issue.
package referee

import (
	"context"
	"fmt"
	"math"
	"runtime/metrics"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game/clock"
	_ "github.com/arenaref/arena/games/connect4"
	_ "github.com/arenaref/arena/games/othello"
	_ "github.com/arenaref/arena/games/script" // fourinarow
	"github.com/arenaref/arena/internal/testutil/testgame"
	"github.com/arenaref/arena/players/player"
	"github.com/arenaref/arena/protocol"
)

// percentile returns the p-th percentile (0 < p <= 100) of ds, which it sorts.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	i := int(float64(len(ds))*p/100+0.5) - 1
	return ds[min(max(i, 0), len(ds)-1)]
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// realReferee is a referee on e's connection with the wall clock.
func realReferee(b *testing.B, e *env, margin time.Duration) *Referee {
	r, err := New(Config{Conn: e.refNC, Margin: margin})
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// pairs gives n pairs of instant players their own subscriptions and returns their names.
func pairs(e *env, n int) [][]string {
	out := make([][]string, n)
	for i := range n {
		out[i] = []string{fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)}
		e.player(out[i][0], firstLegal)
		e.player(out[i][1], firstLegal)
	}
	return out
}

// runtimePairs is pairs with every player served by player.Serve on a connection of its
// own, playing the first legal move. The players stop when the benchmark ends.
func runtimePairs(b *testing.B, url string, n int) [][]string {
	first := agent.Func(func(_ context.Context, t agent.Turn) (agent.Decision, error) {
		return agent.Decision{Move: t.Legal[0]}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var conns []*nats.Conn
	b.Cleanup(func() {
		cancel()
		wg.Wait()
		for _, nc := range conns {
			nc.Close()
		}
	})
	out := make([][]string, n)
	for i := range n {
		out[i] = []string{fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)}
		for _, name := range out[i] {
			nc, err := nats.Connect(url)
			if err != nil {
				b.Fatal(err)
			}
			conns = append(conns, nc)
			wg.Go(func() {
				if err := player.Serve(ctx, nc, player.Config{Name: name, HelloRetry: time.Hour}, first); err != nil {
					b.Error(err)
				}
			})
			// Serve subscribes before its first hello; the referee needs no hello to play.
			waitSubscribed(b, nc, protocol.TurnSubject(name))
		}
	}
	return out
}

// waitSubscribed waits until somebody answers on subject (an empty request, which players
// ignore, gets no responders until then).
func waitSubscribed(b *testing.B, nc *nats.Conn, subject string) {
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		_, err := nc.Request(subject, nil, 5*time.Millisecond)
		if err != nats.ErrNoResponders {
			return
		}
	}
	b.Fatalf("nobody subscribed to %s", subject)
}

// playAtOnce plays one game per pair at once and returns the results.
func playAtOnce(b *testing.B, r *Referee, m Match, players [][]string, round int) []Result {
	out := make([]Result, len(players))
	var wg sync.WaitGroup
	for i, ps := range players {
		wg.Go(func() {
			m := m
			m.GameID, m.Players = fmt.Sprintf("bench-%d-%d", round, i), ps
			res, err := r.Play(context.Background(), m)
			if err != nil || res.Reason != protocol.ReasonNormal {
				b.Errorf("%v %+v", err, res)
			}
			out[i] = res
		})
	}
	wg.Wait()
	return out
}

// echo is the bare-NATS reference: conc responders on the players' connection that answer
// at once with a reply of a turn reply's size.
type echo struct {
	e     *env
	conc  int
	req   []byte
	rtts  []time.Duration
	spent time.Duration // the wall time of all the round trips
	n     int
}

func newEcho(b *testing.B, e *env, conc int) *echo {
	answer := reply(protocol.TurnRequest{GameID: "bench-1-0", Ply: 100}, "d3")
	for i := range conc {
		sub, err := e.testNC.Subscribe(fmt.Sprintf("bench.echo.%d", i), func(msg *nats.Msg) { _ = msg.Respond(answer) })
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = sub.Unsubscribe() })
	}
	if err := e.testNC.Flush(); err != nil {
		b.Fatal(err)
	}
	return &echo{e: e, conc: conc, req: make([]byte, 300)} // about a turn request
}

// run makes n round trips, conc at a time, and records them.
func (x *echo) run(b *testing.B, n int) {
	out := make([][]time.Duration, x.conc)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range x.conc {
		wg.Go(func() {
			subject := fmt.Sprintf("bench.echo.%d", i)
			for range (n + x.conc - 1) / x.conc {
				t := time.Now()
				if _, err := x.e.refNC.Request(subject, x.req, 10*time.Second); err != nil {
					b.Error(err)
					return
				}
				out[i] = append(out[i], time.Since(t))
			}
		})
	}
	wg.Wait()
	x.spent += time.Since(start)
	for _, o := range out {
		x.rtts = append(x.rtts, o...)
		x.n += len(o)
	}
}

// perSecond is the bare round trips per second, conc at a time.
func (x *echo) perSecond() float64 { return float64(x.n) / x.spent.Seconds() }

// measure plays rounds of games, one per pair at once, for as long as the benchmark runs,
// each round followed by as many bare round trips as it had moves. It passes every result
// to each and returns the time spent playing.
func measure(b *testing.B, r *Referee, m Match, players [][]string, bare *echo, each func(Result)) time.Duration {
	var spent time.Duration
	round := 0
	for b.Loop() {
		round++
		start := time.Now()
		results := playAtOnce(b, r, m, players, round)
		spent += time.Since(start)
		moves := 0
		for _, res := range results {
			moves += len(res.Moves)
			each(res)
		}
		bare.run(b, moves)
	}
	return spent
}

// schedLatencies is the runtime's histogram of how long goroutines waited to run once
// runnable, since the program started.
func schedLatencies() *metrics.Float64Histogram {
	s := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64Histogram()
}

// schedPercentile is the p-th percentile of the scheduling latencies between two readings
// of schedLatencies, as the upper bound of its bucket.
func schedPercentile(before, after *metrics.Float64Histogram, p float64) time.Duration {
	var total uint64
	counts := make([]uint64, len(after.Counts))
	for i, c := range after.Counts {
		counts[i] = c - before.Counts[i]
		total += counts[i]
	}
	want := uint64(math.Ceil(float64(total) * p / 100))
	var sum uint64
	for i, c := range counts {
		sum += c
		if sum >= want && c > 0 {
			upper := after.Buckets[i+1]
			if math.IsInf(upper, 1) {
				upper = after.Buckets[i]
			}
			return time.Duration(upper * float64(time.Second))
		}
	}
	return 0
}

func BenchmarkTurn(b *testing.B) {
	for _, conc := range []int{1, 8} {
		b.Run(fmt.Sprintf("conc=%d", conc), func(b *testing.B) {
			e := newEnv(b)
			r := realReferee(b, e, 0)
			players := pairs(e, conc)
			bare := newEcho(b, e, conc)
			m := Match{Game: lookup(b, testgame.CountName+":target=200"), TC: clock.TimeControl{PerMove: 10 * time.Second}}
			var overhead, rtt, wake, work []time.Duration
			var mu sync.Mutex
			r.overheadHook = func(wait, w time.Duration) {
				mu.Lock()
				wake, work = append(wake, wait), append(work, w)
				mu.Unlock()
			}
			sched := schedLatencies()
			spent := measure(b, r, m, players, bare, func(res Result) {
				for i, mr := range res.Moves {
					rtt = append(rtt, mr.Elapsed)
					if i < len(res.Moves)-1 {
						overhead = append(overhead, mr.Overhead)
					}
				}
			})
			after := schedLatencies()
			p50, p99 := percentile(rtt, 50), percentile(rtt, 99)
			n50, n99 := percentile(bare.rtts, 50), percentile(bare.rtts, 99)
			b.ReportMetric(float64(len(rtt))/spent.Seconds(), "moves/s")
			b.ReportMetric(bare.perSecond(), "nats-rtt/s")
			b.ReportMetric(us(percentile(overhead, 50)), "p50-overhead-µs")
			b.ReportMetric(us(percentile(overhead, 99)), "p99-overhead-µs")
			b.ReportMetric(us(percentile(wake, 50)), "p50-overhead-wait-µs")
			b.ReportMetric(us(percentile(wake, 99)), "p99-overhead-wait-µs")
			b.ReportMetric(us(percentile(work, 50)), "p50-overhead-work-µs")
			b.ReportMetric(us(percentile(work, 99)), "p99-overhead-work-µs")
			b.ReportMetric(us(schedPercentile(sched, after, 50)), "p50-sched-µs")
			b.ReportMetric(us(schedPercentile(sched, after, 99)), "p99-sched-µs")
			b.ReportMetric(us(p50), "p50-turn-rtt-µs")
			b.ReportMetric(us(p99), "p99-turn-rtt-µs")
			b.ReportMetric(us(n50), "p50-nats-rtt-µs")
			b.ReportMetric(us(n99), "p99-nats-rtt-µs")
			b.ReportMetric(float64(p50)/float64(n50), "p50-rtt/nats")
			b.ReportMetric(float64(p99)/float64(n99), "p99-rtt/nats")
		})
	}
}

func BenchmarkScriptGame(b *testing.B) {
	for _, name := range []string{"connect4", "fourinarow"} {
		b.Run(name, func(b *testing.B) {
			e := newEnv(b)
			r := realReferee(b, e, 0)
			players := pairs(e, 1)
			bare := newEcho(b, e, 1)
			m := Match{Game: lookup(b, name), TC: clock.TimeControl{PerMove: 10 * time.Second}}
			var overhead, work []time.Duration
			var mu sync.Mutex
			r.overheadHook = func(_, w time.Duration) {
				mu.Lock()
				work = append(work, w)
				mu.Unlock()
			}
			moves := 0
			spent := measure(b, r, m, players, bare, func(res Result) {
				moves += len(res.Moves)
				for i, mr := range res.Moves {
					if i < len(res.Moves)-1 {
						overhead = append(overhead, mr.Overhead)
					}
				}
			})
			b.ReportMetric(float64(moves)/spent.Seconds(), "moves/s")
			b.ReportMetric(us(percentile(overhead, 50)), "p50-overhead-µs")
			b.ReportMetric(us(percentile(overhead, 99)), "p99-overhead-µs")
			b.ReportMetric(us(percentile(work, 50)), "p50-overhead-work-µs")
			b.ReportMetric(us(percentile(work, 99)), "p99-overhead-work-µs")
		})
	}
}

func BenchmarkGamesPerSecond(b *testing.B) {
	for _, kind := range []string{"othello", "othello-runtime"} {
		for _, conc := range []int{1, 2, 4, 8, 16, 32} {
			b.Run(fmt.Sprintf("%s/conc=%d", kind, conc), func(b *testing.B) {
				e := newEnv(b)
				r := realReferee(b, e, 0)
				var players [][]string
				if kind == "othello" {
					players = pairs(e, conc)
				} else {
					players = runtimePairs(b, e.refNC.ConnectedUrl(), conc)
				}
				bare := newEcho(b, e, conc)
				m := Match{Game: lookup(b, "othello"), TC: clock.TimeControl{PerMove: 10 * time.Second}}
				games, plies := 0, 0
				spent := measure(b, r, m, players, bare, func(res Result) {
					games++
					plies += len(res.Moves)
				})
				perGame := float64(plies) / float64(games)
				gps := float64(games) / spent.Seconds()
				natsGPS := bare.perSecond() / perGame
				b.ReportMetric(gps, "games/s")
				b.ReportMetric(natsGPS, "nats-games/s")
				b.ReportMetric(gps/natsGPS, "games/nats")
				b.ReportMetric(perGame, "plies/game")
			})
		}
	}
}

func BenchmarkForfeitLatency(b *testing.B) {
	e := newEnv(b)
	r := realReferee(b, e, time.Millisecond)
	var mu sync.Mutex
	var late []time.Duration
	r.timeoutHook = func(d time.Duration) {
		mu.Lock()
		late = append(late, d)
		mu.Unlock()
	}
	_, never := silent()
	e.player("mute", func(req protocol.TurnRequest) []byte { never(req); return nil })
	e.player("bob", firstLegal)
	// Drain the silent player's channel so it never blocks.
	m := Match{GameID: "late", Game: lookup(b, testgame.CountName), Players: []string{"mute", "bob"},
		TC: clock.TimeControl{PerMove: 5 * time.Millisecond}}
	for b.Loop() {
		res, err := r.Play(context.Background(), m)
		if err != nil || res.Reason != protocol.ReasonTimeForfeit {
			b.Fatalf("%v %+v", err, res)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	b.ReportMetric(us(percentile(late, 50)), "p50-late-µs")
	b.ReportMetric(us(percentile(late, 99)), "p99-late-µs")
	b.ReportMetric(us(slices.Max(late)), "max-late-µs")
}

func BenchmarkFalseForfeits(b *testing.B) {
	for _, margin := range []time.Duration{DefaultMargin, time.Millisecond} {
		b.Run(fmt.Sprintf("margin=%v", margin), func(b *testing.B) {
			e := newEnv(b)
			r := realReferee(b, e, margin)
			r.timeoutHook = func(late time.Duration) { b.Logf("time forfeit decided %v after the deadline", late) }
			const budget = 10 * time.Millisecond
			slow := func(req protocol.TurnRequest) []byte {
				time.Sleep(budget * 9 / 10)
				return firstLegal(req)
			}
			e.player("alice", slow)
			e.player("bob", slow)
			m := Match{Game: lookup(b, testgame.CountName+":target=1000"), Players: []string{"alice", "bob"},
				TC: clock.TimeControl{PerMove: budget}}
			moves, forfeits, games := 0, 0, 0
			var worst time.Duration
			b.ResetTimer()
			for moves < b.N {
				games++
				m.GameID = fmt.Sprintf("ff-%d", games)
				m.MaxPlies = min(b.N-moves, 1000)
				res, err := r.Play(context.Background(), m)
				if err != nil {
					b.Fatal(err)
				}
				moves += len(res.Moves)
				for _, mr := range res.Moves {
					worst = max(worst, mr.Elapsed)
					if mr.Elapsed > budget*3/2 {
						b.Logf("slow move: game %d ply %d took %v", games, mr.Ply, mr.Elapsed)
					}
				}
				if res.Reason == protocol.ReasonTimeForfeit {
					forfeits++
					moves++
					b.Logf("false forfeit: %s", res.Detail)
				}
			}
			b.ReportMetric(float64(forfeits), "forfeits")
			b.ReportMetric(float64(moves), "moves")
			b.ReportMetric(float64(worst)/float64(time.Millisecond), "max-elapsed-ms")
		})
	}
}
