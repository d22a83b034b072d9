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

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arenaref/arena/internal/testutil/netlab"
	"github.com/arenaref/arena/referee/workqueue"
	"github.com/arenaref/arena/store"
)

// chaosLab is TestWorkQueueChaos's lab: a three-server cluster on n1, n2 and n3, the
// owner on n1, workers on n2 and n3, and the players on e1.
type chaosLab struct {
	t       *testing.T
	ctx     context.Context
	arena   string
	lab     *netlab.Lab
	cluster *netlab.Cluster
	dir     string
	owner   *proc
	workers map[string]*proc
	round   int // processes started, for their names
}

// urls is the cluster's URLs, server first's first.
func (c *chaosLab) urls(first int) string { return serverFirst(c.cluster, first) }

func (c *chaosLab) run(host, name string, args ...string) *proc {
	c.t.Helper()
	c.round++
	return startCmd(c.t, fmt.Sprintf("%s-%d", name, c.round), c.lab.Host(host).Command(c.ctx, c.arena, args...))
}

// startOwner starts the owner on n1 with the database db, playing no game itself.
func (c *chaosLab) startOwner(db string, extra ...string) *proc {
	c.t.Helper()
	args := append([]string{"referee", "--nats", c.urls(0), "--db", filepath.Join(c.dir, db), "--work-queue", "--worker-games", "0", "--ack-wait", "3s"}, extra...)
	c.owner = c.run("n1", "owner", args...)
	return c.owner
}

// startWorker starts the worker of host h (n2 or n3).
func (c *chaosLab) startWorker(h string) *proc {
	c.t.Helper()
	i := c.cluster.Index(h)
	w := c.run(h, "worker-"+h, "referee", "--worker", "--nats", c.urls(i), "--worker-games", "4", "--worker-name", h)
	c.workers[h] = w
	return w
}

// stopAll stops the owner and the workers (SIGTERM, as an operator would).
func (c *chaosLab) stopAll() {
	c.t.Helper()
	if c.owner != nil {
		c.owner.stop(c.t)
	}
	for _, w := range c.workers {
		w.stop(c.t)
	}
	c.owner, c.workers = nil, map[string]*proc{}
}

// submit submits a tournament of 48 games and returns its id as the owner numbers it.
func (c *chaosLab) submit(name string) int64 {
	c.t.Helper()
	cfg := filepath.Join(c.dir, name+".toml")
	text := fmt.Sprintf("name = %q\ngame = \"othello\"\nplayers = [\"ana\", \"ben\", \"cat\"]\nrounds = 8\ntime_control = \"300ms\"\nconcurrency = 6\nwait = \"30s\"\nseed = 11\n", name)
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		c.t.Fatal(err)
	}
	var out []byte
	var err error
	for range 20 { // the owner may still be starting
		out, err = exec.CommandContext(c.ctx, c.arena, "submit", "--nats", c.cluster.URL(0), cfg).CombinedOutput()
		if err == nil {
			break
		}
		time.Sleep(time.Second)
	}
	var id int64
	if _, serr := fmt.Sscanf(string(out), "tournament %d", &id); err != nil || serr != nil || !strings.Contains(string(out), "created: 48 games") {
		c.t.Fatalf("submit %s: %v\n%s", name, err, out)
	}
	return id
}

// finish waits until tournament id of database db is finished and checks that every game
// was recorded once; during is called once 3 games are recorded.
func (c *chaosLab) finish(db string, id int64, during func()) {
	c.t.Helper()
	path := filepath.Join(c.dir, db)
	games := func() int {
		d := openDB(c.t, path)
		defer d.Close()
		all, err := d.Games(c.ctx, id)
		if err != nil {
			return 0
		}
		return len(all)
	}
	if during != nil {
		waitUntil(c.t, 2*time.Minute, "3 recorded games", func() bool { return games() >= 3 })
		at := games()
		during()
		c.t.Logf("the failures began at %d games of 48 and ended at %d", at, games())
	}
	d := openDB(c.t, path)
	defer d.Close()
	waitUntil(c.t, 4*time.Minute, fmt.Sprintf("tournament %d of %s to finish", id, db), func() bool {
		tour, err := d.Tournament(c.ctx, id)
		return err == nil && tour.Status == store.StatusFinished
	})
	checkComplete(c.t, d, id)
}

