package workqueue_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/referee/workqueue"
)

// BenchmarkWorkQueue plays Othello games between two players that choose at random,
// through the work queue with one and two workers in this process (each playing 8 games
// at once), and, as the reference measured in the same run, on one referee directly with
// the same 8 or 16 games at once. It reports games per second; the difference is what the
// queue costs (a job, an outcome and two acknowledgements per game, each stored in
// JetStream's file store).
//
//	go test -run '^$' -bench WorkQueue -benchtime 2000x ./referee/workqueue
func BenchmarkWorkQueue(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("direct/conc=%d", 8*workers), func(b *testing.B) {
			url := bus(b)
			randomPlayers(b, url, "alice", "bob")
			ref, err := referee.New(referee.Config{Conn: connect(b, url), Log: zerolog.Nop()})
			if err != nil {
				b.Fatal(err)
			}
			j := othelloJob(b, "t1", 1, "alice", "bob")
			j.WaitMS = 0
			m, _ := j.Match()
			next := make(chan int)
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for range 8 * workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range next {
						mm := m
						mm.GameID = fmt.Sprintf("t1-%d", i)
						if _, err := ref.Play(context.Background(), mm); err != nil {
							b.Error(err)
						}
					}
				}()
			}
			for i := range b.N {
				next <- i + 1
			}
			close(next)
			wg.Wait()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "games/s")
		})
		b.Run(fmt.Sprintf("queue/workers=%d", workers), func(b *testing.B) {
			url := bus(b)
			randomPlayers(b, url, "alice", "bob")
			ctx := context.Background()
			owner, err := workqueue.NewOwner(ctx, connect(b, url), workqueue.Config{Database: testDB}, zerolog.Nop())
			if err != nil {
				b.Fatal(err)
			}
			defer owner.Close()
			feed, err := owner.Open("t1")
			if err != nil {
				b.Fatal(err)
			}
			defer feed.Close()
			for w := range workers {
				worker(b, url, fmt.Sprintf("w%d", w))
			}
			b.ResetTimer()
			start := time.Now()
			const window = 64 // jobs on the queue at once
			put, got := 0, 0
			for got < b.N {
				for put < b.N && put-got < window {
					put++
					j := othelloJob(b, "t1", put, "alice", "bob")
					j.WaitMS = 0
					if err := feed.Put(ctx, j); err != nil {
						b.Fatal(err)
					}
				}
				d := <-feed.Outcomes()
				if err := d.Ack(ctx); err != nil {
					b.Fatal(err)
				}
				got++
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "games/s")
		})
	}
}
