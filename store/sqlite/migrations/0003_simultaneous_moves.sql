-- In a simultaneous-move game (the prisoner's dilemma) every seat moves at the same ply,
-- so a move is keyed by its game, ply and seat. SQLite cannot change a primary key in
-- place: the table is rebuilt and its rows copied.
CREATE TABLE moves_by_seat (
	game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	ply        INTEGER NOT NULL CHECK (ply >= 0),
	seat       INTEGER NOT NULL CHECK (seat >= 0),
	move       TEXT NOT NULL,
	elapsed_us INTEGER NOT NULL DEFAULT 0,
	depth      INTEGER NOT NULL DEFAULT 0,
	nodes      INTEGER NOT NULL DEFAULT 0,
	score      REAL NOT NULL DEFAULT 0,
	pv         TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (game_id, ply, seat)
) STRICT, WITHOUT ROWID;
INSERT INTO moves_by_seat SELECT game_id, ply, seat, move, elapsed_us, depth, nodes, score, pv FROM moves;
DROP TABLE moves;
ALTER TABLE moves_by_seat RENAME TO moves;
