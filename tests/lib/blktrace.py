# SPDX-License-Identifier: GPL-2.0
"""blktrace - the one Python reader and writer of blktrace v7 records for
the tests (import it instead of packing records by hand).

Layout (docs/format.md): a 48-byte header in the recording host's byte
order (here: this machine's), then pdu_len bytes of payload.  Written
from the format description, not from format/'s C reader, so that a test
using it checks the C code rather than repeating it.  tests/oracle/blkrec.py
is a second, deliberately separate reader used by the recorder's fidelity
oracle.

Use from a test script (sys.path must reach tests/lib):
    sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "lib"))
    import blktrace
    for off, rec, pdu in blktrace.records(data): ...
"""
import collections
import struct

MAGIC_V7 = 0x65617407
HDR = struct.Struct("=IIQQIIIIIHH")
HDR_SIZE = HDR.size
assert HDR_SIZE == 48

FIELDS = ("magic", "sequence", "time", "sector", "bytes", "action", "pid",
          "device", "cpu", "error", "pdu_len")
Record = collections.namedtuple("Record", FIELDS)

# categories (the action word's upper 16 bits, docs/format.md §Actions)
TC_READ, TC_WRITE, TC_FLUSH, TC_SYNC = 1 << 0, 1 << 1, 1 << 2, 1 << 3
TC_QUEUE, TC_REQUEUE, TC_ISSUE, TC_COMPLETE = 1 << 4, 1 << 5, 1 << 6, 1 << 7
TC_FS, TC_PC, TC_NOTIFY = 1 << 8, 1 << 9, 1 << 10
NOTIFY = TC_NOTIFY << 16
TA_CGROUP = 1 << 8
# basic actions (the low byte)
TA_QUEUE, TA_ISSUE, TA_COMPLETE, TA_UNPLUG_IO = 1, 7, 8, 10
# notes (the low byte of a NOTIFY record)
TN_PROCESS, TN_TIMESTAMP, TN_MESSAGE = 0, 1, 2


def is_note(action):
    return bool(action & NOTIFY)


def basic(action):
    """The basic action (or note kind), without the cgroup flag."""
    return action & 0xff


def records(data, whole=True):
    """Yields (offset, Record, pdu) for each record of DATA.  A record cut
    off at the end raises ValueError, or ends the walk if whole=False."""
    off = 0
    while off < len(data):
        if off + HDR_SIZE > len(data):
            if whole:
                raise ValueError("truncated header at byte %d" % off)
            return
        rec = Record(*HDR.unpack_from(data, off))
        end = off + HDR_SIZE + rec.pdu_len
        if end > len(data):
            if whole:
                raise ValueError("truncated PDU at byte %d" % off)
            return
        yield off, rec, data[off + HDR_SIZE:end]
        off = end


def pack(rec, pdu=b""):
    """The bytes of one record; pdu_len is taken from PDU."""
    return HDR.pack(*rec[:10], len(pdu)) + pdu


def comm(pdu):
    """The command name of a PROCESS note's PDU (NUL-padded, 16 bytes)."""
    return pdu[:16].split(b"\0", 1)[0]
