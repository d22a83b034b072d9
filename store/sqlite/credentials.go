package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/arenaref/arena/internal/names"
	"github.com/arenaref/arena/store"
)

var (
	// bcryptRE is the shape of a bcrypt hash: $2a$, $2b$ or $2y$, a two-digit cost, $, and
	// 53 characters of bcrypt's base64 (22 of salt, 31 of hash). NATS takes a password
	// that starts with $ but is not a bcrypt hash as a plain-text password, so anything
	// less than the whole shape would let a secret through.
	bcryptRE = regexp.MustCompile(`^\$2[aby]\$[0-9]{2}\$[./A-Za-z0-9]{53}$`)
	// nkeyUserRE is the shape of an nkey's public user key: U and 55 characters of base32.
	// The checksum inside is not verified; the NATS server rejects a key that fails it.
	nkeyUserRE = regexp.MustCompile(`^U[A-Z2-7]{55}$`)
)

// checkCredential says what is wrong with c, if anything. It never quotes c.Public: a
// caller that passes a secret by mistake must not find it in an error message or a log.
func checkCredential(c *store.Credential) error {
	if !names.Valid(c.Name) {
		return fmt.Errorf("name %q must be 1-64 characters of A-Z a-z 0-9 - _", c.Name)
	}
	switch c.Role {
	case store.RolePlayer, store.RoleSpectator, store.RoleAdmin, store.RoleReferee, store.RoleHost:
	default:
		return fmt.Errorf("role %q is not player, spectator, admin, referee or host", c.Role)
	}
	switch {
	case c.Kind != store.CredentialPassword && c.Kind != store.CredentialNkey:
		return fmt.Errorf("kind %q is not password or nkey", c.Kind)
	case c.Public == "":
		return errors.New("no public key or password hash")
	case c.Kind == store.CredentialPassword && !bcryptRE.MatchString(c.Public):
		return errors.New("a password credential's Public must be a bcrypt hash ($2a$, $2b$ or $2y$, cost, salt and hash), never the password")
	case c.Kind == store.CredentialNkey && !nkeyUserRE.MatchString(c.Public):
		if strings.HasPrefix(c.Public, "S") {
			return errors.New("an nkey credential's Public must be the public user key; this looks like a seed, which must never be stored")
		}
		return errors.New("an nkey credential's Public must be a public user key: U and 55 characters of A-Z 2-7")
	}
	return nil
}

// AddCredential adds c; a zero c.Created means now. It fails with store.ErrInvalid, writing
// nothing, when c.Name is not a valid name (the protocol's rule, internal/names), c.Role or
// c.Kind is not one of the store's constants, or c.Public is not a bcrypt hash (for a
// password) or an nkey's public user key (for an nkey); and with store.ErrDuplicate when a
// credential of that name exists, whatever its role or kind. Replacing a credential is
// RemoveCredential then AddCredential.
func (db *DB) AddCredential(ctx context.Context, c store.Credential) error {
	if err := checkCredential(&c); err != nil {
		return fmt.Errorf("add credential %q: %w: %v", c.Name, store.ErrInvalid, err)
	}
	if c.Created.IsZero() {
		c.Created = db.now()
	}
	res, err := db.w.ExecContext(ctx, `INSERT INTO credentials (name, role, kind, public, created)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
		c.Name, c.Role, c.Kind, c.Public, timeText(c.Created))
	if err != nil {
		return fmt.Errorf("add credential %q: %w", c.Name, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("add credential %q: %w", c.Name, err)
	} else if n == 0 {
		return fmt.Errorf("add credential %q: %w", c.Name, store.ErrDuplicate)
	}
	return nil
}

// Credentials returns every credential, by name.
func (db *DB) Credentials(ctx context.Context) ([]store.Credential, error) {
	var out []store.Credential
	err := each(ctx, db.r, "SELECT name, role, kind, public, created FROM credentials ORDER BY name", nil,
		func(rows *sql.Rows) error {
			var c store.Credential
			var created sql.NullString
			if err := rows.Scan(&c.Name, &c.Role, &c.Kind, &c.Public, &created); err != nil {
				return err
			}
			var err error
			if c.Created, err = parseTime(created); err != nil {
				return fmt.Errorf("credential %q: %w", c.Name, err)
			}
			out = append(out, c)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("credentials: %w", err)
	}
	return out, nil
}

// RemoveCredential removes the credential called name. It fails with store.ErrNotFound
// when there is none.
func (db *DB) RemoveCredential(ctx context.Context, name string) error {
	res, err := db.w.ExecContext(ctx, "DELETE FROM credentials WHERE name = ?", name)
	if err != nil {
		return fmt.Errorf("remove credential %q: %w", name, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("remove credential %q: %w", name, err)
	} else if n == 0 {
		return fmt.Errorf("remove credential %q: %w", name, store.ErrNotFound)
	}
	return nil
}
