#!/usr/bin/env bash
# Version-8 records that only exist in version 8: a crafted zoned-device
# trace (bs-gen-trace -V -Z: zone write plugging ZP/ZU, zone appends, every
# zone management operation, a write-zeroes).  No zoned device is needed.
#  - parse prints what current blkparse prints for them (docs/format.md:
#    zone letters in RWBS, ZP/ZU lines), written out below by hand;
#  - every other line, and the summaries, equal blkparse's output for the
#    same trace converted to version 7, once the documented differences are
#    undone (zone letters -> W, no ZP/ZU lines);
#  - the same text from byte-swapped files, a stream, and our own -d dump
#    (which stays version 8);
#  - analyze: zone operations in their own rows, btt's numbers unchanged.
set -euo pipefail
: "${BIN:?}" "${TOP:?}"
. "$TOP/tests/lib/skip.sh"
need_tools blkparse
source "$TOP/tests/lib/extras.sh"

work=$(mktemp -d /tmp/t-format-v8-zoned.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }

"$BIN/bs-gen-trace" -V -Z -o sdc
mkdir sw v7
(cd sw && "$BIN/bs-gen-trace" -V -Z -S -o sdc)
for f in sdc.blktrace.*; do "$BIN/bs-convert" -V 7 "$f" "v7/$f"; done

"$BIN/blkscope-parse" -i sdc >ours.txt 2>ours.err
[ ! -s ours.err ] || { cat ours.err; fail "parse complained about v8 input"; }

# The zone lines, from the rules of current blkparse: RWBS = [F] then D, or
# ZA/ZR/ZRA/ZF/ZO/ZC, or W/R/N, then F A S M, printed "%3s"; ZP "[name]";
# ZU "[name] N" with N from a PDU the kernel does not send (0 here: none).
# Zone management moves no data: Q/G/I/D print "[name]", C "sector [error]".
cat >expected-zone.txt <<'EOF'
  8,32   0        1     0.000000000   777  Q ZOS [blkzone]
  8,32   0        2     0.000000200   777  G ZOS [blkzone]
  8,32   0        3     0.000000500   777  I ZOS [blkzone]
  8,32   0        4     0.000000600   777  D ZOS [blkzone]
  8,32   1        1     0.000020600     0  C ZOS 524288 [0]
  8,32   0       10     0.000043300  4321 ZP   R [fio]
  8,32   1        3     0.000048300   999 ZU   R [kworker/1:2H] 0
  8,32   1        7     0.000069900   777  Q ZFS [blkzone]
  8,32   0       12     0.000090500     0  C ZFS 524288 [0]
  8,32   0       13     0.000091500  4321  Q  ZA 1048576 + 8 [fio]
  8,32   0       16     0.000092100  4321  D  ZA 1048576 + 8 [fio]
  8,32   1       11     0.000112100     0  C  ZA 1048576 + 8 [0]
  8,32   1       12     0.000113100  4321  Q ZAS 1048576 + 16 [fio]
  8,32   0       17     0.000133700     0  C ZAS 1048576 + 16 [0]
  8,32   0       18     0.000134700   777  Q ZCS [blkzone]
  8,32   1       16     0.000155300     0  C ZCS 1048576 [0]
  8,32   1       17     0.000156300   777  Q ZRS [blkzone]
  8,32   0       22     0.000176900     0  C ZRS 524288 [0]
  8,32   0       27     0.000199500   777  Q ZRAS [blkzone]
  8,32   1       22     0.000220100     0  C ZRAS 0 [0]
  8,32   1       23     0.000221100  4321  Q  WS 2097152 + 2048 [fio]
EOF
missing=$(grep -vxF -f ours.txt expected-zone.txt || true)
[ -z "$missing" ] || { echo "$missing"; fail "parse lacks these zone lines"; }
# 6 zone operations x Q G I D C (append twice), plus one ZP and one ZU
n=$(awk '$6 ~ /^Z[PU]$/ || $7 ~ /^F?Z/' ours.txt | wc -l)
[ "$n" -eq 37 ] || fail "$n zone lines, expected 37"

