#!/usr/bin/env bash
# The -O -d dump of blkscope parse feeds btt -i and iowatcher -t: both must
# succeed and produce their reports, and btt must print the same report for
# our dump as for blkparse's (generated scenario, a bulk workload and a
# kernel capture).
set -euo pipefail
: "${BIN:?}" "${TOP:?}"
. "$TOP/tests/lib/skip.sh"
need_tools blkparse btt iowatcher

work=$(mktemp -d /tmp/t-parse-btt.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

"$BIN/bs-gen-trace" -o sda,sdb
"$BIN/bs-gen-trace" -n 20000 -o bulk
cp "$TOP/samples/ftrace-loop-none.bin" kernel.bin

check() {	# NAME blkscope-parse-input-args...
	local name=$1; shift
	"$BIN/blkscope-parse" -O -d "$name.ours" "$@" >/dev/null 2>&1
	[ -s "$name.ours" ] || { echo "FAIL: $name: empty dump"; exit 1; }
	mkdir -p "btt-$name" && (cd "btt-$name" && btt -i "../$name.ours" >report.txt 2>err.txt) ||
		{ echo "FAIL: btt -i on the $name dump"; cat "btt-$name/err.txt"; exit 1; }
	grep -q "All Devices" "btt-$name/report.txt" || { echo "FAIL: $name: no btt report"; exit 1; }
	iowatcher -t "$name.ours" -o "$name.svg" >iow.log 2>&1 ||
		{ echo "FAIL: iowatcher -t on the $name dump"; cat iow.log; exit 1; }
	grep -q "<svg" "$name.svg" || { echo "FAIL: $name: iowatcher wrote no SVG"; exit 1; }
	echo "ok: $name"
}

check scenario -i sda -i sdb
check bulk -i bulk
check kernel -i - <kernel.bin

# btt reads our dump exactly as it reads blkparse's
blkparse -O -d bulk.ref -i bulk >/dev/null 2>&1
mkdir -p ref && (cd ref && btt -i ../bulk.ref >report.txt 2>&1)
cmp ref/report.txt btt-bulk/report.txt || { echo "FAIL: btt reports differ"; exit 1; }
echo "PASS"
