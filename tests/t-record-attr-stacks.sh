#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record --stacks against a program whose code paths are known: the test
# compiles tests/attr/iopath.c with frame pointers (not stripped), which
# queues NW direct writes from journal_commit_block() (called by
# write_journal() from main()) and NR direct reads from
# index_lookup_page() (read_index(), main()); it exits within
# milliseconds, before the recorder reads its stacks (symbolized by build
# id, through its executable's inode).  Then, on the same ext4:
#  - exactly NW I/Os (writes, 4 KiB, direct, of j.dat) have a stack whose
#    innermost user frames are main > write_journal > journal_commit_block,
#    right above the kernel's frames (the pwrite64 system call down to the
#    bio's submission), and exactly NR reads main > read_index >
#    index_lookup_page; no other I/O has those frames;
#  - the same in analyze --folded (weights: I/Os, then bytes) and in
#    export's stacks table;
#  - writeback by the flusher (dirty pages expired, no fsync) has a kernel
#    stack only (a kernel thread: no user frames), through wb_workfn, and
#    is still attributed to its file; the journal's writes come from
#    kjournald2.
# (The filesystem's own I/O for the program's first write, a bitmap read,
# is under journal_commit_block too, as it should be: it is counted apart.)
# Needs root, BPF, cc, mkfs.ext4, filefrag (77 otherwise).
# exclusive: yes
set -euo pipefail
. "${TOP:?}/tests/lib/oracle.sh"
oracle_require_root
oracle_require_recorder
need_tools cc mkfs.ext4 filefrag
oracle_workdir
W=$ORACLE_WORK
cc -O0 -g -fno-omit-frame-pointer -o "$W/iopath" "$TOP/tests/attr/iopath.c" || oracle_die "cannot compile iopath.c"
oracle_loop_setup 128
D=$ORACLE_LOOP_NAME
mkfs.ext4 -q -F -b 4096 "/dev/$D" || oracle_die "mkfs.ext4 failed"
mkdir "$W/mnt" "$W/out"
mount "/dev/$D" "$W/mnt" || oracle_die "mount failed"
oracle_defer "umount '$W/mnt'"
# the flusher writes dirty pages back after a second, not thirty
for f in dirty_expire_centisecs dirty_writeback_centisecs; do
	oracle_defer "echo $(cat /proc/sys/vm/$f) >/proc/sys/vm/$f"
done
echo 100 >/proc/sys/vm/dirty_expire_centisecs
echo 50 >/proc/sys/vm/dirty_writeback_centisecs

NW=12
NR=7
oracle_settle
"$BIN/blkscope" record --files --stacks -d "/dev/$D" -D "$W/out" -o st -- sh -c "
	'$W/iopath' '$W/mnt/j.dat' $NW $NR &&
	dd if=/dev/urandom of='$W/mnt/late.dat' bs=64k count=8 status=none &&
	for i in \$(seq 40); do filefrag -v '$W/mnt/late.dat' | grep -q delalloc || break; sleep 0.25; done &&
	sleep 0.5" \
	>"$W/record.log" 2>&1 || { cat "$W/record.log"; oracle_die "record failed"; }
grep "^Attribution:" "$W/record.log"
cd "$W/out"
"$BIN/blkscope" export --format csv -o "$W/ios.csv" st || oracle_die "export failed"
"$BIN/blkscope" export --table stacks --format csv -o "$W/stacks.csv" st || oracle_die "export --table stacks failed"
"$BIN/blkscope" analyze --folded "$W/ios.folded" st >/dev/null || oracle_die "analyze --folded failed"
"$BIN/blkscope" analyze --folded "$W/bytes.folded" --folded-weight bytes st >/dev/null ||
	oracle_die "analyze --folded-weight bytes failed"

python3 - "$W" "$NW" "$NR" <<'EOF'
import csv, sys
w, nw, nr = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fail = []
stacks = {int(r["stack_id"]): r for r in csv.DictReader(open(w + "/stacks.csv"))}

def parts(s):
    f = s["frames"].split(";")
    nu = int(s["user_frames"])
    return f[:nu], f[nu:]   # root first: user frames, then the kernel's

