package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/store"
)

// Real values, made with golang.org/x/crypto/bcrypt (password "s3cret") and
// github.com/nats-io/nkeys (CreateUser, CreateAccount).
const (
	hashCost4  = "$2a$04$5C/zDYHUr2d5x846j/L6OuWpFLW056XjHgjRjQKr8vTU19musNfrC"
	hashCost10 = "$2a$10$bfFR7K9sAvDsLUGcOXfGTuHW/BEO3a3bF8ZTz6JeQ7ujwGR7jmKWO"
	userKey1   = "UCAKK7LRQFBUWG2DY3HJPG2DSGNXUABSEJU5ABL7UJVCCCLGTQA26S4D"
	userKey2   = "UAE6WSM467BUJGVUJE7HP4JUV4BNKSFZSI7JUHNCY4I7NXEBITFQFPR2"
	accountKey = "ABHV42IYT72A6BO2FMWLK37LR54PGY4TE2S2IMTB62DNEWSS2BMLTDKH"
	// userSeed has the shape of an nkey user seed; it is not a real one.
	userSeed = "SUAB" + "CDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGHIJKLMNOPQRSTUVWXYZ"
)

func mustCredential(t testing.TB, db *DB, c store.Credential) {
	t.Helper()
	if err := db.AddCredential(context.Background(), c); err != nil {
		t.Fatal(err)
	}
}

func TestCredentialsRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	db.now = func() time.Time { return t0 }
	if got, err := db.Credentials(ctx); err != nil || len(got) != 0 {
		t.Fatalf("Credentials(empty) = %v, %v", got, err)
	}
	// In another zone and with nanoseconds: it comes back in UTC, to the microsecond.
	created := time.Date(2025, 6, 1, 12, 0, 0, 123456789, time.FixedZone("CEST", 2*3600))
	add := []store.Credential{
		{Name: "zed-bot", Role: store.RolePlayer, Kind: store.CredentialNkey, Public: userKey1},
		{Name: "Admin", Role: store.RoleAdmin, Kind: store.CredentialPassword, Public: hashCost10, Created: created},
		{Name: "referee", Role: store.RoleReferee, Kind: store.CredentialNkey, Public: userKey2},
		{Name: "watcher_1", Role: store.RoleSpectator, Kind: store.CredentialPassword, Public: "$2y$04" + hashCost4[6:]},
		{Name: "alice", Role: store.RolePlayer, Kind: store.CredentialPassword, Public: "$2b$04" + hashCost4[6:]},
	}
	for _, c := range add {
		mustCredential(t, db, c)
	}
	// By name, in byte order: upper case first.
	want := []store.Credential{
		{Name: "Admin", Role: "admin", Kind: "password", Public: hashCost10, Created: time.Date(2025, 6, 1, 10, 0, 0, 123456000, time.UTC)},
		{Name: "alice", Role: "player", Kind: "password", Public: "$2b$04" + hashCost4[6:], Created: t0},
		{Name: "referee", Role: "referee", Kind: "nkey", Public: userKey2, Created: t0},
		{Name: "watcher_1", Role: "spectator", Kind: "password", Public: "$2y$04" + hashCost4[6:], Created: t0},
		{Name: "zed-bot", Role: "player", Kind: "nkey", Public: userKey1, Created: t0},
	}
	got, err := db.Credentials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Credentials:\n got  %+v\n want %+v", got, want)
	}
	var stored string
	if err := db.r.QueryRow("SELECT created FROM credentials WHERE name = 'Admin'").Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != "2025-06-01T10:00:00.123456Z" {
		t.Errorf("created stored as %q, want the store's UTC text", stored)
	}
}

func TestAddCredentialDuplicate(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	first := store.Credential{Name: "alice", Role: store.RolePlayer, Kind: store.CredentialNkey, Public: userKey1, Created: t0}
	mustCredential(t, db, first)
	tests := []struct {
		name string
		c    store.Credential
	}{
		{"same credential", first},
		{"other key", store.Credential{Name: "alice", Role: store.RolePlayer, Kind: store.CredentialNkey, Public: userKey2}},
		{"other kind and role", store.Credential{Name: "alice", Role: store.RoleAdmin, Kind: store.CredentialPassword, Public: hashCost4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := db.AddCredential(ctx, tt.c); !errors.Is(err, store.ErrDuplicate) {
				t.Errorf("AddCredential = %v, want ErrDuplicate", err)
			}
		})
	}
	// Names are case-sensitive, as NATS user names are.
	mustCredential(t, db, store.Credential{Name: "Alice", Role: store.RolePlayer, Kind: store.CredentialNkey, Public: userKey2})
	got, err := db.Credentials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1] != first {
		t.Errorf("after duplicates: %+v; want Alice and the first alice unchanged", got)
	}
}

