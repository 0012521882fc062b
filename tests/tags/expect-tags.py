#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""expect-tags.py MODE TRACE [-g NAME:MEMBERS]... - the tag assignments the
reference plugins must make, computed independently from the raw one-CPU
trace file, printed as `tag-check -v` prints them ("event N: ... -> tag T
(label)"), reduced to "N T label" lines.  MODE: pid or comm."""
import struct
import sys

HDR = struct.Struct("=IIQQIIIIIHH")
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
pos = index = 0
comm = {}                       # pid -> bytes
tags = {}                       # key -> (tag, label)
while pos < len(data):
    f = HDR.unpack_from(data, pos)
    action, pid, pdu_len = f[5], f[6], f[10]
    pdu = data[pos + 48:pos + 48 + pdu_len]
    code = action & 0xffff & ~0x100
    if action & (0x400 << 16):
        if code == 0:
            name = pdu[:16].split(b"\0", 1)[0]
            if mode == "comm" or pid not in groups:
                comm[pid] = name
    elif code in (1, 7):
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
    pos += 48 + pdu_len
    index += 1
