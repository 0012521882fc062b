#!/bin/bash
# `blkscope analyze DUMP` equals `btt -i DUMP` on every section and side
# file, for blkparse -d dumps whose records are not in time order: btt
# reads a dump in file order, so we must too (a sorted re-merge changed
# pairings: Q2Q/I2D/Q2C minimums of 1 ns, other N for D2C/Q2C).
# Dumps: a generated random-I/O trace, the kernel captures and the real
# recordings (of our recorder) in samples/ (one of a partitioned disk), and a dump
# whose records were shuffled further within small windows.
set -euo pipefail
source "$TOP/tests/lib/analyze.sh"
bt_need_tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# inversions DUMP: how many records have an earlier time than the one
# before them (an independent reader: Python's struct, not our format/)
inversions() {
	python3 - "$1" <<'PYEOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
off = last = inv = 0
while off + 48 <= len(d):
    magic, seq, t = struct.unpack_from("<IIQ", d, off)
    action, = struct.unpack_from("<I", d, off + 28)
    pdu, = struct.unpack_from("<H", d, off + 46)
    if not action & 0x40000000:          # notes carry absolute times
        inv += t < last
        last = t
    off += 48 + pdu
print(inv)
PYEOF
}

# shuffle IN OUT SEED: swap neighbouring events (never the first record,
# never across a note), so the file order is further from time order
shuffle() {
	python3 - "$1" "$2" "$3" <<'PYEOF'
import random, struct, sys
d = open(sys.argv[1], "rb").read()
recs, off = [], 0
while off + 48 <= len(d):
    pdu, = struct.unpack_from("<H", d, off + 46)
    recs.append(d[off:off + 48 + pdu])
    off += 48 + pdu
rnd = random.Random(int(sys.argv[3]))
note = lambda r: struct.unpack_from("<I", r, 28)[0] & 0x40000000
for i in range(2, len(recs) - 1):
    if rnd.random() < 0.2 and not note(recs[i]) and not note(recs[i + 1]):
        recs[i], recs[i + 1] = recs[i + 1], recs[i]
open(sys.argv[2], "wb").write(b"".join(recs))
PYEOF
}

check_dump() {
	local dump=$1
	[ "$(inversions "$dump")" -gt 0 ] || fail "$dump is in time order: it would not test file order"
	bt_compare_all "$dump"
	bt_compare_all "$dump" -A -l @ -q @ -z @ -p @.perio -I @.iostat
	bt_compare_all "$dump" -s @ -B @ -Q @ -u @ -o @ -X
}

mkdir gen
bs-gen-trace -D gen -n 200000 -o rand >/dev/null
blkparse -O -d rand.dump -i gen/rand >/dev/null
check_dump rand.dump
shuffle rand.dump rand-shuffled.dump 7
check_dump rand-shuffled.dump

for f in "$TOP"/samples/*.bin; do
	b=$(basename "$f" .bin)
	blkparse -O -d "$b.dump" -i - <"$f" >/dev/null
	shuffle "$b.dump" "$b-shuffled.dump" 3
	check_dump "$b-shuffled.dump"
done

for d in "$TOP"/samples/rec-*/; do
	b=$(basename "$d")
	blkparse -O -d "$b.dump" -D "$d" -i "$(basename "$(ls "$d"/*.blktrace.0)" .blktrace.0)" >/dev/null
	shuffle "$b.dump" "$b-shuffled.dump" 5
	check_dump "$b-shuffled.dump"
done

# the same dump on stdin is read the same way
blkscope-analyze --btt-only --no-progress - <rand.dump >stdin.out
btt -i rand.dump >rand.btt
diff -u rand.btt stdin.out >/dev/null || fail "a dump on stdin differs from btt -i DUMP"
echo OK
