#!/usr/bin/env bash
# Output filesystem full, on a real block filesystem: a 4 MiB loop-mounted
# ext4 (delayed allocation, journal; ENOSPC may come at write or at close)
# fills up while fio loads the traced device.  The recorder must exit
# non-zero with clear disk-full messages (one per file that hit it, each
# with the byte offset, and one final line), and every file must still be
# whole records that blkparse, blkscope parse and blkscope analyze read
# without a damage complaint.  (t-record-basic-diskfull does the same on a
# size-limited tmpfs, plain and --zstd.)
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
. "$(dirname "$0")/lib/hard.sh"
rec_require fio python3 mkfs.ext4
rec_workdir
rec_loop 128

img=$(mktemp /dev/shm/blkscope-ext4.XXXXXX)
rec_defer "rm -f '$img'"
truncate -s 4M "$img"
mkfs.ext4 -q -F -b 1024 "$img" || rec_die "mkfs.ext4 failed"
mkdir "$REC_WORK/small"
mount -o loop "$img" "$REC_WORK/small" || rec_die "cannot loop-mount ext4 (needs CAP_SYS_ADMIN and a free loop device)"
rec_defer "umount '$REC_WORK/small'"

rc=0
"$REC" -d "$REC_LOOP" -D "$REC_WORK/small" -- fio --name=full --filename="$REC_LOOP" --rw=randread \
	--bs=4k --ioengine=io_uring --iodepth=16 --direct=1 --runtime=20 --time_based \
	--output=/dev/null 2>"$REC_WORK/err" || rc=$?
cat "$REC_WORK/err"
[ "$rc" -ne 0 ] || rec_die "a full ext4 did not make the recorder fail"
# clear messages: at most one failure line per file (each naming the file,
# the byte offset and ENOSPC), then one line saying how the files were left
grep -q "No space left on device" "$REC_WORK/err" || rec_die "no message says No space left on device"
for f in "$REC_WORK/small/$REC_LOOP_NAME".blktrace.*; do
	n=$(grep -c -F "$f:" "$REC_WORK/err" || true)
	[ "$n" -le 1 ] || rec_die "$n messages about $f"
done
# the summary may also carry the per-program BPF cost (when another job has
# kernel.bpf_stats_enabled on) and the measured completions the kernel did
# not run our program for (docs/record.md, "Unrecorded completions")
bad=$(grep -v -E '^(===|  CPU|  Total:|  Unrecorded:|  Files:|Next: |BPF programs|CPU time|You have)' "$REC_WORK/err" |
	grep -v -E '^blkscope record: recording ' |
	grep -v -E 'the disks? completed [0-9]+ requests? whose completion \(C\) was not recorded' |
	grep -v -E 'write failed at byte [0-9]+: No space left on device$' |
	grep -v -c 'stopped after a write error; every file ends at its last whole record' || true)
[ "$bad" -eq 0 ] || rec_die "$bad unexpected lines on stderr"
[ "$(grep -c 'stopped after a write error' "$REC_WORK/err")" -eq 1 ] || rec_die "the final message is not said exactly once"
df -k "$REC_WORK/small" | tail -1
rec_check_files "$REC_WORK/small" "$REC_LOOP_NAME"
hard_walk "$REC_WORK/small" "$REC_LOOP_NAME"
out=$(rec_blkparse -D "$REC_WORK/small" -i "$REC_LOOP_NAME")
[ "$(rec_count "$out" Q)" -gt 0 ] || rec_die "nothing readable left"
hard_check_parse "$REC_WORK/small" "$REC_LOOP_NAME"
echo OK
