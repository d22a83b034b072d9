package auth

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
	"golang.org/x/crypto/bcrypt"

	"github.com/arenaref/arena/store"
)

func TestPermissions(t *testing.T) {
	tests := []struct {
		role, name  string
		pub, sub    []string
		denyPublish bool
		responses   bool
	}{
		{RolePlayer, "alice", []string{"arena.v1.lobby.hello.alice", "arena.v1.engines.submit.alice", "arena.v1.engines.status.alice"},
			[]string{"arena.v1.player.alice.>", "arena.v1.lobby.rollcall", "arena.v1.inbox.player.alice.>"}, false, true},
		{RoleSpectator, "watcher", nil, []string{GameEvents, TournamentEvents}, true, false},
		{RoleAdmin, "teacher", []string{APISubjects},
			[]string{GameEvents, TournamentEvents, "arena.v1.inbox.admin.teacher.>"}, false, false},
		{RoleHost, "lab", []string{"arena.v1.lobby.hello.*", "arena.v1.host.>"},
			[]string{"arena.v1.player.*.>", "arena.v1.lobby.rollcall", "arena.v1.host.new", "arena.v1.inbox.host.lab.>"}, false, true},
		{RoleReferee, "ref", []string{">"}, []string{">"}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.role, func(t *testing.T) {
			p, err := Permissions(tt.role, tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Publish.Allow, tt.pub) {
				t.Errorf("publish allow = %v, want %v", p.Publish.Allow, tt.pub)
			}
			if got := len(p.Publish.Deny) > 0; got != tt.denyPublish {
				t.Errorf("publish deny = %v", p.Publish.Deny)
			}
			if !reflect.DeepEqual(p.Subscribe.Allow, tt.sub) {
				t.Errorf("subscribe allow = %v, want %v", p.Subscribe.Allow, tt.sub)
			}
			if got := p.Response != nil; got != tt.responses {
				t.Errorf("responses = %v, want %v", p.Response, tt.responses)
			}
			if p.Response != nil && p.Response.MaxMsgs != 1 {
				t.Errorf("a player may answer each request %d times, want once", p.Response.MaxMsgs)
			}
		})
	}
	for _, bad := range [][2]string{{"king", "alice"}, {RolePlayer, "a.b"}, {RolePlayer, "*"}, {RolePlayer, ""}, {RolePlayer, ">"}} {
		if _, err := Permissions(bad[0], bad[1]); err == nil {
			t.Errorf("Permissions(%q, %q): no error", bad[0], bad[1])
		}
	}
}

func TestAPISubjectsCoverTheAPI(t *testing.T) {
	for _, s := range []string{"arena.v1.referee.api.create", "arena.v1.referee.api.status", "arena.v1.referee.api.cancel", "arena.v1.referee.api.players"} {
		if !server.SubjectsCollide(APISubjects, s) {
			t.Errorf("%s is not covered by %s", s, APISubjects)
		}
	}
}

func TestNewCredentials(t *testing.T) {
	t.Run("password", func(t *testing.T) {
		f, c, err := NewPassword("alice", RolePlayer)
		if err != nil {
			t.Fatal(err)
		}
		if c.Kind != CredentialPassword || c.Name != "alice" || c.Role != RolePlayer {
			t.Errorf("credential = %+v", c)
		}
		if strings.Contains(c.Public, f.Password) || len(f.Password) != passwordLength {
			t.Errorf("the store would keep the password %q (public %q)", f.Password, c.Public)
		}
		if err := bcrypt.CompareHashAndPassword([]byte(c.Public), []byte(f.Password)); err != nil {
			t.Errorf("the hash does not check the password: %v", err)
		}
		g, _, _ := NewPassword("alice", RolePlayer)
		if g.Password == f.Password {
			t.Error("two passwords are the same")
		}
	})
	t.Run("nkey", func(t *testing.T) {
		f, c, err := NewNkey("bob", RoleAdmin)
		if err != nil {
			t.Fatal(err)
		}
		if c.Kind != CredentialNkey || !strings.HasPrefix(c.Public, "U") || !strings.HasPrefix(f.Nkey, "SU") {
			t.Errorf("credential %+v, seed %.2s...", c, f.Nkey)
		}
		if strings.Contains(c.Public, f.Nkey) {
			t.Error("the store would keep the seed")
		}
	})
	t.Run("bad identity", func(t *testing.T) {
		// A name being made is not a file's content: not "malformed credentials file".
		if _, _, err := NewPassword("a b", RolePlayer); !errors.Is(err, ErrName) || errors.Is(err, ErrMalformed) {
			t.Errorf("bad name: %v", err)
		}
		if _, _, err := NewNkey("bad name!", RolePlayer); !errors.Is(err, ErrName) || !strings.Contains(err.Error(), "A-Z") {
			t.Errorf("bad name: %v", err)
		}
		if _, _, err := NewNkey("bob", "root"); !errors.Is(err, ErrRole) {
			t.Errorf("bad role: %v", err)
		}
	})
}