# everything else equals blkparse's v7 output once the documented
# differences are undone
(cd v7 && blkparse -i sdc) >ref.txt 2>ref.err || true
python3 - ours.txt >undone.txt <<'PY'
import re, sys
ev = re.compile(r'^(\s*\d+,\d+\s+\d+\s+\d+\s+\d+\.\d+\s+\d+) (..) +(\S+) (.*)$')
for line in open(sys.argv[1]):
    m = ev.match(line.rstrip('\n'))
    if m:
        act, rwbs = m.group(2), m.group(3)
        if act in ('ZP', 'ZU'):
            continue
        rwbs = re.sub(r'^(F?)(ZRA|ZA|ZR|ZF|ZO|ZC)', r'\1W', rwbs)
        line = '%s %2s %3s %s\n' % (m.group(1), act, rwbs, m.group(4))
    sys.stdout.write(line)
PY
cmp ref.txt undone.txt || { diff ref.txt undone.txt | head; fail "non-zone output differs from blkparse's v7 output"; }
# blkparse 1.2.0 knows no actions 18/19: exactly the ZP and ZU records
[ "$(sort -u ref.err)" = "$(printf 'Bad fs action 110012\nBad fs action 110013')" ] ||
	{ cat ref.err; fail "unexpected blkparse complaints"; }

# the same text from swapped files, a stream and our own dump (v8 too)
(cd sw && "$BIN/blkscope-parse" -i sdc) >sw.txt
cmp ours.txt sw.txt || fail "byte-swapped v8 prints differently"
cat sdc.blktrace.0 sdc.blktrace.1 | "$BIN/blkscope-parse" -i - >stream.txt
"$BIN/blkscope-parse" -O -d ours.dump -i sdc >/dev/null
head -c 4 ours.dump | od -An -tx1 | grep -q "08 74 61 65" || fail "the dump of v8 input is not v8"
"$BIN/blkscope-parse" -i - <ours.dump >dump.txt
"$BIN/blkscope-parse" -q -i - <ours.dump >dumpq.txt
for f in stream.txt dump.txt; do
	grep -vxF -f "$f" expected-zone.txt >/dev/null && fail "$f lacks zone lines"
done
# a dump of the dump is the same bytes (records kept whole, zone bits included)
"$BIN/blkscope-parse" -O -d again.dump -i - <ours.dump
cmp ours.dump again.dump || fail "v8 dump does not survive a second pass"

# analyze: zone rows; btt's numbers equal the v7 copy's
"$BIN/blkscope-analyze" --no-progress --json a.json sdc >a.txt
for op in zone-append zone-reset zone-reset-all zone-finish zone-open zone-close; do
	grep -Eq "^8,32 +$op +1?[0-9] " a.txt || fail "no $op row in the counters table"
done
grep -Eq "^zone-append +2 " a.txt || fail "no zone-append row (2 IOs) in the operation breakdown"
grep -Eq "^8,32 +zone-append +2 +0 +0 +2 +2$" a.txt || fail "zone-append counters"
grep -Eq "^8,32 +write +3 +0 +0 +3 +3$" a.txt || fail "write counters (write-zeroes is a write)"
extras_validate a.json || fail "JSON with zone operations breaks the schema"
python3 - a.json <<'PY' || fail "JSON zone operations"
import json, sys
d = json.load(open(sys.argv[1]))
ops = {o["op"]: o["ios"] for o in d["operations"]}
assert ops.get("zone-append") == 2, ops
c = d["devices"][0]["counters"]
assert c["queued"]["zone-reset-all"] == 1 and c["completed"]["zone-close"] == 1, c["queued"]
assert "zone-append" not in c["merges"], c["merges"]
PY
"$BIN/blkscope-analyze" --no-progress --btt-only sdc >b8.txt
(cd v7 && "$BIN/blkscope-analyze" --no-progress --btt-only sdc) >b7.txt
cmp b7.txt b8.txt || { diff b7.txt b8.txt | head; fail "btt report of v8 differs from the v7 copy's"; }
grep -q "Q2C" b8.txt || fail "no Q2C row"
echo PASS
