-- A teacher can disable an entry (it plays no more, and its player may not enter again
-- until it is enabled) or remove it (its games count for nobody's rating): two more
-- statuses. SQLite cannot change a CHECK constraint in place, so the table is rebuilt.
CREATE TABLE ladder_entries_new (
	id            INTEGER PRIMARY KEY,
	tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
	player        TEXT NOT NULL,
	version       TEXT NOT NULL,
	status        TEXT NOT NULL CHECK (status IN ('validating', 'active', 'failed', 'retired', 'disabled', 'removed')),
	reason        TEXT NOT NULL DEFAULT '',
	joined        TEXT NOT NULL,
	updated       TEXT NOT NULL,
	UNIQUE (tournament_id, player, version)
) STRICT;

INSERT INTO ladder_entries_new (id, tournament_id, player, version, status, reason, joined, updated)
	SELECT id, tournament_id, player, version, status, reason, joined, updated FROM ladder_entries;

DROP TABLE ladder_entries;

ALTER TABLE ladder_entries_new RENAME TO ladder_entries;
