#!/usr/bin/env bash
# The Python plugin module: tags/python/tag-by-pid.py (built on
# blkscope_tag.py) gives exactly the C tag-by-pid's assignments on the same
# trace, byte for byte on the pipe and event by event through tag-check.
set -euo pipefail
. "$(dirname "$0")/lib/tags.sh"

tr=$(gen_trace py -n 30000 -p 9 -u 3 -s 7)

# The raw response streams on the same input.
for groups in "" "-g db:1000,1003 -g solo:1008"; do
	# shellcheck disable=SC2086
	"$TAG_BY_PID" $groups <"$tr.blktrace.0" >"$tags_tmp/c.resp"
	# shellcheck disable=SC2086
	"$PY_TAG_BY_PID" $groups <"$tr.blktrace.0" >"$tags_tmp/py.resp"
	[ -s "$tags_tmp/c.resp" ] || fail "C plugin wrote nothing"
	cmp "$tags_tmp/c.resp" "$tags_tmp/py.resp" || fail "response streams differ (groups: '$groups')"

	# shellcheck disable=SC2086
	"$BIN/blkscope-tag-check" -v "$TAG_BY_PID" $groups -- "$tr" >"$tags_tmp/c.out"
	# shellcheck disable=SC2086
	"$BIN/blkscope-tag-check" -v python3 "$PY_TAG_BY_PID" $groups -- "$tr" >"$tags_tmp/py.out"
	grep -q '^OK:' "$tags_tmp/py.out" || fail "python plugin not OK"
	diff -u "$tags_tmp/c.out" "$tags_tmp/py.out" >&2 || fail "assignments differ (groups: '$groups')"
	echo "ok: identical assignments, groups '$groups' ($(grep -c -- '-> tag' "$tags_tmp/c.out") tagged events)"
done

# The module's reader and writer on their own: round-trip every field.
PYTHONPATH="$TOP/tags/python" python3 - "$tr.blktrace.0" <<'PY'
import os, struct, sys
import blkscope_tag as bt
fd = os.open(sys.argv[1], os.O_RDONLY)
evs = list(bt.read_events(fd=fd))
raw = open(sys.argv[1], "rb").read()
assert sum(48 + e.pdu_len for e in evs) == len(raw), "lengths"
first = [e for e in evs if e.is_note and e.basic == bt.BLK_TN_PROCESS][0]
assert first.comm == "sixteen-chars-xx" and first.pid == 1000, first
q = [e for e in evs if not e.is_note and e.basic == bt.BLK_TA_QUEUE][0]
assert q.categories & bt.BLK_TC_QUEUE and q.bytes == 4096, q
r, w = os.pipe()
out = bt.Responder(fd=w)
out.new_tag(3, "héllo"); out.tag_io(3); out.end(); out.flush(); os.close(w)
got = os.read(r, 100)
label = "héllo".encode() + b"\0"
assert got == struct.pack("=III", 1, 3, len(label)) + label + struct.pack("=II", 2, 3) + struct.pack("=I", 0), got
print("ok: module reader/writer")
PY
echo "PASS"
