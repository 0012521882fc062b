#!/usr/bin/env bash
# record --format 8 writes version-8 (64-byte) records: per-CPU files, -o -
# and --zstd.  Read back: blkscope parse of the v8 files prints what
# blkparse (v7 only) prints for the same records converted to v7, analyze
# reports the same numbers for both, and a write-zeroes carries its v8
# category (the one zone-era category a loop device produces).
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require python3 blkdiscard
for t in bs-convert blkscope-parse blkscope-analyze; do
	[ -x "$BIN/$t" ] || rec_die "$BIN/$t is not built"
done
rec_workdir
rec_loop 64
W=$REC_WORK

# walk8 FILE...: every record v8, whole; prints "records hi_records hi_bits"
walk8() {
	python3 - "$@" <<'PY'
import struct, sys
recs = hi_recs = hi_bits = 0
for path in sys.argv[1:]:
    d = open(path, "rb").read()
    off = 0
    while off < len(d):
        if off + 64 > len(d):
            sys.exit(f"{path}: truncated v8 header at {off}")
        magic, = struct.unpack_from("<I", d, off)
        if magic != 0x65617408:
            sys.exit(f"{path}: magic {magic:#x} at {off}")
        action, = struct.unpack_from("<Q", d, off + 32)
        pdu_len, = struct.unpack_from("<H", d, off + 50)
        if action >> 32:
            hi_recs += 1
            hi_bits |= action >> 32
        if (action >> 9) & 0x7f:
            sys.exit(f"{path}: stash bits left in the action at {off}")
        off += 64 + pdu_len
        recs += 1
print(recs, hi_recs, hi_bits)
PY
}

# 1. per-CPU files: direct writes and reads, a write-zeroes
mkdir "$W/v8" "$W/v7"
"$REC" -d "$REC_LOOP" -D "$W/v8" --format 8 -- sh -c "
	dd if=/dev/zero of=$REC_LOOP bs=4k count=32 oflag=direct status=none &&
	dd if=$REC_LOOP of=/dev/null bs=4k count=16 iflag=direct status=none &&
	{ blkdiscard -z -o 1048576 -l 65536 $REC_LOOP 2>/dev/null || true; }" 2>"$W/err" ||
	{ cat "$W/err"; rec_die "record --format 8 failed"; }
rec_check_files "$W/v8" "$REC_LOOP_NAME"
read -r recs hi_recs hi_bits < <(walk8 "$W/v8/$REC_LOOP_NAME".blktrace.*) || rec_die "not v8 files"
[ "$recs" -gt 48 ] || rec_die "only $recs records"
# BS_TC_WRITE_ZEROES is bit 6 of the high word; nothing else on a loop device
[ "$hi_recs" -gt 0 ] && [ "$hi_bits" -eq 64 ] ||
	rec_die "write-zeroes category: $hi_recs records, high bits $hi_bits (want 64)"
for f in "$W/v8/$REC_LOOP_NAME".blktrace.*; do
	"$BIN/bs-convert" -V 7 "$f" "$W/v7/${f##*/}"
done
python3 "$(dirname "$0")/lib/record-walk.py" "$W/v7/$REC_LOOP_NAME".blktrace.* >/dev/null ||
	rec_die "the v7 copy breaks the recorder checklist"
ref=$(cd "$W/v7" && rec_blkparse -i "$REC_LOOP_NAME")
ours=$(cd "$W/v8" && "$BIN/blkscope-parse" -i "$REC_LOOP_NAME")
[ "$ref" = "$ours" ] || { diff <(echo "$ref") <(echo "$ours") | head; rec_die "parse of v8 differs from blkparse of v7"; }
[ "$(rec_count "$ours" Q)" -ge 48 ] || rec_die "expected at least 48 Q events"
(cd "$W/v7" && "$BIN/blkscope-analyze" --no-progress "$REC_LOOP_NAME" >"$W/a7") || rec_die "analyze v7"
(cd "$W/v8" && "$BIN/blkscope-analyze" --no-progress "$REC_LOOP_NAME" >"$W/a8") || rec_die "analyze v8"
cmp -s "$W/a7" "$W/a8" || { diff "$W/a7" "$W/a8" | head; rec_die "analyze of v8 differs"; }

# 2. -o -: one v8 stream
"$REC" -d "$REC_LOOP" -o - --format 8 -- \
	dd if=/dev/zero of="$REC_LOOP" bs=4k count=16 oflag=direct status=none >"$W/s8.bin" 2>"$W/err" ||
	{ cat "$W/err"; rec_die "record -o - --format 8 failed"; }
walk8 "$W/s8.bin" >/dev/null || rec_die "-o - stream is not v8"
kib=$(awk '$1 == "Total:" { print $4 }' "$W/err")
[ "$kib" = $(( ($(stat -c %s "$W/s8.bin") + 1023) / 1024 )) ] || rec_die "summary says $kib KiB for the v8 stream"
"$BIN/bs-convert" -V 7 "$W/s8.bin" "$W/s7.bin"
ref=$(rec_blkparse -i - <"$W/s7.bin")
ours=$("$BIN/blkscope-parse" -i - <"$W/s8.bin")
[ "$ref" = "$ours" ] || rec_die "parse of the v8 stream differs from blkparse of its v7 copy"
[ "$(rec_count "$ours" Q)" -eq 16 ] || rec_die "expected 16 Q events in the stream"

# 3. --zstd
if command -v zstd >/dev/null; then
	mkdir "$W/z"
	"$REC" -d "$REC_LOOP" -D "$W/z" --format 8 --zstd -- \
		dd if=/dev/zero of="$REC_LOOP" bs=4k count=8 oflag=direct status=none 2>"$W/err" ||
		{ cat "$W/err"; rec_die "record --format 8 --zstd failed"; }
	mkdir "$W/zd"
	for f in "$W/z"/*.zst; do zstd -q -d "$f" -o "$W/zd/$(basename "${f%.zst}")"; done
	walk8 "$W/zd/$REC_LOOP_NAME".blktrace.? >/dev/null || rec_die "--zstd files are not v8"
	n=$("$BIN/blkscope-parse" -D "$W/z" -i "$REC_LOOP_NAME" | awk '$6 == "Q"' | wc -l)
	[ "$n" -eq 8 ] || rec_die "expected 8 Q events in the .zst files, got $n"
fi

# 4. the default stays version 7; other versions are refused
mkdir "$W/d"
"$REC" -d "$REC_LOOP" -D "$W/d" -- dd if=/dev/zero of="$REC_LOOP" bs=4k count=1 oflag=direct status=none 2>/dev/null
python3 "$(dirname "$0")/lib/record-walk.py" "$W/d/$REC_LOOP_NAME".blktrace.* >/dev/null || rec_die "default is not v7"
if "$REC" -d "$REC_LOOP" --format 9 -w 1 2>/dev/null; then rec_die "--format 9 accepted"; fi
echo OK