want = {"write": ["main", "write_journal", "journal_commit_block"],
        "read": ["main", "read_index", "index_lookup_page"]}
hits = {"write": [], "read": []}
for r in csv.DictReader(open(w + "/ios.csv")):
    sid = r["stack_id"]
    if not sid:
        continue
    user, kern = parts(stacks[int(sid)])
    data = r["file"].endswith("/j.dat") and r["file_class"] == "direct"
    named = [k for k, v in want.items() if v[-1] in user]
    if not named:
        if data:
            fail.append("a direct %s of j.dat under none of the program's functions: %s" % (r["op"], user))
        continue
    k = named[0]
    if user[-3:] != want[k]:
        fail.append("%s I/O: user frames end %s, want %s" % (r["op"], user[-3:], want[k]))
        continue
    syscall = "pwrite64" if k == "write" else "pread64"
    if not any(syscall in f for f in kern) or "submit_bio" not in kern[-1]:
        fail.append("%s I/O: kernel frames %s: no %s down to the submission" % (k, kern, syscall))
    if data:
        hits[k].append(r)
    elif r["file_class"] not in ("metadata", "journal"):	# what the write made the filesystem do
        fail.append("an I/O under %s: %s %s bytes %s %r" % (want[k][-1], r["op"], r["bytes"], r["file_class"], r["file"]))
for k, n in (("write", nw), ("read", nr)):
    rows = hits[k]
    if len(rows) != n:
        fail.append("%d direct I/Os of j.dat under %s, the program did %d" % (len(rows), want[k][-1], n))
    for r in rows:
        if (r["op"], r["bytes"]) != (k, "4096"):
            fail.append("an I/O of j.dat under %s: %s of %s bytes" % (want[k][-1], r["op"], r["bytes"]))
# the flusher: kernel stack only, through wb_workfn, the file still known
wb = jbd = 0
for r in csv.DictReader(open(w + "/ios.csv")):
    if not r["stack_id"]:
        continue
    s = stacks[int(r["stack_id"])]
    user, kern = parts(s)
    if any("wb_workfn" in f for f in kern):
        wb += 1
        if user or int(s["user_frames"]):
            fail.append("writeback with user frames %s" % user)
        if r["file_class"] == "cache" and not r["file"].endswith("/late.dat"):
            fail.append("flusher writeback of %r, want late.dat" % r["file"])
    if any("kjournald2" in f for f in kern):
        jbd += 1
if not wb:
    fail.append("no writeback through wb_workfn (the flusher)")
if not jbd:
    fail.append("no journal writes from kjournald2")
# folded: the same counts, root first with the process name
def folded(path):
    out = {}
    for line in open(path):
        stack, n = line.rsplit(" ", 1)
        out[stack] = out.get(stack, 0) + int(n)
    return out
# (the I/O the filesystem did for the program's writes too: the export's count of them)
extra = {k: sum(1 for r in csv.DictReader(open(w + "/ios.csv")) if r["stack_id"] and
                want[k][-1] in parts(stacks[int(r["stack_id"])])[0]) - len(hits[k]) for k in want}
for path, per in (("/ios.folded", lambda n, k: n + extra[k]), ("/bytes.folded", None)):
    f = folded(w + path)
    for k, n in (("write", nw), ("read", nr)):
        tot = sum(v for s, v in f.items() if s.startswith("iopath;") and ";".join(want[k]) + ";" in s)
        if per and tot != per(n, k):
            fail.append("%s: %d under %s, want %d" % (path, tot, ";".join(want[k]), per(n, k)))
        if not per and tot < n * 4096:
            fail.append("%s: %d bytes under %s, want at least %d" % (path, tot, ";".join(want[k]), n * 4096))
print("writes %d, reads %d under the named functions; %d flusher, %d journal I/Os" %
      (len(hits["write"]), len(hits["read"]), wb, jbd))
for x in fail[:20]:
    print("FAIL:", x)
sys.exit(1 if fail else 0)
EOF
echo "PASS"
