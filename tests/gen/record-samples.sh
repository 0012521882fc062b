#!/usr/bin/env bash
# record-samples.sh - regenerate the samples/rec-* traces with blkscope record
# (real recordings on a 64 MiB loop device over /dev/shm).  Needs root.
#   BIN=build/bin tests/gen/record-samples.sh
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/record.sh"
rec_require blkdiscard addpart delpart
S=$TOP/samples

record() {	# DIR DEV CMD...: record DEV into samples/DIR/loop0.blktrace.*
	local dir=$1 dev=$2
	shift 2
	rm -rf "${S:?}/$dir"
	mkdir -p "$S/$dir"
	"$BIN/blkscope-record" -d "$dev" -D "$S/$dir" -o loop0 -- "$@" 2>/dev/null
}

# 1. none scheduler: 4 KiB direct writes and reads, a 1 MiB direct write (split)
rec_loop 64
old_sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$REC_LOOP_NAME/queue/scheduler")
rec_defer "echo $old_sched > /sys/block/$REC_LOOP_NAME/queue/scheduler"
echo none >"/sys/block/$REC_LOOP_NAME/queue/scheduler"
record rec-dd-direct "$REC_LOOP" sh -c "
	dd if=/dev/zero of=$REC_LOOP bs=4k count=8 oflag=direct status=none
	dd if=$REC_LOOP of=/dev/null bs=4k count=8 iflag=direct status=none
	dd if=/dev/zero of=$REC_LOOP bs=1M count=1 seek=4 oflag=direct status=none"

# 2. mq-deadline: buffered writes + fsync (merges, inserts, flush), readahead read
echo mq-deadline >"/sys/block/$REC_LOOP_NAME/queue/scheduler"
record rec-deadline-buffered "$REC_LOOP" sh -c "
	dd if=/dev/urandom of=$REC_LOOP bs=4k count=64 conv=fsync status=none
	blockdev --flushbufs $REC_LOOP
	dd if=$REC_LOOP of=/dev/null bs=64k count=4 status=none"
echo none >"/sys/block/$REC_LOOP_NAME/queue/scheduler"

# 3. the whole disk while writing through partition 1 (remaps) and discarding
addpart "$REC_LOOP" 1 2048 32768
rec_defer "delpart '$REC_LOOP' 1"
for i in $(seq 50); do [ -b "${REC_LOOP}p1" ] && break; sleep 0.1; done
udevadm settle 2>/dev/null || true
record rec-part-discard "$REC_LOOP" sh -c "
	dd if=/dev/zero of=${REC_LOOP}p1 bs=4k count=4 oflag=direct status=none
	blkdiscard -o 1048576 -l 65536 $REC_LOOP"
du -sh "$S"/rec-*
