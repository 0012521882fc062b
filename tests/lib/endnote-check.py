#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""endnote-check.py [--strip DIR] [--stream] FILE...: check the end notes
(docs/format.md, "The end note") of a recording.

Per-CPU files (default): the last record of every FILE must be the end
note "blkscope end events=N drops=D" (flagged MESSAGE, id slot 0), and N
must equal the file's event records, D be at least its sequence gaps, and
N + D at least its last sequence number (drops after a CPU's last recorded
event leave no gap).  Version-7 and version-8 files are both read.
With --strip DIR, each file is copied into DIR without its end note (for
comparing blkparse/btt output with and without it).
--stream: FILE is one `-o -` stream; every (device, CPU) must have exactly
one end note, after all of its events, with the same checks.
Prints "FILE dev=D cpu=C events=N drops=D last_seq=S gaps=G" per note and
"total drops=D"; exits 1 with the reason on the first violation.
"""
import os
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blktrace  # noqa: E402

V8 = struct.Struct("=IIQQIIQIIHH")  # magic seq time sector bytes pid action dev cpu err pdu_len
FLAGGED_MESSAGE = 0x04000102


def walk(data):
    """(offset, seq, action, device, cpu, pdu) per record, v7 or v8."""
    off = 0
    while off < len(data):
        magic = struct.unpack_from("=I", data, off)[0]
        if magic == 0x65617408:
            m, seq, _t, _s, _b, _pid, act, dev, cpu, _e, plen = V8.unpack_from(data, off)
            hdr = 64
        elif magic == blktrace.MAGIC_V7:
            r = blktrace.HDR.unpack_from(data, off)
            seq, act, dev, cpu, plen, hdr = r[1], r[5], r[7], r[8], r[10], 48
        else:
            raise SystemExit(f"bad magic {magic:#x} at byte {off}")
        yield off, seq, act, dev, cpu, data[off + hdr:off + hdr + plen]
        off += hdr + plen


def end_note(act, pdu):
    if act != FLAGGED_MESSAGE or len(pdu) < 8 or pdu[:8] != b"\0" * 8:
        return None
    words = pdu[8:].decode().split(" ")
    if words[:2] != ["blkscope", "end"]:
        return None
    kv = dict(w.split("=", 1) for w in words[2:])
    return int(kv["events"]), int(kv["drops"])


class Acc:
    def __init__(self):
        self.events = self.gaps = self.last = 0
        self.note = None


def account(acc, seq, act):
    if acc.note is not None:
        raise SystemExit("a record after the end note")
    if act & blktrace.NOTIFY:
        return
    acc.events += 1
    if seq <= acc.last:
        raise SystemExit(f"sequence {seq} after {acc.last}")
    acc.gaps += seq - acc.last - 1
    acc.last = seq


def check(name, key, acc):
    if acc.note is None:
        raise SystemExit(f"{name} {key}: no end note")
    n, d = acc.note
    print(f"{name} dev={key[0]} cpu={key[1]} events={n} drops={d} last_seq={acc.last} gaps={acc.gaps}")
    if n != acc.events:
        raise SystemExit(f"{name}: end note says {n} events, the file has {acc.events}")
    if d < acc.gaps or n + d < acc.last:
        raise SystemExit(f"{name}: end note drops={d} with {acc.gaps} gaps, last sequence {acc.last}")
    return d


def main(argv):
    strip = None
    stream = False
    while argv and argv[0].startswith("--"):
        if argv[0] == "--strip":
            strip, argv = argv[1], argv[2:]
        elif argv[0] == "--stream":
            stream, argv = True, argv[1:]
        else:
            raise SystemExit(f"unknown option {argv[0]}")
    total = 0
    for path in argv:
        data = open(path, "rb").read()
        accs, last_off = {}, None
        for off, seq, act, dev, cpu, pdu in walk(data):
            acc = accs.setdefault((dev, cpu), Acc())
            note = end_note(act, pdu)
            if note is not None:
                if acc.note is not None:
                    raise SystemExit(f"{path}: two end notes for {dev},{cpu}")
                acc.note, last_off = note, off
            else:
                account(acc, seq, act)
        if not stream and len(accs) != 1:
            raise SystemExit(f"{path}: {len(accs)} (device, cpu) pairs in a per-CPU file")
        for key, acc in sorted(accs.items()):
            total += check(path, key, acc)
        if strip:
            with open(os.path.join(strip, os.path.basename(path)), "wb") as f:
                f.write(data[:last_off])
    print(f"total drops={total}")


main(sys.argv[1:])
