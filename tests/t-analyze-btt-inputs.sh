#!/bin/bash
# Every input form blkparse accepts gives the same btt report: a base name,
# one explicit per-CPU file, -i, a directory (two devices), --input-dir,
# a blkparse -d dump, stdin, zstd-compressed per-CPU files.  The kernel
# traces in samples/ (ftrace blk tracer, single streams) equal btt's.
set -euo pipefail
source "$TOP/tests/lib/analyze.sh"
bt_need_tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
an() { blkscope-analyze --btt-only --no-progress "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir tr
bs-gen-trace -D tr -o sda,sdb >/dev/null
bt_oracle tr/sda sda.btt
an tr/sda >base.out
diff -u sda.btt base.out || fail "base name: report differs from btt"
an tr/sda.blktrace.1 | cmp -s - base.out || fail "explicit per-CPU file differs"
an -i tr/sda | cmp -s - base.out || fail "-i differs"
an --input-dir tr sda | cmp -s - base.out || fail "--input-dir differs"

blkparse -O -d sda.dump -i tr/sda >/dev/null
an sda.dump | cmp -s - base.out || fail "a blkparse -d dump differs"
an - <sda.dump | cmp -s - base.out || fail "stdin differs"

# a directory holds both devices: btt gets them merged through one dump
blkparse -O -d both.dump -D tr -i sda -i sdb >/dev/null
btt -i both.dump >both.btt
an tr >both.out
diff -u both.btt both.out || fail "directory input: report differs from btt"
an tr/sda tr/sdb | cmp -s - both.out || fail "two base names differ from the directory"

if command -v zstd >/dev/null; then
	mkdir z
	for f in tr/sda.blktrace.*; do zstd -q "$f" -o "z/$(basename "$f").zst"; done
	an z/sda | cmp -s - base.out || fail ".zst per-CPU files differ"
fi

for f in "$TOP"/samples/*.bin; do
	b=$(basename "$f" .bin)
	blkparse -O -d "$b.dump" -i - <"$f" >/dev/null
	btt -i "$b.dump" >"$b.btt"
	an "$f" >"$b.out"
	diff -u "$b.btt" "$b.out" || fail "kernel trace $b: report differs from btt"
	btt -i "$b.dump" -A >"$b.btt"
	an -A "$f" >"$b.out"
	diff -u "$b.btt" "$b.out" || fail "kernel trace $b -A: report differs from btt"
done

# bad input: one clear error line, exit status 1
rc=0
an nosuchtrace 2>err >/dev/null || rc=$?
[ "$rc" -eq 1 ] && grep -q nosuchtrace err || fail "a missing input must fail with a message naming it"
echo OK
