package auth

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
	"github.com/pelletier/go-toml/v2"
)

// MaxFileSize is the largest credentials file ParseFile reads.
const MaxFileSize = 4 << 10

// ErrMalformed is wrapped by every error about a credentials file's content.
var ErrMalformed = errors.New("auth: malformed credentials file")

// File is what a client needs to connect to a secured bus: its name, its role, and its
// secret (a password or an nkey seed, exactly one). On disk it is a small TOML file:
//
//	name = "alice"
//	role = "player"
//	password = "..."
//
// Commands take it with --credentials FILE.
type File struct {
	Name     string `toml:"name"`
	Role     string `toml:"role"`
	Password string `toml:"password,omitempty"`
	Nkey     string `toml:"nkey,omitempty"`
}

// Kind is CredentialPassword or CredentialNkey, by the secret f holds.
func (f File) Kind() string {
	if f.Nkey != "" {
		return CredentialNkey
	}
	return CredentialPassword
}

// Encode returns the file's text, with a comment saying what it is.
func (f File) Encode() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Arena credentials: %s %q. Keep this file secret: whoever holds it connects as %s.\n", f.Role, f.Name, f.Name)
	fmt.Fprintf(&b, "# Use it with --credentials FILE (arena engine, arena player, arena submit, ...).\n")
	enc, err := toml.Marshal(f)
	if err != nil {
		// Four plain strings always marshal.
		panic(fmt.Sprintf("auth: encode credentials: %v", err))
	}
	b.Write(enc)
	return b.Bytes()
}

// WriteFile writes the file's text to path, which must not exist yet, readable by its
// owner only. It never follows a link left at the path (O_EXCL): in a shared directory, a
// link planted there would otherwise send the secret wherever it points. A file it could
// not finish is removed.
func (f File) WriteFile(path string) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := fh.Write(f.Encode()); err != nil {
		fh.Close()
		os.Remove(path)
		return err
	}
	return fh.Close()
}

// ParseFile decodes a credentials file strictly: TOML with exactly the keys of File, a valid
// name and role, and exactly one secret, a password of printable ASCII without blanks or an
// nkey user seed.
func ParseFile(b []byte) (File, error) {
	if len(b) > MaxFileSize {
		return File{}, fmt.Errorf("%w: %d bytes, more than %d", ErrMalformed, len(b), MaxFileSize)
	}
	var f File
	dec := toml.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		var sme *toml.StrictMissingError
		if errors.As(err, &sme) {
			return File{}, fmt.Errorf("%w: %s", ErrMalformed, strings.TrimSpace(sme.String()))
		}
		return File{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if err := f.check(); err != nil {
		return File{}, err
	}
	return f, nil
}

// ReadFile reads and parses a credentials file; errors name the path.
func ReadFile(path string) (File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return File{}, fmt.Errorf("credentials: %w", err)
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, MaxFileSize+1))
	if err != nil {
		return File{}, fmt.Errorf("credentials %s: %w", path, err)
	}
	f, err := ParseFile(b)
	if err != nil {
		return File{}, fmt.Errorf("credentials %s: %w", path, err)
	}
	return f, nil
}

// checkIdentity checks the name and the role of a credential being made: errors wrap
// ErrName or ErrRole.
func (f File) checkIdentity() error {
	if err := CheckName(f.Name); err != nil {
		return err
	}
	return CheckRole(f.Role)
}

// malformedIdentity is a file's bad name or role: it wraps ErrMalformed and the error
// about the name or role, and says each prefix once.
type malformedIdentity struct{ err error }

func (e malformedIdentity) Error() string {
	return ErrMalformed.Error() + ": " + strings.TrimPrefix(e.err.Error(), "auth: ")
}

func (e malformedIdentity) Unwrap() []error { return []error{ErrMalformed, e.err} }

// check checks a credentials file's content: errors wrap ErrMalformed (and ErrName or
// ErrRole for a bad identity).
func (f File) check() error {
	if err := f.checkIdentity(); err != nil {
		return malformedIdentity{err}
	}
	switch {
	case f.Password == "" && f.Nkey == "":
		return fmt.Errorf("%w: no password and no nkey", ErrMalformed)
	case f.Password != "" && f.Nkey != "":
		return fmt.Errorf("%w: a password and an nkey; want one", ErrMalformed)
	case f.Password != "":
		if len(f.Password) > 256 {
			return fmt.Errorf("%w: password longer than 256 characters", ErrMalformed)
		}
		for _, r := range f.Password {
			if r <= ' ' || r > '~' {
				return fmt.Errorf("%w: the password must be printable ASCII without blanks", ErrMalformed)
			}
		}
	default:
		if _, err := f.keyPair(); err != nil {
			return err
		}
	}
	return nil
}

func (f File) keyPair() (nkeys.KeyPair, error) {
	if !strings.HasPrefix(f.Nkey, "SU") {
		return nil, fmt.Errorf("%w: nkey is not a user seed (SU...)", ErrMalformed)
	}
	kp, err := nkeys.FromSeed([]byte(f.Nkey))
	if err != nil {
		return nil, fmt.Errorf("%w: nkey: %v", ErrMalformed, err)
	}
	return kp, nil
}

// Options are the NATS connection options that present f's credentials and use its role's
// inbox prefix. f must have come from ParseFile, NewPassword or NewNkey.
func (f File) Options() ([]nats.Option, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	var opts []nats.Option
	if p := InboxPrefix(f.Role, f.Name); p != "" {
		opts = append(opts, nats.CustomInboxPrefix(p))
	}
	if f.Password != "" {
		return append(opts, nats.UserInfo(f.Name, f.Password)), nil
	}
	kp, err := f.keyPair()
	if err != nil {
		return nil, err
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, fmt.Errorf("%w: nkey: %v", ErrMalformed, err)
	}
	return append(opts, nats.Nkey(pub, kp.Sign)), nil
}

// ExplainConnect rewrites a failed connection's error into what the user should do: a
// server that wants credentials and got none, or refused the ones given. f is the
// credentials used, nil for none. Other errors pass through unchanged.
func ExplainConnect(url string, err error, f *File) error {
	if err == nil || !errors.Is(err, nats.ErrAuthorization) && !strings.Contains(strings.ToLower(err.Error()), "authorization violation") {
		return err
	}
	if f == nil {
		return fmt.Errorf("the NATS server at %s requires credentials: pass --credentials FILE (made by arena credentials add NAME): %w", url, err)
	}
	return fmt.Errorf("the NATS server at %s refused the credentials of %s %q (wrong %s, or the credential was removed or replaced): %w",
		url, f.Role, f.Name, map[string]string{CredentialPassword: "password", CredentialNkey: "nkey"}[f.Kind()], err)
}

// ReadOptions reads the credentials file at path and returns its connection options
// (Options) with the file; no path is no credentials, and nil options. Errors start
// "credentials", then the path where they are the file's.
func ReadOptions(path string) ([]nats.Option, *File, error) {
	if path == "" {
		return nil, nil, nil
	}
	f, err := ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	opts, err := f.Options()
	if err != nil {
		return nil, nil, fmt.Errorf("credentials %s: %w", path, err)
	}
	return opts, &f, nil
}

// PlayerName returns the name a client connects as with f: name, or f's own name when
// name is "". A player's credential is good for its own name only, since the server lets
// it use no other player's subjects: ok is false when name is another player's. Other
// roles may name themselves as they like.
func (f File) PlayerName(name string) (string, bool) {
	if name == "" {
		name = f.Name
	}
	return name, f.Role != RolePlayer || name == f.Name
}
