#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""record-walk.py FILE...: check per-CPU blktrace files record by record.

For each file: every record has the v7 magic, the file ends on a record
boundary, time never goes backwards, notes carry sequence 0 and events
rising sequence numbers.  Prints one line per file:
  FILE records=N events=N notes=N gaps=N first_seq=N
and exits 1 (with the reason) on the first violation.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blktrace  # noqa: E402


def walk(path):
    data = open(path, "rb").read()
    recs = events = notes = gaps = end = 0
    last_time = 0
    last_seq = None
    first_seq = 0
    for off, r, _ in blktrace.records(data, whole=False):
        magic, seq, time, action = r.magic, r.sequence, r.time, r.action
        end = off + blktrace.HDR_SIZE + r.pdu_len
        if magic != blktrace.MAGIC_V7:
            return f"{path}: bad magic {magic:#x} at byte {off}"
        if time < last_time:
            return f"{path}: time goes backwards at byte {off}"
        last_time = time
        if blktrace.is_note(action):
            notes += 1
            if seq != 0:
                return f"{path}: note with sequence {seq} at byte {off}"
        else:
            events += 1
            if last_seq is None:
                first_seq = seq
                gaps += seq - 1
            elif seq <= last_seq:
                return f"{path}: sequence {seq} after {last_seq} at byte {off}"
            else:
                gaps += seq - last_seq - 1
            last_seq = seq
        recs += 1
    if end != len(data):
        return f"{path}: truncated record at byte {end}"
    print(f"{path} records={recs} events={events} notes={notes} gaps={gaps} first_seq={first_seq}")
    return None


status = 0
for p in sys.argv[1:]:
    err = walk(p)
    if err:
        print(err, file=sys.stderr)
        status = 1
sys.exit(status)
