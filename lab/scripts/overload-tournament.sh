#!/bin/bash
# overload-tournament.sh: time forfeits on a busy machine. It starts LOOPS busy shell loops
# (default: one per core), plays minimax against hp1 at 100ms a move beside them, and
# prints the standings' last lines (which say when time forfeits were voided because the
# machine was overloaded), the games and time forfeits recorded, and for each time forfeit
# charged whether the forfeiting agent had overrun its own deadline (the player runtime
# logs "agent overran its deadline" in that game) or had answered within it.
#   bash lab/scripts/overload-tournament.sh ARENA [ROUNDS] [LOOPS]
# ARENA is an arena binary (go build -o arena ./cmd/arena); ROUNDS (default 10) rounds of
# two games.
set -u
arena=$(realpath "$1") rounds=${2:-10} loops=${3:-$(nproc)}
dir=$(mktemp -d)
for _ in $(seq "$loops"); do (while :; do :; done) & done
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT
cd "$dir"
echo "$loops busy loops on $(nproc) cores; load $(cut -d' ' -f1 /proc/loadavg)"
start=$(date +%s)
"$arena" tournament --game othello --players minimax,hp1 --rounds "$rounds" --tc 100ms \
	--db t.db --log-level info >standings.txt 2>log.txt
echo "arena tournament exited $? after $(($(date +%s) - start))s; load $(cut -d' ' -f1 /proc/loadavg)"
tail -n 4 standings.txt
grep -h 'machine too overloaded' log.txt standings.txt
echo "voided games (each played again): $(grep -c '"game void: the machine was overloaded' log.txt)"
sqlite3 t.db "select count(*) || ' games recorded, ' || sum(reason = 'time_forfeit') || ' time forfeits charged' from games"
sqlite3 -separator ' ' t.db "select tournament_id, idx, detail from games where reason = 'time_forfeit'" |
	while read -r tid idx detail; do
		who=${detail%%:*}
		if grep "\"game_id\":\"t$tid-$idx\"" log.txt | grep "\"player\":\"$who\"" | grep -q 'overran its deadline'; then
			echo "t$tid-$idx: $detail (the agent overran its own deadline)"
		else
			echo "t$tid-$idx: $detail (CHARGED, though the agent answered within its own deadline)"
		fi
	done
