#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""no-orphans.py CMD [ARGS...] - run CMD as a child subreaper and fail if it
leaves any process behind: a plugin it did not reap (a zombie re-parented to
us) or one still running.  Exit status: CMD's, or 99 after a message."""
import ctypes
import os
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    sys.exit("no-orphans: prctl(PR_SET_CHILD_SUBREAPER) failed: %s" % os.strerror(ctypes.get_errno()))

child = subprocess.Popen(sys.argv[1:])
rc = child.wait()


def children():
    me = str(os.getpid())
    kids = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == me:
            kids.append((int(p), fields[0]))
    return kids


left = []
deadline = time.time() + 0.5
while True:
    kids = children()
    for pid, state in kids:
        left.append("pid %d (%s)" % (pid, "zombie: never reaped" if state == "Z" else "still running"))
    if kids or time.time() > deadline:
        break
    time.sleep(0.05)
for pid, _ in children():
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
while True:
    try:
        os.waitpid(-1, 0)
    except ChildProcessError:
        break
if left:
    sys.stderr.write("no-orphans: %s left behind: %s\n" % (sys.argv[1], ", ".join(sorted(set(left)))))
    sys.exit(99)
sys.exit(rc)
