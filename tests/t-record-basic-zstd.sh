#!/usr/bin/env bash
# --zstd[=LEVEL] writes <base>.blktrace.<cpu>.zst for every CPU; decompressed
# they are the same kind of files blkparse reads, and blkscope parse reads the
# .zst files directly.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require zstd python3
rec_workdir
rec_loop 64

"$REC" -d "$REC_LOOP" -D "$REC_WORK" --zstd=5 -- \
	dd if=/dev/zero of="$REC_LOOP" bs=4k count=64 oflag=direct status=none 2>"$REC_WORK/err" ||
	{ cat "$REC_WORK/err"; rec_die "record --zstd failed"; }
n=$(rec_ncpus)
for ((cpu = 0; cpu < n; cpu++)); do
	f=$REC_WORK/$REC_LOOP_NAME.blktrace.$cpu
	[ -f "$f.zst" ] || rec_die "missing $f.zst"
	[ ! -e "$f" ] || rec_die "uncompressed $f written too"
	zstd -q -d "$f.zst" -o "$f" || rec_die "$f.zst does not decompress"
done
python3 "$(dirname "$0")/lib/record-walk.py" "$REC_WORK/$REC_LOOP_NAME".blktrace.? || rec_die "bad records"
out=$(rec_blkparse -D "$REC_WORK" -i "$REC_LOOP_NAME")
[ "$(rec_count "$out" Q)" -eq 64 ] || rec_die "expected 64 Q events"
if [ -x "${BIN:-}/blkscope-parse" ]; then
	rm -f "$REC_WORK/$REC_LOOP_NAME".blktrace.?
	ours=$("$BIN/blkscope-parse" -D "$REC_WORK" -i "$REC_LOOP_NAME" | grep -v '^Input file')
	[ "$ours" = "$(grep -v '^Input file' <<<"$out")" ] || rec_die "blkscope parse of the .zst files differs from blkparse of the plain ones"
fi
echo OK
