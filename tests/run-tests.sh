#!/usr/bin/env bash
# Run every tests/t-*.sh; exit 0 = pass.  The output of a failing test is
# shown; the last line is the summary "N passed, N failed".
#
# Tests that only read and write their own temporary files run JOBS at a
# time (default: the number of CPUs).  Tests that touch global state (loop
# devices, tracefs, BPF programs, fio load) run afterwards one by one: a
# test is taken as such if its name starts with t-record-, t-oracle- or
# t-hard-record-, or if its text mentions losetup, tracefs, the recorder or fio.
#
# TESTS="t-format-*" restricts the set (a glob on the basename).
set -u
cd "$(dirname "$0")/.."
export BUILD=${BUILD:-build}
export BIN="$PWD/$BUILD/bin"
export TOP="$PWD"
export PATH="$BIN:$PATH"
pattern=${TESTS:-t-*}
jobs=${JOBS:-$(nproc)}
logdir=$(mktemp -d /tmp/blkscope-tests.XXXXXX)
trap 'rm -rf "$logdir"' EXIT
pass=0 fail=0 failed=()

is_exclusive() {
	case "$(basename "$1")" in
	t-record-*|t-oracle-*|t-hard-record-*) return 0 ;;
	esac
	grep -qE 'losetup|/sys/kernel/tracing|blkscope-record|blkscope record|(^|[ /])fio ' "$1"
}

# run_one TEST: runs it, leaves "$logdir/NAME.log" and "$logdir/NAME.rc"
run_one() {
	local name start rc
	name=$(basename "$1" .sh)
	start=$(date +%s%N)
	timeout 900 "$1" >"$logdir/$name.log" 2>&1
	rc=$?
	echo "$rc $(( ($(date +%s%N) - start) / 1000000 ))" >"$logdir/$name.rc"
}

report() {
	local name=$1 rc ms
	read -r rc ms <"$logdir/$name.rc"
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1))
		printf 'PASS %-40s %7.1fs\n' "$name" "$(echo "$ms / 1000" | bc -l)"
	else
		fail=$((fail + 1))
		failed+=("$name")
		printf 'FAIL %-40s (exit %d)\n' "$name" "$rc"
		sed 's/^/    | /' "$logdir/$name.log" | tail -n 80
	fi
}

parallel=() exclusive=()
for t in tests/$pattern.sh; do
	[ -x "$t" ] || continue
	if is_exclusive "$t"; then exclusive+=("$t"); else parallel+=("$t"); fi
done

suite_start=$(date +%s)
running=0
for t in "${parallel[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	run_one "$t" &
	running=$((running + 1))
done
wait
for t in "${parallel[@]}"; do report "$(basename "$t" .sh)"; done
for t in "${exclusive[@]}"; do
	run_one "$t"
	report "$(basename "$t" .sh)"
done

echo "suite time: $(( $(date +%s) - suite_start )) s (${#parallel[@]} tests $jobs at a time, ${#exclusive[@]} exclusive)"
[ ${#failed[@]} -eq 0 ] || echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
