# SPDX-License-Identifier: GPL-2.0
"""blkscope_tag - write blkscope (and iowatcher-protocol) tagging plugins in Python.

A tagging plugin reads blktrace records on stdin and answers on stdout; the
protocol is described in docs/tags.md.  This module does the byte work:

    import blkscope_tag as bt

    def handle(ev, out):
        if ev.basic == bt.BLK_TA_QUEUE:
            out.tag_io(my_tag_for(ev))      # declare with out.new_tag() first
        # END is written for you after handle() returns

    bt.run(handle)

Events are `Event` objects (the 48-byte header fields, native byte order,
plus `pdu` bytes).  Responses are buffered and flushed before every read
that may block, so host and plugin never wait on each other.
"""
import os
import struct
import sys

# Response types (host-native u32).
TAG_RESP_END = 0
TAG_RESP_NEW_TAG = 1
TAG_RESP_TAG_IO = 2
TAG_LABEL_MAX = 4096            # bytes, NUL included

BLK_IO_TRACE_MAGIC = 0x65617400
BLK_IO_TRACE_VERSION = 0x07

# Categories (top 16 bits of action), BLK_TC_*.
BLK_TC_READ = 1 << 0
BLK_TC_WRITE = 1 << 1
BLK_TC_FLUSH = 1 << 2
BLK_TC_SYNC = 1 << 3
BLK_TC_QUEUE = 1 << 4
BLK_TC_REQUEUE = 1 << 5
BLK_TC_ISSUE = 1 << 6
BLK_TC_COMPLETE = 1 << 7
BLK_TC_FS = 1 << 8
BLK_TC_PC = 1 << 9
BLK_TC_NOTIFY = 1 << 10
BLK_TC_AHEAD = 1 << 11
BLK_TC_META = 1 << 12
BLK_TC_DISCARD = 1 << 13
BLK_TC_DRV_DATA = 1 << 14
BLK_TC_FUA = 1 << 15
BLK_TC_SHIFT = 16

# Basic actions (low 16 bits), __BLK_TA_*.
BLK_TA_QUEUE = 1
BLK_TA_BACKMERGE = 2
BLK_TA_FRONTMERGE = 3
BLK_TA_GETRQ = 4
BLK_TA_SLEEPRQ = 5
BLK_TA_REQUEUE = 6
BLK_TA_ISSUE = 7
BLK_TA_COMPLETE = 8
BLK_TA_PLUG = 9
BLK_TA_UNPLUG_IO = 10
BLK_TA_UNPLUG_TIMER = 11
BLK_TA_INSERT = 12
BLK_TA_SPLIT = 13
BLK_TA_BOUNCE = 14
BLK_TA_REMAP = 15
BLK_TA_ABORT = 16
BLK_TA_DRV_DATA = 17
BLK_TA_CGROUP = 1 << 8          # flag: the PDU starts with an 8-byte cgroup id

# Notify codes (with BLK_TC_NOTIFY), __BLK_TN_*.
BLK_TN_PROCESS = 0
BLK_TN_TIMESTAMP = 1
BLK_TN_MESSAGE = 2
BLK_TN_CGROUP = BLK_TA_CGROUP

_HEADER = struct.Struct("=IIQQIIIIIHH")     # struct blk_io_trace, 48 bytes
HEADER_SIZE = _HEADER.size
_U32 = struct.Struct("=I")
_TAG_IO = struct.Struct("=II")
_NEW_TAG = struct.Struct("=III")
_END = _U32.pack(TAG_RESP_END)


class ProtocolError(Exception):
    """The input is not a stream of native-order v7 records."""


