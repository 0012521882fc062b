#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cgroup attribution: `record --cgroup-ids` against the kernel's tracer with
# its blk_cgroup option on (the same 8-byte id prefix and 0x100 flag, record
# by record), the "cgroup ID PATH" notes, and `record --cgroup PATH` (an
# in-kernel filter on the bio's cgroup or any cgroup below it) against the
# kernel's capture cut down to the ids of that subtree.  The workload runs
# in two cgroups of the io hierarchy: page-cache writes + fsync from
# T/a/w, direct reads from T/b.  The notes' per-cgroup byte counts must be
# what the workload did.
# exclusive: yes
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
oracle_require_recorder
oracle_workdir
export ORACLE_DIR

. "$TOP/tests/lib/cgroup.sh"
cg_make_tree
CGR=$CG_ROOT T=$CG_T

oracle_loop_setup 64
D=$ORACLE_LOOP_NAME

# 1. every event with its id, as the kernel writes it
ORACLE_FT_CGROUP=1 ORACLE_REC_OPTS="--cgroup-ids" \
	oracle_run_case ids "$D" wl_cgroups --expect Q:WS --expect C:WS --expect Q:RS --expect C:RS

# The notes: one per id and per-CPU file, before the id's first record in
# that file (so before it in any merge), and the
# bytes each cgroup queued are what the workload did (1 MiB written by
# a/w, 128 KiB read by b).  Done here with the test's own record reader.
python3 - "$ORACLE_WORK/ids" "${T#"$CGR"}" <<'EOF'
import os, struct, sys
sys.path.insert(0, os.environ["ORACLE_DIR"])
import blkrec
base, rel = sys.argv[1], sys.argv[2]
paths, recs, cpu = {}, [], 0
while os.path.exists("%s.blktrace.%d" % (base, cpu)):
    recs += blkrec.read_file("%s.blktrace.%d" % (base, cpu), strict=True)[0]
    cpu += 1
recs.sort(key=lambda r: r.time)
fail = []
nflag = 0
bytes_by = {}
for r in recs:
    if r.action == blkrec.NOTE_MESSAGE | 0x100:
        if r.pdu[8:].startswith(b"blkscope "):	# the recorder's end note (docs/format.md)
            continue
        cgid = struct.unpack("<Q", r.pdu[:8])[0]
        word, num, path = r.pdu[8:].decode().split(" ", 2)
        if word != "cgroup" or int(num) != cgid:
            fail.append("bad note %r" % r.pdu)
        if paths.get(cgid, path) != path:
            fail.append("id %d named twice: %s, %s" % (cgid, paths[cgid], path))
        paths[cgid] = path
        continue
    if r.is_note() or not r.action & 0x100:
        continue
    nflag += 1
    cgid = struct.unpack("<Q", r.pdu[:8])[0]
    if cgid not in paths:
        fail.append("id %d used before its note (%s)" % (cgid, blkrec.describe(r)))
        continue
    if r.action & 0xff == 1:    # Q
        rw = "W" if r.action & (blkrec.TC_WRITE << 16) else "R"
        key = (paths[cgid], rw)
        bytes_by[key] = bytes_by.get(key, 0) + r.bytes
want = {(rel + "/a/w", "W"): 1 << 20, (rel + "/a/w", "R"): 0,
        (rel + "/b", "R"): 128 << 10, (rel + "/b", "W"): 0}
for k, v in want.items():
    if bytes_by.get(k, 0) != v:
        fail.append("%s %s: %d bytes queued, the workload did %d" % (k[0], k[1], bytes_by.get(k, 0), v))
print("== ids: %d flagged events, %d cgroups named: %s" % (nflag, len(paths), sorted(paths.values())))
for f in fail:
    print("FAIL: " + f)
sys.exit(1 if fail or not nflag else 0)
EOF

# blkparse 1.2.0 reads the files: it prints "Bad fs action" on stderr for
# each flagged event and skips the notes; `blkscope parse` does the same,
# byte for byte on both streams.
(cd "$ORACLE_WORK" && blkparse -i ids >ids.blkparse 2>ids.blkparse.err) ||
	oracle_die "blkparse failed on the ids files"