func TestAddCredentialInvalid(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	pw := func(name, role, public string) store.Credential {
		return store.Credential{Name: name, Role: role, Kind: store.CredentialPassword, Public: public}
	}
	nk := func(public string) store.Credential {
		return store.Credential{Name: "bot", Role: store.RolePlayer, Kind: store.CredentialNkey, Public: public}
	}
	tests := []struct {
		name string
		c    store.Credential
		want string // in the error message
	}{
		{"empty name", pw("", store.RolePlayer, hashCost4), "name"},
		{"name with a space", pw("al ice", store.RolePlayer, hashCost4), "name"},
		{"name with a dot", pw("alice.bot", store.RolePlayer, hashCost4), "name"},
		{"name with a wildcard", pw("alice*", store.RolePlayer, hashCost4), "name"},
		{"name not ASCII", pw("alicé", store.RolePlayer, hashCost4), "name"},
		{"name too long", pw(strings.Repeat("a", 65), store.RolePlayer, hashCost4), "name"},
		{"no role", pw("alice", "", hashCost4), "role"},
		{"role in capitals", pw("alice", "Admin", hashCost4), "role"},
		{"unknown role", pw("alice", "root", hashCost4), "role"},
		{"no kind", store.Credential{Name: "alice", Role: store.RolePlayer, Public: hashCost4}, "kind"},
		{"unknown kind", store.Credential{Name: "alice", Role: store.RolePlayer, Kind: "jwt", Public: hashCost4}, "kind"},
		{"no password hash", pw("alice", store.RolePlayer, ""), "no public key or password hash"},
		{"plain password", pw("alice", store.RolePlayer, "hunter2"), "bcrypt"},
		{"plain password with a bcrypt prefix", pw("alice", store.RolePlayer, "$2a$hunter2"), "bcrypt"},
		{"bcrypt prefix and cost only", pw("alice", store.RolePlayer, "$2a$10$"), "bcrypt"},
		{"bcrypt 2x", pw("alice", store.RolePlayer, "$2x$04"+hashCost4[6:]), "bcrypt"},
		{"bcrypt hash cut short", pw("alice", store.RolePlayer, hashCost4[:59]), "bcrypt"},
		{"bcrypt hash too long", pw("alice", store.RolePlayer, hashCost4+"x"), "bcrypt"},
		{"bcrypt hash with a space", pw("alice", store.RolePlayer, " "+hashCost4[1:]), "bcrypt"},
		{"nkey as a password", pw("alice", store.RolePlayer, userKey1), "bcrypt"},
		{"no nkey", nk(""), "no public key or password hash"},
		{"nkey seed", nk(userSeed), "seed"},
		{"account key", nk(accountKey), "public user key"},
		{"user key in lower case", nk(strings.ToLower(userKey1)), "public user key"},
		{"user key cut short", nk(userKey1[:55]), "public user key"},
		{"user key too long", nk(userKey1 + "A"), "public user key"},
		{"user key with a 0", nk(userKey1[:55] + "0"), "public user key"},
		{"user key with an 8", nk(userKey1[:55] + "8"), "public user key"},
		{"bcrypt hash as an nkey", nk(hashCost4), "public user key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := db.AddCredential(ctx, tt.c)
			if !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("AddCredential = %v, want ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
			// A caller who passes a secret by mistake must not find it in a log.
			if tt.c.Public != "" && strings.Contains(err.Error(), tt.c.Public) {
				t.Errorf("error %q quotes Public", err)
			}
		})
	}
	if n := count(t, db, "credentials"); n != 0 {
		t.Errorf("%d credentials written", n)
	}
}

// TestCredentialsTableChecks writes around AddCredential, as someone in the sqlite3 shell
// would: the table's own checks still keep out unknown roles and kinds and secrets.
func TestCredentialsTableChecks(t *testing.T) {
	db := openTest(t)
	tests := []struct {
		name                   string
		cname, role, kind, pub string
		ok                     bool
	}{
		{"password", "alice", "player", "password", hashCost4, true},
		{"nkey", "bob", "referee", "nkey", userKey1, true},
		{"unknown role", "carol", "root", "password", hashCost4, false},
		{"unknown kind", "carol", "player", "jwt", hashCost4, false},
		{"empty name", "", "player", "password", hashCost4, false},
		{"name with a dot", "carol.x", "player", "password", hashCost4, false},
		{"name too long", strings.Repeat("c", 65), "player", "password", hashCost4, false},
		{"plain password", "carol", "player", "password", "hunter2", false},
		{"empty public", "carol", "player", "password", "", false},
		{"nkey seed", "carol", "player", "nkey", userSeed, false},
		{"account key", "carol", "player", "nkey", accountKey, false},
		{"user key in lower case", "carol", "player", "nkey", strings.ToLower(userKey1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := db.w.Exec("INSERT INTO credentials (name, role, kind, public, created) VALUES (?, ?, ?, ?, ?)",
				tt.cname, tt.role, tt.kind, tt.pub, timeText(t0))
			if ok := err == nil; ok != tt.ok {
				t.Errorf("insert: %v; want ok %v", err, tt.ok)
			}
		})
	}
}

