#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `blkscope replay` reproduces recorded workloads: each trace is recorded
# with the recorder on one loop device, replayed onto another while the
# recorder records the replay, and the two recordings are compared by an
# oracle of their own (tests/replay/qcompare.py, reading the files with
# tests/lib/blktrace.py): the same queued bios (count, operation, offset,
# size, FUA; a PREFLUSH write as a flush and the write), every I/O's queue
# time after the first within 2 ms of the original's at p99, the duration
# (first to last Q) within 2 %.  The traces:
#  1. the fio mix of issue 39: 4k random reads at 20k IOPS QD8 and 64k
#     writes at 40 MB/s for 3 s; fio --read_iolog replays the same trace
#     in the same run, for comparison (printed, not judged);
#  2. an ext4 workload: buffered writes written back by kworkers, O_DSYNC
#     writes, fsyncs (jbd2's PREFLUSH+FUA commits, flushes);
#  3. splits and merges and other operations (mq-deadline): 4 MiB direct
#     writes split by the queue limits (max_sectors_kb), buffered writes merged, an O_DSYNC
#     direct write (FUA), a discard: the Qs replayed, not the fragments;
#  4. two devices at once, replayed with --map onto two others.
# A failed attempt is printed and measured again (3 times), the bound is
# never loosened.  A target slower than the original device (on this
# shared machine: when others' builds load the CPUs that run the loop
# devices) holds submitters back by design: a submitter never gets more
# I/O in flight than it had.  When a replay held I/Os back so, its
# timing says how slow the target was, not how well the replayer keeps
# time: then the replayer's timing is measured without dependencies
# (--no-deps, with --realtime so that a busy CPU does not delay its
# wake-ups), against the same bounds; both results are printed.
# exclusive: yes
set -euo pipefail
. "$(dirname "$0")/lib/record.sh"
rec_require fio python3 mkfs.ext4 blkdiscard
need_built "$BIN/blkscope-replay" "blkscope replay (needs liburing at build time)"
rec_workdir
W=$REC_WORK
RP=$BIN/blkscope-replay
QC=$TOP/tests/replay/qcompare.py

loop() {	# VAR SIZE_MB: a loop device over /dev/shm in $VAR, its dev_t in ${VAR}_DEV (MAJ,MIN)
	rec_loop "$2"
	printf -v "$1" %s "$REC_LOOP"
	printf -v "${1}_DEV" %s "$(tr : , <"/sys/class/block/$REC_LOOP_NAME/dev")"
}
loop A1 256
loop A2 128
loop B1 256
loop B2 128
sched() {	# DEV SCHEDULER
	echo "$2" >"/sys/class/block/$(basename "$1")/queue/scheduler"
}

# attempt LABEL ORIG_BASES MODE_ARGS QCOMPARE_ARGS -- REPLAY_ARGS: one recorded
# replay (onto the devices of REC_DEVS), compared; 0 if within the bounds
attempt() {
	local label=$1 orig=$2 mode=$3 base="" recd=() qargs=()
	shift 3
	while [ "$1" != "--" ]; do qargs+=("$1"); shift; done
	shift
	for d in $REC_DEVS; do recd+=(-d "$d"); done
	rm -rf "$W/rep"
	# shellcheck disable=SC2086
	"$REC" "${recd[@]}" -D "$W/rep" -- "$RP" $mode --allow-writes "$@" >"$W/replay.out" 2>"$W/replay.err" ||
		{ cat "$W/replay.out" "$W/replay.err"; rec_die "$label: the replay failed"; }
	for d in $REC_DEVS; do base+="${base:+,}$W/rep/$(basename "$d")"; done
	python3 "$QC" --label "$label${mode:+ ($mode)}" --p99-ms 2 --duration-pct 2 "${qargs[@]}" "$orig" "$base" 		>"$W/qc.out" && return 0
	cat "$W/qc.out"
	sed -n 's/^ *\(lateness\|held\) /    &/p' "$W/replay.out"
	echo "    load $(cut -d' ' -f1-3 /proc/loadavg)"
	return 1
}

# fidelity LABEL ORIG_BASES QCOMPARE_ARGS -- REPLAY_ARGS: the default replay
# within the bounds; when it held I/Os back because the target was slower
# than the original device (its submitters' queue depth, as the original
# program would have been held back), the replayer's own timing: --no-deps
fidelity() {
	local label=$1 n held=0
	for n in 1 2 3; do
		if attempt "$label" "$2" "" "${@:3}"; then
			cat "$W/qc.out"
			return 0
		fi
		held=$(sed -n 's/^  held *\([0-9]*\) I\/Os waited for earlier.*/\1/p' "$W/replay.out")
		[ "${held:-0}" -eq 0 ] || break
		sleep 2
	done
	if [ "${held:-0}" -gt 0 ]; then
		echo "$label: the target was slower than the original device: $held I/Os waited for their" \
			"submitter's earlier I/O, as the program would have; the replayer's timing without that:"
		for n in 1 2 3; do
			if attempt "$label" "$2" "--no-deps --realtime" "${@:3}"; then
				cat "$W/qc.out"
				return 0
			fi
			sleep 2
		done
	fi
	rec_die "$label: the replay did not reproduce the trace (measured again, each attempt printed)"
}

