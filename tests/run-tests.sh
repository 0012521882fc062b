#!/usr/bin/env bash
# Run every tests/t-*.sh; exit 0 = pass.  The output of a failing test is
# shown; the last line is the summary "N passed, N failed".
#
# Tests that only read and write their own temporary files run JOBS at a
# time (default: the number of CPUs).  Tests that touch global state (loop
# devices, tracefs, BPF programs, fio load, every CPU busy) say so with the
# line `# exclusive: yes` in their leading comment block, and run afterwards
# one by one.  Nothing else is looked at; tests/t-tests-rules.sh fails a
# test that uses losetup, tracefs, the recorder or fio without the line.
#
# Exclusive tests also hold the lock file $BLKSCOPE_GLOBAL_LOCK (default
# /tmp/blkscope-global.lock) while they run, so two suites on one machine
# (two checkouts, or a developer's bench) never share a tracer or a loop.
#
# A test that exits 77 lacks something it needs (root, BPF, a tool) and is
# reported as skipped; with BLKSCOPE_FAIL_ON_SKIP=1 (set by .ci/run, where
# everything is installed) a skip fails the run.
#
# TESTS="t-format-*" restricts the set (globs on the basename, several
# separated by blanks: TESTS="t-format-* t-parse-golden-gen").
set -u
cd "$(dirname "$0")/.."
export BUILD=${BUILD:-build}
export BIN="$PWD/$BUILD/bin"
export TOP="$PWD"
export PATH="$BIN:$PATH"
# under sudo, `record -- COMMAND` would run COMMAND as the calling user
unset SUDO_UID SUDO_GID SUDO_USER
pattern=${TESTS:-t-*}
jobs=${JOBS:-$(nproc)}
logdir=$(mktemp -d /tmp/blkscope-tests.XXXXXX)
trap 'rm -rf "$logdir"' EXIT
pass=0 fail=0 skip=0 failed=() skipped=()
lock=${BLKSCOPE_GLOBAL_LOCK:-/tmp/blkscope-global.lock}

# the header: the lines up to the first one that is neither a comment nor blank
is_exclusive() {
	sed -n '1,/^[^#]/p' "$1" | grep -qx '# exclusive: yes'
}

# run_one TEST [LOCK]: runs it (holding LOCK if given), leaves
# "$logdir/NAME.log" and "$logdir/NAME.rc"
run_one() {
	local name start rc
	name=$(basename "$1" .sh)
	start=$(date +%s%N)
	if [ -n "${2:-}" ] && command -v flock >/dev/null; then
		flock "$2" timeout 900 "$1" >"$logdir/$name.log" 2>&1
	else
		timeout 900 "$1" >"$logdir/$name.log" 2>&1
	fi
	rc=$?
	echo "$rc $(( ($(date +%s%N) - start) / 1000000 ))" >"$logdir/$name.rc"
}

report() {
	local name=$1 rc ms
	read -r rc ms <"$logdir/$name.rc"
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1))
		printf 'PASS %-40s %5d.%01ds\n' "$name" $((ms / 1000)) $((ms % 1000 / 100))
	elif [ "$rc" -eq 77 ]; then
		skip=$((skip + 1))
		skipped+=("$name")
		printf 'SKIP %-40s %s\n' "$name" "$(tail -n 1 "$logdir/$name.log")"
	else
		fail=$((fail + 1))
		failed+=("$name")
		printf 'FAIL %-40s (exit %d)\n' "$name" "$rc"
		sed 's/^/    | /' "$logdir/$name.log" | tail -n 80
	fi
}

parallel=() exclusive=()
for t in $(for p in $pattern; do printf '%s\n' tests/$p.sh; done | sort -u); do
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
	run_one "$t" "$lock"
	report "$(basename "$t" .sh)"
done

echo "suite time: $(( $(date +%s) - suite_start )) s (${#parallel[@]} tests $jobs at a time, ${#exclusive[@]} exclusive)"
[ ${#failed[@]} -eq 0 ] || echo "failed: ${failed[*]}"
[ ${#skipped[@]} -eq 0 ] || echo "skipped: ${skipped[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] || exit 1
if [ "$skip" -gt 0 ] && [ "${BLKSCOPE_FAIL_ON_SKIP:-0}" = 1 ]; then
	echo "error: $skip test(s) skipped and BLKSCOPE_FAIL_ON_SKIP=1 (CI installs everything they need)" >&2
	exit 1
fi
