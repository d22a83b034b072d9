// Benchmarks of the referee over an embedded NATS server, with the real clock. The lead's
// figures come from:
//
//	go test -run '^$' -bench 'Turn|GamesPerSecond|ForfeitLatency' -benchtime 3s ./referee
//	go test -run '^$' -bench FalseForfeits -benchtime 10000x -timeout 30m ./referee
//
// BenchmarkTurn reports, at concurrency 1 and 8, the referee's overhead per move (from a
// reply's arrival to the next turn request being sent), the round trip of a turn with an
// instant player (request sent to reply arrival, as charged to the player), and, measured
// in the same run on the same connections, a bare NATS request/reply round trip, all as
// p50 and p99 in microseconds. BenchmarkGamesPerSecond plays Othello between instant
// players. BenchmarkForfeitLatency measures how long after a deadline the referee decides
// a time forfeit (its probe of the player's subscription included). BenchmarkFalseForfeits
// plays b.N moves of players that always answer after 9ms of a 10ms budget and reports
// the time forfeits (target: 0); -benchtime 10000x gives the 10,000 moves of the issue.
package referee

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	_ "github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/testgame"
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

func BenchmarkTurn(b *testing.B) {
	for _, conc := range []int{1, 8} {
		b.Run(fmt.Sprintf("conc=%d", conc), func(b *testing.B) {
			e := newEnv(b)
			r := realReferee(b, e, 0)
			players := pairs(e, conc)
			m := Match{Game: lookup(b, testgame.CountName+":target=200"), TC: TimeControl{PerMove: 10 * time.Second}}
			var overhead, rtt []time.Duration
			round := 0
			for b.Loop() {
				round++
				for _, res := range playAtOnce(b, r, m, players, round) {
					for i, mr := range res.Moves {
						rtt = append(rtt, mr.Elapsed)
						if i < len(res.Moves)-1 {
							overhead = append(overhead, mr.Overhead)
						}
					}
				}
			}
			moves := len(rtt)
			b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
			b.ReportMetric(us(percentile(overhead, 50)), "p50-overhead-µs")
			b.ReportMetric(us(percentile(overhead, 99)), "p99-overhead-µs")
			b.ReportMetric(us(percentile(rtt, 50)), "p50-turn-rtt-µs")
			b.ReportMetric(us(percentile(rtt, 99)), "p99-turn-rtt-µs")
			nrtt := bareRoundTrips(b, e, conc, min(moves, 20000))
			b.ReportMetric(us(percentile(nrtt, 50)), "p50-nats-rtt-µs")
			b.ReportMetric(us(percentile(nrtt, 99)), "p99-nats-rtt-µs")
		})
	}
}

// bareRoundTrips measures n NATS request/reply round trips from the referee's connection
// to a responder on the players' one, conc at a time, with a reply of a turn reply's size.
func bareRoundTrips(b *testing.B, e *env, conc, n int) []time.Duration {
	answer := reply(protocol.TurnRequest{GameID: "bench-1-0", Ply: 100}, "2")
	req := make([]byte, 300) // about a testcount turn request
	for i := range conc {
		sub, err := e.testNC.Subscribe(fmt.Sprintf("bench.echo.%d", i), func(msg *nats.Msg) { _ = msg.Respond(answer) })
		if err != nil {
			b.Fatal(err)
		}
		defer func() { _ = sub.Unsubscribe() }()
	}
	if err := e.testNC.Flush(); err != nil {
		b.Fatal(err)
	}
	out := make([][]time.Duration, conc)
	var wg sync.WaitGroup
	for i := range conc {
		wg.Go(func() {
			subject := fmt.Sprintf("bench.echo.%d", i)
			for range n / conc {
				start := time.Now()
				if _, err := e.refNC.Request(subject, req, 10*time.Second); err != nil {
					b.Error(err)
					return
				}
				out[i] = append(out[i], time.Since(start))
			}
		})
	}
	wg.Wait()
	return slices.Concat(out...)
}

func BenchmarkGamesPerSecond(b *testing.B) {
	for _, conc := range []int{1, 8} {
		b.Run(fmt.Sprintf("othello/conc=%d", conc), func(b *testing.B) {
			e := newEnv(b)
			r := realReferee(b, e, 0)
			players := pairs(e, conc)
			m := Match{Game: lookup(b, "othello"), TC: TimeControl{PerMove: 10 * time.Second}}
			games, plies, round := 0, 0, 0
			for b.Loop() {
				round++
				for _, res := range playAtOnce(b, r, m, players, round) {
					games++
					plies += len(res.Moves)
				}
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(float64(plies)/float64(games), "plies/game")
		})
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
		TC: TimeControl{PerMove: 5 * time.Millisecond}}
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
				TC: TimeControl{PerMove: budget}}
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
