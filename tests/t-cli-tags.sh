#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The tag table lists every tag the plugin declared, also one that no I/O
# got (0 I/Os), so that "my tag is missing" and "my tag matched nothing"
# are told apart.  The plugin (Python, tags/python/blkscope_tag.py)
# declares "busy" and "ghost" and gives every event to busy.
set -euo pipefail
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
. "$TOP/tests/lib/skip.sh"
need_tools python3
[ -x "$BIN/blkscope-analyze" ] || { echo "FAIL: blkscope-analyze not built in $BIN"; exit 1; }
work=$(mktemp -d /tmp/blkscope-cli.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat >"$work/tag-ghost" <<PY
#!/usr/bin/env python3
import sys
sys.path.insert(0, "$TOP/tags/python")
import blkscope_tag as bt
declared = []
def handle(ev, out):
    if not declared:
        declared.append(1)
        out.new_tag(3, b"busy")
        out.new_tag(9, b"ghost")
    if not ev.is_note:
        out.tag_io(3)
bt.run(handle)
PY
chmod +x "$work/tag-ghost"
"$BIN/blkscope" analyze --tag-plugin "$work/tag-ghost" "$TOP/samples/rec-dd-direct/loop0" >"$work/rep" 2>"$work/err" ||
	{ cat "$work/err"; fail "analyze with the plugin failed"; }
table=$(sed -n '/^=* Tags (plugin/,/^(latencies/p' "$work/rep")
echo "$table" | grep -q "2 tags declared" || fail "declared count: $table"
echo "$table" | grep -qE '^ +3 busy +1[0-9] ' || fail "busy row: $table"
echo "$table" | grep -qE '^ +9 ghost +0 +0 +0 ' || fail "no 0-I/O row for ghost: $table"
echo "ok: a declared tag with no I/O is listed with 0"
echo PASS
