#!/usr/bin/env bash
# Disk full while recording: the recorder stops, exits non-zero with a clear
# message, and every file ends at its last whole record (each walks cleanly
# and blkparse reads it without complaint).  Also with --zstd: each file is
# cut back to its last whole zstd frame, so it decodes without error.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require fio python3 zstd
rec_workdir
rec_loop 64

mkdir "$REC_WORK/small"
mount -t tmpfs -o size=192k blkscope-full "$REC_WORK/small"
rec_defer "umount '$REC_WORK/small'"

rc=0
"$REC" -d "$REC_LOOP" -D "$REC_WORK/small" -- fio --name=full --filename="$REC_LOOP" --rw=randread \
	--bs=4k --ioengine=io_uring --iodepth=8 --direct=1 --runtime=10 --time_based \
	--output=/dev/null 2>"$REC_WORK/err" || rc=$?
cat "$REC_WORK/err"
[ "$rc" -ne 0 ] || rec_die "a full disk did not make the recorder fail"
grep -q "No space left on device" "$REC_WORK/err" || rec_die "no disk-full message"
grep -q "every file ends at its last whole record" "$REC_WORK/err" || rec_die "no final message"
rec_check_files "$REC_WORK/small" "$REC_LOOP_NAME"
python3 "$(dirname "$0")/lib/record-walk.py" "$REC_WORK/small/$REC_LOOP_NAME".blktrace.* ||
	rec_die "a file does not end on a whole record"
out=$(rec_blkparse -D "$REC_WORK/small" -i "$REC_LOOP_NAME")
[ "$(rec_count "$out" Q)" -gt 0 ] || rec_die "nothing readable left"

# --zstd: the same, compressed
rm -f "$REC_WORK/small"/*
rc=0
"$REC" -d "$REC_LOOP" -D "$REC_WORK/small" --zstd=1 -- fio --name=full --filename="$REC_LOOP" --rw=randread \
	--bs=4k --ioengine=io_uring --iodepth=8 --direct=1 --runtime=20 --time_based \
	--output=/dev/null 2>"$REC_WORK/err" || rc=$?
[ "$rc" -ne 0 ] || rec_die "--zstd: a full disk did not make the recorder fail"
grep -q "No space left on device" "$REC_WORK/err" || rec_die "--zstd: no disk-full message"
for f in "$REC_WORK/small/$REC_LOOP_NAME".blktrace.*.zst; do
	# a file whose first write hit the full disk is empty (0 bytes, no records)
	if [ -s "$f" ]; then
		zstd -qdc "$f" >"$REC_WORK/${f##*/}.raw" || rec_die "--zstd: $f does not decode after a full disk"
	else
		: >"$REC_WORK/${f##*/}.raw"
	fi
done
python3 "$(dirname "$0")/lib/record-walk.py" "$REC_WORK/$REC_LOOP_NAME".blktrace.*.raw ||
	rec_die "--zstd: a decoded file does not end on a whole record"
echo OK