// streams checks that both streams have the replicas wanted and, once the owner has
// recorded everything, no message left (an acknowledged message that stays would block
// the next tournament with the same id). lossy is for a queue whose only server was
// killed (SIGKILL) during the tournament: acknowledgements it had not yet written may be
// lost with it, and their jobs come back; messages left after two minutes are then
// logged, not a failure (the tournament's games were all recorded once all the same).
func (c *chaosLab) streams(replicas int, lossy bool) {
	c.t.Helper()
	nc, err := nats.Connect(c.cluster.URL(0))
	if err != nil {
		c.t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		c.t.Fatal(err)
	}
	for _, name := range []string{workqueue.GamesStream, workqueue.ResultsStream} {
		var seen string
		deadline := time.Now().Add(2 * time.Minute)
		for {
			var info *jetstream.StreamInfo
			st, err := js.Stream(c.ctx, name)
			if err == nil {
				info, err = st.Info(c.ctx, jetstream.WithSubjectFilter(">"))
			}
			if err == nil {
				if info.Config.Replicas == replicas && info.State.Msgs == 0 {
					break
				}
				seen = fmt.Sprintf("%d replicas, %d messages on %v", info.Config.Replicas, info.State.Msgs, info.State.Subjects)
			} else {
				seen = err.Error()
			}
			if time.Now().After(deadline) {
				if lossy && info != nil && info.Config.Replicas == replicas {
					c.t.Logf("stream %s after its only server was killed: %s", name, seen)
					break
				}
				c.t.Fatalf("stream %s: %s; want %d replicas and no message", name, seen, replicas)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

// TestWorkQueueChaos runs tournaments on the work queue of a three-server cluster while
// its processes start in every order and fail: owner and worker started together, and
// worker first, with three replicas; a database deleted and made again between
// tournaments (its tournament ids start at 1 again) with one replica and a take-over;
// a worker and the owner killed and restarted mid-tournament; the server holding a
// one-replica stream killed and restarted; a server of a three-replica queue killed and
// restarted. Every tournament completes with every game recorded exactly once, and the
// streams keep their replicas and no acknowledged message (but after the kill of an R1
// queue's only server, see streams).
func TestWorkQueueChaos(t *testing.T) {
	netlab.Require(t)
	bins := buildBinaries(t)
	lab := netlab.New(t, "n1", "n2", "n3", "e1")
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	c := &chaosLab{t: t, ctx: ctx, arena: bins.arena, lab: lab, dir: t.TempDir(), workers: map[string]*proc{}}
	c.cluster = lab.NATSCluster(t, lab.Hosts()[:3], netlab.ClusterOptions{})
	for i, pl := range []struct{ name, agent string }{{"ana", "hp1"}, {"ben", "hp2"}, {"cat", "random"}} {
		c.run("e1", pl.name, "player", "--nats", c.urls(i), "--name", pl.name, "--agent", pl.agent, "--seed", fmt.Sprint(i+1))
	}

	t.Run("owner and worker together, R3", func(t *testing.T) {
		c.t = t
		owner, worker := c.startOwner("a.db", "--replicas", "3"), c.startWorker("n2")
		owner.waitFor(t, "referee ready", 60*time.Second)
		worker.waitFor(t, "ready", 60*time.Second)
		c.finish("a.db", c.submit("together"), nil)
		c.streams(3, false)
		c.stopAll()
	})
	t.Run("worker first, R3", func(t *testing.T) {
		c.t = t
		c.startWorker("n3").waitFor(t, "ready", 30*time.Second)
		time.Sleep(2 * time.Second) // the worker waits for the streams
		c.startOwner("a.db", "--replicas", "3").waitFor(t, "referee ready", 60*time.Second)
		c.finish("a.db", c.submit("worker-first"), nil)
		c.streams(3, false)
		c.stopAll()
	})
	t.Run("database made again, R1", func(t *testing.T) {
		c.t = t
		for _, f := range []string{"a.db", "a.db-wal", "a.db-shm"} {
			_ = os.Remove(filepath.Join(c.dir, f))
		}
		c.startWorker("n2").waitFor(t, "ready", 30*time.Second)
		refused := c.startOwner("a.db", "--replicas", "1")
		select {
		case <-refused.done:
		case <-time.After(60 * time.Second):
			t.Fatal("an owner of a new database started on the old database's queue")
		}
		if log := refused.errOut.String(); !strings.Contains(log, "belongs to another database") || !strings.Contains(log, "--take-over") {
			t.Fatalf("the refusal does not say why and what to do:\n%s", log)
		}
		c.startOwner("a.db", "--replicas", "1", "--take-over").waitFor(t, "referee ready", 60*time.Second)
		c.startWorker("n3").waitFor(t, "ready", 30*time.Second)
		id := c.submit("again")
		if id != 1 {
			t.Fatalf("the new database's first tournament is %d, want 1: the case where ids collide", id)
		}
		c.finish("a.db", id, func() {
			if err := c.workers["n2"].cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			<-c.workers["n2"].done
			c.startWorker("n2")
			if err := c.owner.cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			<-c.owner.done
			c.startOwner("a.db", "--replicas", "1").waitFor(t, "referee ready", 60*time.Second)
		})
		c.streams(1, false)
	})
	t.Run("a server killed and restarted, R1 and R3", func(t *testing.T) {
		c.t = t
		for _, replicas := range []string{"1", "3"} {
			// Every server in turn is the one killed; with R1 the queue stops until it is back.
			victim := map[string]int{"1": 0, "3": 1}[replicas]
			c.stopAll()
			c.startOwner("a.db", "--replicas", replicas).waitFor(t, "referee ready", 60*time.Second)
			c.startWorker("n2")
			c.startWorker("n3")
			id := c.submit("server-" + replicas)
			c.finish("a.db", id, func() {
				if err := c.cluster.Kill(victim); err != nil {
					t.Fatal(err)
				}
				time.Sleep(3 * time.Second)
				if err := c.cluster.Restart(victim); err != nil {
					t.Fatal(err)
				}
				if err := c.cluster.WaitReady(c.ctx); err != nil {
					t.Fatal(err)
				}
			})
			c.streams(map[string]int{"1": 1, "3": 3}[replicas], replicas == "1")
		}
		c.stopAll()
	})
}