func TestRemoveCredential(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	mustCredential(t, db, store.Credential{Name: "alice", Role: store.RolePlayer, Kind: store.CredentialNkey, Public: userKey1})
	mustCredential(t, db, store.Credential{Name: "bob", Role: store.RolePlayer, Kind: store.CredentialPassword, Public: hashCost4})
	tests := []struct {
		name    string
		remove  string
		wantErr error
		left    []string
	}{
		{"present", "alice", nil, []string{"bob"}},
		{"removed already", "alice", store.ErrNotFound, []string{"bob"}},
		{"never added", "carol", store.ErrNotFound, []string{"bob"}},
		{"other case", "BOB", store.ErrNotFound, []string{"bob"}},
		{"empty name", "", store.ErrNotFound, []string{"bob"}},
		{"the last", "bob", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := db.RemoveCredential(ctx, tt.remove)
			if tt.wantErr == nil && err != nil || !errors.Is(err, tt.wantErr) {
				t.Errorf("RemoveCredential(%q) = %v, want %v", tt.remove, err, tt.wantErr)
			}
			got, err := db.Credentials(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, c := range got {
				names = append(names, c.Name)
			}
			if !reflect.DeepEqual(names, tt.left) {
				t.Errorf("left %v, want %v", names, tt.left)
			}
		})
	}
	// A removed name can be added again, with another key.
	mustCredential(t, db, store.Credential{Name: "alice", Role: store.RoleAdmin, Kind: store.CredentialNkey, Public: userKey2})
}

func TestReopenKeepsCredentials(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "arena.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	mustCredential(t, db, store.Credential{Name: "alice", Role: store.RolePlayer, Kind: store.CredentialNkey, Public: userKey1})
	mustCredential(t, db, store.Credential{Name: "ops", Role: store.RoleAdmin, Kind: store.CredentialPassword, Public: hashCost10})
	before, err := db.Credentials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	after, err := db.Credentials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != 2 || !reflect.DeepEqual(before, after) {
		t.Errorf("credentials changed across reopen:\n before %+v\n after  %+v", before, after)
	}
}

// openAtVersion makes a database the way an Arena that knew only the first version
// migrations left it, applying them as migrate does, with a player in it.
func openAtVersion(t *testing.T, path string, version int) {
	t.Helper()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL) STRICT`); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:version] {
		text, err := fs.ReadFile(migrationFiles, "migrations/"+m.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := raw.Exec(string(text)); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if _, err := raw.Exec("INSERT INTO schema_migrations VALUES (?, ?, '2025-01-01T00:00:00.000000Z')", m.version, m.name); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := raw.Exec(`INSERT INTO players (name, agent, version, created, updated)
		VALUES ('alice', 'minimax', '1', '2025-01-01T00:00:00.000000Z', '2025-01-01T00:00:00.000000Z')`); err != nil {
		t.Fatal(err)
	}
}

func TestMigrateTo0005Credentials(t *testing.T) {
	ctx := context.Background()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) < 5 || ms[4].name != "0005_credentials.sql" {
		t.Fatalf("migration 5 is %v, want 0005_credentials.sql", ms[4:])
	}
	dir := t.TempDir()
	fresh, err := Open(ctx, filepath.Join(dir, "fresh.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if _, ok := schemaOf(t, fresh)["credentials"]; !ok {
		t.Fatal("a fresh database has no credentials table")
	}

	for version := 1; version <= 4; version++ {
		t.Run(fmt.Sprintf("from %d", version), func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("at%d.db", version))
			openAtVersion(t, path, version)
			db, err := Open(ctx, path)
			if err != nil {
				t.Fatalf("Open of a version %d database: %v", version, err)
			}
			defer db.Close()
			if n := count(t, db, "schema_migrations"); n != len(ms) {
				t.Errorf("%d rows in schema_migrations, want %d", n, len(ms))
			}
			if got, want := schemaOf(t, db), schemaOf(t, fresh); !reflect.DeepEqual(got, want) {
				t.Errorf("upgraded schema differs from a fresh one:\n got  %v\n want %v", got, want)
			}
			if got, err := db.Credentials(ctx); err != nil || len(got) != 0 {
				t.Errorf("Credentials after upgrade = %v, %v; want none", got, err)
			}
			mustCredential(t, db, store.Credential{Name: "alice", Role: store.RolePlayer, Kind: store.CredentialNkey, Public: userKey1})
			if got, err := db.Credentials(ctx); err != nil || len(got) != 1 || got[0].Public != userKey1 {
				t.Errorf("Credentials = %v, %v", got, err)
			}
			// The player the old database had is still there: EnsurePlayer updates it.
			mustEnsure(t, db, "alice")
			if n := count(t, db, "players"); n != 1 {
				t.Errorf("%d players, want 1", n)
			}
		})
	}
}
