#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fd-plugin.py OUT - a tagging plugin that first writes the descriptors it
was started with to the file OUT, one "fd -> target" line each, then
answers every event with a bare END.  The listing of /proc/self/fd opens a
directory descriptor of its own: only descriptors still open afterwards
are reported."""
import fcntl
import os
import struct
import sys

HDR = struct.Struct("=IIQQIIIIIHH")
names = os.listdir("/proc/self/fd")
lines = []
for name in sorted(names, key=int):
    fd = int(name)
    try:
        fcntl.fcntl(fd, fcntl.F_GETFD)
    except OSError:
        continue	# the directory listing's own descriptor, closed by now
    try:
        target = os.readlink("/proc/self/fd/%d" % fd)
    except OSError:
        target = "?"
    lines.append("%d -> %s\n" % (fd, target))
# O_EXCL|O_NOFOLLOW: the test gives a fresh path in its own directory
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
os.write(fd, "".join(lines).encode())
os.close(fd)

buf = b""
while True:
    chunk = os.read(0, 1 << 16)
    if not chunk:
        break
    buf += chunk
    ends = []
    while len(buf) >= HDR.size:
        pdu_len = HDR.unpack_from(buf)[10]
        if len(buf) < HDR.size + pdu_len:
            break
        buf = buf[HDR.size + pdu_len:]
        ends.append(struct.pack("=I", 0))
    data = b"".join(ends)
    while data:
        data = data[os.write(1, data):]
