-- Engines submitted to be hosted (arena submit-engine), every version of every player: the
-- archive as it came (the last column, so that lists never read it), its manifest's text,
-- and where its host has got with it. version counts a player's submissions from 1; size
-- and sha256 are the archive's; log is the tail (at most 4096 bytes) of the build log or
-- of the engine's standard error that came with the latest state, and updated when the
-- state last changed.
CREATE TABLE engine_submissions (
	id           INTEGER PRIMARY KEY,
	name         TEXT NOT NULL
		CHECK (length(name) BETWEEN 1 AND 64 AND name NOT GLOB '*[^A-Za-z0-9_-]*'),
	version      INTEGER NOT NULL CHECK (version >= 1),
	created      TEXT NOT NULL,
	updated      TEXT NOT NULL,
	archive_name TEXT NOT NULL DEFAULT '' CHECK (length(CAST(archive_name AS BLOB)) <= 255),
	size         INTEGER NOT NULL CHECK (size > 0),
	sha256       TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
	manifest     TEXT NOT NULL,
	state        TEXT NOT NULL
		CHECK (state IN ('submitted', 'building', 'build_failed', 'built', 'running', 'run_failed', 'stopped')),
	log          TEXT NOT NULL DEFAULT '' CHECK (length(CAST(log AS BLOB)) <= 4096),
	archive      BLOB NOT NULL,
	CHECK (size = length(archive)),
	UNIQUE (name, version)
) STRICT;

-- The host role (arena host) joins the credential roles. SQLite cannot change a CHECK, so
-- the table is made again with the new one, as 0005 made it otherwise.
CREATE TABLE credentials_new (
	name    TEXT NOT NULL PRIMARY KEY
		CHECK (length(name) BETWEEN 1 AND 64 AND name NOT GLOB '*[^A-Za-z0-9_-]*'),
	role    TEXT NOT NULL CHECK (role IN ('player', 'spectator', 'admin', 'referee', 'host')),
	kind    TEXT NOT NULL CHECK (kind IN ('password', 'nkey')),
	public  TEXT NOT NULL CHECK (public <> ''),
	created TEXT NOT NULL,
	CHECK (kind <> 'password' OR (length(public) = 60 AND substr(public, 1, 4) IN ('$2a$', '$2b$', '$2y$'))),
	CHECK (kind <> 'nkey' OR (length(public) = 56 AND public GLOB 'U*' AND public NOT GLOB '*[^A-Z2-7]*'))
) STRICT, WITHOUT ROWID;
INSERT INTO credentials_new (name, role, kind, public, created)
	SELECT name, role, kind, public, created FROM credentials;
DROP TABLE credentials;
ALTER TABLE credentials_new RENAME TO credentials;
