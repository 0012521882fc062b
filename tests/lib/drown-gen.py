#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""drown-gen.py [N_DD]: a bs-gen-trace script (tests/gen/gen_script.c) of a
trace where the few processes that matter come after many that do not:
N_DD (default 80) one-I/O `dd` processes first, then fio (pid 900, 2000
I/Os of 4 KiB, 100 us each), tar (901, 300 I/Os of 64 KiB, 200 us),
kworker/u8:2 (902, 20 writes of 512 KiB that take 26 ms: the slow one),
jbd2/loop0-8 (903, 30 writes), interleaved in time.  Every I/O is
Q G I D C on one device (8,0), one CPU; the expected totals per process
are printed on stderr as JSON (the test's ground truth).
"""
import json
import sys

n_dd = int(sys.argv[1]) if len(sys.argv) > 1 else 80
procs = [(900, "fio", 2000, 4096, 100_000), (901, "tar", 300, 65536, 200_000),
         (902, "kworker/u8:2", 20, 524288, 26_000_000), (903, "jbd2/loop0-8", 30, 16384, 300_000)]
events = []          # (time, line)
truth = {}
t = 1000
sector = 2048


def io(pid, t0, size, lat):
    global sector
    sec = sector
    sector += size // 512 + 8
    op = "W"
    return [(t0, "%d 0 8,0 Q %s %d %d %d" % (t0, op, sec, size, pid)),
            (t0 + 500, "%d 0 8,0 G %s %d %d %d" % (t0 + 500, op, sec, size, pid)),
            (t0 + 800, "%d 0 8,0 I %s %d %d %d" % (t0 + 800, op, sec, size, pid)),
            (t0 + 1000, "%d 0 8,0 D %s %d %d %d" % (t0 + 1000, op, sec, size, pid)),
            (t0 + 1000 + lat, "%d 0 8,0 C %s %d %d %d" % (t0 + 1000 + lat, op, sec, size, pid))]


for i in range(n_dd):
    pid = 5000 + i
    events.append((t, "%d 0 8,0 N - 0 0 %d dd" % (t, pid)))
    events += io(pid, t + 10, 4096, 50_000)
    truth["dd (%d)" % pid] = {"ios": 1, "bytes": 4096}
    t += 100_000
for pid, comm, n, size, lat in procs:
    events.append((t + pid, "%d 0 8,0 N - 0 0 %d %s" % (t + pid, pid, comm)))
    truth["%s (%d)" % (comm, pid)] = {"ios": n, "bytes": n * size}
start = t + 10_000
for pid, comm, n, size, lat in procs:
    gap = 2_000_000_000 // n      # spread over 2 s
    for k in range(n):
        events += io(pid, start + k * gap + pid, size, lat)
events.sort(key=lambda e: e[0])
for _, line in events:
    print(line)
json.dump(truth, sys.stderr)
