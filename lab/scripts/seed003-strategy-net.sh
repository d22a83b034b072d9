#!/bin/sh
# Seed 003 (Kanakubo and Hagiwara): the strategy network against HP1 and HP2, as black
# and as white, under both tie rules of the opponent (ties=random, ties=first) and both
# credit rules of the learner (used: every node present in the game, the paper's rule as
# Arena reads it; placed: the learner's own node on each square where it placed a disc),
# ten seeds each. Every run tests its weights every EVERY games, without learning,
# against the opponent under each tie rule (TESTGAMES games in the learner's seat). See
# docs/learning.md, "Strategy network against HP1 and HP2".
#
# Run from the repository root: sh lab/scripts/seed003-strategy-net.sh
# Settings (environment): GAMES (10000), EVERY (1000), SEEDS (1 to 10), JOBS (2: runs in
# parallel), TESTGAMES (500), OUT (seed003-out: the arena binary, weights, curves and
# logs go there).
set -eu
GAMES=${GAMES:-10000}
EVERY=${EVERY:-1000}
SEEDS=${SEEDS:-"1 2 3 4 5 6 7 8 9 10"}
JOBS=${JOBS:-2}
TESTGAMES=${TESTGAMES:-500}
OUT=${OUT:-seed003-out}
mkdir -p "$OUT"
go build -o "$OUT/arena" ./cmd/arena
start=$(date +%s)
for ties in random first; do for opp in hp1 hp2; do for seat in black white; do
	for credit in used placed; do for seed in $SEEDS; do
		echo "$ties $opp $seat $credit $seed"
	done; done
done; done; done | xargs -P "$JOBS" -L 1 sh -c '
	out=$0 games=$1 every=$2 testgames=$3 ties=$4 opp=$5 seat=$6 credit=$7 seed=$8
	run=$out/$ties-$opp-$seat-$credit-$seed
	"$out/arena" train --method strategy-net --credit "$credit" --opponents "$opp-$ties=$opp:ties=$ties" \
		--seat "$seat" --games "$games" --every "$every" --seed "$seed" --checkpoint-every 100000 \
		--test "random=$opp:ties=random,first=$opp:ties=first" --test-games "$testgames" \
		--out "$run.json" > "$run.log" 2>&1 || { cat "$run.log" >&2; exit 255; }
' "$OUT" "$GAMES" "$EVERY" "$TESTGAMES"
echo "wall time: $(( $(date +%s) - start )) s" >&2

# The summary, a line per setting (tie rule, opponent, seat, credit rule): the training
# win rate over the first EVERY games (mean of the seeds), over the last EVERY games (mean,
# lowest and highest), over all the games (mean), and the test score of the final weights
# against the opponent under the same tie rule and under the other (mean).
for ties in random first; do for opp in hp1 hp2; do for seat in black white; do
	for credit in used placed; do
		for f in "$OUT/$ties-$opp-$seat-$credit"-*.csv; do
			awk -F, 'NR == 2 { first = $5 } NR > 1 { last = $5; tr = $6; tf = $7; w += $2; g += $2 + $3 + $4 }
				END { print first, last, 100 * w / g, tr, tf }' "$f"
		done | awk -v name="$ties | $opp | $seat | $credit" -v ties="$ties" '
			{ n++; a += $1; b += $2; c += $3; if (n == 1 || $2 < lo) lo = $2; if (n == 1 || $2 > hi) hi = $2
			  if (ties == "random") { same += $4; other += $5 } else { same += $5; other += $4 } }
			END { printf "| %s | %.1f | **%.1f** (%.1f-%.1f) | %.1f | %.1f | %.1f |\n", name, a / n, b / n, lo, hi, c / n, same / n, other / n }'
	done
done; done; done