(cd "$ORACLE_WORK" && "$BIN/blkscope" parse -i ids >ids.parse 2>ids.parse.err) ||
	oracle_die "blkscope parse failed"
for f in "" .err; do
	cmp -s "$ORACLE_WORK/ids.blkparse$f" "$ORACLE_WORK/ids.parse$f" ||
		{ diff "$ORACLE_WORK/ids.blkparse$f" "$ORACLE_WORK/ids.parse$f" | head
		  oracle_die "parse differs from blkparse (ids.parse$f)"; }
done
# (the recorder's host note is a plain message and is printed, as blkparse does)
grep -E ' m .*cgroup [0-9]+ ' "$ORACLE_WORK/ids.parse" && oracle_die "a cgroup note was printed"
echo "== ids: blkscope parse = blkparse ($(wc -l <"$ORACLE_WORK/ids.parse") lines," \
	"$(grep -c 'Bad fs action' "$ORACLE_WORK/ids.parse.err") 'Bad fs action')"

# the same recording through -o - (the notes travel in the stream)
ORACLE_FT_CGROUP=1 ORACLE_REC_OPTS="--cgroup-ids" ORACLE_REC_MODE=stream \
	oracle_run_case ids_stream "$D" wl_cgroups --expect Q:WS --expect Q:RS

# 2. --cgroup T/a: only the writer (in a/w, below a), fsync'd writeback
# included; the kernel's capture cut to a's subtree and stripped of the
# prefix (no --cgroup-ids here) is what blkscope must have.
id_of() { stat -c %i "$1"; }	# kernfs id = inode number on 64-bit hosts
name=filter
oracle_settle
ORACLE_FT_CGROUP=1 oracle_ftrace_start "$D" "$ORACLE_WORK/$name.ftrace-all"
WL_DEV=/dev/$D "$BIN/blkscope" record --cgroup "$T/a" -d "/dev/$D" -D "$ORACLE_WORK" -o "$name" -- \
	"$ORACLE_DIR/run-workload" wl_cgroups >"$ORACLE_WORK/$name.record.log" 2>&1 ||
	{ cat "$ORACLE_WORK/$name.record.log"; oracle_ftrace_stop; oracle_die "$name: blkscope record failed"; }
oracle_ftrace_stop
python3 - "$ORACLE_WORK/$name.ftrace-all" "$ORACLE_WORK/$name.ftrace" "$(id_of "$T/a")" "$(id_of "$T/a/w")" <<'EOF'
import os, struct, sys
sys.path.insert(0, os.environ["ORACLE_DIR"])
import blkrec
recs, junk = blkrec.read_file(sys.argv[1], strict=False)
keep = {int(x) for x in sys.argv[3:]}
with open(sys.argv[2], "wb") as out:
    for r in recs:
        if not r.action & 0x100 or struct.unpack("<Q", r.pdu[:8])[0] not in keep:
            continue
        r.action &= ~0x100
        r.pdu = r.pdu[8:]
        r.pdu_len -= 8
        out.write(r.pack())
EOF
echo "== $name: --cgroup $T/a against the kernel's records of a's subtree"
oracle_compare "$ORACLE_WORK/$name.ftrace" "$ORACLE_WORK/$name" --expect Q:WS --expect C:WS \
	--expect-none Q:RS --expect-none C:RS \
	--unrecorded-completions "$(awk '$1 == "Unrecorded:" { n += $2 } END { print n + 0 }' \
		"$ORACLE_WORK/$name.record.log")" ||
	oracle_die "$name: blkscope's records differ from the kernel's (artefacts in $ORACLE_WORK)"

# 3. a partition: every bio is remapped, and an A with an id has a 24-byte
# PDU (more than a ring slot: the recorder rebuilds it in user space).
oracle_loop_addpart 2048 32768
ORACLE_FT_CGROUP=1 ORACLE_REC_OPTS="--cgroup-ids" \
	oracle_run_case partition "$ORACLE_PART_NAME" wl_partition --expect A:WS --expect A:RS --expect C:WS
