# SPDX-License-Identifier: GPL-2.0
"""ioref - a deliberately independent per-I/O reference for the tests.

It knows nothing of blkscope's model (analyze/iomodel/): no requests, no
merges, no lookups by start sector.  It pairs events by the sectors they
cover, as a person with a pencil would:

  * every Q is one I/O with its sector range still to complete;
  * a C with data (not passthrough) takes its sectors away from the I/Os
    in flight, oldest first; an I/O whose sectors are all taken is done
    at that C;
  * its first D is the first D whose range touches its sectors;
  * its fragments: 1 + the X events that cut it (an X names the sector
    where the cut happens, inside the range still in flight).

The events come from a blkparse -O -d dump (blkparse's merge, not ours),
read in file order as btt reads it.  I/Os whose sectors were in flight
twice at once (two Qs overlapping before the first completed) are marked
'skip': which C is whose is a guess there.  Zero-byte I/Os (flushes, zone
management) and I/Os with PREFLUSH or FUA (their completion is the end of
the kernel's flush sequence, a zero-byte C) are followed but marked
'skip': this reference does not model the flush machinery.

Usage: records(dump) -> list of dicts with device, sector, bytes, pid,
t_q, t_d, t_c (ns, the dump's times) or None, frags, skip.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blktrace  # noqa: E402

TC_FUA = 1 << 15
TC_PC = 1 << 9
TA_SPLIT = 13
TA_REQUEUE = 6


def _cats(action):
    return action >> 16


def _sub(ranges, s, e):
    """ranges minus [s, e); returns (new ranges, sectors taken)."""
    out, taken = [], 0
    for a, b in ranges:
        if b <= s or a >= e:
            out.append((a, b))
            continue
        taken += min(b, e) - max(a, s)
        if a < s:
            out.append((a, s))
        if b > e:
            out.append((e, b))
    return out, taken


def _take(dev, key, s, e):
    """The sectors [s, e) taken from the I/Os of dev, oldest first, each
    sector once; yields each I/O that lost some (its key ranges updated)."""
    want = [(s, e)]
    for io in list(dev):
        if not want:
            return
        have, got_any = io[key], False
        for cs, ce in want:
            have, got = _sub(have, cs, ce)
            got_any = got_any or got > 0
        if got_any:
            want = _minus_all(want, io[key])
            io[key] = have
            yield io


def _minus_all(want, ranges):
    for a, b in ranges:
        nxt = []
        for cs, ce in want:
            nxt += _sub([(cs, ce)], a, b)[0]
        want = nxt
    return want


def follow(dump_path):
    data = open(dump_path, "rb").read()
    ios, inflight = [], {}          # inflight: device -> list of open I/Os, oldest first
    for _, r, pdu in blktrace.records(data):
        if blktrace.is_note(r.action) or _cats(r.action) & TC_PC:
            continue
        act = blktrace.basic(r.action)
        dev = inflight.setdefault(r.device, [])
        nsec = (r.bytes + 511) // 512
        if act == blktrace.TA_QUEUE:
            span = [(r.sector, r.sector + nsec)] if nsec else []
            io = {"device": r.device, "sector": r.sector, "bytes": r.bytes, "pid": r.pid,
                  "t_q": r.time, "t_d": None, "t_c": None, "frags": 1,
                  "skip": r.bytes == 0 or bool(_cats(r.action) & (blktrace.TC_FLUSH | TC_FUA)),
                  "left": list(span), "nodisp": list(span)}
            ios.append(io)
            for other in dev:       # sectors in flight twice: which C is whose is a guess
                if any(a < r.sector + nsec and r.sector < b for a, b in other["left"]):
                    other["skip"] = io["skip"] = True
            if nsec:
                dev.append(io)
        elif act == TA_SPLIT:
            # the remainder's start is the PDU (cut to 32 bits by the kernel);
            # the front's size, the X's bytes, says the same
            body = pdu[8:] if r.action & blktrace.TA_CGROUP else pdu
            rest = int.from_bytes(body[:8], "big") if len(body) >= 8 else 0
            for io in dev:
                for a, b in io["left"]:
                    if not a <= r.sector < b:
                        continue
                    cut = rest
                    if cut < 1 << 32 <= r.sector:
                        cut |= r.sector & ~0xffffffff
                        cut += (1 << 32) if cut <= r.sector else 0
                    if not r.sector < cut < b:
                        cut = r.sector + nsec
                    if r.sector < cut < b:
                        io["frags"] += 1
                    break
                else:
                    continue
                break
        elif act == TA_REQUEUE:
            for io in dev:          # not modelled here: those I/Os are left out
                if any(a < r.sector + nsec and r.sector < b for a, b in io["left"]):
                    io["skip"] = True
        elif act == blktrace.TA_ISSUE and nsec:
            for io in _take(dev, "nodisp", r.sector, r.sector + nsec):
                if io["t_d"] is None:
                    io["t_d"] = r.time
        elif act == blktrace.TA_COMPLETE and nsec:
            for io in _take(dev, "left", r.sector, r.sector + nsec):
                if not io["left"]:
                    io["t_c"] = r.time
                    dev.remove(io)
    for io in ios:
        del io["left"], io["nodisp"]
    return ios
