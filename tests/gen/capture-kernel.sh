#!/usr/bin/env bash
# capture-kernel.sh OUTDIR - capture the small kernel traces committed under
# samples/ (run once, as root): the ftrace blk tracer in bin + nocontext-info
# mode (docs/format.md §The ftrace blk tracer) on a loop device, three workloads:
#   kernel-none.bin      none scheduler: 4 KiB direct writes/reads, a 1 MiB
#                        direct write (splits, plugs), buffered write + fsync (flush)
#   kernel-deadline.bin  mq-deadline: buffered sequential writes (merges, inserts)
#                        and a readahead read
#   kernel-discard.bin   blkdiscard, blkdiscard -z (write-zeroes) and a
#                        direct write through a partition (remap)
# Every tracefs setting and the loop device are restored/detached on exit
# (tests/lib/oracle.sh).
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
source "$TOP/tests/lib/oracle.sh"
out=${1:?usage: capture-kernel.sh OUTDIR}
mkdir -p "$out"
oracle_require_root

capture() {	# NAME DEV-NAME COMMAND...
	local name=$1 dev=$2; shift 2
	oracle_ftrace_start "$dev" "$out/$name"
	"$@"
	sync
	oracle_ftrace_stop
	oracle_log "$name: $(stat -c %s "$out/$name") bytes"
}

wl_none() {
	local d=$ORACLE_LOOP
	dd if=/dev/urandom of="$d" bs=4k count=8 seek=100 oflag=direct status=none
	dd if="$d" of=/dev/null bs=4k count=8 skip=100 iflag=direct status=none
	dd if=/dev/zero of="$d" bs=1M count=1 seek=4 oflag=direct status=none
	dd if=/dev/zero of="$d" bs=64k count=4 seek=300 conv=fsync status=none
}

wl_deadline() {
	local d=$ORACLE_LOOP
	dd if=/dev/zero of="$d" bs=4k count=64 seek=2000 status=none
	sync
	blockdev --flushbufs "$d"
	dd if="$d" of=/dev/null bs=4k count=16 skip=3000 status=none
}

wl_discard() {
	blkdiscard -f -o 1048576 -l 1048576 "$ORACLE_LOOP"
	blkdiscard -f -z -o 4194304 -l 65536 "$ORACLE_LOOP"
	dd if=/dev/zero of="$ORACLE_PART" bs=4k count=4 seek=10 oflag=direct status=none
}

oracle_loop_setup 64 none
capture kernel-none.bin "$ORACLE_LOOP_NAME" wl_none
oracle_set_scheduler "$ORACLE_LOOP_NAME" mq-deadline
capture kernel-deadline.bin "$ORACLE_LOOP_NAME" wl_deadline
oracle_set_scheduler "$ORACLE_LOOP_NAME" none
oracle_loop_addpart 2048 32768
capture kernel-discard.bin "$ORACLE_LOOP_NAME" wl_discard
