#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""expect-tags.py MODE TRACE [-g NAME:MEMBERS]... - the tag assignments the
reference plugins must make, computed independently from the raw one-CPU
trace file, printed as `tag-check -v` prints them ("event N: ... -> tag T
(label)"), reduced to "N T label" lines.  MODE: pid or comm."""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import blktrace  # noqa: E402
mode, path = sys.argv[1], sys.argv[2]
groups = {}
args = sys.argv[3:]
while args:
    assert args[0] == "-g"
    name, members = args[1].split(":", 1)
    for m in members.split(","):
        groups[int(m) if mode == "pid" else m] = name
    args = args[2:]

data = open(path, "rb").read()
comm = {}                       # pid -> bytes
tags = {}                       # key -> (tag, label)
for index, (_, r, pdu) in enumerate(blktrace.records(data)):
    action, pid = r.action, r.pid
    code = action & 0xffff & ~blktrace.TA_CGROUP
    if blktrace.is_note(action):
        if code == blktrace.TN_PROCESS:
            name = blktrace.comm(pdu)
            if mode == "comm" or pid not in groups:
                comm[pid] = name
    elif code in (blktrace.TA_QUEUE, blktrace.TA_ISSUE):
        if mode == "pid":
            key = ("g", groups[pid]) if pid in groups else ("p", pid)
            label = groups[pid] if pid in groups else "%s (%d)" % (
                comm[pid].decode() if pid in comm else "?", pid)
        else:
            c = comm[pid].decode() if pid in comm else "?"
            key = ("g", groups[c]) if c in groups else ("c", c)
            label = groups.get(c, c)
        if key not in tags:
            tags[key] = (len(tags), label)
        print("%d %d %s" % (index, tags[key][0], tags[key][1]))