func TestFileRoundTrip(t *testing.T) {
	pw, _, _ := NewPassword("alice", RolePlayer)
	nk, _, _ := NewNkey("carol", RoleSpectator)
	for _, f := range []File{pw, nk} {
		t.Run(f.Kind(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.cred")
			if err := os.WriteFile(path, f.Encode(), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != f {
				t.Errorf("read back %+v, want %+v", got, f)
			}
			if _, err := got.Options(); err != nil {
				t.Errorf("options: %v", err)
			}
		})
	}
}

func TestParseFileErrors(t *testing.T) {
	nk, _, _ := NewNkey("carol", RolePlayer)
	tests := []struct{ name, text, want string }{
		{"empty", "", "name"},
		{"no secret", "name = \"a\"\nrole = \"player\"\n", "no password and no nkey"},
		{"not toml", "name = alice\n", "malformed"},
		{"unknown key", "name = \"a\"\nrole = \"player\"\npassword = \"x\"\nadmin = true\n", "admin"},
		{"both secrets", "name = \"a\"\nrole = \"player\"\npassword = \"x\"\nnkey = \"" + nk.Nkey + "\"\n", "want one"},
		{"bad name", "name = \"a.b\"\nrole = \"player\"\npassword = \"x\"\n", "name"},
		{"bad role", "name = \"a\"\nrole = \"god\"\npassword = \"x\"\n", "unknown role"},
		{"blank in password", "name = \"a\"\nrole = \"player\"\npassword = \"x y\"\n", "printable"},
		{"public key for seed", "name = \"a\"\nrole = \"player\"\nnkey = \"UAB\"\n", "user seed"},
		{"bad seed", "name = \"a\"\nrole = \"player\"\nnkey = \"SUAAAA\"\n", "nkey"},
		{"wrong type", "name = 3\nrole = \"player\"\npassword = \"x\"\n", "malformed"},
		{"too big", strings.Repeat("#", MaxFileSize+1), "bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFile([]byte(tt.text))
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseFile: %v, want ErrMalformed mentioning %q", err, tt.want)
			}
		})
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing file: %v", err)
	}
}

func FuzzParseFile(f *testing.F) {
	pw, _, _ := NewPassword("alice", RolePlayer)
	nk, _, _ := NewNkey("bob", RoleAdmin)
	f.Add(pw.Encode())
	f.Add(nk.Encode())
	f.Add([]byte("name = \"a\"\nrole = \"player\"\npassword = \"\"\n"))
	f.Add([]byte("[x]\ny = 1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := ParseFile(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error not wrapping ErrMalformed: %v", err)
			}
			return
		}
		// What parses must survive a round trip and make connection options.
		again, err := ParseFile(got.Encode())
		if err != nil || again != got {
			t.Fatalf("round trip: %+v, %v; want %+v", again, err, got)
		}
		if _, err := got.Options(); err != nil {
			t.Fatalf("options of a parsed file: %v", err)
		}
	})
}

func TestServerUsers(t *testing.T) {
	_, pw := mustPassword(t, "alice", RolePlayer)
	_, nk := mustNkey(t, "ref", RoleReferee)
	users, nks, err := ServerUsers([]store.Credential{pw, nk})
	if err != nil {
		t.Fatal(err)
	}
	if len(users) != 1 || users[0].Username != "alice" || users[0].Password != pw.Public {
		t.Errorf("users = %+v", users)
	}
	if len(nks) != 1 || nks[0].Nkey != nk.Public {
		t.Errorf("nkeys = %+v", nks)
	}
	for _, bad := range []store.Credential{
		{Name: "x", Role: RolePlayer, Kind: CredentialPassword, Public: "plain"},
		{Name: "x", Role: RolePlayer, Kind: CredentialNkey, Public: "SUABC"},
		{Name: "x", Role: "boss", Kind: CredentialPassword, Public: pw.Public},
		{Name: "x", Role: RolePlayer, Kind: "token", Public: "t"},
	} {
		if _, _, err := ServerUsers([]store.Credential{bad}); err == nil {
			t.Errorf("ServerUsers(%+v): no error", bad)
		}
	}
}

