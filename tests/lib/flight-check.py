#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""flight-check.py DIR BASE: check one flight-recorder snapshot.

The per-CPU files DIR/BASE.blktrace.N must: start (in time order over all
files) with the TIMESTAMP note, then the host note; name every pid with a
PROCESS note before its first event (per device); carry sequence numbers
from 1 per file, gaps only where the end note counts drops; and hold at
least one trigger note (the first with n=1), whose c time, when given, is
the time of a C record of the same device, sector and bytes in the files.
Prints one line:
  trigger=<kind> expr=<expr> latency=<ns> history=<ns before the trigger>
  after=<ns after it> events=<N> pids=<N> triggers=<N> drops=<N>
and "pid PID COMM" for every PROCESS note; exits 1 with the reason.
"""
import glob
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blktrace  # noqa: E402

FLAGGED = 0x04000102
PROCESS, TIMESTAMP, MESSAGE = 0x04000000, 0x04000001, 0x04000002


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def text(pdu, flagged):
    return pdu[8 if flagged else 0:].decode()


def fields(words):
    return dict(w.split("=", 1) for w in words if "=" in w)


def main(d, base):
    recs, drops = [], 0
    files = sorted(glob.glob(os.path.join(d, base + ".blktrace.*")))
    if not files:
        fail(f"no files {base}.blktrace.* in {d}")
    for path in files:
        cpu = int(path.rsplit(".", 1)[1])
        last_seq, events, gaps, end = 0, 0, 0, None
        for off, r, pdu in blktrace.records(open(path, "rb").read()):
            if r.cpu != cpu:
                fail(f"{path}: record of cpu {r.cpu}")
            if end is not None:
                fail(f"{path}: a record after the end note")
            if r.action == FLAGGED and pdu[8:].startswith(b"blkscope end "):
                end = fields(text(pdu, True).split())
                continue
            recs.append((r.time, r, pdu, path))
            if not blktrace.is_note(r.action):
                events += 1
                if r.sequence <= last_seq:
                    fail(f"{path}: sequence {r.sequence} after {last_seq}")
                gaps += r.sequence - last_seq - 1
                last_seq = r.sequence
        if end is None:
            fail(f"{path}: no end note")
        if int(end["events"]) != events or int(end["drops"]) != gaps:
            fail(f"{path}: end note {end} but {events} events, {gaps} gaps")
        drops += gaps
    recs.sort(key=lambda x: x[0])
    if not recs or recs[0][1].action != TIMESTAMP:
        fail("the first record is not the TIMESTAMP note")
    if recs[1][1].action != MESSAGE or not recs[1][2].startswith(b"blkscope host="):
        fail("no host note after the TIMESTAMP note")
    named, triggers, completions = {}, [], set()
    for t, r, pdu, path in recs:
        if r.action == PROCESS:
            named.setdefault((r.device, r.pid), blktrace.comm(pdu).decode())
        elif r.action == FLAGGED and pdu[8:].startswith(b"blkscope trigger "):
            triggers.append((t, fields(text(pdu, True).split())))
        elif not blktrace.is_note(r.action):
            if (r.device, r.pid) not in named:
                fail(f"pid {r.pid} has an event at {t} before any PROCESS note")
            if blktrace.basic(r.action) == blktrace.TA_COMPLETE:
                completions.add((r.device, r.sector, r.bytes, t))
    if not triggers or triggers[0][1].get("n") != "1":
        fail("no trigger note n=1")
    first = triggers[0][1]
    if "c" in first:
        ma, mi = (int(x) for x in first["dev"].split(","))
        key = ((ma << 20) | mi, int(first["sector"]), int(first["bytes"]), int(first["c"]))
        if key not in completions:
            fail(f"the trigger's I/O {key} is not a C record of the snapshot")
    events = [x for x in recs if not blktrace.is_note(x[1].action)]
    tt = triggers[0][0]
    print(f"trigger={first['kind']} expr={first['expr']} latency={first.get('latency', 0)} "
          f"history={tt - events[0][0] if events else 0} after={events[-1][0] - tt if events else 0} "
          f"events={len(events)} pids={len(named)} triggers={len(triggers)} "
          f"drops={drops}")
    for (dev, pid), comm in sorted(named.items()):
        print(f"pid {pid} {comm}")


main(sys.argv[1], sys.argv[2])
