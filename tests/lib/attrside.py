#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Reader of blkscope's attribution side files (docs/format.md, "Attribution
side files"), independent of format/bs_attr.c: for tests.

  attrside.py names FILE      print the names file's records
  attrside.py attr FILE       print the attr file's records
"""
import struct, sys, zlib

CLASSES = ["unknown", "cache", "direct", "metadata", "journal", "swap", "raw", "nodata", "other"]


def _open(path):
    data = open(path, "rb").read()
    if data[:4] == b"\x28\xb5\x2f\xfd":
        import subprocess
        data = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
    return data


def header(data):
    magic, version, device, cpu, flags, start = struct.unpack_from("<8sIIIIQ", data, 0)
    kind = {b"BSATTR\0\1": "attr", b"BSNAMES\1": "names"}.get(magic)
    if kind is None:
        raise ValueError("bad magic %r" % magic)
    return dict(kind=kind, version=version, device=device, cpu=cpu, flags=flags, start=start)


def attr_records(path):
    """(header, [dict(time, sector, seq, file, stack, cls, flags)])"""
    data = _open(path)
    h = header(data)
    assert h["kind"] == "attr"
    recs = []
    for off in range(32, len(data) - 31, 32):
        t, sector, seq, f, s, cls, fl = struct.unpack_from("<QQIIIBB", data, off)
        recs.append(dict(time=t, sector=sector, seq=seq, file=f, stack=s, cls=CLASSES[cls] if cls < len(CLASSES) else "?", flags=fl))
    if (len(data) - 32) % 32:
        raise ValueError("%s: %d trailing bytes" % (path, (len(data) - 32) % 32))
    return h, recs


def names_records(path):
    """(header, files {id: dict}, stacks {id: dict}, counts dict or None)"""
    data = _open(path)
    h = header(data)
    assert h["kind"] == "names"
    files, stacks, counts = {}, {}, None
    off = 32
    while off < len(data):
        typ, _, ln = struct.unpack_from("<HHI", data, off)
        body = data[off + 8:off + 8 + ln]
        if len(body) != ln:
            raise ValueError("cut record at %d" % off)
        if typ == 1:
            fid, fdev, ino, gen, flags, seen, plen = struct.unpack_from("<IIQIIQH", body, 0)
            files[fid] = dict(fdev=fdev, ino=ino, gen=gen, flags=flags, seen=seen,
                              path=body[34:34 + plen].decode("utf-8", "surrogateescape"))
        elif typ == 2:
            sid, flags, nk, nu = struct.unpack_from("<IIHH", body, 0)
            p, frames = 12, []
            for _ in range(nk + nu):
                (fl,) = struct.unpack_from("<H", body, p)
                frames.append(body[p + 2:p + 2 + fl].decode("utf-8", "surrogateescape"))
                p += 2 + fl
            stacks[sid] = dict(flags=flags, kernel=frames[:nk], user=frames[nk:])
        elif typ == 3:
            keys = ["qs", "lost", "kstack_lost", "ustack_lost", "files", "files_no_path", "files_over", "stacks"]
            counts = dict(zip(keys, struct.unpack_from("<8Q", body, 0)))
        off += 8 + ln
    return h, files, stacks, counts


if __name__ == "__main__":
    what, path = sys.argv[1], sys.argv[2]
    if what == "names":
        h, files, stacks, counts = names_records(path)
        print(h)
        for k, v in files.items():
            print("file", k, v)
        for k, v in stacks.items():
            print("stack", k, "flags=%d" % v["flags"])
            for f in v["kernel"]:
                print("   k", f)
            for f in v["user"]:
                print("   u", f)
        print("counts", counts)
    else:
        h, recs = attr_records(path)
        print(h)
        for r in recs:
            print(r)


# ---- writing (crafted side files for the analyzer's tests) ----

def header_bytes(kind, device, cpu, flags, start=0):
    magic = b"BSATTR\0\1" if kind == "attr" else b"BSNAMES\1"
    return struct.pack("<8sIIIIQ", magic, 1, device, cpu, flags, start)


def attr_bytes(time, sector, seq, file_id, stack_id, cls, flags=0):
    return struct.pack("<QQIIIBBH", time, sector, seq, file_id, stack_id, CLASSES.index(cls), flags, 0)


def _rec(typ, body):
    return struct.pack("<HHI", typ, 0, len(body)) + body


def file_bytes(fid, fdev, ino, gen, path, flags=0, seen=0):
    p = path.encode("utf-8", "surrogateescape")
    return _rec(1, struct.pack("<IIQIIQH", fid, fdev, ino, gen, flags, seen, len(p)) + p)


def stack_bytes(sid, kernel, user, flags=0):
    """kernel, user: frame names leaf first."""
    body = struct.pack("<IIHH", sid, flags, len(kernel), len(user))
    for f in list(kernel) + list(user):
        b = f.encode("utf-8", "surrogateescape")
        body += struct.pack("<H", len(b)) + b
    return _rec(2, body)


def counts_bytes(qs=0, lost=0, kstack_lost=0, ustack_lost=0, files=0, files_no_path=0, files_over=0, stacks=0):
    return _rec(3, struct.pack("<8Q", qs, lost, kstack_lost, ustack_lost, files, files_no_path, files_over, stacks))
