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
	"github.com/arenaref/arena/store"
)

// TestMultiHostTournament runs a tournament across five hosts of a lab on this machine
// (network namespaces, internal/testutil/netlab): a NATS cluster of three servers with JetStream on
// n1, n2 and n3; the owner on n1, which plays no game itself; a referee worker on n2 and
// one on n3; and players on n2, n3 and two engine hosts e1 and e2, each name running as
// an instance on two hosts. While the tournament runs, the worker on n2 is killed, the
// NATS server on n3 is killed and restarted, and e1's link is cut and restored. The
// tournament completes with every game recorded exactly once.
func TestMultiHostTournament(t *testing.T) {
	netlab.Require(t)
	bins := buildBinaries(t)
	lab := netlab.New(t, "n1", "n2", "n3", "e1", "e2")
	cluster := lab.NATSCluster(t, lab.Hosts()[:3], netlab.ClusterOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	// Every process may reach any server of the cluster; each lists its own host's first.
	urls := func(first int) string { return serverFirst(cluster, first) }
	run := func(host, name string, args ...string) *proc {
		t.Helper()
		return startCmd(t, name, lab.Host(host).Command(ctx, bins.arena, args...))
	}

	dbPath := filepath.Join(dir, "owner.db")
	owner := run("n1", "owner", "referee", "--nats", urls(0), "--db", dbPath, "--work-queue", "--replicas", "3", "--worker-games", "0", "--ack-wait", "3s")
	owner.waitFor(t, "referee ready", 30*time.Second)
	workers := map[string]*proc{}
	for i, h := range []string{"n2", "n3"} {
		workers[h] = run(h, "worker-"+h, "referee", "--worker", "--nats", urls(i+1), "--worker-games", "4", "--worker-name", h)
		workers[h].waitFor(t, "ready", 30*time.Second)
	}
	// Players: each name on two hosts; the engine hosts reach the cluster through n1 and n2.
	for _, pl := range []struct{ name, agent, hostA, hostB string }{
		{"ana", "hp1", "e1", "n2"}, {"ben", "hp2", "e2", "n3"}, {"cat", "random", "e1", "e2"},
	} {
		for i, h := range []string{pl.hostA, pl.hostB} {
			run(h, fmt.Sprintf("%s-%s", pl.name, h), "player", "--nats", urls(i), "--name", pl.name, "--agent", pl.agent, "--seed", fmt.Sprint(i+1))
		}
	}
	cfg := filepath.Join(dir, "cup.toml")
	if err := os.WriteFile(cfg, []byte("name = \"cup\"\ngame = \"othello\"\nplayers = [\"ana\", \"ben\", \"cat\"]\nrounds = 50\ntime_control = \"300ms\"\nconcurrency = 6\nwait = \"30s\"\nseed = 7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(ctx, bins.arena, "submit", "--nats", cluster.URL(0), cfg).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "created: 300 games") {
		t.Fatalf("submit: %v\n%s", err, out)
	}
	games := func() int { return storedGames(t, dbPath) }

	waitUntil(t, 2*time.Minute, "10 recorded games", func() bool { return games() >= 10 })
	if err := workers["n2"].cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-workers["n2"].done
	t.Logf("worker n2 killed at %d games", games())

	at := games()
	waitUntil(t, 2*time.Minute, "5 more games", func() bool { return games() >= at+5 })
	if err := cluster.Kill(2); err != nil {
		t.Fatal(err)
	}
	t.Logf("nats-server n3 killed at %d games", games())
	at = games()
	waitUntil(t, 2*time.Minute, "5 more games without n3's server", func() bool { return games() >= at+5 })
	at = games()
	if err := lab.Host("e1").Cut(); err != nil {
		t.Fatal(err)
	}
	t.Logf("e1's link cut at %d games", at)
	waitUntil(t, 2*time.Minute, "5 more games without e1", func() bool { return games() >= at+5 })
	if err := lab.Host("e1").Restore(); err != nil {
		t.Fatal(err)
	}
	t.Logf("e1's link restored at %d games", games())
	if err := cluster.Restart(2); err != nil {
		t.Fatal(err)
	}
	t.Logf("nats-server n3 restarted at %d games", games())
	if err := cluster.WaitReady(ctx); err != nil {
		t.Fatalf("the cluster after n3's restart: %v", err)
	}
	t.Logf("the cluster is whole again at %d games", games())

	db := openDB(t, dbPath)
	waitUntil(t, 3*time.Minute, "the tournament to finish", func() bool {
		tour, err := db.Tournament(ctx, 1)
		return err == nil && tour.Status == store.StatusFinished
	})
	checkComplete(t, db, 1)
	if workers["n3"].exited() || owner.exited() {
		t.Fatalf("a process that was not killed exited: worker n3%s\nowner%s", workers["n3"].output(), owner.output())
	}
	all, err := db.Games(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]int{}
	for _, g := range all {
		reasons[g.Reason]++
	}
	t.Logf("300 games, each recorded once; how they ended: %v", reasons)
}

// serverFirst is the URLs of the cluster's servers for --nats, server first's first: a
// process of a host lists its own host's server first.
func serverFirst(c *netlab.Cluster, first int) string {
	all := c.URLs()
	return strings.Join(append([]string{all[first]}, append(all[:first:first], all[first+1:]...)...), ",")
}
