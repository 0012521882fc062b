#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record --files --stacks leave the trace itself alone:
#  - fidelity: with both options on, the per-CPU files still equal the
#    kernel's own blk tracer's records (ftrace, recorded at the same time)
#    field by field, for direct I/O, buffered writes + fsync (a PREFLUSH)
#    and readahead on a raw loop device; the attribution goes to side files;
#  - blkparse, btt and iowatcher print the same output for the recording
#    as for its per-CPU files alone in another directory (they do not read
#    the side files; with the fidelity above, that is the output of the
#    same I/O recorded without the options);
#  - every recorded Q has its attribution record (the side files' Qs are
#    the trace's, by time and sector), and on a device nobody mounted the
#    classes are right: data is "raw", a flush "nodata";
#  - the analyzer without the side files prints what it printed before:
#    no attribution section, and btt's sections the same either way.
# Needs root, BPF, blkparse, btt, iowatcher (77 otherwise).
# exclusive: yes
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
oracle_require_recorder
need_tools blkparse btt iowatcher
oracle_workdir
oracle_loop_setup 64
D=$ORACLE_LOOP_NAME
W=$ORACLE_WORK

export ORACLE_REC_OPTS="--files --stacks"
oracle_run_case direct_rw "$D" wl_direct_rw --expect Q:WS --expect Q:RS --expect C:RS
oracle_run_case buffered_fsync "$D" wl_buffered_fsync --expect Q:FWS --expect D:FN
oracle_run_case readahead "$D" wl_readahead --expect Q:RA --expect C:RA

for name in direct_rw buffered_fsync readahead; do
	ls "$W/$name".blkscope-attr.* "$W/$name.blkscope-names" >/dev/null ||
		oracle_die "$name: no side files"
	# the trace alone, elsewhere: the tools must not tell the difference
	mkdir -p "$W/alone-$name"
	cp "$W/$name".blktrace.* "$W/alone-$name/"
	(cd "$W" && blkparse -i "$name" >"$name.bp.with" 2>&1) || oracle_die "blkparse failed"
	(cd "$W/alone-$name" && blkparse -i "$name" >"../$name.bp.alone" 2>&1) || oracle_die "blkparse failed"
	cmp -s "$W/$name.bp.with" "$W/$name.bp.alone" || {
		diff "$W/$name.bp.with" "$W/$name.bp.alone" | head; oracle_die "$name: blkparse output differs"; }
	(cd "$W" && blkparse -q -i "$name" -d "$name.dump" >/dev/null 2>&1 && btt -i "$name.dump" >"$name.btt.with")
	(cd "$W/alone-$name" && blkparse -q -i "$name" -d "$name.dump" >/dev/null 2>&1 &&
		btt -i "$name.dump" >"../$name.btt.alone")
	cmp -s "$W/$name.btt.with" "$W/$name.btt.alone" || oracle_die "$name: btt output differs"
	(cd "$W" && iowatcher -t "$name" -o "$name.with.svg" >/dev/null 2>&1) || oracle_die "iowatcher failed"
	(cd "$W/alone-$name" && iowatcher -t "$name" -o "../$name.alone.svg" >/dev/null 2>&1) ||
		oracle_die "iowatcher failed"
	cmp -s "$W/$name.with.svg" "$W/$name.alone.svg" || oracle_die "$name: iowatcher output differs"
	echo "ok: $name: blkparse, btt and iowatcher print the same with and without the side files"
done

# every Q has its record; the classes on an unmounted device
python3 - "$W" "$TOP/tests/lib" "$TOP/tests/oracle" <<'EOF'
import glob, os, sys
w, lib, orc = sys.argv[1:4]
sys.path[:0] = [lib, orc]
import attrside, blkrec
fail = []
for name in ("direct_rw", "buffered_fsync", "readahead"):
    qs = {}
    for path in sorted(glob.glob("%s/%s.blktrace.*" % (w, name))):
        cpu = int(path.rsplit(".", 1)[1])
        for r in blkrec.read_file(path)[0]:
            if not r.is_note() and (r.action & 0xffff) == 1:	# Q
                qs[(cpu, r.time)] = r
    recs = {}
    for path in glob.glob("%s/%s.blkscope-attr.*" % (w, name)):
        h, rs = attrside.attr_records(path)
        for a in rs:
            recs[(h["cpu"], a["time"])] = a
    missing = set(qs) - set(recs)
    extra = set(recs) - set(qs)
    if missing or extra:
        fail.append("%s: %d Qs without a record, %d records of no Q" % (name, len(missing), len(extra)))
    for k, q in qs.items():
        a = recs.get(k)
        if not a:
            continue
        if a["sector"] != q.sector:
            fail.append("%s: Q at %d: record sector %d, Q %d" % (name, k[1], a["sector"], q.sector))
        want = "nodata" if q.bytes == 0 else "raw"
        if a["cls"] != want:
            fail.append("%s: Q %s+%d: class %s, want %s (nobody mounted the device)" %
                        (name, q.sector, q.bytes, a["cls"], want))
        if not a["stack"]:
            fail.append("%s: Q %s+%d without a stack" % (name, q.sector, q.bytes))
    print("%s: %d Qs, %d attribution records" % (name, len(qs), len(recs)))
for f in fail[:20]:
    print("FAIL:", f)
sys.exit(1 if fail else 0)
EOF

# the analyzer: btt's sections the same with and without the side files;
# without them no attribution section, no JSON member
(cd "$W" && "$BIN/blkscope" analyze --btt-only buffered_fsync >btt.with) || oracle_die "analyze failed"
(cd "$W/alone-buffered_fsync" && "$BIN/blkscope" analyze --btt-only buffered_fsync >../btt.alone) ||
	oracle_die "analyze failed"
cmp -s "$W/btt.with" "$W/btt.alone" || oracle_die "analyze --btt-only differs with the side files"
(cd "$W/alone-buffered_fsync" && "$BIN/blkscope" analyze --json a.json buffered_fsync >report.txt) ||
	oracle_die "analyze failed"
! grep -q "record --files\|record --stacks" "$W/alone-buffered_fsync/report.txt" ||
	oracle_die "an attribution section without side files"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert not {"attribution","files","stacks"} & set(d), d.keys()' \
	"$W/alone-buffered_fsync/a.json" || oracle_die "attribution members in JSON without side files"
(cd "$W" && "$BIN/blkscope" analyze --stats buffered_fsync >report.txt) || oracle_die "analyze failed"
grep -q "^(raw device)" "$W/report.txt" || oracle_die "no (raw device) row in the Files section"
echo "PASS"