# ---- 1. the fio mix, and fio --read_iolog on the same trace
"$REC" -d "$A1" -D "$W/mix" -o mix -- env MIX_DEV="$A1" MIX_SECONDS=3 fio "$TOP/tests/replay/mix.fio" --output="$W/fio-mix.txt" >/dev/null 2>"$W/rec.err" ||
	{ cat "$W/rec.err"; rec_die "recording the fio mix failed"; }
REC_DEVS=$B1 fidelity "fio mix" "$W/mix/mix" -- -d "$B1" "$W/mix/mix"
"$BIN/blkscope-parse" -O -d "$W/mix.dump" "$W/mix/mix" >/dev/null
rm -rf "$W/fio"
"$REC" -d "$B1" -D "$W/fio" -o fio -- fio --name=replay --read_iolog="$W/mix.dump" --replay_redirect="$B1" \
	--ioengine=io_uring --iodepth=32 --direct=1 --output="$W/fio-replay.txt" >/dev/null 2>"$W/rec.err" ||
	{ cat "$W/rec.err" "$W/fio-replay.txt"; rec_die "fio --read_iolog failed"; }
python3 "$QC" --label "fio --read_iolog (for comparison)" "$W/mix/mix" "$W/fio/fio" || true

# ---- 2. ext4: writeback, O_DSYNC, fsync, journal commits
mkfs.ext4 -q -F "$A2"
mkdir "$W/mnt"
mount "$A2" "$W/mnt"
rec_defer "umount '$W/mnt' 2>/dev/null"
"$REC" -d "$A2" -D "$W/ext4" -o ext4 -- sh -c '
	m=$1
	for i in $(seq 16); do dd if=/dev/urandom of=$m/f$i bs=64k count=8 status=none; done
	dd if=/dev/zero of=$m/dsync bs=4k count=40 oflag=dsync status=none
	sync
	for i in $(seq 8); do dd if=/dev/zero of=$m/g$i bs=16k count=4 conv=fsync status=none; done
	sleep 0.3' sh "$W/mnt" >/dev/null 2>"$W/rec.err" || { cat "$W/rec.err"; rec_die "recording ext4 failed"; }
umount "$W/mnt"
REC_DEVS=$B2 fidelity "ext4" "$W/ext4/ext4" -- -d "$B2" "$W/ext4/ext4"

# ---- 3. splits, merges, FUA, discard (mq-deadline on both sides)
sched "$A1" mq-deadline
sched "$B1" mq-deadline
"$REC" -d "$A1" -D "$W/ops" -o ops -- sh -c '
	d=$1
	dd if=/dev/zero of=$d bs=4M count=4 oflag=direct status=none
	dd if=/dev/zero of=$d bs=4k count=512 seek=4096 status=none conv=fsync
	dd if=/dev/zero of=$d bs=4k count=8 seek=8192 oflag=direct,dsync status=none
	blkdiscard -o 67108864 -l 1048576 $d
	dd if=$d of=/dev/null bs=4k count=256 skip=4096 iflag=direct status=none' sh "$A1" \
	>/dev/null 2>"$W/rec.err" || { cat "$W/rec.err"; rec_die "recording the operations failed"; }
"$BIN/blkscope-parse" "$W/ops/ops" >"$W/ops.txt"
for act in X M; do
	grep -Eq "^ *[0-9]+,[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9]+ +$act " "$W/ops.txt" ||
		rec_die "the operations trace has no $act event: it does not test what it should"
done
REC_DEVS=$B1 fidelity "splits, merges, FUA, discard" "$W/ops/ops" -- -d "$B1" "$W/ops/ops"

# ---- 4. two devices, --map
sched "$A1" none
sched "$B1" none
cat >"$W/two.fio" <<EOF
[global]
direct=1
ioengine=io_uring
time_based
runtime=2
[a]
filename=$A1
rw=randread
bs=4k
rate_iops=5000
iodepth=4
[b]
filename=$A2
rw=write
bs=64k
rate=,20m
iodepth=2
EOF
"$REC" -d "$A1" -d "$A2" -D "$W/two" -- fio "$W/two.fio" --output=/dev/null >/dev/null 2>"$W/rec.err" ||
	{ cat "$W/rec.err"; rec_die "recording two devices failed"; }
REC_DEVS="$B1 $B2" fidelity "two devices" "$W/two/$(basename "$A1"),$W/two/$(basename "$A2")" \
	--map "$A1_DEV=$B1_DEV" --map "$A2_DEV=$B2_DEV" -- -m "$A1_DEV=$B1" -m "$A2_DEV=$B2" "$W/two"
echo OK
