package auth

import (
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
	"golang.org/x/crypto/bcrypt"

	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// Subjects the permissions are made of, beyond those of package protocol.
const (
	// InboxRoot is where every role's private inbox lives: a role's clients receive their
	// answers under InboxPrefix, which no other client may subscribe to.
	InboxRoot = "arena.v1.inbox"
	// RefereeInbox is the inbox prefix of the referee: turn replies come back under it.
	RefereeInbox = InboxRoot + ".referee"
	// APISubjects covers the referee daemon's API (protocol.SubjectAPICreate and the rest).
	APISubjects = "arena.v1.referee.api.>"
	// GameEvents and TournamentEvents are what spectators read.
	GameEvents       = "arena.v1.game.*.events"
	TournamentEvents = "arena.v1.tournament.*.events"
)

// ResponseTTL is how long a player may take to answer a request it received: its
// permission to publish the one reply lasts this long. It is far longer than any move's
// time, since the referee, not the server, decides time-outs.
const ResponseTTL = time.Hour

// PasswordCost is the bcrypt cost of stored password hashes: the server pays it once per
// connection, never per message.
const PasswordCost = bcrypt.DefaultCost

// passwordLength is the length of generated passwords, in characters of passwordAlphabet:
// 24 of 62 symbols is about 143 bits.
const passwordLength = 24

const passwordAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// Credential roles: what a client may do on a secured bus (see Permissions). They are the
// store's, where credentials are kept (store.Credential).
const (
	RolePlayer    = store.RolePlayer    // its own turns and notices, its hello
	RoleSpectator = store.RoleSpectator // game and tournament events, read only
	RoleAdmin     = store.RoleAdmin     // the referee daemon's API (submit, status, cancel, players) and events
	RoleReferee   = store.RoleReferee   // everything: the referee itself on an external NATS server
	RoleHost      = store.RoleHost      // runs submitted engines as their players (arena host)
)

// Credential kinds, the store's.
const (
	CredentialPassword = store.CredentialPassword // Public is a bcrypt hash of the password
	CredentialNkey     = store.CredentialNkey     // Public is the nkey's public user key (starts with U)
)

// Roles lists the roles a credential may have, most restricted first.
var Roles = []string{RolePlayer, RoleSpectator, RoleAdmin, RoleHost, RoleReferee}

// ErrRole is wrapped by errors about an unknown role.
var ErrRole = errors.New("auth: unknown role")

// CheckRole returns an error wrapping ErrRole unless role is one of Roles.
func CheckRole(role string) error {
	for _, r := range Roles {
		if role == r {
			return nil
		}
	}
	return fmt.Errorf("%w %q: want %s", ErrRole, role, strings.Join(Roles, ", "))
}

// RoleUse is how a client of role uses the credentials file file: the arena commands it
// runs with them, one per line ("" for a spectator, which reads the bus with any client).
func RoleUse(role, file string) string {
	switch role {
	case RolePlayer:
		return fmt.Sprintf("The player connects with: arena engine --nats nats://HOST:4222 --credentials %s -- ./my-engine\n"+
			"or submits its engine with: arena submit-engine --nats nats://HOST:4222 --credentials %s engine.tar.gz", file, file)
	case RoleAdmin:
		return fmt.Sprintf("Use it with: arena submit|status|cancel|players --nats nats://HOST:4222 --credentials %s", file)
	case RoleHost:
		return fmt.Sprintf("Use it with: arena host --nats nats://HOST:4222 --credentials %s --dir DIR", file)
	case RoleReferee:
		return fmt.Sprintf("Use it with: arena referee --nats nats://HOST:4222 --credentials %s (with a server configured by arena credentials export)", file)
	}
	return ""
}

// ErrName is wrapped by errors about a name a credential cannot have.
var ErrName = errors.New("auth: invalid name")

// CheckName returns an error wrapping ErrName unless name can name a client: 1 to 64
// letters A-Z and a-z, digits 0-9, '-' and '_', since the name is a token of the NATS
// subjects the client may use (protocol.ValidName).
func CheckName(name string) error {
	if !protocol.ValidName(name) {
		return fmt.Errorf("%w %q: a name is 1 to 64 characters, each a letter A-Z or a-z, a digit 0-9, '-' or '_'", ErrName, name)
	}
	return nil
}

// InboxPrefix is the inbox prefix a client of role and name uses for its requests'
// answers, and the only inbox it may subscribe to. Spectators make no requests and have
// none ("").
func InboxPrefix(role, name string) string {
	switch role {
	case RoleReferee:
		return RefereeInbox
	case RoleSpectator:
		return ""
	default:
		return InboxRoot + "." + role + "." + name
	}
}

// Permissions returns what a client of role and name may publish and subscribe to. See the
// package documentation for what each role may do.
func Permissions(role, name string) (*server.Permissions, error) {
	if err := CheckRole(role); err != nil {
		return nil, err
	}
	if err := protocol.CheckName("name", name); err != nil {
		return nil, err
	}
	switch role {
	case RolePlayer:
		return &server.Permissions{
			// Its hello, and its own engines: submit one, ask how they are doing.
			Publish: &server.SubjectPermission{Allow: []string{
				protocol.HelloSubject(name), protocol.EngineSubmitSubject(name), protocol.EngineStatusSubject(name),
			}},
			Subscribe: &server.SubjectPermission{Allow: []string{
				playerSubjects(name), protocol.SubjectRollCall, InboxPrefix(role, name) + ".>",
			}},
			// One reply to each turn request or other request it received, and no more.
			Response: &server.ResponsePermission{MaxMsgs: 1, Expires: ResponseTTL},
		}, nil
	case RoleSpectator:
		return &server.Permissions{
			Publish:   &server.SubjectPermission{Deny: []string{">"}},
			Subscribe: &server.SubjectPermission{Allow: []string{GameEvents, TournamentEvents}},
		}, nil
	case RoleAdmin:
		return &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: []string{APISubjects}},
			Subscribe: &server.SubjectPermission{Allow: []string{GameEvents, TournamentEvents, InboxPrefix(role, name) + ".>"}},
		}, nil
	case RoleHost:
		return &server.Permissions{
			// Hellos of the players it runs, whoever they are, and the host API.
			Publish: &server.SubjectPermission{Allow: []string{protocol.SubjectHelloNamed, protocol.HostSubjects}},
			Subscribe: &server.SubjectPermission{Allow: []string{
				"arena.v1.player.*.>", protocol.SubjectRollCall, protocol.SubjectHostNew, InboxPrefix(role, name) + ".>",
			}},
			// Its players' turn replies, one to each request.
			Response: &server.ResponsePermission{MaxMsgs: 1, Expires: ResponseTTL},
		}, nil
	default: // referee
		return &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: []string{">"}},
			Subscribe: &server.SubjectPermission{Allow: []string{">"}},
		}, nil
	}
}

