#!/bin/bash
# loaded-tests.sh: the test suite on a busy machine. It starts LOOPS busy shell loops
# (default: one per core, at the tests' own priority) and runs the README's `go test ./...`
# beside them, uncached (-count=1), then prints one line per package (ok, FAIL, or no
# tests), each failing test with its first lines of output, the load average before and
# after, and how long it took. It exits with go test's status.
#   bash lab/scripts/loaded-tests.sh [LOOPS] [GO TEST ARGS...]
# Run it from the repository's root; GO TEST ARGS replace ./... (e.g. ./referee -run Time).
# With LOG=FILE, go test's output is kept in FILE, and can be read as the packages finish.
set -u
loops=${1:-$(nproc)}
shift || true
[ $# -eq 0 ] && set -- ./...
log=${LOG:-$(mktemp)}
for _ in $(seq "$loops"); do (while :; do :; done) & done
trap 'kill $(jobs -p) 2>/dev/null; [ -z "${LOG:-}" ] && rm -f "$log"' EXIT
echo "$loops busy loops on $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)${LOG:+; output in $LOG}"
start=$(date +%s)
go test -count=1 "$@" >"$log" 2>&1
status=$?
echo "go test $* exited $status after $(($(date +%s) - start))s; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
# Per package: "ok  pkg  1.2s", "FAIL pkg 3.4s", "?   pkg [no test files]", and build
# failures ("FAIL pkg [build failed]" or "[setup failed]").
awk '
	/^ok  /                       { ok++; print "ok    " $2 "  " $3; next }
	/^FAIL\t/ || /^FAIL [a-z]/    { fail++; print "FAIL  " $2 "  " $3 " " $4; next }
	/^\?   /                      { none++; next }
	END { printf "\n%d packages passed, %d failed, %d without tests\n", ok, fail, none }
' "$log"
if grep -q -e '^--- FAIL' -e '^panic:' -e '^FAIL' "$log"; then
	echo
	echo "Failing tests, with their first lines of output:"
	# Each "--- FAIL" line and the indented lines under it (the t.Error messages), at
	# most 6 of them; panics and build errors with 6 lines of context.
	awk '
		/^(    )*--- FAIL/ { print; n = 6; next }
		/^panic:|^# |cannot|undefined:/ { print; n = 6; next }
		n > 0 && /^[ \t]/ { print; n--; next }
		{ n = 0 }
	' "$log"
fi
exit "$status"
