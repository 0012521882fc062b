#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fidelity of the other output paths: `-o -` (one stream on stdout, split
# by cpu here, so per-CPU sequence/time order and content are checked as
# for files) and --zstd (decompressed with the zstd tool), each against the
# kernel's blk tracer on a concurrent fio workload with merges.
# exclusive: yes
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
oracle_require_recorder
oracle_workdir
oracle_loop_setup 64
D=$ORACLE_LOOP_NAME

ORACLE_REC_MODE=stream oracle_run_case stream "$D" wl_fio_merge --expect M:WS
ORACLE_REC_MODE=zstd oracle_run_case zstd "$D" wl_fio_merge --expect M:WS
# The stream itself is what `blkscope record -o - | blkparse -i -` feeds
# blkparse: whole records, per-CPU sequences without gaps, and the CPUs
# merged by time closely enough that blkparse's default 512-record batches
# count no skip that is not in the stream (t-record-stream-interleave.sh).
blkparse -i - <"$ORACLE_WORK/stream.stream" >"$ORACLE_WORK/stream.txt" 2>&1 ||
	oracle_die "blkparse -i - rejected the stream"
grep -q "Bad magic" "$ORACLE_WORK/stream.txt" && oracle_die "blkparse -i -: bad magic in the stream"
grep -q "Skips: 0 forward" "$ORACLE_WORK/stream.txt" || oracle_die "blkparse -i -: sequence gaps in the stream"
n=$(sed -n 's/^Events ([0-9,]*): \([0-9]*\) entries$/\1/p' "$ORACLE_WORK/stream.txt")
[ "${n:-0}" -ge 1000 ] || oracle_die "blkparse -i - saw ${n:-no} events in the stream"
echo "blkparse -i - < stream: $n events, Skips: 0 forward"
