#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bad-plugin.py MODE [N] - a tagging plugin that misbehaves on purpose at event N.

It answers events 0..N-1 correctly (tag 0 "ok" on every Q), then, at event N:
  crash       kills itself with SIGSEGV
  exit0       exits 0 without answering
  exit3       answers everything, then exits 3 at the end of input
  unknown     writes response type 7
  longlabel   declares a tag with a 5000-byte label
  nonul       declares a tag whose label has no NUL
  emptylabel  declares a tag with len 0
  undeclared  TAG_IO for tag 7, never declared
  zero        declares tag 5, then TAG_IO for tag 0, never declared (use N = 0)
  manytags    declares 70000 tags
  tagflood    declares tag 9 and sends 70000 TAG_IOs for the one event
  silent      stops answering, keeps reading, never exits by itself
  hang        stops reading and answering (sleeps)
  early       (N ignored) writes 100000 ENDs before reading anything
  extra       answers everything, then writes one END too many
  truncated   writes half a NEW_TAG and exits 0
  argv        prints its argv as JSON on stderr, then behaves
  daemon      leaves a process behind that holds its stdout open (its pid
              goes to the file $BAD_PLUGIN_PIDFILE), then behaves
  daemon-MODE the same, then misbehaves as MODE
  good        behaves
Written without blkscope_tag on purpose: it must be able to break the protocol.
"""
import json
import os
import signal
import struct
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import blktrace  # noqa: E402

HDR = blktrace.HDR
mode = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else -1
out = []


def flush():
    data = b"".join(out)
    out.clear()
    while data:
        k = os.write(1, data)
        data = data[k:]


def u32(*v):
    out.append(struct.pack("=%dI" % len(v), *v))


def misbehave(index):
    if mode == "crash":
        flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    elif mode == "exit0":
        flush()
        os._exit(0)
    elif mode == "unknown":
        u32(7)
    elif mode == "longlabel":
        u32(1, 5, 5000)
        out.append(b"x" * 4999 + b"\0")
    elif mode == "nonul":
        u32(1, 5, 5)
        out.append(b"abcde")
    elif mode == "emptylabel":
        u32(1, 5, 0)
    elif mode == "undeclared":
        u32(2, 7)
    elif mode == "zero":
        out.append(struct.pack("=III", 1, 5, 5) + b"five\0")
        u32(2, 0)
    elif mode == "manytags":
        for t in range(1000, 71000):
            out.append(struct.pack("=III", 1, t, 2) + b"x\0")
    elif mode == "tagflood":
        out.append(struct.pack("=III", 1, 9, 2) + b"x\0")
        out.append(struct.pack("=II", 2, 9) * 70000)
    elif mode == "truncated":
        u32(1, 5)
        flush()
        os._exit(0)
    elif mode == "silent":
        flush()
        while os.read(0, 1 << 16):
            pass
        time.sleep(3600)
    elif mode == "hang":
        flush()
        time.sleep(3600)
    else:
        return False
    return True


if mode.startswith("daemon"):
    import subprocess
    kid = subprocess.Popen(["sleep", "60"], stdin=subprocess.DEVNULL, start_new_session=True)
    with open(os.environ["BAD_PLUGIN_PIDFILE"], "w") as f:
        f.write("%d\n" % kid.pid)
    mode = mode[len("daemon-"):]	# daemon-MODE: then misbehave as MODE
if mode == "argv":
    sys.stderr.write(json.dumps(sys.argv[1:]) + "\n")
if mode == "early":
    out.append(struct.pack("=I", 0) * 100000)
    flush()

buf = b""
index = 0
declared = False
broken = False
while True:
    flush()
    chunk = os.read(0, 1 << 20)
    if not chunk:
        break
    buf += chunk
    pos = 0
    while len(buf) - pos >= 48:
        f = HDR.unpack_from(buf, pos)
        end = pos + 48 + f[10]
        if end > len(buf):
            break
        if index == n and not broken and misbehave(index):
            broken = True
        if not broken:
            action = f[5]
            if not blktrace.is_note(action) and blktrace.basic(action) == blktrace.TA_QUEUE:
                if not declared:
                    out.append(struct.pack("=III", 1, 0, 3) + b"ok\0")
                    declared = True
                u32(2, 0)
            u32(0)
        index += 1
        pos = end
    buf = buf[pos:]
if mode == "extra":
    u32(0)
flush()
sys.exit(3 if mode == "exit3" else 0)
