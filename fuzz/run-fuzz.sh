#!/usr/bin/env bash
# fuzz/run-fuzz.sh - run every fuzz target for FUZZ_SECONDS each, two at a
# time (one per core), on a corpus seeded from samples/ (fuzz/seed.sh) and
# kept in $FUZZ_BUILD/corpus between runs.  A crash, a sanitizer report, a
# timeout (> 10 s per input) or an out-of-memory (> 2 GB) fails the run; the
# input is left in $FUZZ_BUILD/crashes/ and named in the output: minimize it
# (build/fuzz/bin/TARGET -minimize_crash=1 FILE), fix the bug, and commit it
# as fuzz/regress/TARGET/<what-it-was>.
#
#   FUZZ_SECONDS=60 FUZZ_TARGETS="fuzz_trace fuzz_parse" FUZZ_JOBS=2
set -uo pipefail
cd "$(dirname "$0")/.."
FUZZ_BUILD=${FUZZ_BUILD:-build/fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_TARGETS=${FUZZ_TARGETS:-fuzz_trace fuzz_tagresp fuzz_parse fuzz_analyze fuzz_attr}
FUZZ_JOBS=${FUZZ_JOBS:-2}
export BIN=${BIN:-$PWD/build/bin}
corpus=$FUZZ_BUILD/corpus
crashes=$FUZZ_BUILD/crashes
logs=$FUZZ_BUILD/logs
mkdir -p "$corpus" "$crashes" "$logs"

seeds=$(mktemp -d /tmp/fuzz-seeds.XXXXXX)
trap 'rm -rf "$seeds"' EXIT
# exit 2: could not start (no crash found, nothing fuzzed); 1: a target failed
fuzz/seed.sh "$seeds" || { echo "run-fuzz: cannot make the seed corpora"; exit 2; }

run_one() {
	local t=$1 log=$logs/$1.log
	mkdir -p "$corpus/$t"
	# -close_fd_mask=1: the programs' stdout is noise; stderr stays for reports
	"$FUZZ_BUILD/bin/$t" -max_total_time="$FUZZ_SECONDS" -max_len=65536 -timeout=10 \
		-rss_limit_mb=2048 -close_fd_mask=1 -print_final_stats=1 \
		-artifact_prefix="$crashes/$t-" "$corpus/$t" "$seeds/$t" >"$log" 2>&1
}

fail=0
pids=() names=()
for t in $FUZZ_TARGETS; do
	[ -x "$FUZZ_BUILD/bin/$t" ] || { echo "run-fuzz: $FUZZ_BUILD/bin/$t not built"; exit 2; }
	run_one "$t" &
	pids+=($!) names+=("$t")
	if [ ${#pids[@]} -ge "$FUZZ_JOBS" ]; then
		wait "${pids[0]}"; rc=$?
		set -- "${names[0]}"
		if [ $rc -ne 0 ]; then fail=1; echo "FUZZ FAIL $1 (exit $rc)"; else echo "fuzz ok   $1"; fi
		pids=("${pids[@]:1}") names=("${names[@]:1}")
	fi
done
for i in "${!pids[@]}"; do
	wait "${pids[$i]}"; rc=$?
	if [ $rc -ne 0 ]; then fail=1; echo "FUZZ FAIL ${names[$i]} (exit $rc)"; else echo "fuzz ok   ${names[$i]}"; fi
done

for t in $FUZZ_TARGETS; do
	log=$logs/$t.log
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(grep -ao 'cov: [0-9]*' "$log" | tail -1)
	printf '%-14s %6ss  %10s runs  %s  corpus %s files\n' "$t" "$FUZZ_SECONDS" "${execs:-?}" \
		"${cov:-cov: ?}" "$(ls "$corpus/$t" | wc -l)"
	if grep -aq 'Test unit written to' "$log"; then
		grep -aE '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -5 | sed 's/^/    /'
		grep -a 'Test unit written to' "$log" | sed 's/^.*Test unit written to /    crasher: /'
	fi
done
exit $fail
