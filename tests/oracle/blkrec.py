# SPDX-License-Identifier: GPL-2.0
"""blkrec - read and write blktrace v7 records for the oracle tests.

This is the recorder's deliberately independent oracle: it shares no code
with format/'s C reader (so that a bug there cannot hide the same bug in the
recorder's output) nor with tests/lib/blktrace.py, the reader the other
tests import, and it must stay that way.  Layout (docs/format.md §Record
layout): 48-byte host-endian header, then pdu_len payload bytes.
"""

import struct

MAGIC_V7 = 0x65617407
MAGIC_BYTES = struct.pack("<I", MAGIC_V7)
HDR = struct.Struct("<IIQQIIIIIHH")
HDR_SIZE = HDR.size  # 48
assert HDR_SIZE == 48

TC_READ, TC_WRITE, TC_FLUSH, TC_SYNC = 1 << 0, 1 << 1, 1 << 2, 1 << 3
TC_NOTIFY, TC_AHEAD, TC_META, TC_DISCARD, TC_FUA = 1 << 10, 1 << 11, 1 << 12, 1 << 13, 1 << 15

NOTE_PROCESS = 0x04000000
NOTE_TIMESTAMP = 0x04000001
NOTE_MESSAGE = 0x04000002

FIELDS = ("magic", "sequence", "time", "sector", "bytes", "action", "pid",
          "device", "cpu", "error", "pdu_len")

# The fields the fidelity comparison looks at: everything the kernel's
# ftrace blk tracer reproduces (sequence and time are not, docs/format.md
# §The ftrace blk tracer).
COMPARED = ("action", "sector", "bytes", "pid", "device", "cpu", "error",
            "pdu_len", "pdu")

ACTION_NAMES = {1: "Q", 2: "M", 3: "F", 4: "G", 5: "S", 6: "R", 7: "D",
                8: "C", 9: "P", 10: "U", 11: "UT", 12: "I", 13: "X", 14: "B",
                15: "A", 16: "ABORT", 17: "DRV"}


class Record:
    __slots__ = FIELDS + ("pdu", "offset", "index")

    def __init__(self, values, pdu, offset=0, index=0):
        for name, v in zip(FIELDS, values):
            setattr(self, name, v)
        self.pdu = pdu
        self.offset = offset
        self.index = index

    def is_note(self):
        return bool(self.action & (TC_NOTIFY << 16))

    def key(self):
        """What must match between blkscope and the kernel."""
        return tuple(getattr(self, f) for f in COMPARED)

    def pack(self):
        return HDR.pack(*(getattr(self, f) for f in FIELDS)) + self.pdu


def dev_str(dev):
    return "%d,%d" % (dev >> 20, dev & 0xfffff)


def rwbs(action, nbytes):
    """blkparse's RWBS column (blkparse_fmt.c fill_rwbs)."""
    cat = action >> 16
    s = ""
    if cat & TC_FLUSH:
        s += "F"
    if cat & TC_DISCARD:
        s += "D"
    elif cat & TC_WRITE:
        s += "W"
    elif nbytes:
        s += "R"
    else:
        s += "N"
    if cat & TC_FUA:
        s += "F"
    if cat & TC_AHEAD:
        s += "A"
    if cat & TC_SYNC:
        s += "S"
    if cat & TC_META:
        s += "M"
    return s


def describe(r):
    """A blkparse-like one-line rendering that still shows every compared field."""
    if r.is_note():
        kind = {NOTE_PROCESS: "PROCESS", NOTE_TIMESTAMP: "TIMESTAMP"}.get(
            r.action & ~0x100, "NOTE")
        extra = ""
        if r.action == NOTE_PROCESS:
            extra = " comm=%r" % r.pdu.split(b"\0")[0].decode("latin-1")
        return "%-7s cpu%-2d pid %-6d N %s%s" % (dev_str(r.device), r.cpu,
                                                r.pid, kind, extra)
    basic = r.action & 0xffff
    name = ACTION_NAMES.get(basic & ~0x100, "?%d" % basic)
    body = "%s %s" % (name, rwbs(r.action, r.bytes))
    if basic in (9,):                      # P
        pass
    elif basic in (10, 11) and r.pdu_len == 8:   # U/UT: depth
        body += " depth=%d" % struct.unpack(">Q", r.pdu)[0]
    elif basic == 13 and r.pdu_len == 8:   # X: sector / new_sector
        body += " %d / %d" % (r.sector, struct.unpack(">Q", r.pdu)[0])
    else:
        body += " %d + %d" % (r.sector, r.bytes >> 9)
        if r.bytes & 511:
            body += " (bytes %d)" % r.bytes
        if basic == 15 and r.pdu_len == 16:
            dfrom, dto, sfrom = struct.unpack(">IIQ", r.pdu)
            body += " <- (%s) %d [to %s]" % (dev_str(dfrom), sfrom, dev_str(dto))
    return "%-7s cpu%-2d pid %-6d %-28s act=0x%08x err=%d pdu_len=%d pdu=%s" % (
        dev_str(r.device), r.cpu, r.pid, body, r.action, r.error, r.pdu_len,
        r.pdu.hex() or "-")


class ParseError(Exception):
    """Damage in a strict stream; .records holds everything before it."""

    def __init__(self, msg, records):
        super().__init__(msg)
        self.records = records


def parse_records(data, name, strict=True):
    """Parse a buffer of back-to-back records.

    strict: any byte that is not the start of a record is an error
    (blkscope's files).  Non-strict (the ftrace capture) resynchronises on
    the magic word and returns the junk it skipped, so the caller can
    report "CPU:%d [LOST %lu EVENTS]" lines (docs/format.md §The ftrace blk tracer).
    Returns (records, junk) where junk is a list of (offset, bytes).
    """
    recs, junk = [], []
    off, n = 0, len(data)
    while off < n:
        if data[off:off + 4] != MAGIC_BYTES or off + HDR_SIZE > n:
            if strict:
                if off + HDR_SIZE > n:
                    raise ParseError("%s: offset %d: truncated header (%d bytes left)"
                                     % (name, off, n - off), recs)
                (word,) = struct.unpack_from("<I", data, off)
                raise ParseError("%s: offset %d: bad magic 0x%08x (want 0x%08x)"
                                 % (name, off, word, MAGIC_V7), recs)
            nxt = data.find(MAGIC_BYTES, off + 1)
            if nxt < 0:
                nxt = n
            junk.append((off, data[off:nxt]))
            off = nxt
            continue
        values = HDR.unpack_from(data, off)
        pdu_len = values[-1]
        end = off + HDR_SIZE + pdu_len
        if end > n:
            if strict:
                raise ParseError("%s: offset %d: truncated PDU (pdu_len %d, %d bytes left)"
                                 % (name, off, pdu_len, n - off - HDR_SIZE), recs)
            junk.append((off, data[off:]))
            break
        recs.append(Record(values, bytes(data[off + HDR_SIZE:end]), off, len(recs)))
        off = end
    return recs, junk


def read_file(path, strict=True):
    with open(path, "rb") as f:
        data = f.read()
    return parse_records(data, path, strict)


def write_file(path, recs):
    with open(path, "wb") as f:
        for r in recs:
            f.write(r.pack())
