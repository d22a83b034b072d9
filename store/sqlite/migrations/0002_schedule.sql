-- Resume: a tournament keeps what it needs to be taken up again after a crash or a restart.
--
-- tournaments.config is the caller's full description of the tournament (JSON, opaque to the
-- store). schedule holds every game the tournament will play, written with the tournament in
-- one transaction, so the games still to play are the schedule rows without a game at the
-- same idx. games.opening is the opening a game was started from (a JSON array of moves).
-- Existing tournaments get an empty config and no schedule; existing games no opening.

ALTER TABLE tournaments ADD COLUMN config TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(config));

ALTER TABLE games ADD COLUMN opening TEXT NOT NULL DEFAULT '[]' CHECK (json_type(opening) = 'array');

CREATE TABLE schedule (
	tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
	idx           INTEGER NOT NULL CHECK (idx >= 1),
	round         INTEGER NOT NULL CHECK (round >= 0),
	players       TEXT NOT NULL CHECK (json_type(players) = 'array'),
	opening       TEXT NOT NULL DEFAULT '[]' CHECK (json_type(opening) = 'array'),
	opening_index INTEGER NOT NULL DEFAULT 0 CHECK (opening_index >= 0),
	PRIMARY KEY (tournament_id, idx)
) STRICT, WITHOUT ROWID;
