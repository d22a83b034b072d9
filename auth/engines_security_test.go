package auth

import (
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/protocol"
)

// TestSubmittedEnginesSecurity checks the subjects of submitted engines on every server:
// a player submits and asks only as itself, and reaches nothing of the host's; a host
// says hello for any player, answers its turns once, and uses the host API, but neither
// submits as a player nor publishes the referee's events.
func TestSubmittedEnginesSecurity(t *testing.T) {
	for name, start := range securedServers(t) {
		t.Run(name, func(t *testing.T) {
			cs := newCast(t)
			labFile, labCred, err := NewNkey("lab", RoleHost)
			if err != nil {
				t.Fatal(err)
			}
			url := start(t, append(cs.creds, labCred), Limits{})
			ref, alice, bob, lab := connect(t, url, cs.ref), connect(t, url, cs.alice), connect(t, url, cs.bob), connect(t, url, labFile)

			// The referee answers every engines and host request with the subject it came on.
			for _, s := range []string{protocol.SubjectEngineSubmitAll, protocol.SubjectEngineStatusAll, protocol.HostSubjects} {
				sub, err := ref.nc.Subscribe(s, func(m *nats.Msg) { _ = m.Respond([]byte("answered " + m.Subject)) })
				if err != nil {
					t.Fatal(err)
				}
				defer sub.Unsubscribe()
			}
			if err := ref.nc.Flush(); err != nil {
				t.Fatal(err)
			}
			request := func(c *client, subject string) {
				t.Helper()
				m, err := c.nc.Request(subject, []byte("x"), 10*time.Second)
				if err != nil || string(m.Data) != "answered "+subject {
					t.Fatalf("%s's request on %s: %v", c.nc.Opts.Name, subject, err)
				}
			}
			refused := func(c *client, subject string) {
				t.Helper()
				if err := c.nc.Publish(subject, []byte("x")); err != nil {
					t.Fatal(err)
				}
				c.violation(t, subject)
			}

			t.Run("a player submits and asks as itself only", func(t *testing.T) {
				request(alice, protocol.EngineSubmitSubject("alice"))
				request(alice, protocol.EngineStatusSubject("alice"))
				request(bob, protocol.EngineSubmitSubject("bob"))
				refused(alice, protocol.EngineSubmitSubject("bob"))
				refused(alice, protocol.EngineStatusSubject("bob"))
				refused(alice, protocol.SubjectEngineSubmitAll)
			})
			t.Run("a player cannot fetch archives, report states or list submissions", func(t *testing.T) {
				for _, s := range []string{protocol.SubjectHostFetch, protocol.SubjectHostReport, protocol.SubjectHostList, protocol.SubjectHostNew} {
					refused(alice, s)
				}
				for _, s := range []string{protocol.SubjectHostNew, protocol.HostSubjects, protocol.EngineEventSubject("bob"), protocol.SubjectEngineSubmitAll} {
					if _, err := alice.nc.SubscribeSync(s); err != nil {
						t.Fatal(err)
					}
					alice.violation(t, s)
				}
			})
			t.Run("a player hears its own engine's states, and a host every player's", func(t *testing.T) {
				mine, err := alice.nc.SubscribeSync(protocol.EngineEventSubject("alice"))
				if err != nil {
					t.Fatal(err)
				}
				all, err := lab.nc.SubscribeSync("arena.v1.player.*.engine")
				if err != nil {
					t.Fatal(err)
				}
				news, err := lab.nc.SubscribeSync(protocol.SubjectHostNew)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range []*client{alice, lab} {
					if err := c.nc.Flush(); err != nil {
						t.Fatal(err)
					}
				}
				for _, s := range []string{protocol.EngineEventSubject("alice"), protocol.EngineEventSubject("bob"), protocol.SubjectHostNew} {
					if err := ref.nc.Publish(s, []byte("state")); err != nil {
						t.Fatal(err)
					}
				}
				if m := next(t, mine); m.Subject != protocol.EngineEventSubject("alice") {
					t.Fatalf("alice got %s", m.Subject)
				}
				quiet(t, alice, mine)
				for _, want := range []string{protocol.EngineEventSubject("alice"), protocol.EngineEventSubject("bob")} {
					if m := next(t, all); m.Subject != want {
						t.Fatalf("the host got %s, want %s", m.Subject, want)
					}
				}
				next(t, news)
			})
			t.Run("a host uses the host API and says hello for any player", func(t *testing.T) {
				request(lab, protocol.SubjectHostList)
				request(lab, protocol.SubjectHostFetch)
				request(lab, protocol.SubjectHostReport)
				hellos, err := ref.nc.SubscribeSync(protocol.SubjectHelloNamed)
				if err != nil {
					t.Fatal(err)
				}
				if err := ref.nc.Flush(); err != nil {
					t.Fatal(err)
				}
				go func() { _, _ = lab.nc.Request(protocol.HelloSubject("bob"), []byte("I run bob"), 10*time.Second) }()
				m := next(t, hellos)
				if m.Subject != protocol.HelloSubject("bob") || !strings.HasPrefix(m.Reply, InboxPrefix(RoleHost, "lab")+".") {
					t.Fatalf("the host's hello came on %s with reply %s", m.Subject, m.Reply)
				}
				_ = m.Respond([]byte("welcome"))
			})
			t.Run("a host answers a player's turn once", func(t *testing.T) {
				turns, err := lab.nc.SubscribeSync("arena.v1.player.*.turn")
				if err != nil {
					t.Fatal(err)
				}
				if err := lab.nc.Flush(); err != nil {
					t.Fatal(err)
				}
				inbox := ref.nc.NewInbox()
				replies, err := ref.nc.SubscribeSync(inbox)
				if err != nil {
					t.Fatal(err)
				}
				if err := ref.nc.PublishRequest(protocol.TurnSubject("bob"), inbox, []byte("your move")); err != nil {
					t.Fatal(err)
				}
				req := next(t, turns)
				if err := req.Respond([]byte("d3")); err != nil {
					t.Fatal(err)
				}
				if m := next(t, replies); string(m.Data) != "d3" {
					t.Fatalf("the referee got %q", m.Data)
				}
				_ = req.Respond([]byte("d3 again"))
				lab.violation(t, req.Reply)
			})
			t.Run("a host cannot submit, publish events or call the referee's API", func(t *testing.T) {
				for _, s := range []string{protocol.EngineSubmitSubject("bob"), protocol.EngineStatusSubject("bob"), protocol.EngineEventSubject("bob"),
					protocol.EventSubject("t1-1"), protocol.TurnSubject("bob"), protocol.SubjectRollCall, protocol.SubjectAPIStatus, protocol.SubjectHello} {
					refused(lab, s)
				}
				for _, s := range []string{RefereeInbox + ".>", "arena.v1.inbox.player.bob.>", GameEvents, protocol.SubjectHostList} {
					if _, err := lab.nc.SubscribeSync(s); err != nil {
						t.Fatal(err)
					}
					lab.violation(t, s)
				}
			})
		})
	}
}
