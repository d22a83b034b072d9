#!/bin/sh
# Seed 002 (Osman and Mandziuk) on give-away checkers: TD(lambda) and TDLeaf(lambda)
# learners searching 4 plies, with the LB, LL and L3 strategies, trained against a pool
# of 25 tanh-linear opponents with random weights in (-10, 10) and tested, before
# training and every EVERY games, against 100 other random-weight opponents (one game
# with each colour against each). See docs/learning.md, "Give-away checkers: TD against
# TDLeaf (seed 002)".
#
# Run from the repository root: sh lab/scripts/seed002-giveaway.sh
# Settings (environment): GAMES (4000), EVERY (1000), SEEDS ("1 2"), JOBS (2: runs in
# parallel), LAMBDA (0.95), OUT (seed002-out: the arena binary, weights, curves and logs
# go there).
set -eu
GAMES=${GAMES:-4000}
EVERY=${EVERY:-1000}
SEEDS=${SEEDS:-"1 2"}
JOBS=${JOBS:-2}
LAMBDA=${LAMBDA:-0.95}
OUT=${OUT:-seed002-out}
mkdir -p "$OUT"
go build -o "$OUT/arena" ./cmd/arena
start=$(date +%s)
for seed in $SEEDS; do
	for ms in td:LB td:LL td:L3 tdleaf:LB tdleaf:LL; do
		echo "${ms%%:*} ${ms##*:} $seed"
	done
done | xargs -P "$JOBS" -L 1 sh -c '
	out=$0 games=$1 every=$2 lambda=$3 method=$4 strategy=$5 seed=$6
	run=$out/$method-$strategy-$seed
	"$out/arena" train --game giveaway --method "$method" --strategy "$strategy" --depth 4 \
		--opponents random-weights:25 --test random-weights:100 --test-games 1 --test-first \
		--games "$games" --every "$every" --lambda "$lambda" --seed "$seed" --checkpoint-every 100000 \
		--out "$run.json" > "$run.log" 2>&1 || { cat "$run.log" >&2; exit 255; }
' "$OUT" "$GAMES" "$EVERY" "$LAMBDA"
echo "wall time: $(( $(date +%s) - start )) s" >&2

# The summary: mean over the seeds of the test score (against the 100 unseen opponents)
# at each point, and of the training win rate over the games before it.
awk -F, '
FNR == 1 { split(FILENAME, p, "/"); n = split(p[length(p)], q, "-"); m = q[1] "+" q[2]; methods[m] = 1; next }
{ g = $1; games[g] = 1; test[m, g] += $6; cnt[m, g]++; if ($2 + $3 + $4 > 0) train[m, g] += $5 }
END {
	order = "td+LB td+LL td+L3 tdleaf+LB tdleaf+LL"
	k = split(order, ms, " ")
	printf "| games |"; for (i = 1; i <= k; i++) printf " %s |", ms[i]; printf "\n|---|"; for (i = 1; i <= k; i++) printf "---:|"; printf "\n"
	ng = 0; for (g in games) gs[++ng] = g + 0
	for (i = 1; i <= ng; i++) for (j = i + 1; j <= ng; j++) if (gs[j] < gs[i]) { t = gs[i]; gs[i] = gs[j]; gs[j] = t }
	for (a = 1; a <= ng; a++) {
		g = gs[a]; printf "| %d |", g
		for (i = 1; i <= k; i++) {
			m = ms[i]
			if (cnt[m, g] == 0) { printf " - |"; continue }
			if (g == 0) printf " %.1f |", test[m, g] / cnt[m, g]
			else printf " %.1f / %.1f |", test[m, g] / cnt[m, g], train[m, g] / cnt[m, g]
		}
		printf "\n"
	}
}' "$OUT"/*.csv
