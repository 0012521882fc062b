#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The workload of tests/t-record-attr-files.sh, run under `blkscope record
--files`, on a fresh ext4 mounted at MNT.  Every kind of file I/O the issue
names, each on files of its own, and the oracle for it: where each file's
data lies on the device (FIEMAP, through filefrag -e) when its extents are
known for good, written to ORACLE (JSON) with the path the recorder must
report.

  files-workload.py MNT ORACLE
"""
import json
import mmap
import os
import subprocess
import sys
import time

MNT, ORACLE = sys.argv[1], sys.argv[2]
KB = 1024
SEEN = 0.6  # the recorder reads a new file's path when it drains its rings (every 0.1 s): give it time
oracle = {}  # name -> {path: expected path, deleted: bool, ino, extents: [[start_sector, end_sector)], ...}


def extents(path):
    """[start, end) in 512-byte sectors of the device, from filefrag -e."""
    out = subprocess.run(["filefrag", "-e", "-b4096", path], check=True, capture_output=True,
                         text=True).stdout
    ex = []
    for line in out.splitlines():
        f = line.replace(":", " ").replace("..", " ").split()
        if len(f) >= 6 and f[0].isdigit():
            start, end = int(f[3]), int(f[4])
            ex.append([start * 8, (end + 1) * 8])
    return ex


def note(name, path, expect=None, deleted=False, fd_path=None):
    st = os.stat(fd_path or path)
    oracle[name] = dict(path=expect or path, deleted=deleted, ino=st.st_ino, size=st.st_size,
                        extents=extents(fd_path or path))


def data(n):
    return os.urandom(n)


def p(name):
    return os.path.join(MNT, name)


def buffered_write_fsync():
    with open(p("bw.dat"), "wb") as f:
        f.write(data(1024 * KB))
        f.flush()
        os.fsync(f.fileno())
    note("bw", p("bw.dat"))


def direct_rw():
    buf = mmap.mmap(-1, 512 * KB)  # page-aligned, as O_DIRECT wants
    buf.write(data(512 * KB))
    fd = os.open(p("dio.dat"), os.O_RDWR | os.O_CREAT | os.O_DIRECT, 0o644)
    os.pwritev(fd, [buf], 0)
    os.fsync(fd)
    os.preadv(fd, [buf], 0)
    os.close(fd)
    note("dio", p("dio.dat"))


def read_after_drop():
    with open(p("rb.dat"), "wb") as f:
        f.write(data(1024 * KB))
        os.fsync(f.fileno())
    note("rb", p("rb.dat"))
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")
    with open(p("rb.dat"), "rb") as f:
        while f.read(128 * KB):
            pass


def mmap_write():
    fd = os.open(p("mm.dat"), os.O_RDWR | os.O_CREAT, 0o644)
    os.ftruncate(fd, 512 * KB)
    m = mmap.mmap(fd, 512 * KB)
    for off in range(0, 512 * KB, 4096):
        m[off:off + 8] = b"mmapped!"
    m.flush()  # msync
    m.close()
    os.close(fd)
    note("mm", p("mm.dat"))


def renamed_while_written():
    """Seen first as ren.dat (the recorder reads the path when it drains: wait for it), then renamed."""
    fd = os.open(p("ren.dat"), os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(fd, data(256 * KB))
    os.fsync(fd)
    time.sleep(SEEN)
    os.rename(p("ren.dat"), p("ren2.dat"))
    os.write(fd, data(256 * KB))
    os.fsync(fd)
    os.close(fd)
    note("ren", p("ren2.dat"), expect=p("ren.dat"))


def deleted_while_written():
    """del.dat is seen before the unlink: its path; del2.dat only after: its path, deleted."""
    fd = os.open(p("del.dat"), os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(fd, data(256 * KB))
    os.fsync(fd)
    time.sleep(SEEN)
    os.unlink(p("del.dat"))
    os.write(fd, data(256 * KB))
    os.fsync(fd)
    note("del", p("del.dat"), fd_path="/proc/%d/fd/%d" % (os.getpid(), fd))
    os.close(fd)
    fd = os.open(p("del2.dat"), os.O_WRONLY | os.O_CREAT, 0o644)
    os.unlink(p("del2.dat"))
    os.write(fd, data(256 * KB))
    os.fsync(fd)
    note("del2", p("del2.dat"), deleted=True, fd_path="/proc/%d/fd/%d" % (os.getpid(), fd))
    time.sleep(SEEN)  # still open while the recorder reads its path: "(deleted)"
    os.close(fd)


def many_small_files():
    os.mkdir(p("small"))
    for i in range(100):
        with open(p("small/f%03d" % i), "wb") as f:
            f.write(data(4 * KB))
    os.sync()
    for i in range(100):
        note("small%03d" % i, p("small/f%03d" % i))


def two_processes():
    with open(p("shared.dat"), "wb") as f:
        f.truncate(512 * KB)
    code = ("import os,sys;fd=os.open(sys.argv[1],os.O_WRONLY);os.pwrite(fd,os.urandom(256*1024),"
            "int(sys.argv[2]));os.fsync(fd)")
    procs = [subprocess.Popen([sys.executable, "-c", code, p("shared.dat"), str(off)])
             for off in (0, 256 * KB)]
    for pr in procs:
        if pr.wait():
            sys.exit("a writer of shared.dat failed")
    note("shared", p("shared.dat"))


# the deleted files last: their blocks are free once they are closed, and a later file could get them
for step in (buffered_write_fsync, direct_rw, read_after_drop, mmap_write, renamed_while_written,
             many_small_files, two_processes, deleted_while_written):
    step()
os.sync()
with open(ORACLE, "w") as f:
    json.dump(oracle, f)
