package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/netlab"
	"github.com/arenaref/arena/internal/testutil/proctag"
	"github.com/arenaref/arena/players/hosting/cgroup"
	"github.com/arenaref/arena/players/hosting/cgroup/cgrouptest"
	"github.com/arenaref/arena/store"
)

// workerShare is the CPU share of each referee process in BenchmarkQueueWorkers: small
// enough that the referees, not the players or the NATS server, are what limits the
// games per second on this two-core machine. At 0.2 the owner with three workers used
// less than its share: the two cores, busy with the players and the server, were the
// limit.
const workerShare = 0.1

// BenchmarkQueueWorkers measures the games per second of a tournament between two
// players that choose at random, in the lab of hosts (netlab): played by one referee
// process alone (single), and through the work queue by an owner that plays nothing with
// 1, 2 and 3 workers, each on a host of its own. Every referee process (the lone referee,
// the owner, each worker) is confined to a cgroup of its own with workerShare of a CPU,
// as if each host had that much; the NATS server (one, with JetStream) and the players
// are not confined. b.N is the number of games:
//
//	go test -run '^$' -bench QueueWorkers -benchtime 1200x ./cmd/arena
//
// It needs root, network namespaces and cgroups, like the lab's tests.
func BenchmarkQueueWorkers(b *testing.B) {
	netlab.Require(b)
	bins := buildBinaries(b)
	for _, workers := range []int{0, 1, 2, 3} {
		name := fmt.Sprintf("workers=%d", workers)
		if workers == 0 {
			name = "single"
		}
		b.Run(name, func(b *testing.B) {
			lab := netlab.New(b, "nats", "ref", "w1", "w2", "w3", "pl")
			cluster := lab.NATSCluster(b, []*netlab.Host{lab.Host("nats")}, netlab.ClusterOptions{})
			cg := cgrouptest.Open(b, cgroup.Limits{CPU: workerShare, Memory: 1 << 30, Pids: 512})
			url := cluster.URL(0)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
			defer cancel()
			dir := b.TempDir()
			confine := func(p *proc) {
				g, err := cg.New(p.name)
				if err != nil {
					b.Fatal(err)
				}
				if err := g.Add(p.cmd.Process.Pid); err != nil {
					b.Fatal(err)
				}
			}
			run := func(host, name string, args ...string) *proc {
				return startCmd(b, name, lab.Host(host).Command(ctx, bins.arena, args...))
			}
			for _, n := range []string{"ana", "ben"} {
				run("pl", n, "player", "--nats", url, "--name", n, "--agent", "random", "--concurrency", "64")
			}
			dbPath := filepath.Join(dir, "arena.db")
			args := []string{"referee", "--nats", url, "--db", dbPath}
			if workers > 0 {
				args = append(args, "--work-queue", "--worker-games", "0")
			}
			ref := run("ref", "referee", args...)
			confine(ref)
			ref.waitFor(b, "referee ready", time.Minute)
			for i := range workers {
				h := fmt.Sprintf("w%d", i+1)
				w := run(h, "worker-"+h, "referee", "--worker", "--nats", url, "--worker-games", "32", "--worker-name", h)
				confine(w)
				w.waitFor(b, "ready", time.Minute)
			}
			cfg := filepath.Join(dir, "bench.toml")
			rounds := max(b.N/2, 1)
			text := fmt.Sprintf("game = \"othello\"\nplayers = [\"ana\", \"ben\"]\nrounds = %d\ntime_control = \"10s\"\nconcurrency = 64\nwait = \"30s\"\n", rounds)
			if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
				b.Fatal(err)
			}
			db := openDB(b, dbPath)
			refCPU, _ := proctag.CPU(ref.cmd.Process.Pid)
			b.ResetTimer()
			start := time.Now()
			if out, err := exec.CommandContext(ctx, bins.arena, "submit", "--nats", url, cfg).CombinedOutput(); err != nil || !strings.Contains(string(out), "created:") {
				b.Fatalf("submit: %v\n%s", err, out)
			}
			var tour store.Tournament
			waitUntil(b, 15*time.Minute, "the tournament to finish", func() bool {
				var err error
				tour, err = db.Tournament(ctx, 1)
				return err == nil && tour.Status == store.StatusFinished
			})
			elapsed := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(tour.Played)/elapsed.Seconds(), "games/s")
			// How much of its share the referee that keeps the database used: near
			// workerShare, it is what limits the games per second.
			if cpu, ok := proctag.CPU(ref.cmd.Process.Pid); ok {
				b.ReportMetric((cpu-refCPU).Seconds()/elapsed.Seconds(), "referee-cpus")
			}
			b.ReportMetric(0, "ns/op")
		})
	}
}
