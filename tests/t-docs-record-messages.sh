#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The recorder's messages and its man page's DIAGNOSTICS list are the same
# set (tests/lib/record-messages.py: each fprintf in record/*.c and
# cli/record_*.c that starts
# with "blkscope record:" against each line of the list, both reduced to a
# skeleton with the varying parts as placeholders).  The checker must see a
# message that is not documented, and a documented one the code lost.
# exclusive: yes
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/tests/lib/skip.sh"
need_tools python3
python3 "$TOP/tests/lib/record-messages.py" "$TOP"

# the checker can fail: a copy with a message reworded, and one with a list line dropped
work=$(mktemp -d /tmp/t-docs-record-messages.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/a/record" "$work/a/cli" "$work/a/docs/man" "$work/b/record" "$work/b/cli" \
	"$work/b/docs/man"
for c in a b; do
	cp "$TOP"/record/*.c "$work/$c/record/"
	cp "$TOP"/cli/record_*.c "$work/$c/cli/"
done
cp "$TOP/docs/man/blkscope-record.1" "$work/a/docs/man/"
sed 's/not a block device/not a block device at all/' "$TOP/record/rec_devices.c" >"$work/a/record/rec_devices.c"
grep -v '^blkscope record: output file name too long$' "$TOP/docs/man/blkscope-record.1" \
	>"$work/b/docs/man/blkscope-record.1"
for c in a b; do
	if python3 "$TOP/tests/lib/record-messages.py" "$work/$c" >"$work/$c.out"; then
		echo "FAIL: the checker passed a broken copy ($c)"; exit 1
	fi
done
grep -q "not in the man page's DIAGNOSTICS: blkscope record: <>: not a block device at all" "$work/a.out"
grep -q "in the man page but printed nowhere: blkscope record: <dev>: not a block device" "$work/a.out"
grep -q "not in the man page's DIAGNOSTICS: blkscope record: output file name too long" "$work/b.out"
echo OK
