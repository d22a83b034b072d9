-- Ladders: long-running competitions whose entrants join and leave at any time. An entry
-- is a player name with the version it announced: a player that comes back with a new
-- version is a new entry, and its earlier entries keep their games. ladder_games tags
-- each game of a ladder with its phase and the entries that played it, by seat, in the
-- game's own transaction. ladder_state is the ladder's phase and the caller's data about
-- it (the final phase's schedule, the frozen final standings), kept verbatim.
CREATE TABLE ladder_entries (
	id            INTEGER PRIMARY KEY,
	tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
	player        TEXT NOT NULL,
	version       TEXT NOT NULL,
	status        TEXT NOT NULL CHECK (status IN ('validating', 'active', 'failed', 'retired')),
	reason        TEXT NOT NULL DEFAULT '',
	joined        TEXT NOT NULL,
	updated       TEXT NOT NULL,
	UNIQUE (tournament_id, player, version)
) STRICT;

CREATE TABLE ladder_games (
	game_id       INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
	tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
	phase         TEXT NOT NULL CHECK (phase IN ('validation', 'ladder', 'final')),
	entries       TEXT NOT NULL -- JSON array of ladder_entries ids, by seat
) STRICT;

CREATE INDEX ladder_games_tournament ON ladder_games (tournament_id, game_id);

CREATE TABLE ladder_state (
	tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (id),
	phase         TEXT NOT NULL CHECK (phase IN ('open', 'final', 'finished')),
	data          TEXT NOT NULL DEFAULT '{}',
	updated       TEXT NOT NULL
) STRICT;
