#!/usr/bin/env bash
# Plays the example engines in a small tournament against built-in agents and checks the
# result; .ci/run calls it. Needs Go, gcc, python3, node and npm.
#
#   bash examples/run-examples.sh
#
# It builds arena, compiles the C engine, installs the JavaScript player's packages
# (npm ci), checks the Python and C engines with `arena check-engine`, starts a NATS
# server, the Python and C engines behind `arena engine` bridges and the JavaScript player
# (which talks NATS itself), and plays a round-robin of py, c, js, random and hp1:
# 20 games. It then asserts that all 20 were played, that every game ended normally (no
# forfeit of any kind), that each example engine played its 8 games, and that once the
# bridges have exited no engine process is left. Every process it starts is ended on the
# way out, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

tmp=$(mktemp -d)
pids=() # every background process started here, in start order

# running tells whether process $1 is alive (a zombie that only waits to be reaped is not).
# The process may end, and its /proc entry go, at any moment, even between a test and a
# read: so there is no test, and a read that fails is "not running". Its error is
# silenced by the braces, since the shell opens a command's redirections in order and
# "<file 2>/dev/null" would report a missing file before the 2>/dev/null applies. (Not
# stat=$(<file): under set -e a missing file there ends the whole script.)
running() {
	local stat
	{ read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
	# The state follows the command name, which is in parentheses and may hold blanks.
	stat=${stat##*) }
	[ "${stat%% *}" != Z ]
}

# stop ends the given processes: SIGTERM, up to 10 s to exit, then SIGKILL.
stop() {
	local p i
	for p in "$@"; do kill -TERM "$p" 2>/dev/null || true; done
	for p in "$@"; do
		for ((i = 0; i < 100; i++)); do running "$p" || break; sleep 0.1; done
		if running "$p"; then
			echo "run-examples: process $p ignored SIGTERM for 10s: killing it" >&2
			kill -KILL "$p" 2>/dev/null || true
		fi
		wait "$p" 2>/dev/null || true
	done
}

# leftovers lists the processes still alive whose command line mentions $tmp: every
# program this script starts runs from there, so these can only be ours.
leftovers() {
	local d pid cmd
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		[ "$pid" != $$ ] || continue
		cmd=$(tr '\0' ' ' 2>/dev/null <"$d/cmdline") || continue
		if [[ $cmd == *"$tmp"* ]] && running "$pid"; then
			echo "$pid $cmd"
		fi
	done
}

cleanup() {
	local rc=$?
	if [ ${#pids[@]} -gt 0 ]; then
		# Players and bridges first (each bridge ends its engine), the NATS server last.
		local rev=() i
		for ((i = ${#pids[@]} - 1; i >= 0; i--)); do rev+=("${pids[i]}"); done
		stop "${rev[@]}"
	fi
	local p
	for p in $(leftovers | cut -d' ' -f1); do kill -KILL "$p" 2>/dev/null || true; done
	if [ "$rc" -ne 0 ]; then
		echo "run-examples: FAILED; the last lines of each log:" >&2
		for f in "$tmp"/*.log; do
			[ -e "$f" ] || continue
			echo "--- $(basename "$f")" >&2
			tail -n 20 "$f" >&2
		done
	fi
	rm -rf "$tmp"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "-- build arena, the C engine, the JavaScript player's packages"
go build -o "$tmp/arena" ./cmd/arena
arena=$tmp/arena
gcc -std=c99 -O2 -Wall -Wextra -pedantic -Werror -o "$tmp/c-engine" examples/c/engine.c
(cd examples/js && npm ci --no-audit --no-fund --loglevel=error)
# The Python engines and the JavaScript player run through links in $tmp, so that
# leftovers() can tell them apart from anything else on the machine.
ln -s "$root/examples/python" "$tmp/python"
ln -s "$root/examples/js" "$tmp/js"

echo "-- check-engine"
"$arena" check-engine -- python3 "$tmp/python/random_engine.py" --seed 1
"$arena" check-engine -- python3 "$tmp/python/greedy_engine.py" --seed 1
"$arena" check-engine -- "$tmp/c-engine"

echo "-- NATS server"
"$arena" server --listen 127.0.0.1:0 >"$tmp/server.log" 2>&1 &
pids+=($!)
server=$!
url=""
for ((i = 0; i < 100; i++)); do
	url=$(sed -n 's/^NATS server listening on \(nats:[^ ]*\).*/\1/p' "$tmp/server.log")
	[ -n "$url" ] && break
	running "$server" || break
	sleep 0.1
done
if [ -z "$url" ]; then
	echo "run-examples: arena server printed no URL" >&2
	exit 1
fi
echo "server at $url"

echo "-- players: py and c through arena engine, js on NATS directly"
"$arena" engine --nats "$url" --name py --game othello -- \
	python3 "$tmp/python/random_engine.py" --seed 1 >"$tmp/py.log" 2>&1 &
pids+=($!)
bridges=($!)
"$arena" engine --nats "$url" --name c --game othello -- "$tmp/c-engine" >"$tmp/c.log" 2>&1 &
pids+=($!)
bridges+=($!)
node "$tmp/js/player.js" "$url" js --seed 1 >"$tmp/js.log" 2>&1 &
pids+=($!)
js=$!

echo "-- tournament"
"$arena" tournament --nats "$url" --players py,c,js,random,hp1 --rounds 1 --tc 500ms \
	--seed 1 --db "$tmp/examples.db" --json --wait 30s >"$tmp/standings.json" 2>"$tmp/tournament.log"
python3 - "$tmp/standings.json" py,c,js <<'EOF'
import json, sys

doc = json.load(open(sys.argv[1]))
examples = sys.argv[2].split(",")
problems = []
if doc.get("games") != 20:
    problems.append(f"{doc.get('games')} games played, want 20")
standings = {s["player"]: s for s in doc.get("standings", [])}
for s in standings.values():
    ends = s.get("terminations", {})
    if set(ends) != {"normal"} or ends["normal"] != s["games"]:
        problems.append(f"{s['player']}: games did not all end normally: {ends}")
for name in examples:
    s = standings.get(name)
    if s is None:
        problems.append(f"{name}: not in the standings")
    elif s["games"] != 8:
        problems.append(f"{name}: {s['games']} games, want 8")
for s in sorted(standings.values(), key=lambda s: s["rank"]):
    print(f"  {s['rank']}. {s['player']:<7} {s['games']} games  +{s['wins']} ={s['draws']} -{s['losses']}"
          f"  {s['score_pct']:.1f}%  {s.get('terminations')}")
if problems:
    print("run-examples: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
EOF

echo "-- stop the players; no engine process may be left"
stop "${bridges[@]}" "$js"
pids=("$server") # the others are gone and reaped: never signal their ids again
for ((i = 0; i < 50; i++)); do
	[ -z "$(leftovers | grep -v ' server --listen 127.0.0.1:0' || true)" ] && break
	sleep 0.1
done
left=$(leftovers | grep -v ' server --listen 127.0.0.1:0' || true)
if [ -n "$left" ]; then
	echo "run-examples: processes left after the bridges exited:" >&2
	echo "$left" >&2
	exit 1
fi
echo "example engines: 20 games, all ended normally"
