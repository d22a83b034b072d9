-- The experience base, format "arena-experience" version 1. Bitboards are stored as
-- signed 64-bit integers (the uint64 cast). No index other than the primary keys: the
-- whole graph is read into memory on open, and the in-memory hash finds positions.
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE nodes (
	id    INTEGER PRIMARY KEY,   -- 0, 1, 2, ... in order of creation
	black INTEGER NOT NULL,
	white INTEGER NOT NULL,
	side  INTEGER NOT NULL,      -- 0 black, 1 white: the side to move
	value INTEGER NOT NULL,      -- backed-up min-max value, black's disc differential
	freq  INTEGER NOT NULL,      -- paths below the node (leaves of the equivalent tree)
	legal INTEGER NOT NULL       -- legal moves (a forced pass counts one; 0 when finished)
) STRICT;

CREATE TABLE arcs (
	parent INTEGER NOT NULL,
	move   INTEGER NOT NULL,     -- square 0..63 of the 8x8 layout, 64 for pass
	child  INTEGER NOT NULL,
	PRIMARY KEY (parent, move)
) STRICT, WITHOUT ROWID;

CREATE TABLE games (
	n         INTEGER PRIMARY KEY, -- 1, 2, ... in order of merging
	game_id   TEXT NOT NULL,
	seat      INTEGER NOT NULL,    -- the experience player's seat
	margin    INTEGER NOT NULL,    -- final disc differential, black's view
	decisions INTEGER NOT NULL,
	hits      INTEGER NOT NULL,
	nodes     INTEGER NOT NULL,    -- nodes in the base after the merge
	new_nodes INTEGER NOT NULL,
	start     TEXT NOT NULL,       -- the initial position, in othello notation
	moves     TEXT NOT NULL,       -- the moves, space separated
	merged    TEXT NOT NULL        -- UTC time of the merge
) STRICT;
