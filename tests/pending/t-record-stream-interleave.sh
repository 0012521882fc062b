#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# PENDING (fails against the recorder of 2026-11-21): `blkscope record -o -`
# writes its stream in per-CPU blocks (all staged CPU 0 records, then all
# CPU 1 records).  blkparse in pipe mode reads 512-record batches and waits
# for missing sequence numbers only so long; when a CPU's block arrives
# more than a batch after newer events of the other CPU, `blkparse -i -`
# with default options reports "Skips: 1 forward (N ...)" for a stream that
# has no gap (observed in 2 of 10 runs of 3 fio writers, ~2200 events).
# A stream written in time order, or in small per-CPU blocks, never has
# that problem.  This test checks the stream property directly (no record
# arrives more than one blkparse batch after a newer record), so it fails
# far more often than blkparse does (5 of 6 runs here): it measures the
# cause, not the symptom.
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
oracle_require_recorder
oracle_workdir
oracle_loop_setup 64
WL_DEV=$ORACLE_LOOP "$BIN/blkscope" record -d "$ORACLE_LOOP" -o - -- \
	"$ORACLE_DIR/run-workload" wl_fio_merge >"$ORACLE_WORK/s.stream" 2>"$ORACLE_WORK/rec.log" ||
	{ cat "$ORACLE_WORK/rec.log"; oracle_die "blkscope record -o - failed"; }
python3 - "$ORACLE_DIR" "$ORACLE_WORK/s.stream" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import blkrec
BATCH = 512          # blkparse's default -b
recs, _ = blkrec.read_file(sys.argv[2], strict=True)
ev = [r for r in recs if not r.is_note()]
newest = 0
late = 0
first = None
for i, r in enumerate(ev):
    if i >= BATCH:
        newest = max(newest, ev[i - BATCH].time)
    if r.time < newest:
        late += 1
        first = first or (i, r)
print("%d events, %d arrive more than %d records after a newer one" % (len(ev), late, BATCH))
if late:
    i, r = first
    print("first: event %d (cpu %d seq %d) is older than an event %d+ records before it" % (i, r.cpu, r.sequence, BATCH))
    sys.exit(1)
PY
