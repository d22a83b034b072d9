-- Reading lists of games without their moves: the web view's tournament and player pages
-- and a game looked up by id. games.plies is the number of plies the players played (a
-- simultaneous ply once, the opening not counted), so a games list needs no move row;
-- existing games count theirs here. A player's rating changes are found by player.
ALTER TABLE games ADD COLUMN plies INTEGER NOT NULL DEFAULT 0 CHECK (plies >= 0);

UPDATE games SET plies = (SELECT count(DISTINCT m.ply) FROM moves m WHERE m.game_id = games.id);

CREATE INDEX ratings_player ON ratings (player_id, id);
