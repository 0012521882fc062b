#!/usr/bin/env bash
# record-compare-pair.sh - a real trace pair for blkscope compare: the same
# fio job (4 KiB random reads and writes, direct, iodepth 16, two jobs) on
# a loop device over /dev/shm, recorded with blkscope record once under the
# I/O scheduler BEFORE (default none) and once under AFTER (default
# mq-deadline), then compared.  Needs root and fio; touches global state
# (a loop device, its scheduler), so run it under the lock:
#   flock /tmp/blkscope-global.lock tests/gen/record-compare-pair.sh OUTDIR [BEFORE AFTER]
# The scheduler is restored and the loop device detached on any exit.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/record.sh"
rec_require fio
out=${1:?usage: record-compare-pair.sh OUTDIR [BEFORE AFTER]}
sched_b=${2:-none}
sched_a=${3:-mq-deadline}
mkdir -p "$out"

rec_loop 512
sched=/sys/block/$REC_LOOP_NAME/queue/scheduler
old_sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$sched")
rec_defer "echo $old_sched > $sched"

run() {	# NAME SCHEDULER
	rm -rf "${out:?}/$1"
	mkdir -p "$out/$1"
	echo "$2" >"$sched"
	"$BIN/blkscope-record" -d "$REC_LOOP" -D "$out/$1" -o loop -- \
		fio --name=randrw --filename="$REC_LOOP" --direct=1 --ioengine=libaio --rw=randrw \
		--bs=4k --iodepth=16 --numjobs=2 --size=256M --runtime=4 --time_based \
		--group_reporting --output="$out/$1/fio.txt" 2>"$out/$1/record.err"
}
run before "$sched_b"
run after "$sched_a"
echo "before: $sched_b, after: $sched_a" >"$out/schedulers.txt"
"$BIN/blkscope-compare" --json "$out/compare.json" --html "$out/compare.html" \
	"$out/before/loop" "$out/after/loop" >"$out/compare.txt"
sed -n '1,/^== total/p' "$out/compare.txt"
