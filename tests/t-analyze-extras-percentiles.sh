#!/usr/bin/env bash
# Percentiles, histograms, breakdowns and time series vs brute force:
# random sample sets (1 to 20000 I/Os, heavy-tailed latencies, missing
# stages, errors, requeues, merges, several devices/ops/processes) go
# through the extras (via the sample harness, no btt engine), and every
# figure of --json is recomputed exactly in Python (tests/extras/brute.py).
# Then a perturbed document must be caught, so the check can fail.
set -euo pipefail
. "$TOP/tests/lib/extras.sh"
extras_need_python
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
h=$(extras_harness "$tmp")
brute="$EXTRAS_DIR/brute.py"

run() {	# name samples harness-args... -- brute-args...
	local name=$1 samples=$2
	shift 2
	local hargs=() bargs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do hargs+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	bargs=("$@")
	"$h" --json "$tmp/$name.json" "${hargs[@]}" "$samples"
	python3 "$brute" "$samples" "$tmp/$name.json" "${bargs[@]}" | tail -1
}

for n in 1 2 7 100 2000 20000; do
	python3 "$brute" --gen "$n" "$n" "$tmp/s$n.txt"
	echo "== $n samples"
	run "auto$n" "$tmp/s$n.txt"
	[ "$n" -gt 2000 ] && continue	# the big set once is enough: brute force is slow in Python
	run "comm$n" "$tmp/s$n.txt" --group-by comm -- --group-by comm
	run "pid$n" "$tmp/s$n.txt" --group-by pid --interval 5ms -- --group-by pid
	run "expl$n" "$tmp/s$n.txt" --group fast=100,101 --group slow=103 -- --group fast=100,101 --group slow=103
done

# counters are 32-bit with carries on wrap: an 8-bit build wraps all the
# time and must give the same document (the 32-bit one matches brute force)
h8=$(extras_harness "$tmp" harness8 -DSK_COUNT_BITS=8)
"$h8" --json "$tmp/c8.json" "$tmp/s20000.txt"
cmp "$tmp/c8.json" "$tmp/auto20000.json"
echo "8-bit counters with carries == 32-bit counters"

# exact small values: below 128 ns every value has its own bucket
printf '%s\n' \
	"8,0 0 4096 1 a read 0 - - - 10 21 0 0 -1" \
	"8,0 8 4096 1 a read 5 - - - 10 127 0 0 -1" \
	"8,0 16 4096 1 a read 7 - - - 10 13 0 0 -1" >"$tmp/exact.txt"
"$h" --json "$tmp/exact.json" "$tmp/exact.txt"
python3 - "$tmp/exact.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
st = d["all"]["stages"]
assert st["D2C"]["p50"] == 11 and st["D2C"]["max"] == 117 and st["D2C"]["min"] == 3, st["D2C"]
assert st["Q2C"]["p50"] == 21 and st["Q2C"]["p90"] == 122, st["Q2C"]
for s in ("Q2G", "G2I", "I2D"):
    assert st[s] == {"observed": False, "n": 0}, (s, st[s])
print("exact small values: ok; Q2G/G2I/I2D not observed")
PY

# the checker must catch a wrong percentile, count and in-flight figure
python3 - "$tmp/auto2000.json" "$tmp/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["devices"][0]["stages"]["Q2C"]["p99"] = int(d["devices"][0]["stages"]["Q2C"]["p99"] * 1.02) + 2
json.dump(d, open(sys.argv[2], "w"))
PY
if python3 "$brute" "$tmp/s2000.txt" "$tmp/bad.json" >"$tmp/bad.out"; then
	echo "FAIL: a p99 2% off was not detected" >&2
	exit 1
fi
grep -q "Q2C: p99" "$tmp/bad.out"
echo "perturbed p99 detected: ok"
