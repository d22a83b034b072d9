-- Credentials of the clients of a secured NATS bus. A row keeps only what checks a secret:
-- a bcrypt hash of a password, or the public key of an nkey; never the secret itself.
--
-- name is the client's NATS user name (a player's name for a player), with the same rule
-- as protocol.ValidName. The checks repeat what AddCredential checks, so that a row written
-- by hand in the sqlite3 shell cannot hold a plain password: a password's public must have
-- the shape of a bcrypt hash, an nkey's that of a public user key (U and 55 characters of
-- base32).
CREATE TABLE credentials (
	name    TEXT NOT NULL PRIMARY KEY
		CHECK (length(name) BETWEEN 1 AND 64 AND name NOT GLOB '*[^A-Za-z0-9_-]*'),
	role    TEXT NOT NULL CHECK (role IN ('player', 'spectator', 'admin', 'referee')),
	kind    TEXT NOT NULL CHECK (kind IN ('password', 'nkey')),
	public  TEXT NOT NULL CHECK (public <> ''),
	created TEXT NOT NULL,
	CHECK (kind <> 'password' OR (length(public) = 60 AND substr(public, 1, 4) IN ('$2a$', '$2b$', '$2y$'))),
	CHECK (kind <> 'nkey' OR (length(public) = 56 AND public GLOB 'U*' AND public NOT GLOB '*[^A-Z2-7]*'))
) STRICT, WITHOUT ROWID;
