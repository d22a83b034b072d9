#!/bin/bash
# load-check.sh: time forfeits of two arena binaries (before and after a change) on a busy
# machine. It starts LOOPS busy loops (default: one per core), then alternates the binaries
# on the README's tournament (random, hp1, hp2 at 100ms, RUNS times each) and on a
# tournament with minimax at 50ms and four games at once (RUNS4 times each), and prints
# each run's games, time forfeits, and how late each forfeit's reply came (in ms, when the
# binary records it).
#   bash lab/scripts/load-check.sh OLD_ARENA NEW_ARENA [LOOPS] [RUNS] [RUNS4]
set -u
old=$(realpath "$1") new=$(realpath "$2")
loops=${3:-$(nproc)} runs=${4:-5} runs4=${5:-2}
dir=$(mktemp -d)
cd "$dir"
for _ in $(seq "$loops"); do (while :; do :; done) & done
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT
sleep 2
echo "$loops busy loops on $(nproc) cores"
count() {
	sqlite3 "$1" "select count(*) || ' games, ' || sum(reason = 'time_forfeit') || ' time forfeits' from games" | tr -d '\n'
	sqlite3 "$1" "select coalesce(', late by ' || group_concat(printf('%.1f', late_ms), ' '), '') from games where late_ms is not null" 2>/dev/null | tr -d '\n'
	echo "; load $(cut -d' ' -f1 /proc/loadavg)"
}
for i in $(seq "$runs"); do
	for v in old new; do
		"${!v}" tournament --game othello --players random,hp1,hp2 --rounds 2 --tc 100ms --db "readme-$v-$i.db" >/dev/null 2>&1
		echo "README tournament, $v, run $i: $(count "readme-$v-$i.db")"
	done
done
for i in $(seq "$runs4"); do
	for v in old new; do
		"${!v}" tournament --game othello --players random,hp1,hp2,minimax --rounds 4 --tc 50ms --concurrency 4 --db "c4-$v-$i.db" >/dev/null 2>&1
		echo "minimax at 50ms, 4 at once, $v, run $i: $(count "c4-$v-$i.db")"
	done
done
