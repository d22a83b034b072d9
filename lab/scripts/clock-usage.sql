-- How a player spends a game clock, from an Arena database: its time per move, by its
-- move number, over every game it played, and the games it lost on time.
--   sqlite3 -header -column arena.db -cmd ".parameter set @player minimax" < lab/scripts/clock-usage.sql
WITH mine AS (
	SELECT m.game_id, m.elapsed_us,
		row_number() OVER (PARTITION BY m.game_id ORDER BY m.ply) AS n
	FROM moves m
	JOIN game_seats s ON s.game_id = m.game_id AND s.seat = m.seat
	JOIN players p ON p.id = s.player_id
	WHERE p.name = @player
)
SELECT printf('%2d-%2d', (n - 1) / 5 * 5 + 1, (n - 1) / 5 * 5 + 5) AS its_moves,
	count(*) AS moves,
	printf('%.0f', avg(elapsed_us) / 1000.0) AS mean_ms,
	printf('%.0f', max(elapsed_us) / 1000.0) AS max_ms
FROM mine GROUP BY (n - 1) / 5 ORDER BY (n - 1) / 5;

WITH per_game AS (
	SELECT m.game_id, sum(m.elapsed_us) / 1e6 AS used_s, count(*) AS moves
	FROM moves m
	JOIN game_seats s ON s.game_id = m.game_id AND s.seat = m.seat
	JOIN players p ON p.id = s.player_id
	WHERE p.name = @player
	GROUP BY m.game_id
)
SELECT count(*) AS games,
	printf('%.1f', avg(used_s)) AS mean_s_used_per_game,
	printf('%.1f', max(used_s)) AS max_s_used_per_game,
	printf('%.1f', avg(moves)) AS mean_moves,
	(SELECT count(*) FROM games g JOIN game_seats s ON s.game_id = g.id JOIN players p ON p.id = s.player_id
		WHERE p.name = @player AND g.reason = 'time_forfeit' AND s.score = 0) AS lost_on_time
FROM per_game;
