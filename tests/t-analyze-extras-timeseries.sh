#!/usr/bin/env bash
# Streaming time series: the automatic width (start at 1 µs, merge
# buckets pairwise when the count passes 2 x 100) must give exactly what a
# fixed --interval of the final width gives, whatever the trace length;
# the bucket count stays near 100; memory does not grow with the number of
# I/Os (one pass, O(processes + groups + buckets)).
set -euo pipefail
. "$TOP/tests/lib/extras.sh"
extras_need_python
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
h=$(extras_harness "$tmp")

for n in 30 3000 40000; do
	python3 "$EXTRAS_DIR/brute.py" --gen "$n" "$((n + 11))" "$tmp/s.txt"
	"$h" --json "$tmp/auto.json" --group-by comm "$tmp/s.txt"
	w=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["timeseries"]["interval_ns"])' "$tmp/auto.json")
	"$h" --json "$tmp/fixed.json" --group-by comm --interval "${w}ns" "$tmp/s.txt"
	python3 - "$tmp/auto.json" "$tmp/fixed.json" "$n" <<'PY'
import json, sys
a, f, n = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
ta, tf = a["timeseries"], f["timeseries"]
assert ta["automatic"] and not tf["automatic"]
w, nb = ta["interval_ns"], ta["buckets"]
assert w & (w - 1) == 0, "automatic width %d is not a power of two" % w
end = a["trace"]["end_time_ns"]
assert nb == end // w + 1, (nb, end, w)
# about 100 buckets unless the trace is shorter than 100 µs-ish
assert nb <= 150 and (nb > 75 or w == 1024), "automatic bucket count %d (width %d)" % (nb, w)
assert tf["buckets"] >= nb and all(x == 0 for s in tf["series"] for x in s["ios"][nb:]), "fixed has extra data"
for sa, sf in zip(ta["series"], tf["series"]):
    assert sa["name"] == sf["name"]
    for key in ("ios", "bytes", "inflight_ns"):
        assert sa[key] == sf[key][:nb], "%s %s differs between automatic and fixed width" % (sa["name"], key)
    for lat in ("q2c", "d2c"):
        for p in sa[lat]:
            assert sa[lat][p] == sf[lat][p][:nb], "%s %s %s differs" % (sa["name"], lat, p)
assert sum(ta["series"][0]["ios"]) == a["all"]["completed"]
print("%6d I/Os: %3d buckets of %d ns; merged-automatic == fixed-width, exactly" % (n, nb, w))
PY
done

# a too-fine --interval is widened (bounded memory), still exact
python3 "$EXTRAS_DIR/brute.py" --gen 3000 9 "$tmp/w.txt"
"$h" --interval 1us --json "$tmp/w.json" "$tmp/w.txt" 2>"$tmp/w.err"
grep -q "makes more than 20000 buckets" "$tmp/w.err"
python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["timeseries"]; assert t["buckets"] <= 20000 and not t["automatic"], t["buckets"]' "$tmp/w.json"
python3 "$EXTRAS_DIR/brute.py" "$tmp/w.txt" "$tmp/w.json" | tail -1
echo "too-fine interval widened: ok"

# memory: 4x more I/Os must not mean more memory (generated in the harness,
# not stored).  Time-series sketches fill up to the latency range seen per
# bucket, so compare once that has saturated (1M vs 4M).
rss() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}
if [ "${SANITIZE:-}" = 1 ]; then
	echo "memory check not meaningful under ASan (shadow memory, quarantine): run without SANITIZE=1"
	exit 0
fi
small=$(rss "$h" --gen 1000000 --group-by comm --json "$tmp/m1.json" --html "$tmp/m1.html")
big=$(rss "$h" --gen 4000000 --group-by comm --json "$tmp/m2.json" --html "$tmp/m2.html")
echo "max RSS: 1M I/Os ${small} KiB, 4M I/Os ${big} KiB"
if [ "$big" -gt $((small * 13 / 10 + 2048)) ]; then
	echo "FAIL: memory grows with the number of I/Os (${small} -> ${big} KiB)" >&2
	exit 1
fi
