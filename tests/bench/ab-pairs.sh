#!/usr/bin/env bash
# ab-pairs.sh N CMD_A... -- CMD_B...: compare two commands (say, two builds of
# blkscope-analyze on the same trace) by N pairs of runs, alternating A B,
# B A, A B ... so that a drift of the machine's speed hits both alike.
# Prints each side's minimum and median wall time, then the median and mean
# of the per-pair ratios B/A and how many pairs B won.  On a shared VM whose
# speed swings by a third between minutes, the paired ratio is the figure
# that still shows a change of a few percent; the medians of two separate
# series do not.  Output of the commands goes to /dev/null.
#
#   tests/bench/ab-pairs.sh 40 build-old/bin/blkscope-analyze --no-progress T \
#       -- build/bin/blkscope-analyze --no-progress T
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 N CMD_A... -- CMD_B..." >&2; exit 2; }
n=$1
shift
a=() b=() side=a
for x in "$@"; do
	if [ "$x" = "--" ] && [ $side = a ]; then
		side=b
	elif [ $side = a ]; then
		a+=("$x")
	else
		b+=("$x")
	fi
done
[ ${#a[@]} -gt 0 ] && [ ${#b[@]} -gt 0 ] || { echo "$0: two commands, split by --" >&2; exit 2; }

times=$(mktemp)
trap 'rm -f "$times"' EXIT
run() {	# LABEL PAIR CMD...: one timed run, "LABEL PAIR SECONDS" appended to $times
	local label=$1 pair=$2
	shift 2
	/usr/bin/time -f "$label $pair %e" -a -o "$times" "$@" >/dev/null 2>&1 ||
		{ echo "$0: $label failed: $*" >&2; exit 1; }
}
for ((i = 1; i <= n; i++)); do
	if ((i % 2)); then
		run A "$i" "${a[@]}"
		run B "$i" "${b[@]}"
	else
		run B "$i" "${b[@]}"
		run A "$i" "${a[@]}"
	fi
done
python3 - "$times" <<'PY'
import statistics, sys
runs = {"A": {}, "B": {}}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 3 and f[0] in runs:
        runs[f[0]][int(f[1])] = float(f[2])
a, b = runs["A"], runs["B"]
pairs = [b[i] / a[i] for i in a if i in b and a[i] > 0]
if not pairs:
    sys.exit("no complete pair (did a command fail to start?)")
print("A: min %.3f s, median %.3f s" % (min(a.values()), statistics.median(a.values())))
print("B: min %.3f s, median %.3f s" % (min(b.values()), statistics.median(b.values())))
print("B/A over %d pairs: median %.3f, mean %.3f; B faster in %d" % (
    len(pairs), statistics.median(pairs), statistics.mean(pairs), sum(r < 1 for r in pairs)))
PY
