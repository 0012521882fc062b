#!/bin/bash
# Real kernel traces: blkscope record on a loop device (mq-deadline, so
# that merges, inserts and plugs appear) while dd, buffered writes with
# sync, fio random IO at queue depth 16 and readahead reads (of a region
# never written, so not cached) run; then the
# report, -A and every side file must equal btt's on the same files.
# Needs root and BPF (the recorder); skipped (exit 77) without them.
# exclusive: yes
set -euo pipefail
source "$TOP/tests/lib/analyze.sh"
bt_need_tools
fail() { echo "FAIL: $*" >&2; exit 1; }
need_root "CAP_BPF/CAP_PERFMON to record, CAP_SYS_ADMIN for a loop device"
need_built "$BIN/blkscope-record" "recording real traces needs clang, bpftool, libbpf"
need_tools losetup fio dd

work=$(mktemp -d)
img=$(mktemp /dev/shm/blkscope-analyze.XXXXXX)
loop=
cleanup() {
	[ -n "$loop" ] && losetup -d "$loop"
	rm -rf "$work" "$img"
}
trap cleanup EXIT
truncate -s 256M "$img"
loop=$(losetup -f --show "$img") || fail "losetup -f failed (no free loop device?)"
name=$(basename "$loop")
echo mq-deadline >"/sys/block/$name/queue/scheduler" 2>/dev/null || true
cd "$work"

"$BIN/blkscope-record" -d "$loop" -D "$work" -- sh -c "
	dd if=/dev/zero of=$loop bs=4k count=256 oflag=direct status=none
	dd if=/dev/zero of=$loop bs=64k count=256 seek=100 status=none; sync
	fio --name=rand --filename=$loop --rw=randrw --bs=4k --iodepth=16 --ioengine=libaio \
		--direct=1 --size=64M --runtime=1 --time_based >/dev/null
	fio --name=seq --filename=$loop --rw=write --bs=16k --iodepth=4 --ioengine=libaio \
		--size=16M --offset=128M >/dev/null; sync
	dd if=$loop of=/dev/null bs=1M count=32 skip=192 status=none
" 2>rec.err || { cat rec.err >&2; fail "recording failed"; }
n=$(blkparse -i "$name" | grep -c ' Q ' || true)
[ "$n" -gt 1000 ] || fail "the recorded trace has only $n Q events"

bt_compare_all "$name"
bt_compare_all "$name" -A -l @ -q @ -z @ -p @.perio -I @.iostat
bt_compare_all "$name" -a -d 0.001 -t 0.1 -T 2
bt_compare_all "$name" -s @ -B @ -Q @ -u @ -o @ -X
bt_compare_cwd_files "$name" -Z -L 0.1 -P x
echo "OK ($n queued bios)"
