#!/bin/bash
# engine-faults.sh: what one engine's misbehaviour costs, in games, behind `arena engine`.
# For each misbehaviour it starts an arena server, the misbehaving engine behind
# `arena engine`, and a tournament of the engine against hp1, then prints how the games
# ended. Each misbehaviour strikes once (fakeengine --once), so every game but one should
# end normally; the GTP rows run GRhino (Debian packages grhino grhino-data) untouched.
#   bash lab/scripts/engine-faults.sh ARENA FAKEENGINE [ROUNDS]
# ARENA is an arena binary (go build -o arena ./cmd/arena), FAKEENGINE one of
# internal/cmd/fakeengine (go build -o fakeengine ./internal/cmd/fakeengine). ROUNDS (default 10)
# rounds of two games each are played per row at 200ms a move, one game at a time unless
# the row says otherwise.
set -u
arena=$(realpath "$1") fake=$(realpath "$2") rounds=${3:-10}
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

# row NAME CONCURRENCY TC ENGINE-ARGS...: one tournament, and a line saying how it went,
# with the size of the bridge's log. ONLY, when set, is a regular expression of the rows to
# run (the fenced rows need an arena that knows the fence: an older one never starts them).
row() {
	local name=$1 conc=$2 tc=$3
	shift 3
	if [ -n "${ONLY:-}" ] && ! [[ $name =~ $ONLY ]]; then
		return
	fi
	rm -f once
	"$arena" engine --nats "$url" --name fake --quit-timeout 500ms "$@" >"$name.log" 2>&1 &
	local bridge=$!
	"$arena" tournament --nats "$url" --players fake,hp1 --rounds "$rounds" --tc "$tc" \
		--concurrency "$conc" --wait 20s --db "$name.db" >/dev/null 2>&1
	kill "$bridge" 2>/dev/null
	wait "$bridge" 2>/dev/null
	local by
	by=$(sqlite3 "$name.db" "select group_concat(n || ' ' || reason, ', ') from
		(select reason, count(*) n from games group by reason order by n desc)")
	local lost
	lost=$(sqlite3 "$name.db" "select count(*) from games g join game_seats s on s.game_id = g.id
		join players p on p.id = s.player_id where p.name = 'fake' and s.score = 0
		and g.reason not in ('normal', 'max_plies', 'aborted')")
	printf '%-34s %3s games lost by the engine; all: %s; bridge log %s KiB\n' "$name" "$lost" "$by" "$(($(wc -c <"$name.log") / 1024))"
}

row "flood 4 MiB once" 1 200ms -- "$fake" --behave flood --ply 10 --once once
row "stall 3s once" 1 200ms -- "$fake" --behave slow-move --delay 3s --ply 10 --once once
row "crash once" 1 200ms -- "$fake" --behave crash --ply 10 --once once
row "crash once, 2 games at a time" 2 500ms -- "$fake" --behave crash --ply 10 --once once
row "stray line once" 1 200ms -- "$fake" --behave stray --ply 10 --once once
row "stray line once, fenced" 1 200ms -- "$fake" --behave stray,fence --ply 10 --once once
row "bursts 4x1 MiB once" 1 200ms -- "$fake" --behave burst --ply 10 --once once
row "bursts 4x1 MiB once, fenced" 1 200ms -- "$fake" --behave burst,fence --ply 10 --once once
row "256 KiB stderr a move" 1 200ms -- "$fake" --behave stderr-flood
if [ -x /usr/games/gtp-rhino ]; then
	row "GRhino -l 1 (GTP, passes)" 1 200ms --protocol gtp -- /usr/games/gtp-rhino -l 1
fi
