#!/usr/bin/env bash
# Run every tests/t-*.sh (and tests/t-*/run.sh is not used: one file a test).
# Each test is an executable script; exit 0 = pass.  Output of a failing
# test is shown; the last line is the summary "N passed, N failed".
#
# TESTS="t-format-*" restricts the set (a glob on the basename).
set -u
cd "$(dirname "$0")/.."
export BUILD=${BUILD:-build}
export BIN="$PWD/$BUILD/bin"
export TOP="$PWD"
export PATH="$BIN:$PATH"
pattern=${TESTS:-t-*}
pass=0 fail=0 failed=()
logdir=$(mktemp -d /tmp/blkscope-tests.XXXXXX)
for t in tests/$pattern.sh; do
	[ -x "$t" ] || continue
	name=$(basename "$t" .sh)
	start=$(date +%s.%N)
	if timeout 600 "$t" >"$logdir/$name.log" 2>&1; then
		pass=$((pass + 1))
		printf 'PASS %-40s %6.1fs\n' "$name" "$(echo "$(date +%s.%N) - $start" | bc)"
	else
		fail=$((fail + 1))
		failed+=("$name")
		printf 'FAIL %-40s\n' "$name"
		sed 's/^/    | /' "$logdir/$name.log" | tail -n 60
	fi
done
rm -rf "$logdir"
[ ${#failed[@]} -eq 0 ] || echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
