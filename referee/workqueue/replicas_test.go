package workqueue_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/internal/testutil/netlab"
	"github.com/arenaref/arena/referee/workqueue"
)

// TestAChangeOfReplicasKeepsTheQueue restarts an owner with other replicas while jobs
// wait on a three-server cluster, R1 to R3 and back: the jobs are still there, on a
// stream of the new replicas, and a job taken and acknowledged leaves it. (A stream whose
// replicas changed in place kept every acknowledged job, for good.)
func TestAChangeOfReplicasKeepsTheQueue(t *testing.T) {
	netlab.Require(t)
	lab := netlab.New(t, "n1", "n2", "n3")
	cluster := lab.NATSCluster(t, lab.Hosts(), netlab.ClusterOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	nc := connect(t, cluster.URL(0))
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	waiting := 0 // jobs on the queue
	for step, replicas := range []int{1, 3, 1} {
		owner, err := workqueue.NewOwner(ctx, nc, workqueue.Config{Database: testDB, Replicas: replicas}, zerolog.Nop())
		if err != nil {
			t.Fatalf("owner with %d replicas: %v", replicas, err)
		}
		st, err := js.Stream(ctx, workqueue.GamesStream)
		if err != nil {
			t.Fatal(err)
		}
		if info := st.CachedInfo(); info.Config.Replicas != replicas || int(info.State.Msgs) != waiting {
			t.Fatalf("step %d: %d replicas and %d jobs, want %d and %d", step, info.Config.Replicas, info.State.Msgs, replicas, waiting)
		}
		tournament := fmt.Sprintf("t%d", step+1)
		f, err := owner.Open(tournament)
		if err != nil {
			t.Fatal(err)
		}
		putAll(t, f, tournament, 3)
		f.Close()
		owner.Close()
		waiting += 3

		// A worker takes one job and acknowledges it: it leaves the queue.
		cons, err := js.Consumer(ctx, workqueue.GamesStream, "workers")
		if err != nil {
			t.Fatal(err)
		}
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(10*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		for m := range batch.Messages() {
			if err := m.DoubleAck(ctx); err != nil {
				t.Fatal(err)
			}
			waiting--
		}
		eventually(t, fmt.Sprintf("step %d: %d jobs on the queue", step, waiting), func() bool {
			info, err := st.Info(ctx)
			return err == nil && int(info.State.Msgs) == waiting
		})
	}
}
