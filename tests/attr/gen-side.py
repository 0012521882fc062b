#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Crafted attribution side files for a generated trace (tests/t-analyze-attr*.sh):
reads DIR/BASE.blktrace.* (tests/lib/blktrace.py), writes DIR/BASE.blkscope-attr.N
and DIR/BASE.blkscope-names (tests/lib/attrside.py) by fixed rules, and the
expected attribution of every Q as JSON, the oracle the analyzer's output is
checked against.

  gen-side.py DIR BASE DEVICE ID_OFFSET EXPECT.json

Rules: a Q's file is chosen by its sector (FILES paths; file 3 has no path,
file 4 was deleted when seen), its class too (cache, direct, metadata,
journal, nodata), its stack by its pid (STACKS); every 50th Q gets no record,
every 100th record of no Q is added, every 70th record says its user stack
was not stored.  ID_OFFSET shifts this names file's ids (two names files
that define the same files and stacks under other ids: one row each).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "lib"))
import attrside  # noqa: E402
import blktrace  # noqa: E402

d, base, device, off, expect_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
FDEV = (7 << 20) | 3
FILES = {1: "/db/wal/000001.log", 2: "/db/data/t1.ibd", 3: None, 4: "/db/tmp/sort.tmp",
         5: "/db/data/t2.ibd", 6: "/var/log/app \u00e9\u00e8.log"}
DELETED = {4}
STACKS = {
    1: (["submit_bio_noacct_nocheck", "ext4_io_submit", "ext4_writepages"], ["pwrite64", "wal_append", "main"], 0),
    2: (["submit_bio_noacct_nocheck", "ext4_mpage_readpages"], ["pread64"], 2),	# user walk cut
    3: (["submit_bio_noacct_nocheck", "wb_workfn", "kthread"], [], 1),		# a kernel thread
}
CLS = ["cache", "cache", "cache", "direct", "metadata", "journal", "cache", "direct"]


def label(fid, cls):
    if fid is None:
        return {"cache": "(page cache, file unknown)", "direct": "(direct I/O, file unknown)",
                "metadata": "(metadata)", "journal": "(journal)", "nodata": "(no data: flush, discard)",
                "unknown": "(not attributed)"}[cls]
    if FILES[fid] is None:
        return "(file dev 7,3 inode %d, path unknown)" % (1000 + fid)
    return FILES[fid] + (" (deleted)" if fid in DELETED else "")


def folded(comm, sid, why):
    if sid is None:
        return "%s;%s" % (comm, why)
    k, u, flags = STACKS[sid]
    pre = ["[user stack cut: no frame pointers]"] if flags & 2 else []
    return ";".join([comm] + pre + list(reversed(u)) + list(reversed(k)))


comms, expect, nq = {}, [], 0
files = sorted(f for f in os.listdir(d) if f.startswith(base + ".blktrace."))
for name in files:
    cpu = int(name.rsplit(".", 1)[1])
    data = open(os.path.join(d, name), "rb").read()
    out = [attrside.header_bytes("attr", device, cpu, 3)]
    for _, r, pdu in blktrace.records(data):
        if blktrace.is_note(r.action):
            if blktrace.basic(r.action) == blktrace.TN_PROCESS:
                comms.setdefault(r.pid, blktrace.comm(pdu).decode().split("/")[0])
            continue
        if blktrace.basic(r.action) != blktrace.TA_QUEUE or r.device != device:
            continue
        nq += 1
        comm = comms.get(r.pid, "pid%09u" % r.pid)
        if nq % 100 == 0:	# a record of no Q: passed over
            out.append(attrside.attr_bytes(r.time - 1, r.sector, 0, 1 + off, 1 + off, "cache"))
        if nq % 50 == 0:	# no record
            expect.append(dict(device=device, sector=r.sector, bytes=r.bytes, file=None, cls="unknown",
                               label=label(None, "unknown"), stack=None, folded=folded(comm, None, "[not attributed]")))
            continue
        cls = "nodata" if not r.bytes else CLS[(r.sector >> 5) % len(CLS)]
        fid = None if cls in ("metadata", "journal", "nodata") else (r.sector >> 9) % len(FILES) + 1
        if cls == "direct" and (r.sector >> 13) % 5 == 0:
            fid = None	# direct I/O of a filesystem we cannot see
        sid = (r.pid % 3) + 1
        flags = 2 if nq % 70 == 0 else 0
        if flags:
            sid = None
        out.append(attrside.attr_bytes(r.time, r.sector, r.sequence, fid + off if fid else 0,
                                       sid + off if sid else 0, cls, flags))
        expect.append(dict(device=device, sector=r.sector, bytes=r.bytes, file=FILES[fid] if fid else None,
                           cls=cls, label=label(fid, cls), stack=sid,
                           folded=folded(comm, sid, "[stack not stored: table full]")))
    with open(os.path.join(d, "%s.blkscope-attr.%d" % (base, cpu)), "wb") as f:
        f.write(b"".join(out))
names = [attrside.header_bytes("names", device, 0xffffffff, 3)]
for fid, path in FILES.items():
    flags = (2 if path is None else 0) | (1 if fid in DELETED else 0)
    names.append(attrside.file_bytes(fid + off, FDEV, 1000 + fid, 7, path or "", flags))
for sid, (k, u, flags) in STACKS.items():
    names.append(attrside.stack_bytes(sid + off, k, u, flags))
names.append(attrside.counts_bytes(qs=nq, files=len(FILES), stacks=len(STACKS)))
with open(os.path.join(d, base + ".blkscope-names"), "wb") as f:
    f.write(b"".join(names))
json.dump(expect, open(expect_path, "w"))
print("%s: %d Qs" % (base, nq))
