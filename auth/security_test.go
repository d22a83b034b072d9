package auth

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/internal/testutil/natstest"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// The security tests run against every NATS server a user may deploy: the embedded one,
// configured with ServerUsers, and Debian's nats-server, configured with ExportConfig's
// file, where one is installed (see internal/testutil/natstest; CI requires it).

// securedServer starts a server that knows creds and returns its URL; it stops with t.
type securedServer func(t *testing.T, creds []store.Credential, l Limits) string

func securedServers(t *testing.T) map[string]securedServer {
	servers := map[string]securedServer{"embedded": startEmbedded}
	if bin := natstest.Binary(t); bin != "" {
		servers["nats-server"] = func(t *testing.T, creds []store.Credential, l Limits) string {
			addr := natstest.FreeAddr(t)
			conf := filepath.Join(t.TempDir(), "nats-server.conf")
			var b bytes.Buffer
			if err := ExportConfig(&b, creds, l, addr); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(conf, b.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			natstest.Start(t, bin, conf, addr)
			return "nats://" + addr
		}
	}
	return servers
}

func startEmbedded(t *testing.T, creds []store.Credential, l Limits) string {
	t.Helper()
	users, nks, err := ServerUsers(creds)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := embedded.Start(embedded.Options{
		Auth: &embedded.Auth{Users: users, Nkeys: nks}, MaxPayload: int32(l.MaxPayload), MaxConnections: l.MaxConnections,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	return srv.URL()
}

// client is a connection whose asynchronous errors (permission violations) are kept.
type client struct {
	nc   *nats.Conn
	errs chan error
}

// dial connects to url with a connect timeout that a loaded machine leaves room for:
// checking a bcrypt hash under the race detector, with the other core busy, has taken
// more than the client's default of two seconds (bus.Connect waits as long).
func dial(url string, opts ...nats.Option) (*nats.Conn, error) {
	return nats.Connect(url, append(opts, nats.Timeout(10*time.Second))...)
}

func connect(t *testing.T, url string, f File) *client {
	t.Helper()
	opts, err := f.Options()
	if err != nil {
		t.Fatal(err)
	}
	c := &client{errs: make(chan error, 64)}
	opts = append(opts, nats.Name(f.Name), nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		select {
		case c.errs <- err:
		default:
		}
	}))
	if c.nc, err = dial(url, opts...); err != nil {
		t.Fatalf("connect as %s: %v", f.Name, err)
	}
	t.Cleanup(c.nc.Close)
	return c
}

// violation waits for the server to refuse what c did on subject.
func (c *client) violation(t *testing.T, subject string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case err := <-c.errs:
			if errors.Is(err, nats.ErrPermissionViolation) && strings.Contains(err.Error(), `"`+subject+`"`) {
				return
			}
			t.Logf("other error: %v", err)
		case <-timeout:
			t.Fatalf("no permission violation for %s", subject)
		}
	}
}

// quiet checks that sub has nothing more: after a round trip to the server, anything the
// server had sent it would be here.
func quiet(t *testing.T, c *client, sub *nats.Subscription) {
	t.Helper()
	if err := c.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	if m, err := sub.NextMsg(0); err == nil {
		t.Fatalf("%s received %q on %s", c.nc.Opts.Name, m.Data, m.Subject)
	}
}

func next(t *testing.T, sub *nats.Subscription) *nats.Msg {
	t.Helper()
	m, err := sub.NextMsg(10 * time.Second)
	if err != nil {
		t.Fatalf("nothing on %s: %v", sub.Subject, err)
	}
	return m
}

// cast is the credentials of the security tests: two players (a password and an nkey), a
// spectator, an admin and the referee.
type cast struct {
	alice, bob, watcher, teacher, ref File
	creds                             []store.Credential
}

func newCast(t *testing.T) cast {
	var c cast
	add := func(f File, cr store.Credential, err error) File {
		if err != nil {
			t.Fatal(err)
		}
		c.creds = append(c.creds, cr)
		return f
	}
	c.alice = add(NewPassword("alice", RolePlayer))
	c.bob = add(NewNkey("bob", RolePlayer))
	c.watcher = add(NewPassword("watcher", RoleSpectator))
	c.teacher = add(NewPassword("teacher", RoleAdmin))
	c.ref = add(NewNkey("ref", RoleReferee))
	return c
}

