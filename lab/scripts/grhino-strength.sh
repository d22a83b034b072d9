#!/bin/bash
# grhino-strength.sh: the built-in agents against GRhino, a real GTP Othello engine
# (Debian packages grhino grhino-data), level by level, at the same time per move for both.
#   bash lab/scripts/grhino-strength.sh ARENA [TC] [ROUNDS] [LEVELS] [AGENTS]
# ARENA is an arena binary (go build -o arena ./cmd/arena); TC the time per move (default
# 500ms); ROUNDS (default 10) rounds of two games, one with each colour, per pairing;
# LEVELS (default "1 2 3 4 5") GRhino's levels; AGENTS (default "hp1 hp2 minimax") the
# agents. GRhino is told the time with time_settings and time_left. It prints one line per
# pairing: the agent's wins, draws and losses, and how the games ended.
set -u
arena=$(realpath "$1") tc=${2:-500ms} rounds=${3:-10} levels=${4:-1 2 3 4 5} agents=${5:-hp1 hp2 minimax}
dir=$(mktemp -d)
cleanup() {
	kill $(jobs -p) 2>/dev/null
	wait 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
cd "$dir"

"$arena" server --listen 127.0.0.1:0 >server.log 2>&1 &
for _ in $(seq 100); do
	url=$(grep -o 'nats://[0-9.:]*' server.log | head -1)
	[ -n "$url" ] && break
	sleep 0.1
done

for level in $levels; do
	"$arena" engine --nats "$url" --name "grhino$level" --protocol gtp -- /usr/games/gtp-rhino -l "$level" >"engine$level.log" 2>&1 &
	bridge=$!
	for agent in $agents; do
		db="$agent-$level.db"
		"$arena" tournament --nats "$url" --players "$agent,grhino$level" --rounds "$rounds" --tc "$tc" \
			--wait 20s --db "$db" >/dev/null 2>&1
		sqlite3 "$db" "select '$agent vs GRhino level $level at $tc: ' ||
			sum(s.score = 1) || '-' || sum(s.score = 0.5) || '-' || sum(s.score = 0) || ' (win-draw-loss); ends: ' ||
			(select group_concat(n || ' ' || reason, ', ') from (select reason, count(*) n from games group by reason))
			from game_seats s join players p on p.id = s.player_id where p.name = '$agent'"
	done
	kill "$bridge" 2>/dev/null
	wait "$bridge" 2>/dev/null
done
