package bus_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/store"
)

// credentials is a CredentialStore whose list a test changes while the bus runs.
type credentials struct {
	mu    sync.Mutex
	creds []store.Credential
}

func (c *credentials) Credentials(context.Context) ([]store.Credential, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]store.Credential(nil), c.creds...), nil
}

func (c *credentials) set(cs ...store.Credential) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.creds = cs
}

func TestOpenEmbedded(t *testing.T) {
	ctx := context.Background()
	b, err := bus.Open(ctx, bus.Config{Embed: true}, "test", nil, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if !strings.HasPrefix(b.URL(), "nats://127.0.0.1:") {
		t.Errorf("URL %q, want a loopback server", b.URL())
	}
	for name, nc := range map[string]*nats.Conn{"conn": b.Conn(), "lobby": b.Lobby()} {
		if err := nc.Flush(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	other, err := b.Connect("other", zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	other.Close()
	// An unsecured server lets anyone in.
	anyone, err := nats.Connect(b.URL())
	if err != nil {
		t.Fatalf("unsecured server refused an anonymous client: %v", err)
	}
	anyone.Close()
}

// A secured embedded server admits the process's own clients, refuses anyone else, and
// admits a credential added to the store while it runs within CredentialsPoll.
func TestOpenSecuredReloadsCredentials(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a credentials poll")
	}
	ctx := context.Background()
	db := &credentials{}
	b, err := bus.Open(ctx, bus.Config{Embed: true, Secure: true}, "test", db, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	own, err := b.Connect("built-in", zerolog.Nop())
	if err != nil {
		t.Fatalf("the process's own client: %v", err)
	}
	own.Close()
	if nc, err := nats.Connect(b.URL()); err == nil {
		nc.Close()
		t.Fatal("a secured server let an anonymous client in")
	}
	f, c, err := auth.NewNkey("alice", store.RolePlayer)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := f.Options()
	if err != nil {
		t.Fatal(err)
	}
	if nc, err := nats.Connect(b.URL(), opts...); err == nil {
		nc.Close()
		t.Fatal("a credential not in the store was let in")
	}
	db.set(store.Credential{Name: c.Name, Role: c.Role, Kind: c.Kind, Public: c.Public})
	deadline := time.Now().Add(3 * bus.CredentialsPoll)
	for {
		nc, err := nats.Connect(b.URL(), opts...)
		if err == nil {
			nc.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a credential added to the store still refused after %v: %v", 3*bus.CredentialsPoll, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The referee daemon locks its database exclusively: a second one, or a tournament command,
// is refused, and the lock goes with closeBoth.
func TestOpenWithStoreLocks(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "arena.db")
	cfg := bus.Config{Embed: true}
	_, _, closeBoth, err := bus.OpenWithStore(ctx, cfg, "daemon", path, true, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		exclusive bool
		want      string
	}{
		{"second daemon", true, "one referee daemon per database"},
		{"tournament", false, "submit the tournament to it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, closeOther, err := bus.OpenWithStore(ctx, cfg, "other", path, tc.exclusive, zerolog.Nop())
			if err == nil {
				closeOther()
				t.Fatal("opened a database a referee daemon holds")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to say %q", err, tc.want)
			}
		})
	}
	closeBoth()
	_, _, closeAgain, err := bus.OpenWithStore(ctx, cfg, "again", path, true, zerolog.Nop())
	if err != nil {
		t.Fatalf("after closeBoth: %v", err)
	}
	closeAgain()
}