func TestSecuredBus(t *testing.T) {
	for name, start := range securedServers(t) {
		t.Run(name, func(t *testing.T) {
			cs := newCast(t)
			url := start(t, cs.creds, Limits{})
			t.Run("no credentials are refused", func(t *testing.T) {
				_, err := dial(url, nats.NoReconnect())
				if !errors.Is(err, nats.ErrAuthorization) {
					t.Fatalf("anonymous connection: %v, want an authorization violation", err)
				}
				if msg := ExplainConnect(url, err, nil).Error(); !strings.Contains(msg, "requires credentials: pass --credentials FILE") {
					t.Errorf("message: %s", msg)
				}
			})
			t.Run("a wrong password gets a clear message", func(t *testing.T) {
				wrong := cs.alice
				wrong.Password = "not-" + wrong.Password
				opts, _ := wrong.Options()
				_, err := dial(url, append(opts, nats.NoReconnect())...)
				if !errors.Is(err, nats.ErrAuthorization) {
					t.Fatalf("wrong password: %v", err)
				}
				msg := ExplainConnect(url, err, &wrong).Error()
				if !strings.Contains(msg, `refused the credentials of player "alice" (wrong password`) {
					t.Errorf("message: %s", msg)
				}
			})
			t.Run("a player cannot claim another's name", func(t *testing.T) {
				pretend := cs.alice
				pretend.Name = "bob" // alice's password as user bob
				opts, _ := pretend.Options()
				if _, err := dial(url, append(opts, nats.NoReconnect())...); !errors.Is(err, nats.ErrAuthorization) {
					t.Fatalf("alice's password for bob: %v", err)
				}
			})

			ref, alice, bob := connect(t, url, cs.ref), connect(t, url, cs.alice), connect(t, url, cs.bob)
			watcher, teacher := connect(t, url, cs.watcher), connect(t, url, cs.teacher)
			bobTurns, err := bob.nc.SubscribeSync("arena.v1.player.bob.*")
			if err != nil {
				t.Fatal(err)
			}
			if err := bob.nc.Flush(); err != nil {
				t.Fatal(err)
			}

			t.Run("a player cannot read another's turns", func(t *testing.T) {
				spy, err := alice.nc.SubscribeSync(protocol.TurnSubject("bob"))
				if err != nil {
					t.Fatal(err)
				}
				alice.violation(t, protocol.TurnSubject("bob"))
				if err := ref.nc.Publish(protocol.TurnSubject("bob"), []byte("position")); err != nil {
					t.Fatal(err)
				}
				if m := next(t, bobTurns); string(m.Data) != "position" {
					t.Fatalf("bob got %q", m.Data)
				}
				quiet(t, alice, spy)
				for _, s := range []string{">", "arena.v1.player.*.turn", RefereeInbox + ".>", "arena.v1.inbox.player.bob.>", APISubjects} {
					if _, err := alice.nc.SubscribeSync(s); err != nil {
						t.Fatal(err)
					}
					alice.violation(t, s)
				}
			})
			t.Run("a player cannot answer another's turn, nor twice its own", func(t *testing.T) {
				inbox := ref.nc.NewInbox()
				if !strings.HasPrefix(inbox, RefereeInbox+".") {
					t.Fatalf("the referee's inbox %s is not under %s", inbox, RefereeInbox)
				}
				replies, err := ref.nc.SubscribeSync(inbox)
				if err != nil {
					t.Fatal(err)
				}
				if err := ref.nc.PublishRequest(protocol.TurnSubject("bob"), inbox, []byte("your move")); err != nil {
					t.Fatal(err)
				}
				req := next(t, bobTurns)
				// Even knowing the reply subject, alice cannot publish on it.
				if err := alice.nc.Publish(req.Reply, []byte("alice's move")); err != nil {
					t.Fatal(err)
				}
				alice.violation(t, req.Reply)
				if err := req.Respond([]byte("bob's move")); err != nil {
					t.Fatal(err)
				}
				if m := next(t, replies); string(m.Data) != "bob's move" {
					t.Fatalf("the referee got %q", m.Data)
				}
				if err := req.Respond([]byte("bob again")); err != nil {
					t.Fatal(err)
				}
				bob.violation(t, req.Reply)
				quiet(t, ref, replies)
			})
			t.Run("a player cannot publish referee events", func(t *testing.T) {
				events, err := watcher.nc.SubscribeSync(GameEvents)
				if err != nil {
					t.Fatal(err)
				}
				if err := watcher.nc.Flush(); err != nil {
					t.Fatal(err)
				}
				for _, s := range []string{protocol.EventSubject("t1-1"), "arena.v1.tournament.1.events", protocol.TurnSubject("bob"), protocol.SubjectRollCall} {
					if err := alice.nc.Publish(s, []byte("fake")); err != nil {
						t.Fatal(err)
					}
					alice.violation(t, s)
				}
				if err := ref.nc.Publish(protocol.EventSubject("t1-1"), []byte("real")); err != nil {
					t.Fatal(err)
				}
				if m := next(t, events); string(m.Data) != "real" {
					t.Fatalf("the spectator got %q", m.Data)
				}
				quiet(t, watcher, events)
				quiet(t, bob, bobTurns)
			})
			t.Run("hellos prove who sent them", func(t *testing.T) {
				hellos, err := ref.nc.SubscribeSync(protocol.SubjectHelloNamed)
				if err != nil {
					t.Fatal(err)
				}
				plain, err := ref.nc.SubscribeSync(protocol.SubjectHello)
				if err != nil {
					t.Fatal(err)
				}
				if err := ref.nc.Flush(); err != nil {
					t.Fatal(err)
				}
				for _, s := range []string{protocol.HelloSubject("bob"), protocol.SubjectHello} {
					if err := alice.nc.Publish(s, []byte("I am bob")); err != nil {
						t.Fatal(err)
					}
					alice.violation(t, s)
				}
				// Her own hello goes through, with a reply on her own inbox.
				answered := make(chan error, 1)
				go func() {
					_, err := alice.nc.Request(protocol.HelloSubject("alice"), []byte("I am alice"), 10*time.Second)
					answered <- err
				}()
				m := next(t, hellos)
				if m.Subject != protocol.HelloSubject("alice") || string(m.Data) != "I am alice" {
					t.Fatalf("the referee got %q on %s", m.Data, m.Subject)
				}
				if !strings.HasPrefix(m.Reply, InboxPrefix(RolePlayer, "alice")+".") {
					t.Errorf("alice's reply subject %s is not on her inbox", m.Reply)
				}
				if err := m.Respond([]byte("welcome")); err != nil {
					t.Fatal(err)
				}
				if err := <-answered; err != nil {
					t.Fatalf("alice's hello: %v", err)
				}
				quiet(t, ref, hellos)
				quiet(t, ref, plain)
			})
			t.Run("spectators only read, admins reach the API", func(t *testing.T) {
				api, err := ref.nc.Subscribe(protocol.SubjectAPIStatus, func(m *nats.Msg) { _ = m.Respond([]byte("status")) })
				if err != nil {
					t.Fatal(err)
				}
				defer api.Unsubscribe()
				if err := ref.nc.Flush(); err != nil {
					t.Fatal(err)
				}
				m, err := teacher.nc.Request(protocol.SubjectAPIStatus, nil, 10*time.Second)
				if err != nil || string(m.Data) != "status" {
					t.Fatalf("admin's API request: %v", err)
				}
				if err := watcher.nc.Publish(protocol.SubjectAPIStatus, nil); err != nil {
					t.Fatal(err)
				}
				watcher.violation(t, protocol.SubjectAPIStatus)
				for _, s := range []string{protocol.TurnSubject("bob"), protocol.SubjectHelloNamed} {
					if _, err := teacher.nc.SubscribeSync(s); err != nil {
						t.Fatal(err)
					}
					teacher.violation(t, s)
					if _, err := watcher.nc.SubscribeSync(s); err != nil {
						t.Fatal(err)
					}
					watcher.violation(t, s)
				}
			})
		})
	}
}

