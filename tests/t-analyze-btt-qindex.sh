#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The start-sector index beside btt's Q tree (analyze/btt/btt_qindex.c)
# answers only while the queued ranges are non-empty and disjoint; with
# overlaps the tree's shape decides, as in btt.  Random traces that go
# from disjoint requests to overlapping ones (partial overlaps, the same
# start twice, sub-sector bios, Ds and Cs covering parts of requests, Gs
# inside a range) and back again must give btt's report and per-IO dump
# (-p: the order in which a D or C meets its bios) byte for byte, on each
# of several seeds.  First the unit test (tests/unit/test_qindex.c): the
# index's counts and answers, and the tree's order (sequential bios skip
# the descent), against the tree after every random step.
set -euo pipefail
source "$TOP/tests/lib/analyze.sh"
"$BIN/bs-test-qindex"
bt_need_tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# python3 gen.py SEED N: a script for bs-gen-trace -w script on stdout
cat >gen.py <<'PY'
import random, sys

rnd = random.Random(int(sys.argv[1]))
nreq = int(sys.argv[2])
events = []


def ev(t, act, sec, nbytes, pid, flags="W"):
    events.append((t, act, sec, nbytes, pid, flags))


t = 1000
for i in range(nreq):
    phase = 3 * i // nreq          # 0 and 2: disjoint requests; 1: overlapping
    pid = 100 + rnd.randrange(4)
    flags = rnd.choice("RW")
    t += rnd.randrange(50, 400)
    if phase == 1:
        sec = rnd.randrange(0, 512)
        sizes = [rnd.choice([100, 512, 1024, 2048, 4096, 8192]) for _ in range(rnd.randrange(1, 4))]
    else:
        sec = 8 * rnd.randrange(0, 4096)   # now and then a start queued twice
        sizes = [4096] * rnd.randrange(1, 4)
    q = t
    bios, s = [], sec
    for n in sizes:
        bios.append((s, n))
        s += n >> 9
    ev(q, "Q", bios[0][0], bios[0][1], pid, flags)
    ev(q + 5, "G", bios[0][0], bios[0][1], pid, flags)
    ev(q + 8, "I", bios[0][0], bios[0][1], pid, flags)
    for k, (bs, n) in enumerate(bios[1:], 1):
        ev(q + 10 * k, "Q", bs, n, pid, flags)
        ev(q + 10 * k + 2, "M", bs, n, pid, flags)
    total = sum(n for _, n in bios)
    d = q + 40 + rnd.randrange(0, 20000)
    c = d + rnd.randrange(100, 20000)
    if phase == 1 and rnd.random() < 0.2:
        total = rnd.choice([total // 2 & ~511, total + 4096])   # a part, or more
    if phase == 1 and rnd.random() < 0.1:
        ev(q + 30, "G", sec + 1, 512, pid, flags)                  # inside a range
    if phase == 1 and rnd.random() < 0.05:
        ev(d - 5, "R", sec, total, pid, flags)
    ev(d, "D", sec, total, pid, flags)
    ev(c, "C", sec, total, pid, flags)

events.sort(key=lambda e: e[0])
print("0 0 8,0 N - 0 0 100 reader")
print("0 0 8,0 N - 0 0 101 writer")
for t, act, sec, nbytes, pid, flags in events:
    print(t, t % 2, "8,0", act, flags, sec, nbytes, pid)
PY

for seed in 1 2 3 4 5 6; do
	python3 gen.py "$seed" 3000 | "$BIN/bs-gen-trace" -w script -o "s$seed"
	bt_compare_all "s$seed"
	bt_compare_all "s$seed" -A -l @ -q @ -p @.perio
done
echo "PASS: btt's report and per-IO dump on traces moving between disjoint and overlapping requests"