// playerSubjects covers a player's turn and game subjects.
func playerSubjects(name string) string {
	return strings.TrimSuffix(protocol.TurnSubject(name), "turn") + ">"
}

// New makes an nkey credential (NewNkey) when nkey is set, and a password credential
// (NewPassword) otherwise.
func New(name, role string, nkey bool) (File, store.Credential, error) {
	if nkey {
		return NewNkey(name, role)
	}
	return NewPassword(name, role)
}

// NewPassword makes a password credential for name in role: the File holds the password
// for the client, the Credential its bcrypt hash for the store (Created left zero: the
// store's now).
func NewPassword(name, role string) (File, store.Credential, error) {
	f := File{Name: name, Role: role}
	if err := f.checkIdentity(); err != nil {
		return File{}, store.Credential{}, err
	}
	pw, err := randomPassword()
	if err != nil {
		return File{}, store.Credential{}, err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(pw), PasswordCost)
	if err != nil {
		return File{}, store.Credential{}, fmt.Errorf("auth: hash password: %w", err)
	}
	f.Password = pw
	return f, store.Credential{Name: name, Role: role, Kind: CredentialPassword, Public: string(hash)}, nil
}

// NewNkey makes an nkey credential for name in role: the File holds the private seed for the
// client, the Credential the public key for the store (Created left zero).
func NewNkey(name, role string) (File, store.Credential, error) {
	f := File{Name: name, Role: role}
	if err := f.checkIdentity(); err != nil {
		return File{}, store.Credential{}, err
	}
	kp, err := nkeys.CreateUser()
	if err != nil {
		return File{}, store.Credential{}, fmt.Errorf("auth: create nkey: %w", err)
	}
	seed, err := kp.Seed()
	if err != nil {
		return File{}, store.Credential{}, fmt.Errorf("auth: nkey seed: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return File{}, store.Credential{}, fmt.Errorf("auth: nkey public key: %w", err)
	}
	f.Nkey = string(seed)
	return f, store.Credential{Name: name, Role: role, Kind: CredentialNkey, Public: pub}, nil
}

func randomPassword() (string, error) {
	b := make([]byte, passwordLength)
	max := big.NewInt(int64(len(passwordAlphabet)))
	for i := range b {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", fmt.Errorf("auth: random password: %w", err)
		}
		b[i] = passwordAlphabet[n.Int64()]
	}
	return string(b), nil
}

// ServerUsers turns stored credentials into the users of a NATS server, each with the
// permissions of its role. A credential that cannot be used (an unknown role or kind, a bad
// name or key) is an error naming it, so that a server never starts with a hole in it.
func ServerUsers(creds []store.Credential) ([]*server.User, []*server.NkeyUser, error) {
	var users []*server.User
	var nks []*server.NkeyUser
	for _, c := range creds {
		perms, err := Permissions(c.Role, c.Name)
		if err != nil {
			return nil, nil, fmt.Errorf("credential %s: %w", c.Name, err)
		}
		switch c.Kind {
		case CredentialPassword:
			if !strings.HasPrefix(c.Public, "$2") {
				return nil, nil, fmt.Errorf("credential %s: the stored password is not a bcrypt hash", c.Name)
			}
			users = append(users, &server.User{Username: c.Name, Password: c.Public, Permissions: perms})
		case CredentialNkey:
			if !nkeys.IsValidPublicUserKey(c.Public) {
				return nil, nil, fmt.Errorf("credential %s: %q is not an nkey user public key", c.Name, c.Public)
			}
			nks = append(nks, &server.NkeyUser{Nkey: c.Public, Permissions: perms})
		default:
			return nil, nil, fmt.Errorf("credential %s: unknown kind %q", c.Name, c.Kind)
		}
	}
	return users, nks, nil
}
