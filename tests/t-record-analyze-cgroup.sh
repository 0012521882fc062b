#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Per-cgroup figures from a real recording: the wl_cgroups workload (1 MiB
# of page-cache writes + fsync from T/a/w, 32 direct 4 KiB reads with dd
# iflag=direct from T/b) on a loop device over /dev/shm, recorded with
# `blkscope record --cgroup-ids`, then
#  - analyze --group-by cgroup --json: T/b's group has the 32 reads, 128 KiB,
#    all completed; T/a/w's group the 1 MiB written back;
#  - export --group-by cgroup: T/b's rows are reads only, with T/b's id
#    (its inode number) in cgroup_id; T/a/w's rows writes only;
#  - the text report says that btt's sections ignored the flagged records.
# Needs root and BPF (77 otherwise); the cgroups and the loop device are
# removed at exit, also on failure.
# exclusive: yes
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
oracle_require_recorder
oracle_workdir
export ORACLE_DIR
. "$TOP/tests/lib/cgroup.sh"
cg_make_tree

oracle_loop_setup 64
D=$ORACLE_LOOP_NAME
W=$ORACLE_WORK

oracle_settle
WL_DEV=/dev/$D "$BIN/blkscope" record --cgroup-ids -d "/dev/$D" -D "$W" -o cg -- \
	"$ORACLE_DIR/run-workload" wl_cgroups >"$W/record.log" 2>&1 ||
	{ cat "$W/record.log"; oracle_die "blkscope record failed"; }

(cd "$W" && "$BIN/blkscope" analyze --group-by cgroup --json a.json -i cg >report.txt) ||
	oracle_die "analyze failed"
(cd "$W" && "$BIN/blkscope" export --group-by cgroup --format csv -o ios.csv cg) ||
	oracle_die "export failed"
grep -q "^Note: btt's sections above ignore the [0-9]* records with a cgroup id" "$W/report.txt" ||
	oracle_die "the text report does not say that btt's sections ignore the flagged records"

# paths in the notes are relative to the hierarchy's root
python3 - "$W" "${CG_T#"$CG_ROOT"}" "$(stat -c %i "$CG_T/a/w")" "$(stat -c %i "$CG_T/b")" <<'EOF'
import csv, json, sys
w, rel, id_w, id_b = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
fail = []
def eq(got, want, what):
    if got != want:
        fail.append(f"{what}: {got}, the workload did {want}")
groups = {g["name"]: g for g in json.load(open(w + "/a.json"))["groups"]}
print("groups:", {k: (g["ios"], g["bytes"]) for k, g in groups.items()})
b, aw = groups.get(rel + "/b"), groups.get(rel + "/a/w")
if not b or not aw:
    fail.append(f"no group {rel}/b or {rel}/a/w")
else:
    eq((b["ios"], b["completed"], b["bytes"]), (32, 32, 128 << 10), "analyze: b's I/Os, completed, bytes")
    eq(aw["bytes"], 1 << 20, "analyze: a/w's bytes")
    eq(aw["completed"], aw["ios"], "analyze: a/w's I/Os completed")
by = {}
for r in csv.DictReader(open(w + "/ios.csv")):
    k = (r["group"], r["cgroup_id"], r["op"])
    by[k] = by.get(k, 0) + int(r["bytes"])
print("export:", by)
eq({k: v for k, v in by.items() if k[0] == rel + "/b"}, {(rel + "/b", str(id_b), "read"): 128 << 10},
   "export: b's rows")
eq({k: v for k, v in by.items() if k[0] == rel + "/a/w"}, {(rel + "/a/w", str(id_w), "write"): 1 << 20},
   "export: a/w's rows")
for f in fail:
    print("FAIL: " + f)
sys.exit(1 if fail else 0)
EOF
echo "PASS"
