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
#   sh lab/scripts/chinook.sh                # the matches, the tables and the charts
#   sh lab/scripts/chinook.sh sweep train match heldout chart   # the whole experiment again
#
# Stages: sweep (the step-size sweep, into OUT), train (replaces the weight files, curves
# and logs in lab/results/chinook), match (plays every match of PLAN not yet in OUT/results.csv,
# so an interrupted run carries on where it stopped), heldout (the same for HELDOUT from
# 216 openings of 6 plies, into OUT/heldout.csv), chart (lab/results/chinook/results.csv,
# depth.svg and table.md from the results; heldout.csv and heldout.md).
# Default: match heldout chart.
#
# Settings (environment): OUT (chinook-out: the arena binary, openings, match database
# and results), RUNS (below: the training runs, mode, depth and games: 4320 games are ten
# passes of teacher learning and twenty of self-play; the depth-6 runs get 60% of that,
# within the CPU budget, as the depth-5 curves are flat after some 2,000 games), TC (30s:
# the time per move of the matches, far more than a depth-9 search needs, so that no
# search is cut short), PLAN (below: weight set, then depths; the depth-6 sets stop at 7,
# within the CPU budget), HELDOUT (the same for the held-out openings).
set -eu
OUT=${OUT:-chinook-out}
RUNS=${RUNS:-"teacher 5 4320
self 5 4320
teacher 6 2592
self 6 2592"}
TC=${TC:-30s}
DIR=lab/results/chinook
PLAN=${PLAN:-"teacher-d5 1 2 3 4 5 6 7 8 9
zero 1 2 3 4 5 6 7 8 9
self-d5 1 2 3 4 5 6 7 8 9
teacher-d6 1 2 3 4 5 6 7
self-d6 1 2 3 4 5 6 7"}
HELDOUT=${HELDOUT:-"teacher-d5 5
self-d5 5
zero 5
teacher-d6 6
self-d6 6"}
[ $# -gt 0 ] || set -- match heldout chart

# play PLAN OPENINGS RESULTS plays every match of PLAN (lines of a weight set and its
# depths) that RESULTS does not hold yet, each weight set against the hand-tuned player
# with both at the depth, every opening of OPENINGS with both colours, and adds a line
# set,depth,wins,draws,losses to RESULTS for each.
play() {
	[ -f "$3" ] || echo "set,depth,wins,draws,losses" > "$3"
	n=$(grep -cv '^#' "$2")
	echo "$1" | while read -r set depths; do
		[ -n "$set" ] || continue
		for d in $depths; do
			if grep -q "^$set,$d," "$3"; then
				continue
			fi
			nice -n 10 "$A" match --game checkers --openings "$2" --games $((2 * n)) --tc "$TC" \
				--db "$OUT/chinook.db" "$set=minimax:depth=$d:weights=$DIR/$set.json" "hand-tuned=minimax:depth=$d" \
				> "$OUT/match.log" 2>&1 || { cat "$OUT/match.log" >&2; exit 1; }
			line=$(grep " v hand-tuned: .* games in " "$OUT/match.log")
			echo "depth $d: $line"
			echo "$set,$d,$(echo "$line" | sed 's/.* +\([0-9]*\) =\([0-9]*\) -\([0-9]*\),.*/\1,\2,\3/')" >> "$3"
		done
	done
}
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
		play "$PLAN" "$OUT/openings.txt" "$OUT/results.csv"
		;;
	heldout)
		# 216 openings the training never started from: every 42nd of the 9,105 distinct
		# 6-ply positions.
		"$A" openings --game checkers --plies 6 --out "$OUT/openings6.txt"
		grep -v '^#' "$OUT/openings6.txt" | awk 'NR % 42 == 1' | head -n 216 > "$OUT/heldout.txt"
		play "$HELDOUT" "$OUT/heldout.txt" "$OUT/heldout.csv"
		;;
	chart)
		# From this run's results when it has some, else from those committed.
		[ ! -f "$OUT/results.csv" ] || cp "$OUT/results.csv" "$DIR/results.csv"
		[ ! -f "$OUT/heldout.csv" ] || cp "$OUT/heldout.csv" "$DIR/heldout.csv"
		"$A" tune-checkers chart --results "$DIR/results.csv" --out "$DIR/depth.svg" \
			--title "TDLeaf-trained and zero weights against the hand-tuned ones, 432 games per point" > "$DIR/table.md"
		cat "$DIR/table.md"
		if [ -f "$DIR/heldout.csv" ]; then
			"$A" tune-checkers chart --results "$DIR/heldout.csv" --out "$OUT/heldout.svg" \
				--title "The same from 216 held-out 6-ply openings" > "$DIR/heldout.md"
			cat "$DIR/heldout.md"
		fi
		;;
	*)
		echo "unknown stage $stage: want sweep, train, match, heldout or chart" >&2
		exit 2
		;;
	esac
done
