#!/usr/bin/env bash
# Cost of the extras (percentiles, breakdowns, time series, JSON/HTML):
#  1. per sample, in isolation: the harness delivers 2M pre-generated
#     samples to the extras sink (best of 5);
#  2. in the analyzer: blkscope analyze on a 10M-event generated trace with
#     and without --json/--html/--group-by (best of 3, user+sys CPU), and
#     the HTML page size for that trace.
set -euo pipefail
. "$TOP/tests/lib/extras.sh"
tmp=$(mktemp -d ${TMPDIR:-/dev/shm}/bench-extras.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$tmp"' EXIT
h=$(extras_harness "$tmp")

best() {	# command... -> best ns/sample printed by the harness
	for _ in 1 2 3 4 5; do "$@" 2>&1 >/dev/null | awk '/ns\/sample/ {print $(NF-1)}'; done | sort -n | head -1
}
echo "per sample (harness, 2M random samples, best of 5):"
echo "  sink only (baseline)          $(best "$h" --bench 2000000) ns"
echo "  extras, no groups             $(best "$h" --bench 2000000 --json /dev/null) ns"
echo "  extras, --group-by comm       $(best "$h" --bench 2000000 --json /dev/null --group-by comm) ns"

cpu() {	# command... -> best user+sys seconds of 3 runs
	for _ in 1 2 3; do
		python3 - "$@" <<'PY'
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f" % (r.ru_utime + r.ru_stime))
PY
	done | sort -n | head -1
}
bs-gen-trace -D "$tmp" -n 10000000 -o big >/dev/null
base=$(cpu blkscope-analyze "$tmp/big")
ext=$(cpu blkscope-analyze --btt-only --json "$tmp/b.json" --html "$tmp/b.html" --group-by comm "$tmp/big")
samples=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trace"]["samples"])' "$tmp/b.json")
echo "analyzer, 10M events ($samples I/O samples), best of 3 CPU seconds:"
echo "  btt report only               ${base} s"
echo "  + --json --html --group-by    ${ext} s"
python3 -c 'import sys; b, e, n = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]);
print("  overhead                      %.1f%%, %.0f ns per sample" % (100 * (e - b) / b, (e - b) * 1e9 / n))' \
	"$base" "$ext" "$samples"
echo "  HTML page                     $(stat -c %s "$tmp/b.html") bytes; JSON $(stat -c %s "$tmp/b.json") bytes"
