#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Real consumers accept blkscope's files: blkparse (file and pipe mode, no
# bad magic, no skips, every pid named), btt (through a blkparse -d dump),
# iowatcher (-t DIR -> SVG with data) and fio (--read_iolog replays the
# recorded I/O: as many reads and writes as the trace queued).
# exclusive: yes
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
[ -n "${ORACLE_DRYRUN:-}" ] || oracle_require_recorder
need_tools btt iowatcher fio
oracle_workdir
oracle_loop_setup 64
W=$ORACLE_WORK
L=$ORACLE_LOOP

# Reads and writes from several processes, merges, flushes.
mixed() {
	WL_DEV=$L "$ORACLE_DIR/run-workload" wl_fio_merge
	WL_DEV=$L "$ORACLE_DIR/run-workload" wl_direct_rw
	WL_DEV=$L "$ORACLE_DIR/run-workload" wl_buffered_fsync
}
mkdir "$W/trace"
if [ -n "${ORACLE_DRYRUN:-}" ]; then
	# Harness development without the recorder: the kernel's records.
	oracle_ftrace_start "$ORACLE_LOOP_NAME" "$W/cap.ftrace"
	mixed
	oracle_ftrace_stop
	python3 "$ORACLE_DIR/ftrace-to-blktrace" "$W/cap.ftrace" "$W/trace/cons"
else
	"$BIN/blkscope" record -d "$L" -D "$W/trace" -o cons -- \
		bash -c "$(declare -f mixed); L=$L ORACLE_DIR=$ORACLE_DIR mixed" ||
		oracle_die "blkscope record failed"
fi
ls -l "$W/trace"

# --- blkparse, file mode
blkparse -i "$W/trace/cons" >"$W/bp.txt" 2>&1 || { tail "$W/bp.txt"; oracle_die "blkparse failed"; }
if grep -E "Bad magic|bad magic|trace info has error|unsupported version" "$W/bp.txt"; then
	oracle_die "blkparse complained about the files"
fi
events=$(sed -n 's/^Events (cons): \([0-9]*\) entries$/\1/p' "$W/bp.txt")
[ -n "$events" ] && [ "$events" -gt 100 ] || oracle_die "blkparse saw ${events:-no} events (want > 100)"
grep -q "Skips: 0 forward" "$W/bp.txt" || oracle_die "blkparse: no 'Skips: 0 forward' line"
# PROCESS notes name every pid: no "[(null)]" (docs/format.md §Notes).
if grep -F "[(null)]" "$W/bp.txt" | head -5; then
	oracle_die "blkparse printed events of unnamed pids (missing PROCESS notes)"
fi
[ -n "${ORACLE_DRYRUN:-}" ] || grep -q "\[fio\]" "$W/bp.txt" || oracle_die "blkparse: no event attributed to [fio]"
echo "blkparse (files): $events events, no skips, all pids named"

# --- blkparse, pipe mode: sequence numbers are checked here.  The per-CPU
# files are concatenated, so one batch (-b) must hold them all: with the
# default 512, a CPU's events arriving batches after newer ones of another
# CPU make blkparse give up waiting and count a skip that is not in the
# files (the `-o -` stream, interleaved as it is produced, is checked with
# the default batch in t-record-fidelity-outputs.sh).
cat "$W"/trace/cons.blktrace.* | blkparse -b 1000000 -i - >"$W/bp-pipe.txt" 2>&1 ||
	oracle_die "blkparse -i - failed"
grep -q "Bad magic" "$W/bp-pipe.txt" && oracle_die "blkparse -i -: bad magic"
grep -q "Skips: 0 forward" "$W/bp-pipe.txt" || {
	grep Skips "$W/bp-pipe.txt"
	oracle_die "blkparse -i - found sequence gaps"
}
pevents=$(sed -n 's/^Events ([0-9,]*): \([0-9]*\) entries$/\1/p' "$W/bp-pipe.txt")
[ "$pevents" = "$events" ] || oracle_die "pipe mode saw $pevents events, file mode $events"
echo "blkparse (pipe): $pevents events, Skips: 0 forward"

# --- btt through a blkparse dump
blkparse -O -i "$W/trace/cons" -d "$W/cons.dump" >/dev/null 2>&1 || oracle_die "blkparse -d failed"
(cd "$W" && btt -i cons.dump >btt.txt 2>&1) || { cat "$W/btt.txt"; oracle_die "btt failed"; }
grep -q "All Devices" "$W/btt.txt" || oracle_die "btt printed no 'All Devices' section"
q2c=$(awk '$1 == "Q2C" { print $5; exit }' "$W/btt.txt")
[ -n "$q2c" ] && [ "$q2c" -gt 100 ] || { head -20 "$W/btt.txt"; oracle_die "btt: Q2C count ${q2c:-missing} (want > 100)"; }
echo "btt: All Devices, Q2C over $q2c I/Os"

# --- iowatcher over the directory (it runs blkparse itself)
(cd "$W" && iowatcher -t trace -o io.svg >iowatcher.log 2>&1) || { cat "$W/iowatcher.log"; oracle_die "iowatcher failed"; }
head -c 5 "$W/io.svg" | grep -q "<svg" || oracle_die "iowatcher output is not an SVG"
grep -q "Writes<" "$W/io.svg" || oracle_die "iowatcher: no Writes series in the SVG"
rects=$(grep -c "<rect" "$W/io.svg")
[ "$rects" -gt 100 ] || oracle_die "iowatcher: only $rects points/rects plotted"
echo "iowatcher: SVG with $rects rects"

# --- fio replays the recorded I/O (blktrace binary through a blkparse dump):
# it issues one I/O per queued (Q) read or write with bytes.
counts=$(python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
import blkrec
recs, _ = blkrec.read_file(sys.argv[2], strict=True)
q = [r for r in recs if (r.action & 0xffff) == 1 and r.bytes and not (r.action >> 16) & blkrec.TC_DISCARD]
writes = sum(1 for r in q if (r.action >> 16) & blkrec.TC_WRITE)
print(len(q) - writes, writes)' "$ORACLE_DIR" "$W/cons.dump")
read -r qreads qwrites <<<"$counts"
truncate -s 64M "$ORACLE_LOOP_FILE.replay"
oracle_defer "rm -f '$ORACLE_LOOP_FILE.replay'"
R=$(losetup -f --show "$ORACLE_LOOP_FILE.replay")
oracle_defer "losetup -d '$R'"
fio --name=replay --read_iolog="$W/cons.dump" --replay_redirect="$R" --ioengine=psync \
	--direct=1 --replay_no_stall=1 --output="$W/fio.txt" >"$W/fio.log" 2>&1 ||
	{ cat "$W/fio.log" "$W/fio.txt"; oracle_die "fio replay failed"; }
issued=$(sed -n 's/.*issued rwts: total=\([0-9]*\),\([0-9]*\),.*/\1 \2/p' "$W/fio.txt")
[ "$issued" = "$qreads $qwrites" ] ||
	{ cat "$W/fio.txt"; oracle_die "fio replayed (reads writes) '$issued', the trace queued '$qreads $qwrites'"; }
echo "fio replay: $qreads reads and $qwrites writes replayed onto $R"
