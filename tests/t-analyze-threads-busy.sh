#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The helper threads of analyze (reader, sink, seek folder) must not wait on
# each other for ever when other processes keep every CPU busy.  The seek
# folder once ran at SCHED_IDLE: behind a CPU hog on each CPU it got almost
# no CPU, the engine waited for its folds, and 10M random events took 37 s
# instead of 1.4.  Here: 2M random events (many folds) with a busy loop
# pinned to each CPU must finish within 8 times the unloaded time plus 3 s
# (sharing the CPUs fairly costs 2-3 times), and write the same report.
# exclusive: yes
# (busy loops on every CPU would slow the tests running beside it)
set -euo pipefail
source "$TOP/tests/lib/skip.sh"
need_tools taskset timeout
ncpu=$(getconf _NPROCESSORS_ONLN)
[ "$ncpu" -ge 2 ] || skip "one CPU: no helper threads"
work=$(mktemp -d)
hogs=()
cleanup() {
	local p
	for p in "${hogs[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
A="$BIN/blkscope-analyze"
"$BIN/bs-gen-trace" -w random -s 1 -n 2000000 -o big

# wall NAME: run analyze on big, report to NAME.out, milliseconds on stdout
wall() {
	local t0 t1
	t0=$(date +%s%N)
	timeout 600 "$A" --no-progress -v big >"$1.out" 2>"$1.err"
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

quiet=$(wall quiet)
grep -q "seek logs are folded on a second thread" quiet.err ||
	{ echo "FAIL: the seek folder was not used"; cat quiet.err; exit 1; }
for ((c = 0; c < ncpu; c++)); do
	taskset -c "$c" sh -c 'while :; do :; done' &
	hogs+=($!)
done
busy=$(wall busy)
limit=$((quiet * 8 + 3000))
echo "unloaded ${quiet} ms, with $ncpu busy CPUs ${busy} ms (limit ${limit} ms)"
if [ "$busy" -gt "$limit" ]; then
	echo "FAIL: with every CPU busy the analysis took ${busy} ms, over ${limit}"
	exit 1
fi
cmp -s quiet.out busy.out || { echo "FAIL: the report differs under load"; exit 1; }
echo "ok: busy CPUs cost $((busy * 100 / (quiet > 0 ? quiet : 1)))% of the unloaded time"
