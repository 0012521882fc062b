#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record --files against the filesystem's own extent map (FIEMAP, through
# filefrag -e): ext4 on a loop device over /dev/shm, the workloads of
# tests/attr/files-workload.py (buffered write + fsync, O_DIRECT writes and
# reads, buffered reads after the cache is dropped, mmap, a file renamed
# and files deleted while being written, 100 small files, two processes
# on one file), recorded with --files --zstd, then through export's ios
# table (the analyzer reading the compressed side files in step with the
# events):
#  - every data I/O inside a file's extents is attributed to that file
#    (the path the recorder read when it first saw the file: ren.dat before
#    its rename, del2.dat "deleted"), as page cache or direct I/O;
#  - no I/O outside a file's extents is attributed to it;
#  - each file's written bytes (and dio.dat's direct reads, rb.dat's reads
#    after the cache was dropped) are all there;
#  - the journal's and the metadata's I/O are classed so, flushes "nodata";
#  - analyze --group-by file names the same files with the same bytes,
#    and --group-by dir:N puts the small files under their directory.
# Needs root, BPF, filefrag, mkfs.ext4 (77 otherwise).
# exclusive: yes
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
oracle_require_recorder
need_tools filefrag mkfs.ext4 zstd
oracle_workdir
oracle_loop_setup 256
D=$ORACLE_LOOP_NAME
W=$ORACLE_WORK
mkfs.ext4 -q -F -b 4096 "/dev/$D" || oracle_die "mkfs.ext4 failed"
mkdir "$W/mnt" "$W/out"
mount "/dev/$D" "$W/mnt" || oracle_die "mount failed"
oracle_defer "umount '$W/mnt'"

oracle_settle
"$BIN/blkscope" record --files --zstd -d "/dev/$D" -D "$W/out" -o fs -- \
	python3 "$TOP/tests/attr/files-workload.py" "$W/mnt" "$W/oracle.json" >"$W/record.log" 2>&1 ||
	{ cat "$W/record.log"; oracle_die "record failed"; }
grep "^Attribution:" "$W/record.log"
ls "$W/out"/fs.blkscope-attr.*.zst "$W/out/fs.blkscope-names.zst" >/dev/null || oracle_die "no .zst side files"
(cd "$W/out" && "$BIN/blkscope" export --format csv -o "$W/ios.csv" fs) || oracle_die "export failed"
(cd "$W/out" && "$BIN/blkscope" analyze --group-by file --json "$W/file.json" fs >/dev/null &&
	"$BIN/blkscope" analyze --group-by dir:4 --json "$W/dir.json" fs >/dev/null) || oracle_die "analyze failed"

python3 - "$W" <<'EOF'
import csv, json, sys
w = sys.argv[1]
mnt = w + "/mnt"
oracle = json.load(open(w + "/oracle.json"))
fail = []
ios = [r for r in csv.DictReader(open(w + "/ios.csv"))]
# the label the analyzer gives a file: its path as seen, " (deleted)" if it was gone then
want = {k: (v["path"] + (" (deleted)" if v["deleted"] else "")) for k, v in oracle.items()}
ranges = [(s, e, k) for k, v in oracle.items() for s, e in v["extents"]]
ranges.sort()

def owners(lo, hi):
    return {k for s, e, k in ranges if s < hi and lo < e}

by_file = {}
checked = 0
for r in ios:
    nbytes, cls, path = int(r["bytes"]), r["file_class"], r["file"]
    if cls == "unknown":
        fail.append("a Q without its attribution record: %s+%s" % (r["sector"], r["bytes"]))
    if not nbytes:
        if cls != "nodata":
            fail.append("an empty %s bio of class %s" % (r["op"], cls))
        continue
    lo = int(r["sector"])
    hi = lo + (nbytes + 511) // 512
    own = owners(lo, hi)
    if len(own) > 1:
        fail.append("%s %d+%d spans files %s" % (r["op"], lo, nbytes, sorted(own)))
        continue
    if own:
        k = own.pop()
        checked += 1
        v = oracle[k]
        if cls not in ("cache", "direct"):
            fail.append("%s %d+%d in %s's extents: class %s" % (r["op"], lo, nbytes, k, cls))
        expect = v["path"]
        if path != expect:
            fail.append("%s %d+%d in %s's extents: attributed to %r, FIEMAP says %r" % (r["op"], lo, nbytes, k, path, expect))
        by_file.setdefault((k, r["op"], cls), 0)
        by_file[(k, r["op"], cls)] += nbytes
    elif path and any(path == v["path"] for v in oracle.values()):
        fail.append("%s %d+%d outside every file's extents attributed to %s" % (r["op"], lo, nbytes, path))
print("data I/Os checked against FIEMAP:", checked)

def got(k, op, cls=None):
    return sum(b for (f, o, c), b in by_file.items() if f == k and o == op and (cls is None or c == cls))

for k, v in oracle.items():
    if got(k, "write") < v["size"]:
        fail.append("%s: %d bytes written in its extents, the file has %d" % (k, got(k, "write"), v["size"]))
if got("dio", "write", "direct") != 512 << 10 or got("dio", "read", "direct") != 512 << 10:
    fail.append("dio.dat: direct writes %d, reads %d bytes, want 512 KiB each" %
                (got("dio", "write", "direct"), got("dio", "read", "direct")))
if got("rb", "read", "cache") < 1 << 20:
    fail.append("rb.dat: %d bytes read through the page cache after the drop, want 1 MiB" % got("rb", "read", "cache"))
classes = {r["file_class"] for r in ios}
for c in ("journal", "metadata", "nodata", "cache", "direct"):
    if c not in classes:
        fail.append("no I/O of class %s (classes: %s)" % (c, sorted(classes)))
for r in ios:
    if r["file_class"] in ("journal", "metadata") and int(r["bytes"]):
        lo = int(r["sector"])
        if owners(lo, lo + int(r["bytes"]) // 512):
            fail.append("%s I/O at %d inside a file's extents" % (r["file_class"], lo))
# the reports: --group-by file, by path (the label), with the same bytes
groups = {g["name"]: g for g in json.load(open(w + "/file.json"))["groups"]}
for k in ("bw", "dio", "mm", "ren", "del", "del2", "shared", "small042"):
    g = groups.get(want[k])
    written = sum(b for (f, o, c), b in by_file.items() if f == k)
    if not g:
        fail.append("--group-by file: no group %r" % want[k])
    elif g["bytes"] < written:
        fail.append("--group-by file: %s has %d bytes, export %d" % (want[k], g["bytes"], written))
dirs = {g["name"]: g for g in json.load(open(w + "/dir.json"))["groups"]}
small = mnt + "/small"
if small.count("/") >= 4:
    small = "/".join(small.split("/")[:5])
if small not in dirs or dirs[small]["ios"] < 100:
    fail.append("--group-by dir:4: %r not a group of >= 100 I/Os (%s)" % (small, sorted(dirs)))
for f in fail[:30]:
    print("FAIL:", f)
if len(fail) > 30:
    print("... %d more" % (len(fail) - 30))
sys.exit(1 if fail else 0)
EOF
echo "PASS"