func TestServerLimits(t *testing.T) {
	for name, start := range securedServers(t) {
		t.Run(name, func(t *testing.T) {
			cs := newCast(t)
			url := start(t, cs.creds, Limits{MaxPayload: 4096, MaxConnections: 3})
			t.Run("a message over the maximum size is refused", func(t *testing.T) {
				// Raw protocol, since nats.go itself refuses to send it: the server must.
				addr := strings.TrimPrefix(url, "nats://")
				conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
				fmt.Fprintf(conn, "CONNECT {\"verbose\":false,\"user\":\"alice\",\"pass\":%q}\r\nPING\r\n", cs.alice.Password)
				if got := readUntil(t, conn, "PONG"); !strings.Contains(got, "PONG") {
					t.Fatalf("login: %q", got)
				}
				fmt.Fprintf(conn, "PUB %s 5000\r\n%s\r\n", protocol.HelloSubject("alice"), strings.Repeat("x", 5000))
				if got := readUntil(t, conn, "Maximum Payload"); !strings.Contains(got, "Maximum Payload") {
					t.Fatalf("oversized message answered %q", got)
				}
			})
			t.Run("connections over the maximum are refused", func(t *testing.T) {
				var conns []*nats.Conn
				defer func() {
					for _, nc := range conns {
						nc.Close()
					}
				}()
				opts, _ := cs.watcher.Options()
				var err error
				for i := 0; i < 4 && err == nil; i++ {
					var nc *nats.Conn
					if nc, err = dial(url, append(opts, nats.NoReconnect())...); err == nil {
						conns = append(conns, nc)
					}
				}
				// The server answers "maximum connections exceeded" and hangs up; the client
				// may see either first.
				if len(conns) != 3 || err == nil {
					t.Fatalf("%d connections, then %v; want 3, then a refusal", len(conns), err)
				}
			})
		})
	}
}

// readUntil reads from conn until the text contains want, or the deadline passes.
func readUntil(t *testing.T, conn net.Conn, want string) string {
	t.Helper()
	var got []byte
	buf := make([]byte, 4096)
	for !bytes.Contains(got, []byte(want)) {
		n, err := conn.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			break
		}
	}
	return string(got)
}