class Event:
    """One record: the blk_io_trace header fields and the raw PDU."""
    __slots__ = ("index", "magic", "sequence", "time", "sector", "bytes", "action", "pid",
                 "device", "cpu", "error", "pdu_len", "pdu")

    def __init__(self, index, fields, pdu):
        self.index = index
        (self.magic, self.sequence, self.time, self.sector, self.bytes, self.action, self.pid,
         self.device, self.cpu, self.error, self.pdu_len) = fields
        self.pdu = pdu

    @property
    def is_note(self):
        return bool(self.action & (BLK_TC_NOTIFY << BLK_TC_SHIFT))

    @property
    def basic(self):
        """Basic action (BLK_TA_*) or notify code (BLK_TN_*), cgroup flag removed."""
        return self.action & 0xffff & ~BLK_TA_CGROUP

    @property
    def categories(self):
        return self.action >> BLK_TC_SHIFT

    @property
    def payload(self):
        """The PDU without its optional cgroup prefix."""
        return self.pdu[8:] if self.action & BLK_TA_CGROUP else self.pdu

    @property
    def comm_bytes(self):
        """Command name of a PROCESS note: the payload up to its first NUL."""
        return self.payload[:16].split(b"\0", 1)[0]

    @property
    def comm(self):
        return self.comm_bytes.decode("utf-8", "replace")

    def __repr__(self):
        return ("Event(index=%d, action=%#x, pid=%d, sector=%d, bytes=%d)"
                % (self.index, self.action, self.pid, self.sector, self.bytes))


class Responder:
    """Buffered writer of responses to the host."""

    def __init__(self, fd=None):
        self.fd = sys.stdout.fileno() if fd is None else fd
        self.buf = []
        self.size = 0

    def _put(self, data):
        self.buf.append(data)
        self.size += len(data)
        if self.size >= 1 << 16:
            self.flush()

    def new_tag(self, tag, label):
        """Declare tag number `tag` with a label (str or bytes, < 4096 bytes)."""
        if isinstance(label, str):
            label = label.encode("utf-8")
        label = label.split(b"\0", 1)[0][:TAG_LABEL_MAX - 1] + b"\0"
        self._put(_NEW_TAG.pack(TAG_RESP_NEW_TAG, tag, len(label)) + label)

    def tag_io(self, tag):
        """Assign the I/O of the current event to a declared tag."""
        self._put(_TAG_IO.pack(TAG_RESP_TAG_IO, tag))

    def end(self):
        """Finish the current event (exactly once per event)."""
        self._put(_END)

    def flush(self):
        data = b"".join(self.buf)
        self.buf = []
        self.size = 0
        view = memoryview(data)
        while view:
            n = os.write(self.fd, view)
            view = view[n:]


def read_events(responder=None, fd=None):
    """Yield every Event on stdin (or fd).

    Responses queued on `responder` are flushed before each read that may
    block: pass the Responder you answer with.
    """
    fd = sys.stdin.fileno() if fd is None else fd
    buf = b""
    pos = 0
    index = 0
    while True:
        if responder is not None:
            responder.flush()
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            if pos < len(buf):
                raise ProtocolError("event %d: input ends inside a record" % index)
            return
        buf = buf[pos:] + chunk
        pos = 0
        end = len(buf)
        while end - pos >= HEADER_SIZE:
            fields = _HEADER.unpack_from(buf, pos)
            if fields[0] & 0xffffff00 != BLK_IO_TRACE_MAGIC:
                raise ProtocolError("event %d: bad magic %#x" % (index, fields[0]))
            rec_end = pos + HEADER_SIZE + fields[10]
            if rec_end > end:
                break
            yield Event(index, fields, buf[pos + HEADER_SIZE:rec_end])
            index += 1
            pos = rec_end


def run(handle):
    """Call handle(event, responder) for every event, then write its END."""
    out = Responder()
    prog = os.path.basename(sys.argv[0])
    try:
        for ev in read_events(out):
            handle(ev, out)
            out.end()
        out.flush()
    except ProtocolError as e:
        sys.stderr.write("%s: %s\n" % (prog, e))
        sys.exit(1)
    except BrokenPipeError:
        sys.exit(1)             # the host went away; nothing left to answer
