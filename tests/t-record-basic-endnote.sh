#!/usr/bin/env bash
# The end note (docs/format.md, "The end note"): every per-CPU file of every
# traced device ends with "blkscope end events=N drops=D", N the file's event
# records and D its device's drops on that CPU (N + D reaches the file's last
# sequence number; the drops add up to the summary's).  Checked for plain
# files, for a run with drops (-b 4 under fio), for a `-o -` stream (one note
# per device and CPU, after its events) and for --format 8 files.  blkparse
# (file and pipe mode) and btt print exactly the same with and without it.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require fio python3 btt
rec_workdir
rec_loop 64
check="python3 $(dirname "$0")/lib/endnote-check.py"
W=$REC_WORK

fio_load() {	# fio_load IODEPTH [RATE]: 1 s of mixed 4k I/O on the loop device
	fio --name=endnote --filename="$REC_LOOP" --rw=randrw --bs=4k --ioengine=io_uring \
		--iodepth="$1" --direct=1 --runtime=1 --time_based ${2:+--rate_iops=$2} --output=/dev/null
}

# 1. plain files, no drops: N is the last sequence number, D is 0
mkdir "$W/a" "$W/a-stripped"
"$REC" -d "$REC_LOOP" -D "$W/a" -- bash -c "$(declare -f fio_load); REC_LOOP=$REC_LOOP fio_load 8 8000" \
	2>"$W/a.err" || { cat "$W/a.err"; rec_die "record failed"; }
$check --strip "$W/a-stripped" "$W/a/$REC_LOOP_NAME".blktrace.* >"$W/a.check" ||
	{ cat "$W/a.check"; rec_die "end notes of a plain recording"; }
cat "$W/a.check"
grep -q "drops=0 " "$W/a.check" || rec_die "no drop-free file"
awk '$1 ~ /blktrace/ { split($4, e, "="); split($6, s, "="); if (e[2] != s[2]) bad = 1 }
     END { exit bad }' "$W/a.check" || rec_die "events != last sequence in a drop-free recording"
[ "$(awk '$4 ~ /^events=[1-9]/' "$W/a.check" | wc -l)" -ge 1 ] || rec_die "no events recorded"

# blkparse and btt: the same with and without the note
(cd "$W/a" && rec_blkparse -i "$REC_LOOP_NAME" >"$W/a.parse" &&
	blkparse -O -d "$W/a.dump" -i "$REC_LOOP_NAME" >/dev/null)
(cd "$W/a-stripped" && rec_blkparse -i "$REC_LOOP_NAME" >"$W/s.parse" &&
	blkparse -O -d "$W/s.dump" -i "$REC_LOOP_NAME" >/dev/null)
cmp "$W/a.parse" "$W/s.parse" ||
	{ diff "$W/a.parse" "$W/s.parse" | head -20; rec_die "blkparse output changes with the end note"; }
# from a file, not a pipe: blkparse's batches then do not depend on timing
cat "$W/a/$REC_LOOP_NAME".blktrace.* >"$W/a.cat"
cat "$W/a-stripped/$REC_LOOP_NAME".blktrace.* >"$W/s.cat"
rec_blkparse -i - <"$W/a.cat" >"$W/a.pipe"
rec_blkparse -i - <"$W/s.cat" >"$W/s.pipe"
cmp "$W/a.pipe" "$W/s.pipe" ||
	{ diff "$W/a.pipe" "$W/s.pipe" | head -20; rec_die "blkparse -i - output changes with the end note"; }
(cd "$W" && btt -i a.dump -o a.btt >/dev/null && btt -i s.dump -o s.btt >/dev/null)
cmp "$W/a.btt.avg" "$W/s.btt.avg" || rec_die "btt output changes with the end note"
# the check can fail: a file cut before its end note is refused
! $check "$W/a-stripped/$REC_LOOP_NAME".blktrace.0 >/dev/null 2>&1 || rec_die "a file without end note passed"

# 2. drops: D adds up to the summary's drops, covers every gap
"$REC" -d "$REC_LOOP" -D "$W/b" -b 4 -- bash -c "$(declare -f fio_load); REC_LOOP=$REC_LOOP fio_load 32" \
	2>"$W/b.err" || { cat "$W/b.err"; rec_die "record -b 4 failed"; }
$check "$W/b/$REC_LOOP_NAME".blktrace.* >"$W/b.check" || { cat "$W/b.check"; rec_die "end notes with drops"; }
cat "$W/b.check"
drops=$(sed -n 's/^You have \([0-9]*\) dropped events.*/\1/p' "$W/b.err")
[ -n "$drops" ] && [ "$drops" -gt 0 ] || rec_die "no drops with -b 4 under fio"
grep -qx "total drops=$drops" "$W/b.check" || rec_die "end notes' drops != the summary's $drops"

# 3. -o -: one note per (device, CPU), after that pair's events
"$REC" -d "$REC_LOOP" -o - -- bash -c "$(declare -f fio_load); REC_LOOP=$REC_LOOP fio_load 8 8000" \
	>"$W/c.stream" 2>"$W/c.err" || { cat "$W/c.err"; rec_die "record -o - failed"; }
$check --stream "$W/c.stream" >"$W/c.check" || { cat "$W/c.check"; rec_die "end notes of a stream"; }
cat "$W/c.check"
[ "$(grep -c ' cpu=' "$W/c.check")" -eq "$(rec_ncpus)" ] || rec_die "not one end note per CPU in the stream"
rec_blkparse -i - <"$W/c.stream" >"$W/c.pipe"
skips=$(sed -n 's/^Skips: \([0-9]*\) forward.*/\1/p' "$W/c.pipe")
[ "$skips" = 0 ] || rec_die "blkparse -i - reports ${skips:-no count of} skips on the stream"

# 4. --format 8: the note is a version-8 record there
"$REC" -d "$REC_LOOP" -D "$W/d" --format 8 -- dd if="$REC_LOOP" of=/dev/null bs=64k count=64 \
	iflag=direct status=none 2>"$W/d.err" || { cat "$W/d.err"; rec_die "record --format 8 failed"; }
$check "$W/d/$REC_LOOP_NAME".blktrace.* >"$W/d.check" || { cat "$W/d.check"; rec_die "end notes of v8 files"; }
cat "$W/d.check"
[ "$(od -An -tx4 -N4 "$W/d/$REC_LOOP_NAME.blktrace.0")" = " 65617408" ] || rec_die "not a v8 file"
echo OK
