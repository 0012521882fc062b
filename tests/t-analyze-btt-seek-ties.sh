#!/bin/bash
# btt's seek MEDIAN and MODE when many distinct distances tie: btt keeps
# them in an rb-tree and reports the first qualifying median met root-first
# and the modes in post-order, so the answer depends on the tree's shape.
# blkscope rebuilds that shape from the first appearances without btt's
# descent (btt_seek_tree.c); these traces have thousands of distinct
# distances and ties among a few or among hundreds of them (several
# seeds), two median candidates buried in a deep tree, and -a.  The
# report and -X (which lists every mode) must equal btt's byte for byte.
# First the unit test (tests/unit/test_stree.c): the rebuilt tree node for
# node, and its walk-order answers, against btt's rb-tree built with a
# descent per key, for random, sorted and repeated insertion orders.
set -euo pipefail
source "$TOP/tests/lib/analyze.sh"
"$BIN/bs-test-stree"
bt_need_tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# IOs moving forward by chosen distances: MODES distances 6 times each
# (the tie), OTHERS distinct distances 1..5 times, in a random order, so
# that the tied values sit anywhere in a tree of OTHERS + MODES nodes
chosen_seeks() {	# SEED MODES OTHERS
	awk -v seed="$1" -v modes="$2" -v others="$3" 'BEGIN {
		srand(seed); n = 0
		for (i = 0; i < modes + others; i++) {
			do v = int(rand() * 2000000) * 8; while (v in used)
			used[v] = 1
			c = i < modes ? 6 : 1 + int(rand() * 5)
			for (k = 0; k < c; k++)
				d[n++] = v
		}
		for (i = n - 1; i > 0; i--) {	# shuffle
			k = int(rand() * (i + 1)); x = d[i]; d[i] = d[k]; d[k] = x
		}
		t = 1000; p = 0
		for (i = 0; i < n; i++) {
			p += d[i]; b = 4096 * (1 + int(rand() * 2))
			printf "%d 0 8,0 Q R %.0f %d 1\n", t, p, b
			printf "%d 0 8,0 D R %.0f %d 1\n", t + 300, p, b
			p += b / 512; t += 1000
		}
	}'
}

# -o sends the report to a file: the plain run comes last, for BASE.btt.out
check() {
	bt_compare_all "$1" -o @ -X
	bt_compare_all "$1" -a -o @ -X
	bt_compare_all "$1"
}

for seed in 1 2 3; do
	for modes in 2 3 9 200; do
		chosen_seeks "$seed" "$modes" 3000 | bt_mktrace r
		check r
		# btt's -X file lists every mode: the tie must be there
		bt_oracle r r.x -o x -X
		n=$(awk '$1 == "QSK" { print NF - 6 }' x.xvg)
		[ "$n" = "$modes" ] || { echo "FAIL: $n modes in btt's report, wanted $modes" >&2; exit 1; }
	done
done
echo "ok: tied modes"

# two median candidates: after the first seek (from sector 0), distances
# 40 and 16 alternate, so each is exactly half of the seeks; which one
# btt's root-first walk meets first depends on the first distance (below,
# between, above them)
for first in 8 24 4096; do
	awk -v p="$first" 'BEGIN {
		t = 1000
		printf "%d 0 8,0 Q R %d 4096 1\n", t, p
		for (i = 0; i < 500; i++) {
			p += 48; t += 1000
			printf "%d 0 8,0 Q R %d 4096 1\n", t, p
			p -= 16; t += 1000
			printf "%d 0 8,0 Q R %d 4096 1\n", t, p
		}
	}' | bt_mktrace median
	check median
	grep -A4 'Q2Q Seek' median.btt.out | tail -1 | awk '$7 == 0 { exit 1 }' ||
		{ echo "FAIL: the median trace has no median" >&2; exit 1; }
done
echo "ok: median candidates"
