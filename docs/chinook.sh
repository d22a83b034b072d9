#!/bin/sh
# Seed 000, second paper (Schaeffer, Hlynka and Jussila, "Temporal Difference Learning
# Applied to a High-Performance Game-Playing Program"), on Arena's checkers: minimax's
# checkers weights trained from zero by TDLeaf(lambda), against the hand-tuned player
# (teacher) and by self-play, at depths 5 and 6, every game from the 216 distinct 3-ply
# openings; then every weight set, and zero weights, against the hand-tuned player by
# `arena match` at each search depth, every opening with both colours. See
# docs/chinook.md.
#
# Run from the repository root:
#
#   sh docs/chinook.sh                # the matches, the table and the chart
#   sh docs/chinook.sh train          # train the four weight sets again first (docs/chinook/*.json)
#   sh docs/chinook.sh train match chart
#
# Stages: sweep (the step-size sweep, into OUT), train (replaces the weight files, curves
# and logs in docs/chinook), match (plays
# every match of PLAN not yet in OUT/results.csv, so an interrupted run carries on where
# it stopped), chart (docs/chinook/results.csv, depth.svg and table.md from the
# results). Default: match chart.
#
# Settings (environment): OUT (chinook-out: the arena binary, openings, match database
# and results), RUNS (below: the training runs, mode, depth and games: 4320 games are ten
# passes of teacher learning and twenty of self-play; the depth-6 runs get 60% of that,
# within the CPU budget, as the depth-5 curves are flat after some 2,000 games), TC (30s:
# the time per move of the matches, far more than a depth-9 search needs, so that no
# search is cut short), PLAN (below: weight set, then depths).
set -eu
OUT=${OUT:-chinook-out}
RUNS=${RUNS:-"teacher 5 4320
self 5 4320
teacher 6 2592
self 6 2592"}
TC=${TC:-30s}
DIR=docs/chinook
PLAN=${PLAN:-"teacher-d5 1 2 3 4 5 6 7 8 9
zero 1 2 3 4 5 6 7 8 9
self-d5 1 2 3 4 5 6 7 8 9
teacher-d6 1 2 3 4 5 6 7 8
self-d6 1 2 3 4 5 6 7 8"}
[ $# -gt 0 ] || set -- match chart
mkdir -p "$OUT"
go build -o "$OUT/arena" ./cmd/arena
A=$OUT/arena
"$A" openings --game checkers --plies 3 --out "$OUT/openings.txt"

for stage in "$@"; do
	case $stage in
	sweep)
		# The step-size sweep: one pass of teacher learning at depth 5 (432 games) per
		# alpha, then a test pass on 108 openings with both colours.
		for a in 1e-5 3e-5 1e-4 3e-4 1e-3; do
			nice -n 10 "$A" tune-checkers train --mode teacher --depth 5 --games 432 --every 432 --test --test-openings 108 \
				--openings "$OUT/openings.txt" --alpha "$a" --seed 1 --out "$OUT/sweep-$a.json" > "$OUT/sweep-$a.log" 2>&1 ||
				{ cat "$OUT/sweep-$a.log" >&2; exit 1; }
			echo "alpha $a: $(grep '^game 432' "$OUT/sweep-$a.log")"
		done
		;;
	train)
		echo "$RUNS" | while read -r mode depth games; do
			[ -n "$mode" ] || continue
			echo "training $mode at depth $depth, $games games" >&2
			nice -n 10 "$A" tune-checkers train --mode "$mode" --depth "$depth" --games "$games" \
				--openings "$OUT/openings.txt" --every 432 --test --test-openings 54 --seed 1 \
				--out "$DIR/$mode-d$depth.json" > "$OUT/train-$mode-d$depth.log" 2>&1 ||
				{ cat "$OUT/train-$mode-d$depth.log" >&2; exit 1; }
			cp "$OUT/train-$mode-d$depth.log" "$DIR/"
			cat "$OUT/train-$mode-d$depth.log"
		done
		;;
	match)
		[ -f "$OUT/results.csv" ] || echo "set,depth,wins,draws,losses" > "$OUT/results.csv"
		echo "$PLAN" | while read -r set depths; do
			[ -n "$set" ] || continue
			for d in $depths; do
				if grep -q "^$set,$d," "$OUT/results.csv"; then
					continue
				fi
				# Every opening with both colours: 216 openings, 432 games.
				nice -n 10 "$A" match --game checkers --openings "$OUT/openings.txt" --games 432 --tc "$TC" \
					--db "$OUT/chinook.db" "$set=minimax:depth=$d:weights=$DIR/$set.json" "hand-tuned=minimax:depth=$d" \
					> "$OUT/match.log" 2>&1 || { cat "$OUT/match.log" >&2; exit 1; }
				line=$(grep " v hand-tuned: " "$OUT/match.log")
				echo "depth $d: $line"
				echo "$set,$d,$(echo "$line" | sed 's/.* +\([0-9]*\) =\([0-9]*\) -\([0-9]*\),.*/\1,\2,\3/')" >> "$OUT/results.csv"
			done
		done
		;;
	chart)
		cp "$OUT/results.csv" "$DIR/results.csv"
		"$A" tune-checkers chart --results "$DIR/results.csv" --out "$DIR/depth.svg" \
			--title "TDLeaf-trained and zero weights against the hand-tuned ones, 432 games per point" > "$DIR/table.md"
		cat "$DIR/table.md"
		;;
	*)
		echo "unknown stage $stage: want train, match or chart" >&2
		exit 2
		;;
	esac
done
