package auth_test

import (
	"testing"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/store"
)

// TestConstantsMatchStore checks that auth and the store spell roles and kinds alike:
// auth's names for them are the store's, whose Credential auth makes and reads.
func TestConstantsMatchStore(t *testing.T) {
	tests := []struct{ name, auth, store string }{
		{"player", auth.RolePlayer, store.RolePlayer},
		{"spectator", auth.RoleSpectator, store.RoleSpectator},
		{"admin", auth.RoleAdmin, store.RoleAdmin},
		{"referee", auth.RoleReferee, store.RoleReferee},
		{"password", auth.CredentialPassword, store.CredentialPassword},
		{"nkey", auth.CredentialNkey, store.CredentialNkey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.auth != tt.store {
				t.Errorf("auth has %q, store has %q", tt.auth, tt.store)
			}
		})
	}
}
