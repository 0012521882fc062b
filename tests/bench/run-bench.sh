#!/usr/bin/env bash
# make bench: run every tests/bench/bench-*.sh (BENCH="bench-parse" picks one).
# Benchmarks print their figures and their ratios against the reference
# tool measured in the same run; they are not pass/fail tests.
set -u
cd "$(dirname "$0")/../.."
export BUILD=${BUILD:-build}
export BIN="$PWD/$BUILD/bin" TOP="$PWD"
export PATH="$BIN:$PATH"
status=0
for b in tests/bench/${BENCH:-bench-*}.sh; do
	[ -x "$b" ] || continue
	echo "=================== $(basename "$b" .sh) ==================="
	"$b" || { echo "(benchmark $b failed)"; status=1; }
done
exit $status
