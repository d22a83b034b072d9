-- Arena's first schema.
--
-- Times are TEXT in UTC, fixed width with microseconds ('2006-01-02T15:04:05.000000Z'), so
-- they sort as text, read well in the sqlite3 shell, and SQLite's date functions accept them.
-- NULL means "not set". Lists (a roster, returns, a principal variation) are JSON arrays.

CREATE TABLE players (
	id      INTEGER PRIMARY KEY,
	name    TEXT NOT NULL UNIQUE,
	agent   TEXT NOT NULL DEFAULT '',
	version TEXT NOT NULL DEFAULT '',
	created TEXT NOT NULL,
	updated TEXT NOT NULL
) STRICT;

CREATE TABLE tournaments (
	id           INTEGER PRIMARY KEY,
	game         TEXT NOT NULL,
	format       TEXT NOT NULL DEFAULT '',
	time_control TEXT NOT NULL DEFAULT '',
	rounds       INTEGER NOT NULL DEFAULT 0,
	seed         INTEGER NOT NULL DEFAULT 0,
	players      TEXT NOT NULL DEFAULT '[]',
	status       TEXT NOT NULL CHECK (status IN ('running', 'finished', 'failed', 'cancelled')),
	created      TEXT NOT NULL,
	finished     TEXT
) STRICT;

CREATE TABLE games (
	id             INTEGER PRIMARY KEY,
	tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
	idx            INTEGER NOT NULL CHECK (idx >= 0),
	round          INTEGER NOT NULL,
	game           TEXT NOT NULL,
	result         TEXT NOT NULL,
	reason         TEXT NOT NULL,
	detail         TEXT NOT NULL DEFAULT '',
	returns        TEXT NOT NULL DEFAULT '[]',
	start_position TEXT NOT NULL DEFAULT '',
	final_position TEXT NOT NULL DEFAULT '',
	started        TEXT,
	ended          TEXT,
	UNIQUE (tournament_id, idx)
) STRICT;

CREATE TABLE game_seats (
	game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seat      INTEGER NOT NULL CHECK (seat >= 0),
	player_id INTEGER NOT NULL REFERENCES players (id),
	score     REAL NOT NULL,
	PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;

CREATE INDEX game_seats_player ON game_seats (player_id);

CREATE TABLE moves (
	game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	ply        INTEGER NOT NULL CHECK (ply >= 0),
	seat       INTEGER NOT NULL,
	move       TEXT NOT NULL,
	elapsed_us INTEGER NOT NULL DEFAULT 0,
	depth      INTEGER NOT NULL DEFAULT 0,
	nodes      INTEGER NOT NULL DEFAULT 0,
	score      REAL NOT NULL DEFAULT 0,
	pv         TEXT NOT NULL DEFAULT '', -- '' when none, else a JSON array of moves
	PRIMARY KEY (game_id, ply)
) STRICT, WITHOUT ROWID;

-- One row per rated player per game. The row id orders the changes as they were applied;
-- a player's current rating for a game type is the one with the highest id.
CREATE TABLE ratings (
	id        INTEGER PRIMARY KEY,
	game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	player_id INTEGER NOT NULL REFERENCES players (id),
	game_type TEXT NOT NULL,
	before    REAL NOT NULL,
	after     REAL NOT NULL
) STRICT;

CREATE INDEX ratings_current ON ratings (game_type, player_id, id);
CREATE INDEX ratings_game ON ratings (game_id);