// TestExportConfig checks the exported configuration with nats-server's own parser: it
// must give the server exactly the users and permissions the embedded server gets.
func TestExportConfig(t *testing.T) {
	var creds []store.Credential
	for _, role := range Roles {
		_, c := mustPassword(t, "pw-"+role, role)
		_, k := mustNkey(t, "nk-"+role, role)
		creds = append(creds, c, k)
	}
	path := filepath.Join(t.TempDir(), "nats.conf")
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := ExportConfig(fh, creds, Limits{MaxPayload: 65536, MaxConnections: 77}, "127.0.0.1:4333"); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	opts, err := server.ProcessConfigFile(path)
	if err != nil {
		b, _ := os.ReadFile(path)
		t.Fatalf("nats-server cannot read the export: %v\n%s", err, b)
	}
	if opts.MaxPayload != 65536 || opts.MaxConn != 77 || opts.Host != "127.0.0.1" || opts.Port != 4333 {
		t.Errorf("limits: payload %d, conns %d, listen %s:%d", opts.MaxPayload, opts.MaxConn, opts.Host, opts.Port)
	}
	users, nks, err := ServerUsers(creds)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(opts.Users, func(i, j int) bool { return opts.Users[i].Username < opts.Users[j].Username })
	sort.Slice(users, func(i, j int) bool { return users[i].Username < users[j].Username })
	if len(opts.Users) != len(users) || len(opts.Nkeys) != len(nks) {
		t.Fatalf("exported %d users and %d nkeys, want %d and %d", len(opts.Users), len(opts.Nkeys), len(users), len(nks))
	}
	for i, u := range users {
		got := opts.Users[i]
		if got.Username != u.Username || got.Password != u.Password || !samePermissions(got.Permissions, u.Permissions) {
			t.Errorf("user %s: exported %+v %s, want %+v %s", u.Username, got, permissionsText(got.Permissions), u, permissionsText(u.Permissions))
		}
	}
	for _, u := range nks {
		found := false
		for _, got := range opts.Nkeys {
			if got.Nkey == u.Nkey {
				found = true
				if !samePermissions(got.Permissions, u.Permissions) {
					t.Errorf("nkey %s: exported %s, want %s", u.Nkey, permissionsText(got.Permissions), permissionsText(u.Permissions))
				}
			}
		}
		if !found {
			t.Errorf("nkey %s not exported", u.Nkey)
		}
	}
}

func samePermissions(a, b *server.Permissions) bool {
	same := func(x, y *server.SubjectPermission) bool {
		if x == nil || y == nil {
			return x == nil && y == nil
		}
		return reflect.DeepEqual(x.Allow, y.Allow) && reflect.DeepEqual(x.Deny, y.Deny)
	}
	if !same(a.Publish, b.Publish) || !same(a.Subscribe, b.Subscribe) {
		return false
	}
	if a.Response == nil || b.Response == nil {
		return a.Response == nil && b.Response == nil
	}
	return *a.Response == *b.Response
}

func mustPassword(t testing.TB, name, role string) (File, store.Credential) {
	t.Helper()
	f, c, err := NewPassword(name, role)
	if err != nil {
		t.Fatal(err)
	}
	return f, c
}

func mustNkey(t testing.TB, name, role string) (File, store.Credential) {
	t.Helper()
	f, c, err := NewNkey(name, role)
	if err != nil {
		t.Fatal(err)
	}
	return f, c
}

// TestWriteFile writes a credentials file readable by its owner only, and refuses a path
// that exists, a link above all, whose target it leaves alone.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	for _, nkey := range []bool{false, true} {
		f, c, err := New("alice", store.RolePlayer, nkey)
		if err != nil || c.Name != "alice" || (c.Kind == CredentialNkey) != nkey {
			t.Fatalf("New(nkey %v) = %+v, %v", nkey, c, err)
		}
		path := filepath.Join(dir, fmt.Sprintf("alice-%v.cred", nkey))
		if err := f.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("mode %v (%v), want 0600", st.Mode(), err)
		}
		if back, err := ReadFile(path); err != nil || back != f {
			t.Errorf("read back %+v, %v", back, err)
		}
		if err := f.WriteFile(path); !errors.Is(err, fs.ErrExist) {
			t.Errorf("a second write: %v, want ErrExist", err)
		}
	}
	target := filepath.Join(dir, "target")
	if err := os.Symlink(target, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	f, _, _ := New("bob", store.RolePlayer, false)
	if err := f.WriteFile(filepath.Join(dir, "link")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a write through a link: %v, want ErrExist", err)
	}
	if _, err := os.Stat(target); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the link's target was written: %v", err)
	}
}

func TestRoleUse(t *testing.T) {
	tests := []struct {
		role string
		want string // the command the role runs; "" for none
	}{
		{RolePlayer, "arena engine --nats nats://HOST:4222 --credentials x.cred"},
		{RoleAdmin, "arena submit|status|cancel|players --nats nats://HOST:4222 --credentials x.cred"},
		{RoleHost, "arena host --nats nats://HOST:4222 --credentials x.cred"},
		{RoleReferee, "arena referee --nats nats://HOST:4222 --credentials x.cred"},
		{RoleSpectator, ""},
	}
	for _, tt := range tests {
		got := RoleUse(tt.role, "x.cred")
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("RoleUse(%s) = %q, want one with %q", tt.role, got, tt.want)
		}
	}
	if got := RoleUse(RolePlayer, "x.cred"); !strings.Contains(got, "arena submit-engine --nats nats://HOST:4222 --credentials x.cred engine.tar.gz") {
		t.Errorf("a player's use %q does not say how to submit an engine", got)
	}
}
